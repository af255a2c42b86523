import type { Decision } from './decision.ts';
import { blocksAction } from './decision.ts';
import type { EventMode } from './event.ts';
import type { JsonObject } from './json.ts';

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
export type ApprovalSource = 'approver' | 'no_approver' | 'error' | 'timeout' | 'late' | 'invalid' | 'async_in_sync_emit' | 'host' | 'unrecorded';

export const APPROVAL_ANSWERS: readonly ApprovalAnswer[] = ['allow', 'deny', 'deferred'];
export const APPROVAL_SOURCES: readonly ApprovalSource[] = ['approver', 'no_approver', 'error', 'timeout', 'late', 'invalid', 'async_in_sync_emit', 'host', 'unrecorded'];

export interface Approval {
  answer: ApprovalAnswer;
  by: ApprovalSource;
  /** The approver's reason, or why the default answered. */
  reason?: string;
  /** Who answered, as the approver named them (`{answer, who}`) [AP1]. */
  who?: string;
  /** When the answer arrived (ISO 8601, the runtime's clock) [AP1]. */
  at?: string;
  /**
   * Approved with an edit [AP2]: the payload the approver wants run instead. The call shown does not run; the
   * edit is dispatched through the pipeline again as an event of its own, and that event's decision counts.
   */
  edit?: JsonObject;
}

/**
 * Whether the event's action must not run [P3][D9]: BLOCK_ACTION and TERMINATE on a sync event always; ASK on a
 * sync event unless the answer allows it (a deferred answer leaves it to the host). `actionBlocked('ask', 'sync', {answer: 'deny', by: 'approver'}) === true`.
 */
export function actionBlocked(decision: Decision, mode: EventMode, approval: Approval | null | undefined): boolean {
  if (mode !== 'sync') return false;
  // An approval with an edit [AP2] does not run the call shown: the edited call is an event of its own.
  if (decision === 'ask') return !approval || approval.answer === 'deny' || approval.edit !== undefined;
  return blocksAction(decision);
}

/**
 * What came of an ASK, as people read it [AP1]: approved, denied (by the approver or a fail-closed default),
 * unanswered (no approver, the time limit passed), late (an answer after the time limit, ignored), or asked
 * in the host.
 */
export type ApprovalOutcome = 'approved' | 'denied' | 'unanswered' | 'late' | 'deferred';

/** The outcome of an answer [AP1]: `approvalOutcome({answer: 'deny', by: 'timeout'}) === 'unanswered'`. */
export function approvalOutcome(a: Approval): ApprovalOutcome {
  if (a.answer === 'deferred') return 'deferred';
  if (a.by === 'late') return 'late';
  if (a.by === 'timeout' || a.by === 'no_approver') return 'unanswered';
  return a.answer === 'allow' ? 'approved' : 'denied';
}

const SOURCE_TEXT: Record<ApprovalSource, string> = {
  approver: 'by the approver',
  no_approver: 'no approver was configured',
  error: 'the approver failed',
  timeout: 'no answer within the time limit',
  late: 'the answer came after the time limit and was ignored',
  invalid: 'the approver gave no valid answer',
  async_in_sync_emit: 'emit() could not wait for the approver',
  host: "by the host's own prompt",
  unrecorded: 'the trace recorded no answer',
};

/**
 * One line on an ASK's answer, shared by `hookwire replay` and the debugger [AP1]:
 * `ask → approved by alice at 2026-03-01T10:00:02.000Z`, `ask → denied (the approver failed: …)`,
 * `ask → late (…)`, `ask → unanswered (…)`.
 */
export function approvalText(a: Approval): string {
  const outcome = approvalOutcome(a);
  const by = a.by === 'approver' ? `by ${a.who !== undefined ? a.who : 'the approver'}` : SOURCE_TEXT[a.by];
  const at = a.at !== undefined ? ` at ${a.at}` : '';
  const reason = `${a.reason ? `: ${a.reason}` : ''}${a.edit !== undefined ? ' (with an edit, dispatched again as its own event)' : ''}`;
  if (a.by === 'approver' || a.by === 'host') return `ask → ${outcome} ${by}${at}${reason}`;
  return `ask → ${outcome} (${by}${reason})${at}`;
}

/** The fail-closed answer [P14]: deny, saying why. */
export function deniedBy(by: Exclude<ApprovalSource, 'approver' | 'host'>, reason: string): Approval {
  return { answer: 'deny', by, reason };
}
