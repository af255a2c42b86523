import { wallClockStopped } from '../dispatch/records.ts';
import type { Approval } from '../model/approval.ts';
import type { RecordedDecision } from '../trace/traceTypes.ts';
import type { ReplayStep } from './types.ts';

/** What a live decision is recorded from: a replay step (serve, `claude-hook --record`) or a runtime session result. */
export type DecidedEvent = Pick<ReplayStep, 'decision' | 'reason' | 'decided_by' | 'mode' | 'context' | 'errors'> & {
  /** An earlier TERMINATE ended the run: no handler decided this event [R4][D4]. */
  not_reached: boolean;
};

/**
 * The one shape of a recording line's `recorded` [P7][P13]: every writer of recordings (hookwire serve,
 * `claude-hook --record`, the runtime's record sink under the framework adapters) makes it here, so a replay of
 * any of them compares the same fields. The deciding handler (not for a step after the run ended, which nobody
 * decided) lets a replay flag the same decision made by another handler [R6]; the ASK's answer only on a sync
 * event [R15]; the code the wall-clock net stopped [S14]; the pipeline version last [R17] (null: none known).
 *
 * @example recordedDecision(step, { approval: null, pipeline: 'sha256:00aa11bb22cc33dd' })
 * // { decision: 'block_action', reason: 'no rm', decided_by: 'no-rm', pipeline: 'sha256:00aa11bb22cc33dd' }
 */
export function recordedDecision(d: DecidedEvent, extra: { approval: Approval | null; pipeline: string | null }): RecordedDecision {
  const stopped = wallClockStopped(d.errors);
  return {
    decision: d.decision,
    ...(d.reason ? { reason: d.reason } : {}),
    ...(d.decided_by && !d.not_reached ? { decided_by: d.decided_by } : {}),
    ...(extra.approval && d.mode === 'sync' ? { approval: extra.approval } : {}),
    ...(d.context.length > 0 ? { context: [...d.context] } : {}),
    ...(stopped ? { wall_clock: stopped } : {}),
    ...(extra.pipeline !== null ? { pipeline: extra.pipeline } : {}),
  };
}
