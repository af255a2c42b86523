import { analyzeDocument } from '../dispatch/analyze.ts';
import { lintPipeline } from '../dispatch/lint.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { Pipeline } from './pipelineSchema.ts';
import type { Problem } from './problem.ts';

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

/** "line 3, column 7: Unexpected token }" from V8's "at position N" messages. */
export function jsonErrorMessage(text: string, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const m = /position (\d+)/.exec(message);
  if (!m) return `not valid JSON: ${message}`;
  const pos = Number(m[1]);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `not valid JSON at line ${line}, column ${column}: ${message.replace(/ in JSON at position \d+.*$/, '')}`;
}
