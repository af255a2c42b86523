import { analyzeDocument } from './analyze.ts';
import { lintPipeline } from './lint.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { jsonErrorOffset } from '../model/jsonErrorOffset.ts';
import type { Pipeline } from '../model/pipelineSchema.ts';
import type { Problem } from '../model/problem.ts';

/** A loaded pipeline with its warnings, or every problem that stops it [V2]. */
export type LoadResult = { ok: true; pipeline: Pipeline; problems: Problem[] } | { ok: false; problems: Problem[] };

export interface LoadOptions {
  /** When given, code nodes are compiled too and their syntax errors reported. */
  sandbox?: Sandbox;
}

/**
 * Validates a pipeline document (already parsed JSON): format, version and migration, schema, graph,
 * conditions, regexes, templates, code when a sandbox is given; then lint warnings.
 * `loadPipeline(JSON.parse(text))` → `{ ok: true, pipeline, problems: [/* warnings *\/] }`.
 */
export function loadPipeline(input: unknown, options: LoadOptions = {}): LoadResult {
  const r = analyzeDocument(input, { sandbox: options.sandbox ?? null, requireSandbox: false });
  if (!r.doc) return { ok: false, problems: r.problems };
  return { ok: true, pipeline: r.doc, problems: lintPipeline(r.doc, r.analysis) };
}

/** Like `loadPipeline`, from text: a JSON syntax error is a `not_json` problem with line and column. */
export function parsePipelineText(text: string, options: LoadOptions = {}): LoadResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [{ code: 'not_json', severity: 'error', path: [], message: jsonErrorMessage(text, e) }] };
  }
  return loadPipeline(json, options);
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
