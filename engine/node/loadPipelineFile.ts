// Reading a pipeline file for the CLI and the Node runtime helpers: text → JSON → compiled pipeline, with a
// QuickJS sandbox only when the pipeline has code (loading QuickJS costs time every CLI run otherwise).
import { compileParsed, type CompiledPipeline } from '../compile/compileParsed.ts';
import { hasCode } from '../model/codeNodes.ts';
import { parseJsonText } from '../model/jsonErrorOffset.ts';
import type { ParseResult } from '../model/parsePipeline.ts';
import type { Pipeline } from '../model/pipelineTypes.ts';
import type { Problem } from '../model/problem.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { formatProblems, nodeLabels } from '../runtime/formatProblems.ts';
import { CliError, readTextFile } from './cliIo.ts';
import { cachedEntry, pipelineCache, rememberParse, type CacheEntry } from './pipelineCache.ts';
import { acceptRegexes, noteAcceptedRegexes } from '../match/regex.ts';
import { pipelineVersionOf } from '../trace/pipelineVersion.ts';

export interface LoadedPipeline {
  compiled: CompiledPipeline;
  pipeline: Pipeline;
  warnings: Problem[];
  /** The version recordings name for this file: `sha256:<16 hex>` of its text [R17]. */
  readonly version: string;
  /** Frees the sandbox, if one was made. */
  dispose(): void;
}

/** A Node QuickJS sandbox when the document needs one, else null. */
export async function sandboxFor(doc: unknown): Promise<Sandbox | null> {
  // Imported on demand: QuickJS and the TypeScript transpiler are most of what `claude-hook` would load.
  return hasCode(doc) ? (await import('./loadQuickJS.ts')).createNodeSandbox() : null;
}

/**
 * Reads and compiles a pipeline file for a command that runs it. Anything that stops it (unreadable file, not
 * JSON, not a pipeline, any error) is a CliError (exit 2) listing every problem.
 */
export async function compilePipelineFile(path: string): Promise<LoadedPipeline> {
  return compilePipelineText(await readTextFile(path, 'pipeline'), path);
}

/**
 * Compiles pipeline text read from `path` (named in the errors); a refused pipeline is a CliError with every
 * problem. `hit`: the pipeline cache's entry for this text, when the caller has looked it up already.
 */
export async function compilePipelineText(text: string, path: string, hit: CacheEntry | null = cachedEntry(text, pipelineCache())): Promise<LoadedPipeline> {
  const cache = pipelineCache();
  if (hit) acceptRegexes(hit.regexes);
  const { structural, json } = hit ? { structural: { doc: hit.doc, problems: [] }, json: hit.doc } : await parseStructure(text, path);
  const sandbox = await sandboxFor(json);
  const { value: r, accepted } = noteAcceptedRegexes(() => compileParsed(structural, { sandbox }));
  if (!r.ok) {
    sandbox?.dispose();
    throw refused(path, r.problems, json);
  }
  // Remembered once it compiled, with the patterns RE2 accepted: the next call skips both checks.
  if (!hit) rememberParse(text, structural, cache, accepted);
  // The version is the text's SHA-256 [R17], computed when first read: a hook call that records nothing (most) and
  // runs the portable hash (the hook entry does not load node:crypto) would spend ~5% of its CPU on it.
  let version: string | undefined;
  return {
    compiled: r.compiled,
    pipeline: r.pipeline,
    warnings: r.problems,
    get version() {
      return (version ??= pipelineVersionOf(text));
    },
    dispose: () => sandbox?.dispose(),
  };
}

/** The structural parse of pipeline text by `parsePipeline` (with the schema library, loaded only then). */
async function parseStructure(text: string, path: string): Promise<{ structural: ParseResult; json: unknown }> {
  const json = parseJsonText(text);
  if (!json.ok) throw refused(path, json.problems);
  const structural = (await import('../model/parsePipeline.ts')).parsePipeline(json.doc);
  return { structural, json: json.doc };
}

function refused(path: string, problems: Problem[], doc?: unknown): CliError {
  const errors = problems.filter((p) => p.severity === 'error').length;
  return new CliError(`pipeline ${path} is refused (${errors} error${errors === 1 ? '' : 's'}):\n${formatProblems(problems, doc === undefined ? undefined : nodeLabels(doc))}`);
}
