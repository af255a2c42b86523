import type { Scope } from '../match/path.ts';
import type { HandlerOutcome, Sandbox } from '../sandbox/types.ts';

// What the compile layer hands to dispatch for each handler's action.

/** What running a handler's action gives: an outcome, or a failure that the error policy handles [E1]. */
export type ActionResult =
  | { ok: true; outcome: HandlerOutcome; duration_ms?: number }
  | { ok: false; error: { kind: string; message: string; line?: number; column?: number }; logs?: string[]; duration_ms?: number };

export type ActionRun = (scope: Scope) => ActionResult;

/** Which fields of the payload a handler rewrites (for the conflicting-rewrites lint). */
export interface CompiledAction {
  run: ActionRun;
  rewrites: string[];
}

export interface ActionCompileOptions {
  /** The sandbox for code handlers; `null` means "validate without compiling code". */
  sandbox: Sandbox | null;
  /** When true, a code handler without a sandbox is a `no_sandbox` problem. */
  requireSandbox: boolean;
}
