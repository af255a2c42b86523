import type { Decision } from '../model/decision.ts';
import type { Approval } from '../model/approval.ts';
import type { EventMode, HookEvent } from '../model/event.ts';
import type { JsonObject } from '../model/json.ts';
import type { DispatchState, Explanation, HandlerError } from '../dispatch/types.ts';
import type { RecordedDecision, TraceEvent } from '../trace/traceTypes.ts';

/**
 * What a step ended with: the replayed decision, or `not_reached` for an event after a TERMINATE [R4].
 * Timelines, diffs and summaries count outcomes, so "not dispatched" is a value of its own.
 */
export type StepOutcome = Decision | 'not_reached';

/** Outcome codes of the compact timeline, in this order (`OUTCOMES[code]`). */
export const OUTCOMES: readonly StepOutcome[] = ['continue', 'stop_propagation', 'ask', 'block_action', 'terminate', 'not_reached'];

/** A trace's events by position: an array, or a store such as IndexedDB behind a cache [R9]. */
export interface EventSource {
  readonly count: number;
  /** The event at `index` (0-based). Must return the same event every time. */
  get(index: number): TraceEvent;
}

/** The same, for stores that answer asynchronously (IndexedDB). Ranges are half-open: `[start, end)`. */
export interface AsyncEventSource {
  readonly count: number;
  getRange(start: number, end: number): Promise<readonly TraceEvent[]>;
}

/** Options shared by every kind of replay. */
export interface ReplayOptions {
  /** The state before the first event (default: no variables, no breakers). */
  initialState?: DispatchState;
  /**
   * The clock of each event, in ms since the epoch [R3]. Default: the event's own `ts`. A result that is not
   * a finite number falls back to the previous event's time (0 for the first).
   */
  clock?: (event: HookEvent, index: number) => number;
  /** Monotonic ms for handler durations in explanations; omitted: durations are 0, so explanations repeat exactly. */
  timer?: () => number;
  /**
   * The version of the pipeline being replayed (`pipelineVersionOf` its file's text) [R17]. A recorded decision
   * that names another version is not compared: the step is not `divergent` and says which versions they are.
   * Omitted or null: every recorded decision is compared.
   */
  pipelineVersion?: string | null;
}

/** The handler that ended the run with TERMINATE, and where [R4]. */
export interface RunEnd {
  index: number;
  decided_by: string | null;
  reason: string;
}

/**
 * What replay carries from one event to the next: the dispatch state, the clock, whether the run has ended
 * and since when the steps are counterfactual. Immutable, so a checkpoint is a reference [R9].
 */
export interface ReplayCarry {
  readonly state: DispatchState;
  /** The clock time of the previous step (the fallback for an event whose time does not parse). */
  readonly now: number;
  readonly ended: RunEnd | null;
  /** Index of the step that blocked an action that really ran, or -1 [R7]. */
  readonly counterfactual_since: number;
}

/** One step of a replay: one event of the trace and what the pipeline did with it [R1]. */
export interface ReplayStep {
  index: number;
  event: TraceEvent;
  mode: EventMode;
  /** The clock time the event was dispatched at. */
  now: number;
  /** The explain-mode story [X1]; null in fast mode and when no handler ran (duplicate, not reached). */
  explanation: Explanation | null;
  payload_before: JsonObject;
  payload_after: JsonObject;
  /** The handlers changed the payload's value (a rewrite that matched nothing is no change) [R10]. */
  payload_changed: boolean;
  /** The decision the caller gets (TERMINATE for a step after the run ended, as the session answers [D4]). */
  decision: Decision;
  outcome: StepOutcome;
  reason: string;
  decided_by: string | null;
  /** The action must not run (BLOCK_ACTION or TERMINATE on a sync event, a denied ASK, or the run has ended). */
  blocked: boolean;
  /** For an ASK on a sync event: the recorded answer, or the fail-closed denial when none was recorded [R15]. */
  approval: Approval | null;
  /** Texts for the model the handlers added, in order [H11]. */
  context: readonly string[];
  state_before: DispatchState;
  state_after: DispatchState;
  errors: readonly HandlerError[];
  audit: readonly JsonObject[];
  /** The decision production made when the event was recorded, if the trace has it. */
  recorded: RecordedDecision | null;
  /** The event id was dispatched before: this step repeats that step's result and ran nothing [R5]. */
  duplicate: boolean;
  duplicate_of: number | null;
  /** An earlier TERMINATE ended the run: nothing was dispatched [R4]. */
  not_reached: boolean;
  ended_at: number | null;
  /** The recorded decision differs from the replayed one [R6]. */
  divergent: boolean;
  /** The same decision as recorded, for another reason or by another handler (when the recording names it) [R6]. */
  reason_differs: boolean;
  /** One line on the divergence (or the other reason), for people. */
  divergence: string | null;
  /** A step after replay blocked an action that really ran: the trace shows what happened without the block [R7]. */
  counterfactual: boolean;
  counterfactual_since: number | null;
  /** Sentences the debugger shows beside the step, each with what it is about. */
  notes: readonly StepNote[];
}

/**
 * A note on a step: a repeated event id [R5], a step after the run ended [R4], a counterfactual step [R7], a
 * wall-clock stop as recorded [S14], or a decision recorded by another pipeline version [R17].
 */
export interface StepNote {
  readonly kind: 'duplicate' | 'not_reached' | 'counterfactual' | 'wall_clock' | 'other_pipeline';
  readonly text: string;
}

/** Flags of the compact timeline (bits of `ReplayTimeline.flags`). */
export const STEP_FLAG = {
  duplicate: 1,
  not_reached: 2,
  divergent: 4,
  counterfactual: 8,
  error: 16,
  payload_changed: 32,
  state_changed: 64,
  async: 128,
  /** An ASK whose answer blocks the action (denied, or no recorded answer) [R15]. */
  denied: 256,
  /** Handlers added text for the model [H11]. */
  context: 512,
  /** The recorded decision, for another reason or by another handler [R6]. */
  reason_differs: 1024,
} as const;

/** No recorded decision (in `ReplayTimeline.recorded`). */
export const NO_RECORD = 255;

/**
 * The whole trace at a glance, computed once in fast mode [R10]: what the debugger's timeline, badges and
 * filters need, as typed arrays (about 15 bytes per event).
 */
export interface ReplayTimeline {
  count: number;
  /** Per step: index into `OUTCOMES`. */
  outcome: Uint8Array;
  /** Per step: `STEP_FLAG` bits. */
  flags: Uint16Array;
  /** Per step: rank of the deciding handler in `handler_ids`, or -1. */
  decided_by: Int32Array;
  /** Per step: index into `DECISIONS` of the recorded decision, or `NO_RECORD`. */
  recorded: Uint8Array;
  /** Per step: the earlier step a duplicate repeats, or -1. */
  duplicate_of: Int32Array;
  /** Per step: index into `types`. */
  type: Uint32Array;
  types: string[];
  /** Handler ids in execution order (the ranks of `decided_by`). */
  handler_ids: string[];
  /** The step that decided TERMINATE, or -1. */
  ended_at: number;
  /** The step from which later steps are counterfactual, or -1. */
  counterfactual_since: number;
}

/** What `find` and `stepsWhere` look for [R11]. */
export type StepQuery =
  | { kind: 'blocked' }
  | { kind: 'outcome'; outcome: StepOutcome }
  | { kind: 'divergent' }
  | { kind: 'counterfactual' }
  | { kind: 'duplicate' }
  | { kind: 'error' }
  | { kind: 'event_type'; type: string }
  | { kind: 'decided_by'; handler_id: string }
  /** The handler ran on the step (fired, or ran and failed). Needs the explain pass (`activity`). */
  | { kind: 'fired'; handler_id: string };
