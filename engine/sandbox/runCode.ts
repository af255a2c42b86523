import type { JsonObject } from '../model/json.ts';
import { readHandlerResult, readMatcherResult } from './codeResult.ts';
import { DEFAULT_CODE_FUEL, DEFAULT_CODE_MEMORY_MB, DEFAULT_CODE_TIMEOUT_MS, type CodeError, type HandlerOutcome, type Sandbox, type SandboxCallResult, type SandboxLimits } from './types.ts';

/**
 * One piece of code run once on one input, from source to validated result: what the editor's "try it"
 * shows, and what the shared sandbox cases compare between Node and the browser. Dispatch does the same
 * steps with programs compiled at load time (engine/compile/codeAction.ts).
 */

export interface CodeSpec {
  source: string;
  language: 'js' | 'ts';
  role: 'handler' | 'matcher';
  /** For messages: the node id or name. */
  name?: string;
}

/** Where a run stopped: compiling, calling, or reading the result. */
export type CodeStage = 'compile' | 'call' | 'result';

export type CodeRunReport =
  | { ok: true; role: 'handler'; outcome: HandlerOutcome; logs: string[]; duration_ms: number }
  | { ok: true; role: 'matcher'; pass: boolean; logs: string[]; duration_ms: number }
  | { ok: false; stage: CodeStage; error: CodeError; logs: string[]; duration_ms: number };

/** The default limits of a code node [S7]: the default fuel and the net derived from it. */
export const DEFAULT_CODE_LIMITS: SandboxLimits = { timeoutMs: DEFAULT_CODE_TIMEOUT_MS, memoryBytes: DEFAULT_CODE_MEMORY_MB * 1024 * 1024, fuel: DEFAULT_CODE_FUEL };

/**
 * Compiles, runs and validates `spec` on `input` (a `sandboxInput`), then releases the program.
 * `runCode(sb, { source: 'export default () => block("no")', language: 'js', role: 'handler' }, input)` →
 * `{ ok: true, role: 'handler', outcome: { decision: 'block_action', reason: 'no' }, logs: [], … }`.
 */
export function runCode(sandbox: Sandbox, spec: CodeSpec, input: JsonObject, limits: SandboxLimits = DEFAULT_CODE_LIMITS): CodeRunReport {
  return runCodeOn(sandbox, spec, [input], limits)[0]!;
}

/**
 * Like `runCode`, compiling once and calling once per input, in order: a report per input (a single
 * report when compiling fails). Used to show that repeated calls agree [S6]. `limits` bound the module's
 * top level at compile time as well as each call.
 */
export function runCodeOn(sandbox: Sandbox, spec: CodeSpec, inputs: readonly JsonObject[], limits: SandboxLimits = DEFAULT_CODE_LIMITS): CodeRunReport[] {
  // The node's limits bound its top level too.
  const compiled = sandbox.compile(spec.source, { language: spec.language, role: spec.role, name: spec.name ?? 'code', limits });
  if (!compiled.ok) return [{ ok: false, stage: 'compile', error: compiled.error, logs: [], duration_ms: 0 }];
  try {
    return inputs.map((input) => readCall(sandbox.call(compiled.program, input, limits), spec.role));
  } finally {
    sandbox.release(compiled.program);
  }
}

function readCall(called: SandboxCallResult, role: CodeSpec['role']): CodeRunReport {
  const { logs, duration_ms } = called;
  if (!called.ok) return { ok: false, stage: 'call', error: called.error, logs, duration_ms };
  if (role === 'matcher') {
    const read = readMatcherResult(called.value);
    return read.ok ? { ok: true, role: 'matcher', pass: read.pass, logs, duration_ms } : { ok: false, stage: 'result', error: read.error, logs, duration_ms };
  }
  const read = readHandlerResult(called.value);
  return read.ok ? { ok: true, role: 'handler', outcome: read.outcome, logs, duration_ms } : { ok: false, stage: 'result', error: read.error, logs, duration_ms };
}
