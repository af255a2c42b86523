import { DECISIONS, type Decision } from '../model/decision.ts';
import { NO_RECORD, OUTCOMES, STEP_FLAG, type ReplayTimeline, type StepOutcome } from './types.ts';

/** One step of the compact timeline [R10], decoded: what a timeline row shows. */
export interface TimelineStep {
  outcome: StepOutcome;
  /** The recorded decision, when the trace has one. */
  recorded: Decision | null;
  duplicate: boolean;
  not_reached: boolean;
  divergent: boolean;
  /** The recorded decision, for another reason or by another handler [R6]. */
  reason_differs: boolean;
  counterfactual: boolean;
  error: boolean;
  payload_changed: boolean;
  state_changed: boolean;
  async: boolean;
  /** An ASK whose answer blocks the action [R15]. */
  denied: boolean;
  /** Handlers added text for the model [H11]. */
  context: boolean;
}

/**
 * Step `i` of `t` decoded from its packed columns, or null when the timeline does not reach it yet. The
 * packing (outcome codes, flag bits) stays the engine's own. `timelineStep(t, 0)?.outcome === 'continue'`.
 */
export function timelineStep(t: ReplayTimeline, i: number): TimelineStep | null {
  if (i < 0 || i >= t.count) return null;
  const f = t.flags[i]!;
  const r = t.recorded[i]!;
  return {
    outcome: OUTCOMES[t.outcome[i]!]!,
    recorded: r === NO_RECORD ? null : DECISIONS[r]!,
    duplicate: (f & STEP_FLAG.duplicate) !== 0,
    not_reached: (f & STEP_FLAG.not_reached) !== 0,
    divergent: (f & STEP_FLAG.divergent) !== 0,
    reason_differs: (f & STEP_FLAG.reason_differs) !== 0,
    counterfactual: (f & STEP_FLAG.counterfactual) !== 0,
    error: (f & STEP_FLAG.error) !== 0,
    payload_changed: (f & STEP_FLAG.payload_changed) !== 0,
    state_changed: (f & STEP_FLAG.state_changed) !== 0,
    async: (f & STEP_FLAG.async) !== 0,
    denied: (f & STEP_FLAG.denied) !== 0,
    context: (f & STEP_FLAG.context) !== 0,
  };
}
