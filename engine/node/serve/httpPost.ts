// One HTTP/1.1 POST over node:net and its one answer, for the forwarding command (forwardHook.ts), which runs once
// per tool call: node:http's client (its parser, agent and message classes) cost a forwarded call ~5 ms more CPU
// than node:net on Node 20 (docs/speed.md, "The forwarded call over node:net"). It speaks only what one request to
// `hookwire serve` needs: `connection: close`, and an answer with a content-length, chunked, or ended by the close.
import { connect } from 'node:net';

/** What became of the request. `unreachable`: no byte of an answer came (the server is down, or hung up). */
export type PostOutcome =
  | { kind: 'answer'; status: number; body: Buffer }
  | { kind: 'unreachable'; message: string }
  | { kind: 'unreadable'; message: string }
  | { kind: 'too-large' };

/** The most an answer's head (status line and headers) may take; node:http's default is 16 KiB. */
const MAX_HEAD_BYTES = 64 * 1024;

/**
 * POSTs `body` to `url` (http:, its path and query) with `headers` and reports the outcome to `done`, once and never
 * synchronously. Returns a function that abandons the request (closes the socket; `done` is not called after it).
 * A header value that node:http would refuse throws the same TypeError, before anything is sent. `maxBodyBytes`
 * bounds the answer's body as received (a chunked body's framing counts).
 */
export function httpPost(url: URL, headers: Record<string, string | number>, body: Buffer, maxBodyBytes: number, done: (o: PostOutcome) => void): () => void {
  let head = `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    // node:http's check (checkInvalidHeaderChar): a value with a line break would be a header of its own.
    if (/[^\t\x20-\x7e\x80-\xff]/.test(String(value))) throw new TypeError(`Invalid character in header content ["${name}"]`);
    head += `${name}: ${value}\r\n`;
  }
  head += 'connection: close\r\n\r\n';
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const socket = connect({ host: hostname, port: Number(url.port || 80) });
  let settled = false;
  const settle = (o: PostOutcome) => {
    if (settled) return;
    settled = true;
    socket.destroy();
    done(o);
  };
  let received = 0;
  let pending: Buffer | null = null; // the bytes before the head's end
  let answer: { status: number; length: number | null; chunked: boolean } | null = null;
  const chunks: Buffer[] = [];
  let size = 0;
  const bodyPart = (c: Buffer) => {
    size += c.length;
    if (size > maxBodyBytes) return settle({ kind: 'too-large' });
    chunks.push(c);
    if (answer!.length !== null && size >= answer!.length) settle({ kind: 'answer', status: answer!.status, body: Buffer.concat(chunks).subarray(0, answer!.length) });
  };
  socket.on('data', (c: Buffer) => {
    received += c.length;
    if (answer) return bodyPart(c);
    let bytes = pending ? Buffer.concat([pending, c]) : c;
    for (;;) {
      const end = bytes.indexOf('\r\n\r\n');
      if (end < 0) {
        if (bytes.length > MAX_HEAD_BYTES) return settle({ kind: 'unreadable', message: `the answer's head is larger than ${MAX_HEAD_BYTES} bytes` });
        pending = bytes;
        return;
      }
      const parsed = parseHead(bytes.toString('latin1', 0, end));
      if (typeof parsed === 'string') return settle({ kind: 'unreadable', message: parsed });
      bytes = bytes.subarray(end + 4);
      // An interim answer (100 Continue and the like) is followed by the real one.
      if (parsed.status >= 100 && parsed.status < 200) continue;
      answer = parsed;
      pending = null;
      if (answer.length === 0) return settle({ kind: 'answer', status: answer.status, body: Buffer.alloc(0) });
      if (bytes.length > 0) bodyPart(bytes);
      return;
    }
  });
  socket.on('end', () => {
    if (!answer) return settle(received === 0 ? { kind: 'unreachable', message: 'socket hang up' } : { kind: 'unreadable', message: 'the connection closed in the middle of the answer' });
    if (answer.length !== null) return settle({ kind: 'unreadable', message: 'the connection closed in the middle of the answer' });
    const whole = Buffer.concat(chunks);
    if (!answer.chunked) return settle({ kind: 'answer', status: answer.status, body: whole });
    const decoded = unchunk(whole);
    settle(decoded === null ? { kind: 'unreadable', message: 'a chunked answer that does not decode' } : { kind: 'answer', status: answer.status, body: decoded });
  });
  socket.on('error', (err) => settle(received === 0 ? { kind: 'unreachable', message: err.message } : { kind: 'unreadable', message: err.message }));
  socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  return () => {
    settled = true;
    socket.destroy();
  };
}

/** The status and body framing of an answer's head, or why it is not HTTP/1.x. */
function parseHead(text: string): { status: number; length: number | null; chunked: boolean } | string {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0]!);
  if (!m) return `not an HTTP/1.1 answer: ${JSON.stringify(lines[0]!.slice(0, 100))}`;
  const status = Number(m[1]);
  let length: number | null = null;
  let chunked = false;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return `a header line that is not "name: value": ${JSON.stringify(line.slice(0, 100))}`;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') {
      if (!/^\d{1,15}$/.test(value) || (length !== null && length !== Number(value))) return `a content-length that is not one number: ${JSON.stringify(value.slice(0, 100))}`;
      length = Number(value);
    } else if (name === 'transfer-encoding') {
      chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
    }
  }
  // No body: 1xx, 204 and 304 (RFC 9112 §6.3); a chunked body's length is its framing's, not a content-length's.
  if (status < 200 || status === 204 || status === 304) return { status, length: 0, chunked: false };
  return chunked ? { status, length: null, chunked } : { status, length, chunked };
}

/** A chunked body's bytes (trailers dropped), or null if it is not whole. */
function unchunk(raw: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) return null;
    const digits = raw.toString('latin1', at, eol).split(';')[0]!.trim();
    if (!/^[0-9a-f]{1,12}$/i.test(digits)) return null;
    const size = parseInt(digits, 16);
    if (size === 0) return Buffer.concat(parts);
    if (eol + 2 + size + 2 > raw.length) return null;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
