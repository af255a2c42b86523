import type { Decision } from './decision.ts';
import { blocksAction } from './decision.ts';
import type { EventMode } from './event.ts';

/**
 * A person's answer to an ASK [D9][P14]. `allow` lets the action run, `deny` blocks it; `deferred` means the
 * host asks the person itself (Claude Code's permission prompt) and Hookwire never learns the answer.
 */
export type ApprovalAnswer = 'allow' | 'deny' | 'deferred';

/**
 * Where an answer came from [P14]: the runtime's approver; one of the fail-closed defaults (no approver, the
 * approver threw, timed out, answered something that is not an answer, or answered asynchronously to a
 * synchronous `emit`); the host's own prompt; or, in a replay, a trace that recorded no answer.
 */
export type ApprovalSource = 'approver' | 'no_approver' | 'error' | 'timeout' | 'invalid' | 'async_in_sync_emit' | 'host' | 'unrecorded';

export const APPROVAL_ANSWERS: readonly ApprovalAnswer[] = ['allow', 'deny', 'deferred'];
export const APPROVAL_SOURCES: readonly ApprovalSource[] = ['approver', 'no_approver', 'error', 'timeout', 'invalid', 'async_in_sync_emit', 'host', 'unrecorded'];

export interface Approval {
  answer: ApprovalAnswer;
  by: ApprovalSource;
  /** The approver's reason, or why the default answered. */
  reason?: string;
}

/**
 * Whether the event's action must not run [P3][D9]: BLOCK_ACTION and TERMINATE on a sync event always; ASK on a
 * sync event unless the answer allows it (a deferred answer leaves it to the host). `actionBlocked('ask', 'sync', {answer: 'deny', by: 'approver'}) === true`.
 */
export function actionBlocked(decision: Decision, mode: EventMode, approval: Approval | null | undefined): boolean {
  if (mode !== 'sync') return false;
  if (decision === 'ask') return !approval || approval.answer === 'deny';
  return blocksAction(decision);
}

/** The fail-closed answer [P14]: deny, saying why. */
export function deniedBy(by: Exclude<ApprovalSource, 'approver' | 'host'>, reason: string): Approval {
  return { answer: 'deny', by, reason };
}
