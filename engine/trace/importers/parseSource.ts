import { MAX_JSON_DEPTH, tooDeepAt, tooDeepMessage } from '../../model/json.ts';
import { jsonErrorDetail } from '../formatIssues.ts';

/** Levels a foreign document may add around its records (arrays of events, span envelopes). */
const DOCUMENT_WRAPPING = 8;
import { LineSplitter } from '../lineSplitter.ts';
import { DEFAULT_MAX_LINE_CHARS } from '../traceReader.ts';
import { traceProblem, type TraceProblem } from '../traceProblem.ts';
import type { JsonlRecord } from './importClaudeCode.ts';

/**
 * Parses JSON Lines tolerantly [I1]: every line that parses is kept with its line number; each bad line is
 * a problem (`not_json`, `truncated` for an unfinished last line, `line_too_long`) and the rest go on.
 */
export function parseJsonl(text: string, maxLineChars = DEFAULT_MAX_LINE_CHARS): { records: JsonlRecord[]; problems: TraceProblem[] } {
  const records: JsonlRecord[] = [];
  const problems: TraceProblem[] = [];
  const splitter = new LineSplitter(maxLineChars, {
    line(line, lineNo, terminated) {
      if (line.trim() === '') return;
      try {
        const value: unknown = JSON.parse(line);
        const deep = tooDeepAt(value, MAX_JSON_DEPTH + 1);
        if (deep) problems.push(traceProblem('too_deep', lineNo, `${tooDeepMessage('record', deep)}; the line was skipped`));
        else records.push({ line: lineNo, value });
      } catch (err) {
        const code = terminated ? 'not_json' : 'truncated';
        const what = terminated ? 'not valid JSON' : 'the input ends in the middle of this line';
        problems.push(traceProblem(code, lineNo, `${what} (${jsonErrorDetail(err)}); the line was skipped`));
      }
    },
    tooLong(lineNo, length) {
      problems.push(traceProblem('line_too_long', lineNo, `${length} characters, past the limit of ${maxLineChars}; the line was skipped`));
    },
  });
  splitter.push(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  splitter.end();
  return { records, problems };
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
