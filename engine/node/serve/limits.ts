// The limits that keep one `hookwire serve` process healthy for weeks [SV3][SV4]: what a trace id may be, how
// many live-stream clients and live sessions it holds, and how long a client may take to send a request.

/** Longest trace id (characters). Ids are names (a UUID is 36), and each one is part of a file name and a URL. */
export const MAX_TRACE_ID_CHARS = 256;

/** Live-stream (SSE) clients at once; one more is refused with 503. Each costs a socket and a write per event. */
export const DEFAULT_MAX_STREAMS = 32;

/**
 * A client must send its request head within this many ms, and the whole request within REQUEST_TIMEOUT_MS;
 * Node checks every CHECK_INTERVAL_MS, so a client trickling its headers or body is closed within 13 s.
 * A request body on loopback (at most the 1 MiB body limit) arrives in milliseconds.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 12_000;
export const CHECK_INTERVAL_MS = 1_000;

/**
 * Why a trace id is refused (400), or null. Empty, `.` and `..` cannot be used in a URL path (clients resolve
 * them away), over-long ids bloat every line and name, and control characters make logs lie.
 */
export function traceIdProblem(id: string): string | null {
  if (id === '') return 'the trace id is empty';
  if (id === '.' || id === '..') return `the trace id "${id}" cannot be used (it names a folder in a URL path)`;
  if (id.length > MAX_TRACE_ID_CHARS) return `the trace id is ${id.length} characters, past the limit of ${MAX_TRACE_ID_CHARS}`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(id)) return 'the trace id has a control character';
  return null;
}
