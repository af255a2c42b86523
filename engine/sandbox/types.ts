import type { Decision } from '../model/decision.ts';
import type { HookEvent } from '../model/event.ts';
import type { JsonObject, JsonValue } from '../model/json.ts';

/**
 * The sandbox that runs user code (code handlers and code matchers). The engine depends only on this
 * interface; `quickjsSandbox.ts` implements it with QuickJS for both the browser and Node. Calls are
 * synchronous, so dispatch stays a plain function. See SPEC.md [S1]-[S11].
 */
export interface Sandbox {
  /**
   * Compiles source once, when the pipeline loads (TypeScript is stripped to JavaScript first). The module's
   * top level runs once here, so a missing default export or an import is a compile error [S1].
   */
  compile(source: string, options: CompileOptions): CompileResult;
  /**
   * Runs a compiled program on one input (`sandboxInput(ctx)` of codeResult.ts). Never throws for anything
   * the user's code does. Determinism comes from the input alone [S6]: `input.now` is what `Date.now()`
   * returns inside, and `Math.random` is seeded from `input.event.event_id`.
   */
  call(program: SandboxProgram, input: JsonObject, limits: SandboxLimits): SandboxCallResult;
  /** Forgets a program (a pipeline was reloaded, an editor buffer changed). Calling it afterwards fails with `host`. */
  release(program: SandboxProgram): void;
  /** Frees the runtime. Every later compile or call fails with `host`. */
  dispose(): void;
}

export interface CompileOptions {
  language: 'js' | 'ts';
  /** A handler returns a result object; a matcher returns a boolean. */
  role: 'handler' | 'matcher';
  /** Used in error messages: the node id. */
  name: string;
  /** Limits for running the module's top level once at compile time; default: the sandbox's (COMPILE_FUEL and its net, 32 MB). */
  limits?: SandboxLimits;
}

/** Opaque handle to compiled code, owned by the sandbox that made it. */
export interface SandboxProgram {
  readonly id: number;
  readonly role: 'handler' | 'matcher';
  readonly name: string;
}

export type CompileResult = { ok: true; program: SandboxProgram } | { ok: false; error: CodeError };

export interface SandboxLimits {
  /** The wall-clock safety net [S7][S13]: far past what the fuel allows (`safetyNetMs`); when it fires the error is `timeout`. */
  timeoutMs: number;
  memoryBytes: number;
  /** The work limit that decides [S13], in fuel units (one QuickJS interrupt poll each); default DEFAULT_CODE_FUEL. */
  fuel?: number;
}

export type CodeErrorKind =
  | 'syntax' // does not compile (line/column in the user's source)
  | 'thrown' // the code threw
  | 'fuel' // ran out of fuel: the work limit [S13], the same on every machine and under any load
  | 'timeout' // stopped by the wall-clock safety net [S13] (depends on the machine: recorded, not re-timed)
  | 'memory' // out of memory
  | 'stack' // too much recursion
  | 'invalid_result' // returned something that is not a valid result
  | 'too_large' // returned a payload past the size limit
  | 'host'; // the sandbox itself failed; it was replaced

export interface CodeError {
  kind: CodeErrorKind;
  message: string;
  /** 1-based line and column in the user's source, when known. */
  line?: number;
  column?: number;
}

export type SandboxCallResult =
  | { ok: true; value: JsonValue | undefined; logs: string[]; duration_ms: number }
  | { ok: false; error: CodeError; logs: string[]; duration_ms: number };

/**
 * Fuel of one call [S13]: one unit is one QuickJS interrupt poll (about 5,000 loop iterations or 10,000
 * function calls), or 10,000 units of built-in work (characters or elements handled by a string, array, JSON
 * or Object built-in). What 1000 units cost depends on the code: 0.1-0.85 s of CPU on the shared 2-core
 * development machine (docs/code-limits.md).
 */
export const DEFAULT_CODE_FUEL = 1000;
/**
 * Milliseconds of wall-clock safety net per unit of fuel when a code node sets no `timeout_ms` [S7][S13]. The
 * slowest measured: a hashing loop that spends the default fuel (and is run twice by the countdown rule) took
 * 7.8 s of wall time on the shared 2-core machine at load average ~30, 7.8 ms a unit; 100 ms a unit is more
 * than ten times that, so the fuel runs out long before the net fires (docs/code-limits.md).
 */
export const NET_MS_PER_FUEL = 100;
/** The least net a call gets, for the work of a call that is not counted in fuel (its input and result) [S7]. */
export const MIN_CODE_TIMEOUT_MS = 5000;
/** The most a net derived from the fuel gives (one hour); a node may set its own `timeout_ms` [S7]. */
export const MAX_DERIVED_TIMEOUT_MS = 3_600_000;

/**
 * The wall-clock safety net of a call with `fuel` and no `timeout_ms` of its own [S7][S13]: `fuel ×
 * NET_MS_PER_FUEL`, at least 5 s and at most an hour. `safetyNetMs(1000)` → 100000 (the default fuel's net).
 */
export function safetyNetMs(fuel: number): number {
  return Math.min(MAX_DERIVED_TIMEOUT_MS, Math.max(MIN_CODE_TIMEOUT_MS, Math.ceil(fuel * NET_MS_PER_FUEL)));
}
/** The wall-clock safety net of a call with the default fuel and no `timeout_ms`: 100 s [S7]. */
export const DEFAULT_CODE_TIMEOUT_MS = safetyNetMs(DEFAULT_CODE_FUEL);
/** Built-in work (characters or elements) per unit of fuel [S13]. */
export const BUILTIN_WORK_PER_FUEL = 10_000;
export const DEFAULT_CODE_MEMORY_MB = 32;

/** What a handler sees: the event, the payload as rewritten by earlier handlers, the trace state, the time. */
export interface HandlerContext {
  readonly event: HookEvent;
  readonly payload: JsonObject;
  readonly state: JsonObject;
  /** Milliseconds since the epoch, from the injected clock. */
  readonly now: number;
}

/** A handler's result: the seed's `{decision, reason, new_payload}` plus a state patch and log lines. */
export interface HandlerOutcome {
  decision: Decision;
  reason?: string;
  /** Text for the model (add_context, or a code handler's `context`) [H11]. */
  context?: string;
  new_payload?: JsonObject;
  /** Top-level state keys to set; a `null` value removes the key. */
  state_patch?: JsonObject;
  logs?: string[];
  /** Records for the audit sink (audit handlers). */
  audit?: JsonObject;
}
