import { DECISIONS, type Decision } from '../model/decision.ts';
import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import { OUTCOMES, NO_RECORD, STEP_FLAG, type ReplayCarry, type ReplayStep, type ReplayTimeline, type StepOutcome } from './types.ts';

const OUTCOME_CODE = new Map<StepOutcome, number>(OUTCOMES.map((o, i) => [o, i]));
const DECISION_CODE = new Map<Decision, number>(DECISIONS.map((d, i) => [d, i]));

/** Fills a `ReplayTimeline` step by step, in trace order, from fast-mode steps [R10]. */
export interface TimelineBuilder {
  readonly timeline: ReplayTimeline;
  /** Records a step; `carryAfter` is the carry the step returned (it knows where counterfactual steps start). */
  record(step: ReplayStep, carryAfter: ReplayCarry): void;
}

/** Allocates the typed arrays for `count` steps; they fill as the replay's fast pass advances. */
export function createTimelineBuilder(compiled: CompiledPipeline, count: number): TimelineBuilder {
  const rank = new Map(compiled.handlers.map((h, i) => [h.id, i]));
  const typeIndex = new Map<string, number>();
  const t: ReplayTimeline = {
    count,
    outcome: new Uint8Array(count),
    flags: new Uint16Array(count),
    decided_by: new Int32Array(count).fill(-1),
    recorded: new Uint8Array(count).fill(NO_RECORD),
    duplicate_of: new Int32Array(count).fill(-1),
    type: new Uint32Array(count),
    types: [],
    handler_ids: compiled.handlers.map((h) => h.id),
    ended_at: -1,
    counterfactual_since: -1,
  };
  return {
    timeline: t,
    record(s, carryAfter) {
      const i = s.index;
      t.outcome[i] = OUTCOME_CODE.get(s.outcome)!;
      t.flags[i] = flagsOf(s);
      t.decided_by[i] = s.decided_by === null ? -1 : rank.get(s.decided_by) ?? -1;
      if (s.recorded) t.recorded[i] = DECISION_CODE.get(s.recorded.decision) ?? NO_RECORD;
      t.duplicate_of[i] = s.duplicate_of ?? -1;
      let ti = typeIndex.get(s.event.type);
      if (ti === undefined) {
        ti = t.types.length;
        typeIndex.set(s.event.type, ti);
        t.types.push(s.event.type);
      }
      t.type[i] = ti;
      if (t.ended_at < 0 && !s.not_reached && !s.duplicate && s.decision === 'terminate') t.ended_at = i;
      t.counterfactual_since = carryAfter.counterfactual_since;
    },
  };
}

function flagsOf(s: ReplayStep): number {
  let f = 0;
  if (s.duplicate) f |= STEP_FLAG.duplicate;
  if (s.not_reached) f |= STEP_FLAG.not_reached;
  if (s.divergent) f |= STEP_FLAG.divergent;
  if (s.reason_differs) f |= STEP_FLAG.reason_differs;
  if (s.counterfactual) f |= STEP_FLAG.counterfactual;
  if (s.errors.length > 0) f |= STEP_FLAG.error;
  if (s.payload_changed) f |= STEP_FLAG.payload_changed;
  if (s.state_after !== s.state_before) f |= STEP_FLAG.state_changed;
  if (s.mode === 'async') f |= STEP_FLAG.async;
  if (s.approval && s.blocked) f |= STEP_FLAG.denied;
  if (s.context.length > 0) f |= STEP_FLAG.context;
  return f;
}

/** The outcome of step `i` of a timeline. */
export function outcomeAt(t: ReplayTimeline, i: number): StepOutcome {
  return OUTCOMES[t.outcome[i]!]!;
}
