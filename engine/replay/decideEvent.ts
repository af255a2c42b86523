import { blocksAction, type Decision } from '../model/decision.ts';
import { actionBlocked, deniedBy, type Approval } from '../model/approval.ts';
import type { EventMode, HookEvent } from '../model/event.ts';
import type { JsonObject } from '../model/json.ts';
import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import { dispatch, type DispatchEnv } from '../dispatch/dispatch.ts';
import { explainEvent } from '../dispatch/explain/explainEvent.ts';
import { withoutExpectation } from './withoutExpectation.ts';
import type { DispatchResult, Explanation, HandlerError } from '../dispatch/types.ts';
import type { RecordedDecision, TraceEvent } from '../trace/traceTypes.ts';
import { observeFlows } from '../compile/flowMemory.ts';
import type { DispatchState } from '../dispatch/types.ts';
import { otherPipelineOf } from './pipelineScope.ts';
import type { ReplayCarry, RunEnd, StepNote } from './types.ts';

/** Everything a replay needs beside the carry: the pipeline, the clock, handler names. Built once per replay. */
export interface ReplayContext {
  readonly compiled: CompiledPipeline;
  readonly env: DispatchEnv;
  /** The time `env.clock.now()` returns; set before each event. */
  readonly holder: { t: number };
  readonly clock: ((event: HookEvent, index: number) => number) | undefined;
  readonly names: ReadonlyMap<string, string>;
  readonly initialCarry: ReplayCarry;
  /** The same notes repeat on every step after a run end or a counterfactual start: made once, shared (frozen). */
  readonly notes: { ended(end: RunEnd): readonly StepNote[]; counterfactual(since: number): readonly StepNote[] };
  /** The replayed pipeline's version, when known [R17]. */
  readonly version: string | null;
  /** The core `stepEvent` fills and reads into its step at once (so the context is a working memory, not pure data). */
  readonly scratch: StepCore;
}

/** The result an earlier step gave, which a duplicate repeats [R5]. */
export interface EarlierResult {
  index: number;
  decision: Decision;
  reason: string;
  decided_by: string | null;
  /** The earlier final payload; null when only the decision is needed (an intermediate step). */
  payload: JsonObject | null;
  mode: EventMode;
  /** The earlier step's answer to its ASK [R15]. */
  approval: Approval | null;
  context: readonly string[];
}

/** The clock time of an event [R3]: the injected clock or the event's `ts`; not finite → the previous time. */
function timeOf(ctx: ReplayContext, event: HookEvent, index: number, previous: number): number {
  const t = ctx.clock ? ctx.clock(event, index) : Date.parse(event.ts);
  return Number.isFinite(t) ? t : previous;
}

/** An action really ran when its recorded decision did not block it, or when nothing was recorded [R7]. */
export function actionRan(recorded: RecordedDecision | null | undefined): boolean {
  return !recorded || !actionBlocked(recorded.decision, 'sync', recorded.approval);
}

const UNRECORDED = Object.freeze(deniedBy('unrecorded', 'the trace recorded no answer to this ASK, so replay denies it (fail closed)'));

/** The answer a replayed ASK gets [R15]: the recorded one when the recording asked too, else a denial. */
export function replayedApproval(recorded: RecordedDecision | null): Approval {
  return recorded?.decision === 'ask' && recorded.approval ? recorded.approval : UNRECORDED;
}

/** The part of a dispatch result a step shows (read-only: a duplicate shares its earlier step's lists). */
type StepResult = Pick<DispatchResult, 'decision' | 'reason' | 'decided_by' | 'payload' | 'state' | 'mode'> & {
  errors: readonly HandlerError[];
  audit: readonly JsonObject[];
  context: readonly string[];
};

export const NONE: never[] = Object.freeze([]) as unknown as never[];

/**
 * What one event decided, as the rules answer it [R1]-[R7][R15][R17], before any sentence a person reads: the
 * lean form of a step. `expandStep` (expandStep.ts) adds the rest of a `ReplayStep` from it (notes, the divergence's
 * sentence, the payload's change of value); `replay --json` prints a line from it without that [P10].
 */
export interface StepCore {
  index: number;
  event: TraceEvent;
  /** The clock time the event was dispatched at [R3]. */
  now: number;
  mode: EventMode;
  decision: Decision;
  reason: string;
  decided_by: string | null;
  payload_after: JsonObject;
  context: readonly string[];
  errors: readonly HandlerError[];
  audit: readonly JsonObject[];
  /** The answer a sync ASK gets [R15]; null otherwise. */
  approval: Approval | null;
  blocked: boolean;
  recorded: RecordedDecision | null;
  /** The earlier result a repeated id got again [R5]; null when the event was dispatched or not reached. */
  earlier: EarlierResult | null;
  not_reached: boolean;
  /** [S14] the handlers the recording's wall-clock net stopped, when there were any; else null. */
  wall_clock: readonly string[] | null;
  /** [R17] the other pipeline version that recorded the decision, or null when it is compared. */
  other_pipeline: string | null;
  divergent: boolean;
  reason_differs: boolean;
  /** This step blocked an action that really ran: the steps after it are counterfactual [R7]. */
  starts_counterfactual: boolean;
  explanation: Explanation | null;
  /** The carry the event started from, and the one the next event starts from. */
  before: ReplayCarry;
  after: ReplayCarry;
}

/** A step core to fill, for `decideEvent`'s `into`. */
export function newStepCore(c: ReplayCarry): StepCore {
  return {
    index: 0, event: null!, now: 0, mode: 'sync', decision: 'continue', reason: '', decided_by: null, payload_after: null!, context: NONE, errors: NONE, audit: NONE,
    approval: null, blocked: false, recorded: null, earlier: null, not_reached: false, wall_clock: null, other_pipeline: null, divergent: false, reason_differs: false,
    starts_counterfactual: false, explanation: null, before: c, after: c,
  };
}

/**
 * The rules of one replay step [R1]-[R7][R15][R17][F3]: what `stepEvent` decides, without the step's sentences.
 * `into`: a core of the caller's to overwrite and return (read it before the next call), as `dispatch`'s `into`;
 * without it, a new one.
 */
export function decideEvent(ctx: ReplayContext, carry: ReplayCarry, event: TraceEvent, index: number, earlier: EarlierResult | null, explain: boolean, into?: StepCore): StepCore {
  const now = timeOf(ctx, event, index, carry.now);
  ctx.holder.t = now;
  const recorded = event.recorded ?? null;
  let result: StepResult;
  let explanation: Explanation | null = null;
  // [R19] handlers, matchers and flow rules never see a label: the step keeps the event as it is.
  const dispatched = withoutExpectation(event);
  if (earlier) {
    // [R5][E5] checked before the run's end, as the session does: a repeated id gets its recorded answer.
    // Nothing ran, so nothing new was audited and nothing failed: only the answer is repeated.
    const { decision, reason, decided_by, mode, context } = earlier;
    result = { decision, reason, decided_by, mode, errors: NONE, audit: NONE, context, payload: earlier.payload ?? event.payload, state: carry.state };
  } else if (carry.ended) {
    result = notReached(ctx, carry.ended, event, carry);
  } else if (explain) {
    const out = explainEvent(ctx.compiled, dispatched, carry.state, ctx.env);
    result = out.result;
    explanation = out.explanation;
  } else {
    result = dispatch(ctx.compiled, dispatched, carry.state, ctx.env);
  }
  const notReachedStep = !earlier && carry.ended !== null;
  // [S14] the net stopped code when this was recorded: said beside the step, which reproduces that outcome.
  const stopped = !earlier && !notReachedStep ? recorded?.wall_clock : undefined;
  const wallClock = stopped && stopped.length > 0 ? stopped : null;
  // [R15] an ASK gets the answer the recording holds (a duplicate: its earlier step's), never a new one.
  const approval = notReachedStep || result.decision !== 'ask' || result.mode !== 'sync' ? null : earlier ? earlier.approval ?? UNRECORDED : replayedApproval(recorded);
  const blocked = notReachedStep || actionBlocked(result.decision, result.mode, approval);
  // [R17] a decision recorded by another version of the pipeline is not compared: said instead of a divergence.
  const other = notReachedStep ? null : otherPipelineOf(recorded, ctx.version);
  const divergent = !notReachedStep && recorded !== null && other === null && recorded.decision !== result.decision;
  // [R6] the same decision, but another reason (where the recording says its reason: it has one, or it is
  // Hookwire's own, which names its pipeline version and writes every reason), or another deciding handler
  // where the recording names one; as for a divergence, only a decision of the same version [R17] is compared.
  // [S14] a reproduced wall-clock stop is not compared by reason: its timeout's text names this replay's net,
  // the recording's names the net that fired (the note says which outcome is reproduced).
  const saysReason = recorded !== null && wallClock === null && (recorded.reason !== undefined || recorded.pipeline !== undefined);
  const reasonDiffers = !notReachedStep && recorded !== null && other === null && !divergent
    && ((saysReason && (recorded.reason ?? '') !== result.reason) || (recorded.decided_by !== undefined && recorded.decided_by !== result.decided_by));
  const counterfactual = carry.counterfactual_since >= 0;
  const startsCounterfactual = !counterfactual && !notReachedStep && blocked && actionRan(recorded);
  // [F3][F4] flow rules remember an event that happened: dispatched (not a repeat [F6], not after the run's end)
  // and not blocked by its decision. An ASK counts, whatever its answer: the answer comes from outside dispatch
  // (later, in the runtime), and the memory must be the same in replay, the runtime and serve.
  const state = !earlier && !notReachedStep && !(result.mode === 'sync' && blocksAction(result.decision)) ? remember(ctx, result.state, dispatched, result.payload, index, now) : result.state;
  const ends = !notReachedStep && !earlier && result.decision === 'terminate';
  const next: ReplayCarry =
    state === carry.state && now === carry.now && !ends && !startsCounterfactual
      ? carry
      : {
          state,
          now,
          ended: ends ? ({ index, decided_by: result.decided_by, reason: result.reason } satisfies RunEnd) : carry.ended,
          counterfactual_since: startsCounterfactual ? index : carry.counterfactual_since,
        };
  const core = into ?? newStepCore(carry);
  core.index = index;
  core.event = event;
  core.now = now;
  core.mode = result.mode;
  core.decision = result.decision;
  core.reason = result.reason;
  core.decided_by = result.decided_by;
  core.payload_after = result.payload;
  core.context = result.context;
  core.errors = result.errors;
  core.audit = result.audit;
  core.approval = approval;
  core.blocked = blocked;
  core.recorded = recorded;
  core.earlier = earlier;
  core.not_reached = notReachedStep;
  core.wall_clock = wallClock;
  core.other_pipeline = other;
  core.divergent = divergent;
  core.reason_differs = reasonDiffers;
  core.starts_counterfactual = startsCounterfactual;
  core.explanation = explanation;
  core.before = carry;
  core.after = next;
  return core;
}

/** The state after a flow rule remembered the event, or the same state when none selects it [F3]. */
function remember(ctx: ReplayContext, state: DispatchState, event: HookEvent, payload: JsonObject, index: number, now: number): DispatchState {
  const rules = ctx.compiled.flowObservers(event.type);
  if (rules.length === 0) return state;
  const flows = observeFlows(rules, state.flows, event, payload, state.vars, index, now);
  return flows === state.flows ? state : { vars: state.vars, breakers: state.breakers, flows: flows! };
}

/** A step after the run ended: the session's answer (TERMINATE, the terminating reason), nothing run [D4]. */
function notReached(ctx: ReplayContext, end: RunEnd, event: TraceEvent, carry: ReplayCarry): StepResult {
  return {
    decision: 'terminate' as const,
    reason: end.reason,
    decided_by: end.decided_by,
    payload: event.payload,
    state: carry.state,
    errors: NONE,
    audit: NONE,
    context: NONE,
    mode: ctx.compiled.modeOf(event.type),
  };
}

