// Loading and compiling a pipeline document once [V5]. The work is compileParsed's (compileParsed.ts); this
// file adds the structural parse in front, so that callers holding raw JSON have one call.
import { parsePipeline } from '../model/parsePipeline.ts';
import { compileParsed, type CompileEnv, type CompileResult } from './compileParsed.ts';

export { compileParsed } from './compileParsed.ts';
export type { CompiledHandler, CompiledPath, CompiledPipeline, CompileEnv, CompileResult, PlanStep, TypePlan } from './compileParsed.ts';

/**
 * Loads and compiles a pipeline once [V5]: validation as `loadPipeline` (code compiled in the sandbox),
 * then matchers, actions, execution order and lazily built per-type plans with value indexes.
 * `const r = compilePipeline(json, { sandbox }); if (r.ok) dispatch(r.compiled, event, initialState(), env)`.
 */
export function compilePipeline(input: unknown, env: CompileEnv = {}): CompileResult {
  return compileParsed(parsePipeline(input), env);
}
