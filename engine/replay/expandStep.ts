// The sentences of a replay step: what a person reads beside the rules' answer (stepEvent.ts decideEvent). Kept
// apart so that `replay --json`, which prints none of them, makes none [P10].
import { blocksAction, type Decision } from '../model/decision.ts';
import { jsonEqual } from '../model/json.ts';
import type { DispatchResult } from '../dispatch/types.ts';
import type { RecordedDecision } from '../trace/traceTypes.ts';
import { clip, decisionWithReason, decisionWord, quoteName, stepNo } from './replayText.ts';
import { actionRan, type ReplayContext, type StepCore } from './decideEvent.ts';
import type { ReplayStep, RunEnd, StepNote } from './types.ts';

const NO_NOTES: readonly StepNote[] = Object.freeze([]);

/**
 * The whole step of a decided event [R1]: the core's answer with the notes on it (a repeat [R5], the run's end
 * [R4], a wall-clock stop as recorded [S14], another pipeline version [R17], counterfactual [R7]), the sentence
 * on a divergence or another reason [R6] and whether the payload's value changed [R10]. Derives only: every rule
 * is decideEvent's.
 * `expandStep(ctx, decideEvent(ctx, carry, event, i, null, false)).notes`
 */
export function expandStep(ctx: ReplayContext, core: StepCore): ReplayStep {
  const { before, event, recorded, earlier } = core;
  let notes = NO_NOTES;
  if (earlier) notes = [{ kind: 'duplicate', text: `Same event id as ${stepNo(earlier.index)}: that result is returned again and no handler runs.` }];
  else if (core.not_reached) notes = ctx.notes.ended(before.ended!);
  if (core.wall_clock !== null) notes = [...notes, { kind: 'wall_clock', text: wallClockNote(ctx, core.wall_clock) }];
  if (core.other_pipeline !== null) notes = [...notes, { kind: 'other_pipeline', text: otherPipelineNote(core.other_pipeline, ctx.version!, recorded!.decision, core.decision) }];
  const counterfactual = before.counterfactual_since >= 0;
  if (counterfactual) {
    const cf = ctx.notes.counterfactual(before.counterfactual_since);
    notes = notes === NO_NOTES ? cf : [...notes, ...cf];
  }
  return {
    index: core.index,
    event,
    mode: core.mode,
    now: core.now,
    explanation: core.explanation,
    payload_before: event.payload,
    payload_after: core.payload_after,
    // A rewrite handler hands back a copy even when it matched nothing: a change is a change of value [R10].
    payload_changed: core.payload_after !== event.payload && !jsonEqual(core.payload_after, event.payload),
    decision: core.decision,
    outcome: core.not_reached ? 'not_reached' : core.decision,
    reason: core.reason,
    decided_by: core.decided_by,
    blocked: core.blocked,
    approval: core.approval,
    context: core.context,
    state_before: before.state,
    state_after: core.after.state,
    errors: core.errors,
    audit: core.audit,
    recorded,
    duplicate: earlier !== null,
    duplicate_of: earlier ? earlier.index : null,
    not_reached: core.not_reached,
    ended_at: core.not_reached ? before.ended!.index : null,
    divergent: core.divergent,
    reason_differs: core.reason_differs,
    divergence: core.divergent ? divergenceText(ctx, recorded!, core, core.starts_counterfactual) : core.reason_differs ? reasonText(ctx, recorded!, core) : null,
    counterfactual,
    counterfactual_since: counterfactual ? before.counterfactual_since : null,
    notes,
  };
}

export function endedNote(names: ReadonlyMap<string, string>, end: RunEnd): string {
  const who = quoteName(end.decided_by ? names.get(end.decided_by) ?? end.decided_by : null);
  return `Not dispatched: the run ended at ${stepNo(end.index)}, where ${who} decided TERMINATE${end.reason ? ` (${clip(end.reason, 100)})` : ''}.`;
}

export function counterfactualNote(since: number): string {
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

