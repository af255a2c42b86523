import { approvalOutcome, approvalText } from '../model/approval.ts';
import { clip, decisionWithReason } from './replayText.ts';
import type { ReplayStep } from './types.ts';

/**
 * `hookwire replay --check` [R16]: each event whose replayed outcome differs from the one the recording holds,
 * with both. A step after a replayed TERMINATE that the recording still decided counts (the replay ended the
 * run where the recording did not); a recorded ASK gets its recorded answer in replay [R15], so an ASK
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

/**
 * A step's decision in a word or two, as the replay table shows it [AP1]: the decision, and for an ASK what
 * came of it (`ask → approved`, `ask → denied`, `ask → unanswered`, `ask → late`).
 */
export function stepOutcomeWord(step: ReplayStep): string {
  return step.approval ? `${step.decision} → ${approvalOutcome(step.approval)}` : step.decision;
}

/** Who answered an ASK and when, or why it was denied, as a note [AP1]; empty for other steps. */
export function approvalNote(step: ReplayStep): string {
  return step.approval ? approvalText(step.approval).replace(/^ask → /, '') : '';
}
