import { approvalOutcome, approvalText } from '../model/approval.ts';
import { otherPipelineOf } from './pipelineScope.ts';
import { clip, decisionWithReason } from './replayText.ts';
import type { ReplayStep } from './types.ts';

/**
 * `hookwire replay --check` [R16][R17]: each event whose replayed outcome differs from the one the recording
 * holds, with both. A step after a replayed TERMINATE that the recording still decided counts (the replay ended
 * the run where the recording did not); a recorded ASK gets its recorded answer in replay [R15], so an ASK
 * matches an ASK.
 */
export interface CheckMismatch {
  /** 0-based step index. */
  index: number;
  event_id: string;
  type: string;
  /** The recorded outcome, as text: `BLOCK_ACTION (no rm -rf)`. */
  recorded: string;
  /** The replayed outcome, as text, with who decided. */
  replayed: string;
}

/**
 * Which recorded decisions the check compares [R17]: `own` (the default) those made by the replayed pipeline's
 * version or naming no version; `all` (`--check`) every one.
 */
export type CheckScope = 'own' | 'all';

/** What the check does with one step [R17]. */
export type CheckedAs = 'unrecorded' | 'other_pipeline' | 'compared';

/**
 * Whether the check compares a step's recorded decision with its replay [R17]: not when nothing is recorded;
 * in scope `own`, not when the recording names a pipeline version other than `version` (the replayed file's;
 * null when unknown, which compares everything).
 */
export function checkedAs(step: ReplayStep, version: string | null, scope: CheckScope): CheckedAs {
  const rec = step.recorded;
  if (!rec) return 'unrecorded';
  if (scope === 'own' && otherPipelineOf(rec, version) !== null) return 'other_pipeline';
  return 'compared';
}

/** The mismatch of one step, or null when it agrees with the recording or the recording has no decision [R16]. */
export function checkStep(step: ReplayStep): CheckMismatch | null {
  const rec = step.recorded;
  if (!rec || rec.decision === step.decision) return null;
  const who = step.decided_by ? ` by ${step.decided_by}` : '';
  const replayed = step.not_reached
    ? `NOT REACHED (the replay ended the run at step ${(step.ended_at ?? 0) + 1})`
    : `${decisionWithReason(step.decision, step.reason)}${who}`;
  return { index: step.index, event_id: step.event.event_id, type: step.event.type, recorded: decisionWithReason(rec.decision, rec.reason), replayed };
}

/** One line of the check's report [R16]: `#3 ev-3 (tool.before_call): recorded X; replayed Y`. */
export function mismatchLine(m: CheckMismatch): string {
  return `#${m.index + 1} ${clip(m.event_id, 60)} (${clip(m.type, 40)}): recorded ${m.recorded}; replayed ${m.replayed}`;
}

const stepLine = (step: ReplayStep, text: string) => `#${step.index + 1} ${clip(step.event.event_id, 60)} (${clip(step.event.type, 40)}): ${text}`;

/** The running count of a check over a replay [R16][R17]. */
export interface CheckTally {
  events: number;
  /** Steps whose event carries a recorded decision. */
  recorded: number;
  /** Of those, the ones compared. */
  compared: number;
  /** Recorded by another pipeline version, not compared (scope `own` only). */
  other_pipeline: number;
  /** The first few other versions seen, in order. */
  other_versions: string[];
  mismatches: number;
  /** The first `maxReported` mismatches, as lines. */
  reported: string[];
  /** Compared steps with the recorded decision, made for another reason or by another handler [R6]. */
  differently: number;
  /** The first `maxReported` of those, as lines (flagged, not failed: the check compares decisions). */
  reported_differently: string[];
}

/** A step whose event carries no recorded decision: the check only counts it [R16] (`replay --json` makes no whole step of it). */
export const UNRECORDED_STEP = Object.freeze({ recorded: null });

export interface ReplayCheck {
  /** Counts a replayed step; returns its mismatch when it was compared and differs. */
  add(step: ReplayStep | typeof UNRECORDED_STEP): CheckMismatch | null;
  readonly tally: CheckTally;
}

/**
 * A check over the steps of a replay, fed one step at a time (memory stays flat: past `maxReported` only the
 * number of mismatches grows) [R16][R17].
 */
export function createReplayCheck(version: string | null, scope: CheckScope, maxReported = 200): ReplayCheck {
  const tally: CheckTally = { events: 0, recorded: 0, compared: 0, other_pipeline: 0, other_versions: [], mismatches: 0, reported: [], differently: 0, reported_differently: [] };
  return {
    tally,
    add(step) {
      tally.events++;
      if (step.recorded === null) return null;
      const as = checkedAs(step, version, scope);
      if (as === 'unrecorded') return null;
      tally.recorded++;
      if (as === 'other_pipeline') {
        tally.other_pipeline++;
        const v = step.recorded!.pipeline!;
        if (tally.other_versions.length < 3 && !tally.other_versions.includes(v)) tally.other_versions.push(v);
        return null;
      }
      tally.compared++;
      const found = checkStep(step);
      if (!found) {
        // [R6] the same decision for another reason or by another handler: said (the step's sentence), not failed.
        if (step.reason_differs) {
          tally.differently++;
          if (tally.reported_differently.length < maxReported) tally.reported_differently.push(stepLine(step, step.divergence ?? ''));
        }
        return null;
      }
      // `--check` compares another version's decisions too: the line says which version recorded it.
      const other = step.recorded!.pipeline;
      const m = other !== undefined && version !== null && other !== version ? { ...found, recorded: `${found.recorded} [by pipeline ${clip(other, 40)}]` } : found;
      tally.mismatches++;
      if (tally.reported.length < maxReported) tally.reported.push(mismatchLine(m));
      return m;
    },
  };
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The check's verdict and report [R16][R17]. `asked` is true for `--check` (scope `all`; a trace with no
 * recorded decision cannot pass it), false for the default (scope `own`; nothing recorded, or recorded only
 * by other versions, passes with a note). Fails when a compared decision differs.
 */
export function checkVerdict(t: CheckTally, asked: boolean, version: string | null): { pass: boolean; lines: string[] } {
  if (t.recorded === 0) {
    return asked ? { pass: false, lines: ['Check: the trace records no decisions, so there is nothing to compare the replay with (exit 1).'] } : { pass: true, lines: [] };
  }
  const notes: string[] = [];
  const unrecorded = t.events - t.recorded;
  if (unrecorded > 0) notes.push(`${count(unrecorded, 'event')} without a recorded decision not checked`);
  const others = t.other_versions.join(', ') + (t.other_pipeline > 0 && t.other_versions.length === 3 ? ', …' : '');
  if (t.other_pipeline > 0) notes.push(`${count(t.other_pipeline, 'decision')} recorded by another pipeline version (${others}) not checked: --check compares them too`);
  const rest = notes.length ? ` (${notes.join('; ')})` : '';
  const mine = version !== null && t.other_pipeline > 0 ? ` of this pipeline (${version})` : '';
  if (t.compared === 0) {
    return { pass: true, lines: [`Check: no recorded decision was made by this pipeline (${version ?? 'unknown version'}), so none was compared${rest}.`] };
  }
  if (t.mismatches === 0) {
    const all = t.compared === 1 ? 'the 1 recorded decision' : `all ${count(t.compared, 'recorded decision')}`;
    return { pass: true, lines: [`Check: ${all}${mine} match${t.compared === 1 ? 'es' : ''} the replay${rest}.`, ...differently(t)] };
  }
  const lines = [`Check failed: ${t.mismatches} of ${count(t.compared, 'recorded decision')}${mine} differ from the replay${rest}:`];
  for (const line of t.reported) lines.push(`  ${line}`);
  if (t.mismatches > t.reported.length) lines.push(`  … and ${t.mismatches - t.reported.length} more`);
  return { pass: false, lines: [...lines, ...differently(t)] };
}

/** [R6] the decisions that match, made for another reason or by another handler: listed, and no failure. */
function differently(t: CheckTally): string[] {
  if (t.differently === 0) return [];
  const lines = [`${t.differently === 1 ? '1 matching decision was' : `${t.differently} matching decisions were`} made for another reason or by another handler (flagged, not failed: the check compares decisions):`];
  for (const line of t.reported_differently) lines.push(`  ${line}`);
  if (t.differently > t.reported_differently.length) lines.push(`  … and ${t.differently - t.reported_differently.length} more`);
  return lines;
}

/**
 * A step's decision in a word or two, as the replay table shows it [AP1]: the decision, and for an ASK what
 * came of it (`ask → approved`, `ask → denied`, `ask → unanswered`, `ask → late`).
 */
export function stepOutcomeWord(step: ReplayStep): string {
  return step.approval ? `${step.decision} → ${approvalOutcome(step.approval)}` : step.decision;
}

/** Who answered an ASK and when, or why it was denied, as a note [AP1]; empty for other steps. */
export function approvalNote(step: ReplayStep): string {
  return step.approval ? approvalText(step.approval).replace(/^ask \u2192 /, '') : '';
}
