import { isDecision } from '../model/decision.ts';
import { isJsonObject, ownGet, toJson, type JsonObject, type JsonValue } from '../model/json.ts';
import type { HandlerContext, HandlerOutcome } from '../dispatch/types.ts';
import type { CodeError } from './types.ts';

/** Largest payload a code handler may return, serialized. */
export const MAX_RESULT_BYTES = 1024 * 1024;

/** What user code sees as `ctx`: plain JSON, no host objects. */
export function sandboxInput(ctx: HandlerContext): JsonObject {
  const e = ctx.event;
  return {
    event: { event_id: e.event_id, trace_id: e.trace_id, agent_id: e.agent_id, type: e.type, ts: e.ts },
    payload: ctx.payload,
    state: ctx.state,
    meta: e.meta ?? {},
    now: ctx.now,
  };
}

const RESULT_KEYS = new Set(['decision', 'reason', 'new_payload', 'state', 'state_patch']);

const invalid = (message: string): { ok: false; error: CodeError } => ({ ok: false, error: { kind: 'invalid_result', message } });

/** Validates a code handler's return value. `undefined`/`null` mean CONTINUE. */
export function readHandlerResult(value: JsonValue | undefined): { ok: true; outcome: HandlerOutcome } | { ok: false; error: CodeError } {
  if (value === undefined || value === null) return { ok: true, outcome: { decision: 'continue' } };
  if (!isJsonObject(value)) return invalid(`a handler must return an object such as {decision: "continue"}, got ${describe(value)}`);
  const unknown = Object.keys(value).filter((k) => !RESULT_KEYS.has(k));
  if (unknown.length) return invalid(`unknown result field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} (allowed: decision, reason, new_payload, state)`);
  const decision = ownGet(value, 'decision') ?? 'continue';
  if (!isDecision(decision)) return invalid(`unknown decision ${JSON.stringify(decision)}; use "continue", "stop_propagation", "block_action" or "terminate"`);
  const reason = ownGet(value, 'reason');
  if (reason !== undefined && reason !== null && typeof reason !== 'string') return invalid('"reason" must be a string');
  const outcome: HandlerOutcome = { decision };
  if (typeof reason === 'string') outcome.reason = reason;
  const payload = ownGet(value, 'new_payload');
  if (payload !== undefined && payload !== null) {
    if (!isJsonObject(payload)) return invalid(`"new_payload" must be an object, got ${describe(payload)}`);
    const size = JSON.stringify(payload).length;
    if (size > MAX_RESULT_BYTES) return { ok: false, error: { kind: 'too_large', message: `"new_payload" is ${size} bytes; the limit is ${MAX_RESULT_BYTES}` } };
    outcome.new_payload = toJson(payload) as JsonObject;
  }
  const state = ownGet(value, 'state') ?? ownGet(value, 'state_patch');
  if (state !== undefined && state !== null) {
    if (!isJsonObject(state)) return invalid(`"state" must be an object of keys to set, got ${describe(state)}`);
    outcome.state_patch = state;
  }
  return { ok: true, outcome };
}

/** Validates a code matcher's return value: only a boolean is valid [M8]. */
export function readMatcherResult(value: JsonValue | undefined): { ok: true; pass: boolean } | { ok: false; error: CodeError } {
  if (typeof value === 'boolean') return { ok: true, pass: value };
  return invalid(`a matcher must return true or false, got ${describe(value)}`);
}

function describe(value: JsonValue | undefined): string {
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value).slice(0, 40)}`;
}
