import { looksBinary } from './looksBinary.ts';
import { looksLikeHookwireOtlp } from './importers/importHookwireOtlp.ts';

/** The formats Hookwire reads: its own trace v1 and the four importers' sources. */
export type TraceFormat = 'hookwire-trace' | 'claude-code' | 'otel-genai' | 'swe-agent' | 'openhands' | 'hookwire-otlp';

export const TRACE_FORMATS: readonly TraceFormat[] = ['hookwire-trace', 'claude-code', 'otel-genai', 'swe-agent', 'openhands', 'hookwire-otlp'];

/** Names for people, used in messages and the UI. */
export const TRACE_FORMAT_LABELS: Readonly<Record<TraceFormat, string>> = {
  'hookwire-trace': 'Hookwire trace v1 (JSON Lines)',
  'claude-code': 'Claude Code session transcript (JSONL)',
  'otel-genai': 'OpenTelemetry GenAI spans (JSON)',
  'swe-agent': 'SWE-agent trajectory (.traj)',
  openhands: 'OpenHands event stream (JSON)',
  'hookwire-otlp': "Hookwire's OpenTelemetry spans (OTLP/JSON, as a collector's file exporter writes)",
};

export interface FormatDetection {
  format: TraceFormat | null;
  /** What decided: the content, only the file name (content unclear), or nothing. */
  by: 'content' | 'file_name' | null;
  /** Why, in words: shown when the format is not recognised. */
  reason: string;
}

/** How much of the input detection looks at; callers may pass more, the rest is ignored. */
export const DETECT_SAMPLE_CHARS = 64 * 1024;

const CLAUDE_TYPE = /"type"\s*:\s*"(user|assistant|system|progress|summary|file-history-snapshot|queue-operation|attachment)"/;
const CLAUDE_IDS = /"(sessionId|uuid|messageId|leafUuid|parentUuid)"\s*:/;
const OPENHANDS_SOURCE = /"source"\s*:\s*"(user|agent|environment)"/;
const OPENHANDS_KIND = /"(action|observation)"\s*:\s*"/;
const FIRST_KEY = /^\{\s*"([^"\\]{1,100})"\s*:/;

/**
 * Recognises a trace format by content [I1]: the first bytes (about 64 KB is plenty) and, only when the
 * content is unclear, the file name. Never parses the whole input.
 *
 * @example detectTraceFormat('{"format":"hookwire.trace","version":1,…}\n').format === 'hookwire-trace'
 */
export function detectTraceFormat(firstBytes: string, fileName?: string): FormatDetection {
  let s = firstBytes.length > DETECT_SAMPLE_CHARS ? firstBytes.slice(0, DETECT_SAMPLE_CHARS) : firstBytes;
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  s = s.trimStart();
  if (s === '') return byName(fileName, 'the input is empty');
  if (looksBinary(s)) return { format: null, by: null, reason: 'this is binary data, not a trace (a NUL byte or many control characters in the first bytes)' };
  const found = s[0] === '{' ? detectObject(s) : s[0] === '[' ? detectArray(s) : null;
  if (found) return { format: found, by: 'content', reason: `recognised as ${TRACE_FORMAT_LABELS[found]} by its content` };
  return byName(fileName, `the content is not one of: ${TRACE_FORMATS.map((f) => TRACE_FORMAT_LABELS[f]).join(', ')}`);
}

function detectObject(s: string): TraceFormat | null {
  const nl = s.indexOf('\n');
  const firstLine = nl === -1 ? s : s.slice(0, nl);
  const firstKey = FIRST_KEY.exec(s)?.[1];
  if (/"format"\s*:\s*"hookwire\.trace"/.test(firstLine)) return 'hookwire-trace';
  if (looksLikeHookwireOtlp(s)) return 'hookwire-otlp';
  // JSON Lines: the first line is a whole record; a pretty-printed document's first line is just "{".
  if (CLAUDE_TYPE.test(firstLine) && CLAUDE_IDS.test(firstLine)) return 'claude-code';
  if (firstKey === 'spans' || (/"spans"\s*:\s*\[/.test(s) && /"(gen_ai\.|start_time)/.test(s))) return 'otel-genai';
  if (/"trajectory"\s*:\s*\[/.test(s)) {
    // OpenHands exports may wrap the event list as {"trajectory": [...]}; its events carry a `source`.
    if (OPENHANDS_SOURCE.test(s) && OPENHANDS_KIND.test(s) && !/"(history|environment)"\s*:/.test(s)) return 'openhands';
    if (/"(action|observation|response|thought)"\s*:/.test(s) || /"(history|environment|info)"\s*:/.test(s)) return 'swe-agent';
  }
  if (firstKey && ['environment', 'history', 'replay_config'].includes(firstKey) && /"(trajectory|history)"\s*:\s*\[/.test(s)) return 'swe-agent';
  return null;
}

function detectArray(s: string): TraceFormat | null {
  if (OPENHANDS_SOURCE.test(s) && OPENHANDS_KIND.test(s)) return 'openhands';
  if (/"context"\s*:\s*\{/.test(s) && /"(start_time|gen_ai\.)/.test(s)) return 'otel-genai';
  return null;
}

function byName(fileName: string | undefined, why: string): FormatDetection {
  const name = (fileName ?? '').toLowerCase();
  let format: TraceFormat | null = null;
  if (/\.hwtrace(\.jsonl)?$|\.trace\.jsonl$/.test(name)) format = 'hookwire-trace';
  else if (name.endsWith('.traj')) format = 'swe-agent';
  else if (/_trace\.json$|\.otel\.json$/.test(name)) format = 'otel-genai';
  if (format) return { format, by: 'file_name', reason: `${why}; guessed ${TRACE_FORMAT_LABELS[format]} from the file name` };
  return { format: null, by: null, reason: why };
}
