import { deniedBy, type Approval } from '../model/approval.ts';
import type { ApprovalRequest, Approver, RuntimeTimers } from './types.ts';

/**
 * Asking the approver [P14]: every way an answer can fail ends in a denial that says why (fail closed), and
 * only an approver's own `allow` lets an ASK's action run.
 */

/** Default time an asynchronous approver may take. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

/** An approver's return value as an Approval; anything that is not an answer denies (`invalid`). */
export function readAnswer(value: unknown): Approval {
  if (value === 'allow' || value === 'deny') return { answer: value, by: 'approver' };
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const answer = (value as { answer?: unknown }).answer;
    const reason = (value as { reason?: unknown }).reason;
    if ((answer === 'allow' || answer === 'deny') && (reason === undefined || typeof reason === 'string')) {
      return reason !== undefined && reason !== '' ? { answer, by: 'approver', reason } : { answer, by: 'approver' };
    }
  }
  return deniedBy('invalid', `the approver answered ${describe(value)}, not "allow" or "deny"`);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    return String(value);
  }
}

function thrown(e: unknown): Approval {
  return deniedBy('error', `the approver failed: ${e instanceof Error ? e.message : String(e)}`);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Starts asking: the answer now when the approver answers synchronously (or there is none), else a promise of
 * it that never rejects and settles by the timeout when timers are given.
 */
export function ask(approver: Approver | undefined, request: ApprovalRequest, timeoutMs: number, timers: RuntimeTimers | undefined): Approval | Promise<Approval> {
  if (!approver) return deniedBy('no_approver', 'no approver is configured, so the ASK is denied (fail closed)');
  let value: unknown;
  try {
    value = approver(request);
  } catch (e) {
    return thrown(e);
  }
  if (!isThenable(value)) return readAnswer(value);
  return new Promise<Approval>((resolve) => {
    let done = false;
    const settle = (a: Approval) => {
      if (done) return;
      done = true;
      if (handle !== undefined) timers!.clear(handle);
      resolve(a);
    };
    const handle = timers?.set(timeoutMs, () => settle(deniedBy('timeout', `the approver did not answer within ${timeoutMs} ms, so the ASK is denied`)));
    value.then(
      (v) => settle(readAnswer(v)),
      (e) => settle(thrown(e)),
    );
  });
}

/** The answer `emit` gives when the approver could only answer later: denied, and the late answer ignored. */
export function deniedAsyncInSyncEmit(pending: Promise<Approval>): Approval {
  void pending; // it never rejects; its answer arrives too late to change a decision already returned
  return deniedBy('async_in_sync_emit', 'the approver answers asynchronously and emit() cannot wait: use emitAsync() or guard(); denied (fail closed)');
}
