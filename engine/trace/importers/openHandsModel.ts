import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import type { TraceBuilder } from './traceBuilder.ts';

function firstMessage(tcm: JsonObject): JsonObject {
  const resp = isJsonObject(tcm.model_response) ? tcm.model_response : {};
  const choice = Array.isArray(resp.choices) && isJsonObject(resp.choices[0]) ? resp.choices[0] : {};
  return isJsonObject(choice.message) ? choice.message : {};
}

function parseArgs(raw: unknown): JsonObject | null {
  if (isJsonObject(raw)) return raw;
  if (typeof raw !== 'string') return null;
  try {
    const v = JSON.parse(raw) as unknown;
    return isJsonObject(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * Emits model.before_call / model.after_call for the first action of a model response [I7]: one LLM
 * response can hold several tool calls, each its own action sharing `model_response.id`.
 */
export function openHandsModelCall(b: TraceBuilder, tcm: JsonObject, ts: string | null, seen: Set<string>): void {
  const resp = isJsonObject(tcm.model_response) ? tcm.model_response : {};
  const rid = typeof resp.id === 'string' ? resp.id : null;
  if (rid === null || seen.has(rid)) return;
  seen.add(rid);
  const msg = firstMessage(tcm);
  const blocks: JsonValue[] = [];
  if (typeof msg.content === 'string' && msg.content !== '') blocks.push({ type: 'text', text: msg.content });
  for (const tc of Array.isArray(msg.tool_calls) ? msg.tool_calls : []) {
    if (!isJsonObject(tc)) continue;
    const fn = isJsonObject(tc.function) ? tc.function : {};
    blocks.push({ type: 'tool_use', id: (tc.id as JsonValue | undefined) ?? null, name: String(fn.name ?? ''), input: parseArgs(fn.arguments) ?? { arguments: fn.arguments ?? null } });
  }
  const model = typeof resp.model === 'string' ? resp.model : undefined;
  const before: JsonObject = { response_id: rid };
  if (model) before.model = model;
  b.emit('model.before_call', `${rid}:model.before`, ts, before);
  const after: JsonObject = { response_id: rid, response: blocks };
  if (model) after.model = model;
  const usage = isJsonObject(resp.usage) ? resp.usage : null;
  if (usage) {
    const u: JsonObject = {};
    if (typeof usage.prompt_tokens === 'number') u.input_tokens = usage.prompt_tokens;
    if (typeof usage.completion_tokens === 'number') u.output_tokens = usage.completion_tokens;
    after.usage = u;
  }
  const choice = Array.isArray(resp.choices) && isJsonObject(resp.choices[0]) ? resp.choices[0] : {};
  if (choice.finish_reason !== undefined) after.stop_reason = choice.finish_reason;
  b.emit('model.after_call', `${rid}:model.after`, ts, after);
}

/** A tool call's input: the arguments the model gave for this call id, else the action's args. */
export function openHandsToolInput(tcm: JsonObject | null, args: JsonObject): JsonObject {
  if (tcm) {
    const msg = firstMessage(tcm);
    for (const tc of Array.isArray(msg.tool_calls) ? msg.tool_calls : []) {
      if (!isJsonObject(tc) || tc.id !== tcm.tool_call_id) continue;
      const fn = isJsonObject(tc.function) ? tc.function : {};
      const parsed = parseArgs(fn.arguments);
      if (parsed) return parsed;
    }
  }
  return args;
}

/**
 * The model call behind a text-only agent message [I7]. Its response id is the event's `response_id`,
 * else the one of the last `llm_metrics.token_usages` entry, else `event-<id>`; a response id already
 * seen (from a tool call's metadata) is the same call and emits nothing. Usage comes from the
 * token_usages entry of that response.
 */
export function openHandsTextCall(b: TraceBuilder, ev: JsonObject, id: string, ts: string | null, seen: Set<string>): void {
  const metrics = isJsonObject(ev.llm_metrics) ? ev.llm_metrics : {};
  const usages = (Array.isArray(metrics.token_usages) ? metrics.token_usages : []).filter(isJsonObject) as JsonObject[];
  const lastUsage = usages[usages.length - 1];
  const rid = typeof ev.response_id === 'string' && ev.response_id !== '' ? ev.response_id : typeof lastUsage?.response_id === 'string' ? lastUsage.response_id : `event-${id}`;
  if (seen.has(rid)) return;
  seen.add(rid);
  const usage = usages.find((u) => u.response_id === rid) ?? (rid.startsWith('event-') ? undefined : lastUsage);
  const model = typeof usage?.model === 'string' && usage.model !== '' ? usage.model : undefined;
  const args = isJsonObject(ev.args) ? ev.args : {};
  const text = String(args.content ?? ev.message ?? '');
  const before: JsonObject = { response_id: rid };
  if (model) before.model = model;
  b.emit('model.before_call', `${rid}:model.before`, ts, before);
  const after: JsonObject = { response_id: rid, response: text === '' ? [] : [{ type: 'text', text }] };
  if (model) after.model = model;
  if (usage) {
    const u: JsonObject = {};
    if (typeof usage.prompt_tokens === 'number') u.input_tokens = usage.prompt_tokens;
    if (typeof usage.completion_tokens === 'number') u.output_tokens = usage.completion_tokens;
    after.usage = u;
  }
  b.emit('model.after_call', `${rid}:model.after`, ts, after);
}
