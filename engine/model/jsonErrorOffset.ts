/**
 * Where a JSON text stops being JSON (RFC 8259). Only used to place a syntax error whose message from
 * `JSON.parse` carries no position (V8's `Unexpected token '}', "…" is not valid JSON`, other engines'
 * wordings): the parse itself is always `JSON.parse`'s. A loop over characters with an explicit stack, so
 * deep nesting or a long string cannot overflow the call stack or make a regex backtrack.
 */

import type { Problem } from './problem.ts';

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX = /^[0-9a-fA-F]$/;
const DIGIT = /^[0-9]$/;

/** A scalar's end (`ok`) or the offset of its first bad character. */
type Scan = { ok: boolean; at: number };

function stringEnd(text: string, start: number): Scan {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return { ok: true, at: i + 1 };
    if (c < 0x20) return { ok: false, at: i };
    if (c !== 0x5c) {
      i++;
      continue;
    }
    const e = text[i + 1];
    if (e === undefined) return { ok: false, at: i + 1 };
    if (e === 'u') {
      for (let k = i + 2; k < i + 6; k++) if (!HEX.test(text[k] ?? '')) return { ok: false, at: Math.min(k, text.length) };
      i += 6;
    } else if (ESCAPES.has(e)) i += 2;
    else return { ok: false, at: i + 1 };
  }
  return { ok: false, at: text.length };
}

function digitsEnd(text: string, i: number): number {
  while (DIGIT.test(text[i] ?? '')) i++;
  return i;
}

function numberEnd(text: string, start: number): Scan {
  let i = start;
  if (text[i] === '-') i++;
  if (text[i] === '0') i++;
  else if (DIGIT.test(text[i] ?? '')) i = digitsEnd(text, i);
  else return { ok: false, at: i };
  if (text[i] === '.') {
    const end = digitsEnd(text, i + 1);
    if (end === i + 1) return { ok: false, at: end };
    i = end;
  }
  if (text[i] === 'e' || text[i] === 'E') {
    i++;
    if (text[i] === '+' || text[i] === '-') i++;
    const end = digitsEnd(text, i);
    if (end === i) return { ok: false, at: end };
    i = end;
  }
  return { ok: true, at: i };
}

function scalarEnd(text: string, i: number): Scan {
  const c = text[i]!;
  if (c === '"') return stringEnd(text, i);
  const word = c === 't' ? 'true' : c === 'f' ? 'false' : c === 'n' ? 'null' : null;
  if (word === null) return numberEnd(text, i);
  for (let k = 0; k < word.length; k++) if (text[i + k] !== word[k]) return { ok: false, at: Math.min(i + k, text.length) };
  return { ok: true, at: i + word.length };
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  return i;
}

/** An object member's key and its colon: the offset of the value, or of the first bad character. */
function keyEnd(text: string, i: number): Scan {
  if (text[i] !== '"') return { ok: false, at: i };
  const key = stringEnd(text, i);
  if (!key.ok) return key;
  const colon = skipSpace(text, key.at);
  return text[colon] === ':' ? { ok: true, at: colon + 1 } : { ok: false, at: colon };
}

/**
 * The offset of the first character at which `text` stops being JSON, `text.length` when it ends too
 * early, or -1 when it is valid JSON.
 * `jsonErrorOffset('{"a": tru}')` → 9 (the `}`); `jsonErrorOffset('[1,')` → 3; `jsonErrorOffset('[]')` → -1.
 */
export function jsonErrorOffset(text: string): number {
  const n = text.length;
  const closers: string[] = [];
  let i = 0;
  let need: 'value' | 'key' | 'after' = 'value';
  for (;;) {
    i = skipSpace(text, i);
    if (need === 'after') {
      const close = closers[closers.length - 1];
      if (close === undefined) return i < n ? i : -1;
      if (i >= n) return n;
      if (text[i] === close) closers.pop();
      else if (text[i] === ',') need = close === '}' ? 'key' : 'value';
      else return i;
      i++;
      continue;
    }
    if (i >= n) return n;
    const c = text[i]!;
    let scan: Scan;
    if (need === 'key') {
      scan = keyEnd(text, i);
      need = 'value';
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i = skipSpace(text, i + 1);
      // An empty container is a whole value; otherwise its first member or element comes next.
      if (text[i] === close) scan = { ok: true, at: i + 1 };
      else {
        closers.push(close);
        need = c === '{' ? 'key' : 'value';
        continue;
      }
      need = 'after';
    } else {
      scan = scalarEnd(text, i);
      need = 'after';
    }
    if (!scan.ok) return scan.at;
    i = scan.at;
  }
}

/** JSON text to a value; a syntax error is the one `not_json` problem, with line and column [V2]. */
export function parseJsonText(text: string): { ok: true; doc: unknown } | { ok: false; problems: Problem[] } {
  try {
    return { ok: true, doc: JSON.parse(text) };
  } catch (e) {
    return { ok: false, problems: [{ code: 'not_json', severity: 'error', path: [], message: jsonErrorMessage(text, e) }] };
  }
}

/**
 * "not valid JSON at line 3, column 7: Unexpected token '}'". The place is V8's "at position N" when the
 * message has it, else where `jsonErrorOffset` finds the text stops being JSON (V8 gives no position for
 * `Unexpected token 'x', "…" is not valid JSON` or an early end; other engines word it their own way).
 */
export function jsonErrorMessage(text: string, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const m = /position (\d+)/.exec(message);
  const pos = m ? Number(m[1]) : jsonErrorOffset(text);
  const reason = message
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '')
    // A raw newline or tab in "Unexpected token '\n'" would break the message's line.
    .replace(/[\u0000-\u001f]/g, (c) => JSON.stringify(c).slice(1, -1));
  if (pos < 0) return `not valid JSON: ${reason}`;
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `not valid JSON at line ${line}, column ${column}: ${reason}`;
}
