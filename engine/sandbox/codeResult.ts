import { distance } from 'fastest-levenshtein';
import { DECISIONS, isDecision } from '../model/decision.ts';
import type { HookEvent } from '../model/event.ts';
import { isJsonObject, ownGet, type JsonObject, type JsonValue } from '../model/json.ts';
import type { CodeError, HandlerOutcome } from './types.ts';

/**
 * The contract between dispatch and user code [S2][S4][S5]: what code sees, and how what it returns becomes
 * a handler outcome or a matcher verdict. Results are checked here, on the host, whatever the sandbox did.
 */

/** Largest `new_payload`, in characters of JSON text ("1 MB") [S4]. */
export const MAX_PAYLOAD_CHARS = 1_000_000;

/** Every key a handler result may have [S4]. `state` is another name for `state_patch`. */
export const HANDLER_RESULT_KEYS = ['decision', 'reason', 'context', 'new_payload', 'state_patch', 'state'] as const;

/** Longest `context` text, in characters [S4][H11]. */
export const MAX_CONTEXT_CHARS = 100_000;

/** What dispatch knows when it calls code: the same fields `Scope` and `HandlerContext` carry. */
export interface CodeContextSource {
  readonly event: HookEvent;
  readonly payload: JsonObject;
  readonly state: JsonObject;
  readonly now: number;
}

/**
 * The `ctx` user code receives [S2]: `{ event: { type, event_id, trace_id, agent_id, ts }, payload, state,
 * meta, now }`. The payload is the current one (after earlier rewrites); the original event payload is not
 * repeated. `sandboxInput(scope).event.type === scope.event.type`.
 */
export function sandboxInput(ctx: CodeContextSource): JsonObject {
  const e = ctx.event;
  return {
    event: { type: e.type, event_id: e.event_id, trace_id: e.trace_id, agent_id: e.agent_id, ts: e.ts },
    payload: ctx.payload,
    state: ctx.state,
    meta: e.meta ?? {},
    now: ctx.now,
  };
}

type Read<T> = ({ ok: true } & T) | { ok: false; error: CodeError };

function invalid(message: string): { ok: false; error: CodeError } {
  return { ok: false, error: { kind: 'invalid_result', message } };
}

/** A short description of a value for messages: `a string ("abc")`, `an array`, `42`. */
export function describeValue(value: JsonValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  return Array.isArray(value) ? 'an array' : 'an object';
}

function unknownKey(key: string): string {
  let best = '';
  let bestDistance = Infinity;
  for (const known of HANDLER_RESULT_KEYS) {
    const d = distance(key.toLowerCase(), known);
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  const hint = bestDistance <= 3 ? ` (did you mean "${best}"?)` : '';
  return `the result has an unknown key ${JSON.stringify(key)}${hint}; a result may have ${HANDLER_RESULT_KEYS.join(', ')}`;
}

function readDecision(value: JsonValue | undefined): Read<{ decision: HandlerOutcome['decision'] }> {
  if (value === undefined) return { ok: true, decision: 'continue' };
  if (isDecision(value)) return { ok: true, decision: value };
  const lower = typeof value === 'string' ? value.toLowerCase() : '';
  const hint = isDecision(lower) ? ` (decisions are lower case: "${lower}")` : '';
  return invalid(`decision must be one of ${DECISIONS.join(', ')}; it is ${describeValue(value)}${hint}`);
}

function readObject(key: string, value: JsonValue | undefined): Read<{ value: JsonObject | undefined }> {
  if (value === undefined) return { ok: true, value: undefined };
  if (isJsonObject(value)) return { ok: true, value };
  return invalid(`${key} must be a JSON object; it is ${describeValue(value)}`);
}

/** A key whose value is `null` counts as absent, so `{ new_payload: null }` means "no rewrite". */
function field(result: JsonObject, key: string): JsonValue | undefined {
  const v = ownGet(result, key);
  return v === null ? undefined : v;
}

/**
 * Validates what a code handler returned [S4]. `undefined`/`null` → CONTINUE. Otherwise an object with only
 * the keys of `HANDLER_RESULT_KEYS`; `readHandlerResult({ decision: 'block_action', reason: 'no' })` →
 * `{ ok: true, outcome: { decision: 'block_action', reason: 'no' } }`.
 */
export function readHandlerResult(value: JsonValue | undefined): Read<{ outcome: HandlerOutcome }> {
  if (value === undefined || value === null) return { ok: true, outcome: { decision: 'continue' } };
  if (!isJsonObject(value)) {
    return invalid(`a handler must return an object such as { decision: "block_action", reason: "…" } or nothing (to continue); it returned ${describeValue(value)}`);
  }
  for (const key of Object.keys(value)) {
    if (!(HANDLER_RESULT_KEYS as readonly string[]).includes(key)) return invalid(unknownKey(key));
  }
  const decision = readDecision(field(value, 'decision'));
  if (!decision.ok) return decision;
  const outcome: HandlerOutcome = { decision: decision.decision };
  const reason = field(value, 'reason');
  if (reason !== undefined && typeof reason !== 'string') return invalid(`reason must be a string; it is ${describeValue(reason)}`);
  if (reason !== undefined) outcome.reason = reason;
  const context = field(value, 'context');
  if (context !== undefined && typeof context !== 'string') return invalid(`context must be a string; it is ${describeValue(context)}`);
  if (context !== undefined && context.length > MAX_CONTEXT_CHARS) {
    return { ok: false, error: { kind: 'too_large', message: `context is ${context.length} characters; the limit is ${MAX_CONTEXT_CHARS}` } };
  }
  if (context !== undefined && context !== '') outcome.context = context;
  const payload = readObject('new_payload', field(value, 'new_payload'));
  if (!payload.ok) return payload;
  if (payload.value) {
    const size = JSON.stringify(payload.value).length;
    if (size > MAX_PAYLOAD_CHARS) {
      return { ok: false, error: { kind: 'too_large', message: `new_payload is ${size} characters of JSON; the limit is ${MAX_PAYLOAD_CHARS}` } };
    }
    outcome.new_payload = payload.value;
  }
  if (field(value, 'state') !== undefined && field(value, 'state_patch') !== undefined) {
    return invalid('the result has both state and state_patch; they are the same thing, keep one');
  }
  const patch = readObject('state_patch', field(value, 'state_patch') ?? field(value, 'state'));
  if (!patch.ok) return patch;
  if (patch.value) outcome.state_patch = patch.value;
  return { ok: true, outcome };
}

/** Validates what a code matcher returned [S5]: only `true` or `false`. `readMatcherResult(true)` → `{ ok: true, pass: true }`. */
export function readMatcherResult(value: JsonValue | undefined): Read<{ pass: boolean }> {
  if (typeof value === 'boolean') return { ok: true, pass: value };
  return invalid(`a matcher must return true or false; it returned ${describeValue(value)}`);
}
