import { MAX_JSON_DEPTH, tooDeepAt, tooDeepMessage } from '../../model/json.ts';
import { jsonErrorDetail } from '../formatIssues.ts';

/** Levels a foreign document may add around its records (arrays of events, span envelopes). */
const DOCUMENT_WRAPPING = 8;
import { LineSplitter } from '../lineSplitter.ts';
import { traceProblem, type TraceProblem } from '../traceProblem.ts';
import type { JsonlRecord } from './importClaudeCode.ts';

/**
 * A line splitter that parses JSON Lines tolerantly [I1]: every line that parses is handed on with its
 * line number; each bad line is a problem (`not_json`, `truncated` for an unfinished last line,
 * `line_too_long`, `too_deep` past MAX_JSON_DEPTH plus `wrapping` levels [V9]) and the rest go on.
 * `prepare` may rewrite a line before parsing (quoteOtelIds). The one JSON Lines parser of the importers.
 */
export function jsonlSplitter(
  maxLineChars: number, problems: TraceProblem[], onRecord: (r: JsonlRecord) => void,
  options: { prepare?: (line: string) => string; wrapping?: number; maxProblems?: number } = {},
): LineSplitter {
  const max = options.maxProblems ?? 1000;
  const report = (p: TraceProblem) => {
    if (problems.length < max) problems.push(p);
  };
  return new LineSplitter(maxLineChars, {
    line(line, lineNo, terminated) {
      if (lineNo === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(options.prepare ? options.prepare(line) : line);
      } catch (err) {
        const code = terminated ? 'not_json' : 'truncated';
        const what = terminated ? 'not valid JSON' : 'the input ends in the middle of this line';
        report(traceProblem(code, lineNo, `${what} (${jsonErrorDetail(err)}); the line was skipped`));
        return;
      }
      const deep = tooDeepAt(value, MAX_JSON_DEPTH + 1 + (options.wrapping ?? 0));
      if (deep) report(traceProblem('too_deep', lineNo, `${tooDeepMessage('record', deep)}; the line was skipped`));
      else onRecord({ line: lineNo, value });
    },
    tooLong(lineNo, length) {
      report(traceProblem('line_too_long', lineNo, `${length} characters, past the limit of ${maxLineChars}; the line was skipped`));
    },
  });
}

/** Levels an OTLP export wraps around a span's attribute values (resourceSpans → … → kvlistValue). */
export const OTLP_WRAPPING = 2 * DOCUMENT_WRAPPING;

/** The depth check of a JSON value cut from a stream (a span, an export request) [V9]. */
export function tooDeepValue(value: unknown, line: number): TraceProblem | null {
  const deep = tooDeepAt(value, MAX_JSON_DEPTH + OTLP_WRAPPING);
  return deep ? traceProblem('too_deep', line, `${tooDeepMessage('value', deep, MAX_JSON_DEPTH + OTLP_WRAPPING)}; it was skipped`) : null;
}

/** tooDeepValue for one part of a span stream's value streamed part by part, `levels` down in it [V9]. */
export function tooDeepOtlpPart(value: unknown, line: number, levels: number, what: string): TraceProblem | null {
  const limit = MAX_JSON_DEPTH + OTLP_WRAPPING - levels;
  const deep = tooDeepAt(value, limit);
  return deep ? traceProblem('too_deep', line, `${tooDeepMessage(what, deep, limit)}; it was skipped`) : null;
}

/**
 * The depth check of one part of a document streamed part by part — an element of a top-level array, a member
 * of a top-level object (`levels` 1), an element of an array under a key (2) — against the depth the whole
 * document has [V9].
 */
export function tooDeepElement(value: unknown, line: number, levels = 1, what = 'record'): TraceProblem | null {
  const limit = MAX_JSON_DEPTH + DOCUMENT_WRAPPING - levels;
  const deep = tooDeepAt(value, limit);
  return deep ? traceProblem('too_deep', line, `${tooDeepMessage(what, deep, limit)}; it was skipped`) : null;
}

/** Parses one JSON document; a syntax error becomes a problem with its line and column when V8 gives a position. */
export function parseJsonDocument(text: string): { ok: true; value: unknown } | { ok: false; problem: TraceProblem } {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    const detail = jsonErrorDetail(err);
    const at = errorPosition(err instanceof Error ? err.message : '', text);
    let line = 0;
    let where = '';
    if (at !== null) {
      line = 1;
      let lastNl = -1;
      for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
        line++;
        lastNl = i;
      }
      where = ` at column ${at - lastNl}`;
    }
    const truncated = /end of JSON input|Unterminated/.test(detail) || (at !== null && at >= text.trimEnd().length);
    const code = truncated ? 'truncated' : 'not_json';
    const why = truncated ? 'the document ends too early (a truncated file?)' : 'not valid JSON';
    return { ok: false, problem: traceProblem(code, line, `${why}${where} (${detail})`, 'error', true) };
  }
  // A document wraps its records a few levels deep; past that, its importer's walks could overflow [V9].
  const deep = tooDeepAt(value, MAX_JSON_DEPTH + DOCUMENT_WRAPPING);
  if (deep) return { ok: false, problem: traceProblem('too_deep', 0, tooDeepMessage('document', deep, MAX_JSON_DEPTH + DOCUMENT_WRAPPING), 'error', true) };
  return { ok: true, value };
}

/**
 * Where JSON.parse stopped. V8 says "at position N" for most errors; for an unexpected token Node 20's V8
 * quotes the input around it instead (`Unexpected token 'i', ..."  "kind": internal,"... is not valid JSON`,
 * ten characters of context before the token), so the quote is found in the text.
 */
function errorPosition(message: string, text: string): number | null {
  const pos = /at position (\d+)/.exec(message) ?? /\(line \d+ column \d+\)/.exec(message);
  if (pos && pos[1] !== undefined) return Number(pos[1]);
  const m = /^Unexpected token '([\s\S])', (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/.exec(message);
  if (!m) return null;
  const token = m[1] as string;
  const lead = m[2] !== undefined;
  const body = m[3] as string;
  const idx = text.indexOf(body);
  if (idx === -1) return null;
  return lead ? idx + 10 : idx + Math.max(0, body.indexOf(token));
}

/**
 * OpenTelemetry ids are 64- and 128-bit integers that the Python SDK writes as JSON numbers, past what a
 * double holds exactly. Before parsing, quote long integers after `"trace_id"` / `"span_id"` so they stay
 * exact (the importer turns them into the usual hex). Linear: one pass of a simple regex.
 */
export function quoteOtelIds(text: string): string {
  return text.replace(/("(?:trace_id|span_id|parent_id)"\s*:\s*)(\d{16,})(?=\s*[,}\]])/g, '$1"$2"');
}

/**
 * quoteOtelIds for the text of one member of an object read member by member (its key apart from its text), so
 * that a member read so parses as it would in the whole document.
 */
export function quoteOtelIdMember(text: string, key: string): string {
  return /^(?:trace_id|span_id|parent_id)$/.test(key) && /^\s*\d{16,}\s*$/.test(text) ? `"${text.trim()}"` : quoteOtelIds(text);
}
