import type { Scope } from '../match/path.ts';
import type { HandlerOutcome, Sandbox } from '../sandbox/types.ts';
import type { JsonObject } from '../model/json.ts';
import type { CompiledFlowRule } from './flowRule.ts';

// What the compile layer hands to dispatch for each handler's action.

/** What running a handler's action gives: an outcome, or a failure that the error policy handles [E1]. */
export type ActionResult =
  | { ok: true; outcome: HandlerOutcome; duration_ms?: number }
  | { ok: false; error: { kind: string; message: string; line?: number; column?: number; matcher_id?: string }; logs?: string[]; duration_ms?: number };

/**
 * An ok result whose outcome has every field (one shape), for a caller that reads a result before running
 * the next handler and keeps none of them: the fast path's reused slot (see `runSafely`).
 */
export interface ResultSlot {
  ok: true;
  /**
   * The records of the caller's reused result, from its earlier events, that this event's audit handlers may
   * overwrite in turn: `spareAudit[auditCount]` is the next one to take (null: none, make fresh records).
   */
  spares: RecordSpares | null;
  outcome: {
    decision: HandlerOutcome['decision'];
    reason: string | undefined;
    context: string | undefined;
    new_payload: JsonObject | undefined;
    state_patch: JsonObject | undefined;
    logs: string[] | undefined;
    audit: JsonObject | undefined;
  };
}

/**
 * Where an audit action finds the record it may overwrite (the dispatcher's chain, for a reused result):
 * `spareAudit` holds plain audit records only, position by position; the action writes over the one at
 * `auditCount` (the record it returns goes there in the result), or puts a new one there.
 */
export interface RecordSpares {
  readonly spareAudit: JsonObject[] | null;
  readonly auditCount: number;
}

/**
 * Runs an action. `into`: a slot a built-in action may overwrite and return instead of allocating a result
 * (code actions ignore it); without it the result is fresh and may be kept (explain mode keeps them).
 */
export type ActionRun = (scope: Scope, into?: ResultSlot) => ActionResult;

/**
 * An action whose whole outcome is one audit record (CONTINUE, nothing else): a plain audit, without a
 * message or fields. Its record is `plainRecord(audit, scope, spare)` (compile/actions.ts): data, not a
 * closure, so the chain makes the record with one direct call.
 */
export interface PlainAudit {
  readonly handler: string;
  readonly level: string;
}

/** Which fields of the payload a handler rewrites (for the conflicting-rewrites lint). */
export interface CompiledAction {
  run: ActionRun;
  rewrites: string[];
  /** Set for a plain audit (no message, no fields): its outcome is its record alone, so the chain may take it straight [H8]. */
  record?: PlainAudit;
  /** Set for a flow rule [F1]: what `observeFlows` remembers for it after each step. */
  flow?: CompiledFlowRule;
}

export interface ActionCompileOptions {
  /** The sandbox for code handlers; `null` means "validate without compiling code". */
  sandbox: Sandbox | null;
  /** When true, a code handler without a sandbox is a `no_sandbox` problem. */
  requireSandbox: boolean;
}
