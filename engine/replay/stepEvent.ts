import { blocksAction, type Decision } from '../model/decision.ts';
import { actionBlocked, deniedBy, type Approval } from '../model/approval.ts';
import type { EventMode, HookEvent } from '../model/event.ts';
import { jsonEqual, type JsonObject } from '../model/json.ts';
import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import { dispatch, initialState, type DispatchEnv } from '../dispatch/dispatch.ts';
import { explainEvent } from '../dispatch/explain/explainEvent.ts';
import { withoutExpectation } from './withoutExpectation.ts';
import type { DispatchResult, Explanation, HandlerError } from '../dispatch/types.ts';
import type { RecordedDecision, TraceEvent } from '../trace/traceTypes.ts';
import { observeFlows } from '../compile/flowMemory.ts';
import type { DispatchState } from '../dispatch/types.ts';
import { otherPipelineOf } from './pipelineScope.ts';
import { clip, decisionWithReason, decisionWord, quoteName, stepNo } from './replayText.ts';
import type { ReplayCarry, ReplayOptions, ReplayStep, RunEnd, StepNote } from './types.ts';

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

/** Builds the context and the starting carry of a replay. */
export function createReplayContext(compiled: CompiledPipeline, options: ReplayOptions = {}): ReplayContext {
  const holder = { t: 0 };
  const env: DispatchEnv = { clock: { now: () => holder.t }, ...(options.timer ? { timer: options.timer } : {}) };
  const names = new Map(compiled.handlers.map((h) => [h.id, h.name]));
  const initialCarry: ReplayCarry = { state: options.initialState ?? initialState(), now: 0, ended: null, counterfactual_since: -1 };
  let ended: [RunEnd | null, readonly StepNote[]] = [null, NO_NOTES];
  let cf: [number, readonly StepNote[]] = [-1, NO_NOTES];
  const notes = {
    ended(end: RunEnd): readonly StepNote[] {
      if (ended[0] !== end) ended = [end, Object.freeze([Object.freeze({ kind: 'not_reached' as const, text: endedNote(names, end) })])];
      return ended[1];
    },
    counterfactual(since: number): readonly StepNote[] {
      if (cf[0] !== since) cf = [since, Object.freeze([Object.freeze({ kind: 'counterfactual' as const, text: counterfactualNote(since) })])];
      return cf[1];
    },
  };
  return { compiled, env, holder, clock: options.clock, names, initialCarry, notes, version: options.pipelineVersion ?? null };
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

const NONE: never[] = Object.freeze([]) as unknown as never[];
const NO_NOTES: readonly StepNote[] = NONE;

/**
 * The pure step function of replay [R1]-[R7]: one event, the carry before it and (for a repeated event id)
 * the earlier result, in; the step and the carry after it, out. Like xstate's `transition`: everything the
 * next event depends on is in the returned carry, so a checkpoint is just a carry.
 */
export function stepEvent(
  ctx: ReplayContext,
  carry: ReplayCarry,
  event: TraceEvent,
  index: number,
  earlier: EarlierResult | null,
  explain: boolean,
): { step: ReplayStep; carry: ReplayCarry; explanation: Explanation | null } {
  const now = timeOf(ctx, event, index, carry.now);
  ctx.holder.t = now;
  const recorded = event.recorded ?? null;
  let result: StepResult;
  let explanation: Explanation | null = null;
  let notes: readonly StepNote[] = NO_NOTES;
  // [R19] handlers, matchers and flow rules never see a label: the step keeps the event as it is.
  const dispatched = withoutExpectation(event);
  if (earlier) {
    // [R5][E5] checked before the run's end, as the session does: a repeated id gets its recorded answer.
    // Nothing ran, so nothing new was audited and nothing failed: only the answer is repeated.
    const { decision, reason, decided_by, mode, context } = earlier;
    result = { decision, reason, decided_by, mode, errors: NONE, audit: NONE, context, payload: earlier.payload ?? event.payload, state: carry.state };
    notes = [{ kind: 'duplicate', text: `Same event id as ${stepNo(earlier.index)}: that result is returned again and no handler runs.` }];
  } else if (carry.ended) {
    result = notReached(ctx, carry.ended, event, carry);
    notes = ctx.notes.ended(carry.ended);
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
  if (stopped && stopped.length > 0) notes = [...notes, { kind: 'wall_clock', text: wallClockNote(ctx, stopped) }];
  // [R15] an ASK gets the answer the recording holds (a duplicate: its earlier step's), never a new one.
  const approval = notReachedStep || result.decision !== 'ask' || result.mode !== 'sync' ? null : earlier ? earlier.approval ?? UNRECORDED : replayedApproval(recorded);
  const blocked = notReachedStep || actionBlocked(result.decision, result.mode, approval);
  // [R17] a decision recorded by another version of the pipeline is not compared: said instead of a divergence.
  const other = notReachedStep ? null : otherPipelineOf(recorded, ctx.version);
  if (other !== null) notes = [...notes, { kind: 'other_pipeline', text: otherPipelineNote(other, ctx.version!, recorded!.decision, result.decision) }];
  const divergent = !notReachedStep && recorded !== null && other === null && recorded.decision !== result.decision;
  // [R6] the same decision, but another reason (where the recording says its reason: it has one, or it is
  // Hookwire's own, which names its pipeline version and writes every reason), or another deciding handler
  // where the recording names one; as for a divergence, only a decision of the same version [R17] is compared.
  // [S14] a reproduced wall-clock stop is not compared by reason: its timeout's text names this replay's net,
  // the recording's names the net that fired (the note says which outcome is reproduced).
  const saysReason = recorded !== null && !(stopped && stopped.length > 0) && (recorded.reason !== undefined || recorded.pipeline !== undefined);
  const reasonDiffers = !notReachedStep && recorded !== null && other === null && !divergent
    && ((saysReason && (recorded.reason ?? '') !== result.reason) || (recorded.decided_by !== undefined && recorded.decided_by !== result.decided_by));
  const counterfactual = carry.counterfactual_since >= 0;
  const startsCounterfactual = !counterfactual && !notReachedStep && blocked && actionRan(recorded);
  if (counterfactual) {
    const cf = ctx.notes.counterfactual(carry.counterfactual_since);
    notes = notes === NO_NOTES ? cf : [...notes, ...cf];
  }
  // [F3][F4] flow rules remember an event that happened: dispatched (not a repeat [F6], not after the run's end)
  // and not blocked by its decision. An ASK counts, whatever its answer: the answer comes from outside dispatch
  // (later, in the runtime), and the memory must be the same in replay, the runtime and serve.
  const state = !earlier && !notReachedStep && !(result.mode === 'sync' && blocksAction(result.decision)) ? remember(ctx, result.state, dispatched, result.payload, index, now) : result.state;

  const step: ReplayStep = {
    index,
    event,
    mode: result.mode,
    now,
    explanation,
    payload_before: event.payload,
    payload_after: result.payload,
    // A rewrite handler hands back a copy even when it matched nothing: a change is a change of value [R10].
    payload_changed: result.payload !== event.payload && !jsonEqual(result.payload, event.payload),
    decision: result.decision,
    outcome: notReachedStep ? 'not_reached' : result.decision,
    reason: result.reason,
    decided_by: result.decided_by,
    blocked,
    approval,
    context: result.context,
    state_before: carry.state,
    state_after: state,
    errors: result.errors,
    audit: result.audit,
    recorded,
    duplicate: earlier !== null,
    duplicate_of: earlier ? earlier.index : null,
    not_reached: notReachedStep,
    ended_at: notReachedStep ? carry.ended!.index : null,
    divergent,
    reason_differs: reasonDiffers,
    divergence: divergent ? divergenceText(ctx, recorded!, result, startsCounterfactual) : reasonDiffers ? reasonText(ctx, recorded!, result) : null,
    counterfactual,
    counterfactual_since: counterfactual ? carry.counterfactual_since : null,
    notes,
  };
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
  return { step, carry: next, explanation };
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

function endedNote(names: ReadonlyMap<string, string>, end: RunEnd): string {
  const who = quoteName(end.decided_by ? names.get(end.decided_by) ?? end.decided_by : null);
  return `Not dispatched: the run ended at ${stepNo(end.index)}, where ${who} decided TERMINATE${end.reason ? ` (${clip(end.reason, 100)})` : ''}.`;
}

function counterfactualNote(since: number): string {
  return `Counterfactual: ${stepNo(since)} blocked an action that really ran; from there on the trace shows what happened without that block.`;
}

function divergenceText(ctx: ReplayContext, recorded: RecordedDecision, result: Pick<DispatchResult, 'decision' | 'reason' | 'decided_by'>, startsCounterfactual: boolean): string {
  const who = result.decided_by ? ` by ${quoteName(ctx.names.get(result.decided_by) ?? result.decided_by)}` : '';
  const head = `Recorded ${decisionWithReason(recorded.decision, recorded.reason)}; replay decides ${decisionWord(result.decision)}${who}${result.reason ? ` (${clip(result.reason, 100)})` : ''}.`;
  if (startsCounterfactual) return `${head} The action really ran, so the steps after this one are counterfactual.`;
  if (!actionRan(recorded) && !blocksAction(result.decision)) return `${head} The action was blocked when recorded, so the trace does not show what it would have done.`;
  return head;
}

function reasonText(ctx: ReplayContext, recorded: RecordedDecision, result: Pick<DispatchResult, 'decision' | 'reason' | 'decided_by'>): string {
  const by = (id: string | null | undefined) => (id ? ` by ${quoteName(ctx.names.get(id) ?? id)}` : '');
  const why = (reason: string | undefined) => (reason ? ` (${clip(reason, 100)})` : ' (no reason)');
  return `Recorded ${decisionWord(recorded.decision)}${by(recorded.decided_by)}${why(recorded.reason)}; replay decides ${decisionWord(result.decision)} too${by(result.decided_by)}${why(result.reason)}: the same decision for another ${recorded.decided_by !== undefined && recorded.decided_by !== result.decided_by ? 'handler' : 'reason'}.`;
}

function wallClockNote(ctx: ReplayContext, stopped: readonly string[]): string {
  const names = stopped.slice(0, 5).map((id) => quoteName(ctx.names.get(id) ?? id)).join(', ');
  return `When recorded, the wall-clock safety net stopped ${names}${stopped.length > 5 ? ' and more' : ''}: replay reproduces that outcome instead of timing the code again on this machine.`;
}

/** [R17] The note of a step whose decision was recorded by another pipeline version. */
function otherPipelineNote(other: string, version: string, recorded: Decision, replayed: Decision): string {
  const same = recorded === replayed ? 'the same decision' : `${decisionWord(replayed)} here`;
  return `Recorded with pipeline version ${clip(other, 40)}; this is ${clip(version, 40)}. Its recorded ${decisionWord(recorded)} is not compared (${same}): replay a recording with the pipeline that made it to check it.`;
}

