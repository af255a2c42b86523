import { analyzeDocument } from './analyze.ts';
import { parsePipeline } from '../model/parsePipeline.ts';
import { lintPipeline } from './lint.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { parseJsonText } from '../model/jsonErrorOffset.ts';
import type { Pipeline } from '../model/pipelineTypes.ts';
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
  const r = analyzeDocument(parsePipeline(input), { sandbox: options.sandbox ?? null, requireSandbox: false });
  if (!r.doc) return { ok: false, problems: r.problems };
  return { ok: true, pipeline: r.doc, problems: lintPipeline(r.doc, r.analysis) };
}

/** Like `loadPipeline`, from text: a JSON syntax error is a `not_json` problem with line and column. */
export function parsePipelineText(text: string, options: LoadOptions = {}): LoadResult {
  const parsed = parseJsonText(text);
  return parsed.ok ? loadPipeline(parsed.doc, options) : parsed;
}
