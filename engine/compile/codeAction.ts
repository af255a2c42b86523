import type { HandlerNode, CodeSpec, MatcherNode } from '../model/pipelineTypes.ts';
import type { JsonPath, Problem } from '../model/problem.ts';
import type { Scope } from '../match/path.ts';
import { DEFAULT_CODE_FUEL, DEFAULT_CODE_MEMORY_MB, safetyNetMs, type Sandbox, type SandboxLimits, type SandboxProgram } from '../sandbox/types.ts';
import { readHandlerResult, readMatcherResult, sandboxInput } from '../sandbox/codeResult.ts';
import type { ActionCompileOptions, CompiledAction } from './types.ts';
import type { ConditionExplain } from '../match/types.ts';

/**
 * Limits for one call of a code node: the handler's `timeout_ms` and `fuel` win over the code's, then the
 * defaults; with no `timeout_ms` the safety net is derived from the fuel, far past it [S7][S13]. The one place
 * limits are read from a pipeline (dispatch, replay and the editor's "Run sample" alike).
 * `codeLimits({})` → `{timeoutMs: 100000, memoryBytes: 33554432, fuel: 1000}`.
 */
export function codeLimits(code: Pick<CodeSpec, 'timeout_ms' | 'fuel' | 'memory_mb'>, handler?: Pick<HandlerNode, 'timeout_ms' | 'fuel'>): SandboxLimits {
  const fuel = handler?.fuel ?? code.fuel ?? DEFAULT_CODE_FUEL;
  return {
    timeoutMs: handler?.timeout_ms ?? code.timeout_ms ?? safetyNetMs(fuel),
    memoryBytes: (code.memory_mb ?? DEFAULT_CODE_MEMORY_MB) * 1024 * 1024,
    fuel,
  };
}

function compileProgram(sandbox: Sandbox | null, code: CodeSpec, role: 'handler' | 'matcher', name: string, at: JsonPath, problems: Problem[], nodeId: string, require: boolean): SandboxProgram | null {
  if (!sandbox) {
    if (require) problems.push({ code: 'no_sandbox', severity: 'error', path: at, message: `"${name}" is code and this engine has no sandbox to run it`, node_id: nodeId });
    return null;
  }
  const compiled = sandbox.compile(code.source, { language: code.language, role, name });
  if (compiled.ok) return compiled.program;
  const where = compiled.error.line !== undefined ? ` (line ${compiled.error.line}${compiled.error.column !== undefined ? `, column ${compiled.error.column}` : ''})` : '';
  const place = compiled.error.line !== undefined ? { at: { line: compiled.error.line, column: compiled.error.column ?? 1 } } : {};
  problems.push({ code: 'code_error', severity: 'error', path: [...at, 'source'], message: `${compiled.error.message}${where}`, node_id: nodeId, ...place });
  return null;
}

/**
 * Whether the wall-clock safety net stopped this code node when the event was recorded [S14]. Replay hands
 * dispatch the trace's event, which carries its recorded decision; a live event never has one (the session
 * drops it). Read structurally: the compile layer does not know the trace format.
 */
function stoppedWhenRecorded(scope: Scope, nodeId: string): boolean {
  const stopped = (scope.event as { recorded?: { wall_clock?: unknown } }).recorded?.wall_clock;
  return Array.isArray(stopped) && stopped.includes(nodeId);
}

/** The timeout a replay reproduces for a node the net stopped when recorded [S14]. */
function recordedTimeout(limits: SandboxLimits): { kind: 'timeout'; message: string } {
  return { kind: 'timeout', message: `the wall-clock safety net (${limits.timeoutMs} ms) stopped this code when the trace was recorded; replay reproduces that outcome instead of timing it again` };
}

/** A code handler [H9]: the user's function runs in the sandbox; its return value is validated. */
export function compileCodeAction(node: HandlerNode, code: CodeSpec, at: JsonPath, problems: Problem[], options: ActionCompileOptions): CompiledAction | null {
  const program = compileProgram(options.sandbox, code, 'handler', node.name, at, problems, node.id, options.requireSandbox);
  const sandbox = options.sandbox;
  if (!program || !sandbox) return null;
  const limits = codeLimits(code, node);
  return {
    rewrites: [],
    run: (scope: Scope) => {
      if (stoppedWhenRecorded(scope, node.id)) return { ok: false, error: recordedTimeout(limits), duration_ms: 0 };
      const called = sandbox.call(program, sandboxInput(scope), limits);
      if (!called.ok) return { ok: false, error: called.error, logs: called.logs, duration_ms: called.duration_ms };
      const read = readHandlerResult(called.value);
      if (!read.ok) return { ok: false, error: read.error, logs: called.logs, duration_ms: called.duration_ms };
      const outcome = called.logs.length ? { ...read.outcome, logs: [...(read.outcome.logs ?? []), ...called.logs] } : read.outcome;
      return { ok: true, outcome, duration_ms: called.duration_ms };
    },
  };
}

/** A code matcher [M8]: passes only when the code returns `true`. */
export type CodePredicate = (scope: Scope) => Extract<ConditionExplain, { kind: 'code' }>;

export function compileCodeMatcher(node: MatcherNode, code: CodeSpec, at: JsonPath, problems: Problem[], sandbox: Sandbox | null, require: boolean): CodePredicate | null {
  const program = compileProgram(sandbox, code, 'matcher', node.label ?? node.id, at, problems, node.id, require);
  if (!program || !sandbox) return null;
  const limits = codeLimits(code);
  return (scope) => {
    if (stoppedWhenRecorded(scope, node.id)) return { kind: 'code', pass: false, logs: [], duration_ms: 0, error: recordedTimeout(limits) };
    const called = sandbox.call(program, sandboxInput(scope), limits);
    if (!called.ok) return { kind: 'code', pass: false, logs: called.logs, duration_ms: called.duration_ms, error: called.error };
    const read = readMatcherResult(called.value);
    if (!read.ok) return { kind: 'code', pass: false, logs: called.logs, duration_ms: called.duration_ms, error: read.error };
    return { kind: 'code', pass: read.pass, logs: called.logs, duration_ms: called.duration_ms };
  };
}
