import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import { contentText } from './contentText.ts';
import type { RecordStore } from '../../model/idIndex.ts';
import { heldValues, type HeldValues } from './heldValues.ts';
import type { TraceBuilder } from './traceBuilder.ts';

/**
 * Function-calling trajectories (SWE-agent ≥ 1.0) [I6]: walks `history` from the first real assistant
 * message. Each assistant message is a model call whose `tool_calls` are tool calls (name =
 * function.name, input = JSON.parse(function.arguments)); a role "tool" message answers the ids in its
 * `tool_call_ids`. Returns true when a `submit` call ran (its final answer follows its result).
 * The calls wait for their answers in `spool` when one is given (their inputs can be whole files), by id.
 */
export function importSweFunctionCalls(b: TraceBuilder, history: HeldValues, firstAssistant: number, info: JsonObject, model: string | undefined, spool?: RecordStore): boolean {
  const calls = new Map<string, { tool_name: string; at: number }>();
  const inputs = heldValues(spool);
  const answered = new Set<string>();
  let pending: JsonValue[] = history.slice(0, firstAssistant);
  let submitted = false;
  let n = 0;
  for (let i = firstAssistant; i < history.length; i++) {
    const m = history.get(i) as JsonObject;
    if (m.is_demo === true) continue;
    if (m.role === 'assistant') {
      const before: JsonObject = { messages: pending };
      if (model) before.model = model;
      pending = [];
      b.emit('model.before_call', `msg-${n}:model.before`, null, before);
      const after: JsonObject = { response: contentText(m.content), tool_calls: (m.tool_calls as JsonValue | undefined) ?? [] };
      if (model) after.model = model;
      if (typeof m.thought === 'string') after.thought = m.thought;
      b.emit('model.after_call', `msg-${n}:model.after`, null, after);
      n++;
      for (const tc of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
        if (!isJsonObject(tc)) continue;
        const fn = isJsonObject(tc.function) ? tc.function : {};
        const id = typeof tc.id === 'string' ? tc.id : `call-${calls.size}`;
        const call = { tool_name: String(fn.name ?? 'unknown'), tool_input: parseArguments(b, fn.arguments, id) };
        calls.set(id, { tool_name: call.tool_name, at: inputs.length });
        inputs.push(call.tool_input);
        b.emit('tool.before_call', `${id}:before`, null, { ...call, tool_use_id: id });
      }
      continue;
    }
    pending.push(m);
    if (m.role !== 'tool') continue;
    const ids = Array.isArray(m.tool_call_ids) ? m.tool_call_ids.filter((x): x is string => typeof x === 'string') : [];
    for (const id of ids) {
      const called = calls.get(id);
      const call = called ? { tool_name: called.tool_name, tool_input: inputs.get(called.at) as JsonObject } : { tool_name: 'unknown', tool_input: {} };
      if (!called) b.warn(`tool message answers ${id}, which no assistant message called`);
      answered.add(id);
      b.emit('tool.after_call', `${id}:after`, null, { ...call, tool_response: contentText(m.content), tool_use_id: id });
      if (call.tool_name === 'submit') {
        submitted = true;
        const text = typeof info.submission === 'string' ? info.submission : contentText(m.content);
        b.finalAnswer(id, null, { text });
      }
    }
  }
  for (const [id, c] of calls) if (!answered.has(id)) b.warn(`tool call ${id} (${c.tool_name}) has no result in history`);
  return submitted;
}

function parseArguments(b: TraceBuilder, raw: unknown, id: string): JsonObject {
  if (isJsonObject(raw)) return raw;
  if (typeof raw !== 'string') return {};
  try {
    const v = JSON.parse(raw) as unknown;
    if (isJsonObject(v)) return v;
  } catch {
    // fall through: kept as text below
  }
  b.warn(`tool call ${id}: arguments are not a JSON object; kept as tool_input.arguments`);
  return { arguments: raw };
}
