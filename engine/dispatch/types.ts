import type { Decision } from '../model/decision.ts';
import type { MatcherFailure } from '../compile/compileMatcher.ts';
import type { EventMode } from '../model/event.ts';
import type { JsonObject, JsonValue } from '../model/json.ts';
import type { ConditionExplain } from '../match/types.ts';
import type { CodeErrorKind } from '../sandbox/types.ts';
import type { Operation } from 'fast-json-patch';
import type { FlowSessions } from '../model/flowTypes.ts';

/** A handler failure, as the error policy and the explanation see it [E1]. */
export interface HandlerError {
  kind: CodeErrorKind | 'builtin';
  message: string;
  event_type: string;
  trace_id: string;
  handler_id: string;
  handler_name: string;
  line?: number;
  column?: number;
  /** What the error policy decided because of it. */
  policy: 'block' | 'continue' | 'terminate' | 'logged';
  /** The failure was the code matcher's on the handler's path [M8], not the handler's own. */
  matcher_id?: string;
}

/** Per-trace state the engine carries from event to event: user state, circuit breakers, flow memory [F3]. Immutable. */
export interface DispatchState {
  readonly vars: JsonObject;
  readonly breakers: Readonly<Record<string, BreakerState>>;
  /** What flow rules remember of earlier events, per session; absent until a flow rule remembers one. */
  readonly flows?: FlowSessions;
}

export interface BreakerState {
  readonly failures: number;
  /** While `now < open_until`, the handler is skipped. */
  readonly open_until: number;
}

/** The fast path's answer. */
export interface DispatchResult {
  decision: Decision;
  /** Reason of the handler that decided (readable), or '' for CONTINUE. */
  reason: string;
  /** Id of the handler whose decision won, if any. */
  decided_by: string | null;
  /** The payload after all enforced rewrites (the input payload object itself when nothing changed). */
  payload: JsonObject;
  state: DispatchState;
  /** Handler errors, in order. */
  errors: HandlerError[];
  /** Audit records produced by audit handlers. */
  audit: JsonObject[];
  /** Texts for the model from the enforcing handlers that ran, in order [H11]. */
  context: string[];
  mode: EventMode;
}

/** One state key that a handler changed. */
export interface StateChange {
  key: string;
  before: JsonValue | undefined;
  after: JsonValue | undefined;
}

// ---- Explanation: the whole story of one event. The debugger renders it and nothing else. ----

export interface MatcherExplain {
  matcher_id: string;
  label: string;
  pass: boolean;
  /** True when this matcher was already evaluated for this event on another path [M6]. */
  cached: boolean;
  condition: ConditionExplain;
}

export interface PathExplain {
  /** Node ids from the event node to the handler. */
  nodes: string[];
  event_node_id: string;
  pattern: string;
  type_matched: boolean;
  /** Matchers evaluated along the path, up to and including the first that failed. */
  matchers: MatcherExplain[];
  pass: boolean;
  /** Set when the path failed only because a code matcher could not answer [M8]: the handler's error policy decides. */
  matcher_failure?: MatcherFailure;
}

export type HandlerStatus =
  | 'fired' // matched and ran
  | 'not_matched' // some path's event type matched, but every path failed a matcher
  | 'wrong_event_type' // no event node on any path selects this event type
  | 'not_reached' // an earlier handler ended the chain
  | 'disabled'
  | 'breaker_open'
  | 'error'; // matched, ran and failed

/** Every status, in the order of the codes `handlerStatuses` gives (and of `ReplayActivity.status_counts`). */
export const HANDLER_STATUSES = ['fired', 'not_matched', 'wrong_event_type', 'not_reached', 'disabled', 'breaker_open', 'error'] as const satisfies readonly HandlerStatus[];

/** A status's code: its index in `HANDLER_STATUSES`. Keyed by the status type, so a new status cannot be forgotten. */
export const STATUS_CODE: Readonly<Record<HandlerStatus, number>> = { fired: 0, not_matched: 1, wrong_event_type: 2, not_reached: 3, disabled: 4, breaker_open: 5, error: 6 };

interface HandlerExplainBase {
  handler_id: string;
  name: string;
  action: string;
  order: number;
  shadow: boolean;
  paths: PathExplain[];
}

/** One handler's story for one event: a union on `status`, so each status carries exactly its own fields. */
export type HandlerExplain =
  | (HandlerExplainBase & {
      status: 'fired';
      decision: Decision;
      reason?: string;
      /** Text for the model this handler added [H11] (a shadow handler's is shown, not applied). */
      context?: string;
      /** The decision had no effect: shadow mode, or an async event [D7][H8]. */
      ignored?: 'shadow' | 'async';
      patch?: Operation[];
      state_changes?: StateChange[];
      logs?: string[];
      duration_ms: number;
    })
  | (HandlerExplainBase & { status: 'error'; error: HandlerError; logs?: string[]; duration_ms: number })
  /** An earlier handler ended the chain: `ended_by` is that handler. */
  | (HandlerExplainBase & { status: 'not_reached'; ended_by: string })
  /** `breaker_open_until`: when the breaker closes again (clock ms). */
  | (HandlerExplainBase & { status: 'breaker_open'; breaker_open_until: number; /** while_open: block — the open breaker blocked the action [E3]. */ decision?: 'block_action'; reason?: string })
  | (HandlerExplainBase & { status: 'not_matched' | 'wrong_event_type' | 'disabled' });

export interface Explanation {
  event_id: string;
  event_type: string;
  trace_id: string;
  mode: EventMode;
  /**
   * Every handler of the pipeline, in execution order. From `explainEvent`, an own, enumerable, read-only
   * accessor built on first read [X6]; in a copy (JSON, structured clone, spread), a plain array.
   */
  readonly handlers: HandlerExplain[];
  decision: Decision;
  reason: string;
  decided_by: string | null;
  /** Why the winning decision won, when several handlers decided. */
  precedence?: string;
  payload_before: JsonObject;
  payload_after: JsonObject;
  patch: Operation[];
  state_before: JsonObject;
  state_after: JsonObject;
  errors: HandlerError[];
  audit: JsonObject[];
  /** Texts for the model, in order [H11]. */
  context: string[];
}
