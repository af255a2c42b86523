import { deniedBy, type Approval } from '../model/approval.ts';
import { isJsonObject, toJson, type JsonObject, type JsonValue } from '../model/json.ts';
import { requireIsoTime } from '../model/time.ts';
import type { ApprovalRequest, Approver, RuntimeTimers } from './types.ts';

/**
 * Asking the approver [P14][AP1]: every way an answer can fail ends in a denial that says why (fail closed),
 * only an approver's own `allow` lets an ASK's action run, and nothing the approver does reaches what runs:
 * it is shown a frozen copy, and its answer is read once, as plain data.
 */

/** Default time an asynchronous approver may take. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

/** An answer that is not plain data: it denies, saying why. */
class NotPlain extends Error {}

/**
 * A plain-data copy of the approver's answer, read once [AP1]. A Proxy is refused where the platform can
 * tell (structuredClone refuses Proxies in V8, SpiderMonkey and JavaScriptCore alike), an accessor is refused
 * before it is called, and anything else that is not JSON (functions, cycles, class instances) is refused.
 */
function plainCopy(value: object): JsonObject {
  const clone = (globalThis as { structuredClone?: (v: unknown) => unknown }).structuredClone;
  if (clone) {
    try {
      clone(value);
    } catch (e) {
      throw new NotPlain(`cannot be copied as plain data (a Proxy, a getter that throws, a function): ${message(e)}`);
    }
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new NotPlain('is not a plain object');
  for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    if (!('value' in d)) throw new NotPlain(`has a getter or setter for "${key.slice(0, 40)}", not a plain value`);
  }
  let copy: JsonValue | undefined;
  try {
    copy = toJson(value);
  } catch (e) {
    throw new NotPlain(`is not JSON: ${message(e)}`);
  }
  if (copy === undefined || !isJsonObject(copy)) throw new NotPlain('is not a JSON object');
  return copy;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** An own field of a plain copy (`__proto__` and `constructor` are only names here). */
function field(o: JsonObject, key: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/**
 * An approver's return value as an Approval [P14][AP1]: `"allow"`, `"deny"` or `{answer, reason?, who?}`,
 * read once as plain data. Anything else (a Proxy, a getter, a throwing trap, a wrong type) denies (`invalid`).
 */
export function readAnswer(value: unknown): Approval {
  if (value === 'allow' || value === 'deny') return { answer: value, by: 'approver' };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid(`the approver answered ${describe(value)}, not "allow" or "deny"`);
  let o: JsonObject;
  try {
    o = plainCopy(value);
  } catch (e) {
    return invalid(`the approver's answer ${e instanceof NotPlain ? e.message : `could not be read: ${message(e)}`}; denied`);
  }
  const answer = field(o, 'answer');
  const reason = field(o, 'reason');
  const who = field(o, 'who');
  const edit = field(o, 'edit');
  for (const key of Object.keys(o)) {
    if (key !== 'answer' && key !== 'reason' && key !== 'who' && key !== 'edit') return invalid(`the approver's answer has the unknown field "${key.slice(0, 40)}" (an answer is {answer, reason?, who?, edit?})`);
  }
  if (answer !== 'allow' && answer !== 'deny') return invalid(`the approver answered ${describe(o)}, not "allow" or "deny"`);
  if (reason !== undefined && typeof reason !== 'string') return invalid(`the approver's reason is ${describe(reason)}, not text`);
  if (who !== undefined && (typeof who !== 'string' || who === '' || who.length > 200)) return invalid(`the approver's "who" is ${describe(who)}, not a name of 1-200 characters`);
  if (edit !== undefined && (answer !== 'allow' || !isJsonObject(edit))) return invalid(answer !== 'allow' ? 'the approver denied with an edit: an edit only comes with "allow"' : `the approver's edit is ${describe(edit)}, not a payload (a JSON object)`);
  return { answer, by: 'approver', ...(reason ? { reason } : {}), ...(who !== undefined ? { who } : {}), ...(edit !== undefined ? { edit: edit as JsonObject } : {}) };
}

function invalid(reason: string): Approval {
  return deniedBy('invalid', reason);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    return typeof value;
  }
}

function thrown(e: unknown): Approval {
  let text: string;
  try {
    text = message(e);
  } catch {
    text = 'an error that cannot be shown';
  }
  return deniedBy('error', `the approver failed: ${text}`);
}

/** `then` of a thenable, read once; a throwing read is the approver's failure. */
function thenOf(value: unknown): { then: ((ok: (v: unknown) => void, no: (e: unknown) => void) => unknown) | null } {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return { then: null };
  const then = (value as { then?: unknown }).then;
  return { then: typeof then === 'function' ? (then as (ok: (v: unknown) => void, no: (e: unknown) => void) => unknown).bind(value) : null };
}

/** A frozen deep copy of the request [AP1]: what the approver holds can change nothing that runs. */
export function frozenRequest(request: ApprovalRequest): ApprovalRequest {
  return deepFreeze(toJson(request) ?? {}) as unknown as ApprovalRequest;
}

function deepFreeze<T extends JsonValue>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const child of Object.values(v)) deepFreeze(child);
    Object.freeze(v);
  }
  return v;
}

/** When the answer arrived, on the runtime's clock [AP1]. */
function stamped(a: Approval, at: number): Approval {
  return Number.isFinite(at) ? { ...a, at: requireIsoTime(Math.floor(at)) } : a;
}

/**
 * Starts asking [P14][AP1]: the answer now when the approver answers synchronously (or there is none), else a
 * promise of it that never rejects and settles by the timeout when timers are given. A synchronous answer
 * that took longer than the timeout (by the runtime's clock) is late: ignored, and the ASK denied (`late`).
 */
export function ask(approver: Approver | undefined, request: ApprovalRequest, timeoutMs: number, timers: RuntimeTimers | undefined, clock: { now(): number }): Approval | Promise<Approval> {
  if (!approver) return deniedBy('no_approver', 'no approver is configured, so the ASK is denied (fail closed)');
  const started = clock.now();
  let value: unknown;
  let then: ReturnType<typeof thenOf>['then'];
  try {
    value = approver(frozenRequest(request));
  } catch (e) {
    return stamped(thrown(e), clock.now());
  }
  try {
    then = thenOf(value).then;
  } catch (e) {
    return stamped(invalid(`the approver's answer could not be read (a Proxy or a getter that throws): ${message(e)}; denied`), clock.now());
  }
  if (!then) {
    const now = clock.now();
    const answer = readAnswer(value);
    if (now - started > timeoutMs) {
      const said = answer.by === 'approver' ? `"${answer.answer}"` : 'no valid answer';
      return stamped(deniedBy('late', `the approver answered ${said} after ${Math.round(now - started)} ms, past the limit of ${timeoutMs} ms: the answer is ignored and the ASK denied`), now);
    }
    return stamped(answer, now);
  }
  return new Promise<Approval>((resolve) => {
    let done = false;
    const settle = (a: Approval) => {
      if (done) return;
      done = true;
      if (handle !== undefined) timers!.clear(handle);
      resolve(stamped(a, clock.now()));
    };
    const handle = timers?.set(timeoutMs, () => settle(deniedBy('timeout', `the approver did not answer within ${timeoutMs} ms, so the ASK is denied; a later answer is ignored`)));
    try {
      then(
        (v) => settle(readAnswer(v)),
        (e) => settle(thrown(e)),
      );
    } catch (e) {
      settle(thrown(e));
    }
  });
}

/** The answer `emit` gives when the approver could only answer later: denied, and the late answer ignored. */
export function deniedAsyncInSyncEmit(pending: Promise<Approval>): Approval {
  void pending; // it never rejects; its answer arrives too late to change a decision already returned
  return deniedBy('async_in_sync_emit', 'the approver answers asynchronously and emit() cannot wait: use emitAsync() or guard(); denied (fail closed)');
}
