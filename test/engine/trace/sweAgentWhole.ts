// The SWE-agent import as it was before it streamed (importSweAgent.ts and importSweFunctionCalls.ts at 1252f93):
// the oracle of the streamed import's property test [I1], which must give the same for any file and any chunking.
import { isJsonObject, type JsonObject, type JsonValue } from '../../../engine/model/json.ts';
import { traceProblem } from '../../../engine/trace/traceProblem.ts';
import type { ImporterOptions, ImportResult } from '../../../engine/trace/importers/importReport.ts';
import { commandsFromSystemPrompt, parseSweAction, SWE_COMMANDS } from '../../../engine/trace/importers/parseSweAction.ts';
import { TraceBuilder } from '../../../engine/trace/importers/traceBuilder.ts';
import { parseMaybeJson } from '../../../engine/trace/importers/otelAttributes.ts';
import { contentText } from '../../../engine/trace/importers/contentText.ts';

/**
 * SWE-agent trajectory (.traj) → trace v1. Rules [I6]. A .traj has no timestamps: every event's time is
 * synthesised (the report says so). Event ids are `swe:step-<i>:<role>` (old format) or
 * `swe:<tool_call_id>:<role>` (function calling).
 *
 * | source                                                   | event(s)                               | payload                                    |
 * |----------------------------------------------------------|----------------------------------------|--------------------------------------------|
 * | the file                                                 | agent.start                            | environment, agent, model, instance_id     |
 * | first non-demo user message of `history` (the issue)     | input.received                         | prompt                                     |
 * | history before the first real assistant message          | prompt.built                           | messages (system, demonstrations, issue)   |
 * | each assistant message / trajectory step                 | model.before_call + model.after_call   | messages new since the last call;          |
 * |                                                          |                                        | response, thought                          |
 * | old: trajectory[i].action                                | tool.before_call                       | parseSweAction: SWE command, else bash     |
 * | old: trajectory[i].observation                           | tool.after_call                        | tool_response, state                       |
 * | function calling: tool_calls[j] / role "tool" message    | tool.before_call / tool.after_call     | function.name, JSON.parse(arguments) /     |
 * |                                                          |                                        | content                                    |
 * | action `submit` (or info.submission without one)         | final_answer.before + final_answer.after | text = info.submission                   |
 * | info.exit_status not "submitted…"                        | agent.error                            | error = exit_status                        |
 * | end of file                                              | agent.end                              | status = exit_status, model_stats          |
 */
export function importSweAgentWhole(doc: unknown, options: ImporterOptions = {}): ImportResult {
  if (!isJsonObject(doc) || !(Array.isArray(doc.trajectory) || Array.isArray(doc.history))) {
    return { ok: false, problem: traceProblem('bad_source', 0, 'expected a SWE-agent trajectory: an object with "trajectory" and "history" arrays', 'error', true) };
  }
  const history = (Array.isArray(doc.history) ? doc.history : []).filter(isJsonObject) as JsonObject[];
  const steps = (Array.isArray(doc.trajectory) ? doc.trajectory : []).filter(isJsonObject) as JsonObject[];
  const info = isJsonObject(doc.info) ? doc.info : {};
  const config = replayConfig(doc.replay_config);
  const traceId = config.instanceId ?? options.fallbackTraceId ?? 'swe-agent';
  const b = new TraceBuilder('swe-agent', 'swe', traceId, 'swe-agent');
  const start: JsonObject = { environment: doc.environment ?? null, agent: history[0]?.agent ?? null };
  if (config.model) start.model = config.model;
  if (config.instanceId) start.instance_id = config.instanceId;
  b.emit('agent.start', 'start', null, start);

  const real = history.map((m, i) => ({ m, i })).filter(({ m }) => m.is_demo !== true);
  const assistants = real.filter(({ m }) => m.role === 'assistant').map(({ i }) => i);
  const firstAssistant = assistants[0] ?? history.length;
  const issue = real.find(({ m, i }) => m.role === 'user' && i < firstAssistant);
  if (issue) b.emit('input.received', 'input', null, { prompt: contentText(issue.m.content) });
  if (firstAssistant > 0) b.emit('prompt.built', 'prompt', null, { messages: history.slice(0, firstAssistant) });

  const functionCalling = real.some(({ m }) => m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0);
  const submitted = functionCalling
    ? importSweFunctionCalls(b, history, firstAssistant, info, config.model)
    : oldFormatSteps(b, history, steps, assistants, info, config.model);
  if (!submitted && typeof info.submission === 'string' && info.submission !== '') {
    b.emit('final_answer.before', 'final.before', null, { text: info.submission, source: 'info.submission' });
    b.emit('final_answer.after', 'final.after', null, { text: info.submission, source: 'info.submission' });
  }
  const exit = typeof info.exit_status === 'string' ? info.exit_status : null;
  if (exit !== null && !exit.startsWith('submitted')) b.emit('agent.error', 'error', null, { error: exit });
  b.emit('agent.end', 'end', null, { status: exit ?? 'unknown', model_stats: info.model_stats ?? null });
  b.note('a .traj has no timestamps: events are one synthetic second apart, from 1970-01-01T00:00:00Z');
  const source: JsonObject = { kind: 'swe-agent', format: functionCalling ? 'function_calling' : 'action_string' };
  if (options.fileName) source.file_name = options.fileName;
  return b.finish(source as JsonObject & { kind: string }, steps.length + history.length);
}

/** Old format: trajectory steps paired with the non-demo assistant messages. Returns true when `submit` ran. */
function oldFormatSteps(b: TraceBuilder, history: JsonObject[], steps: JsonObject[], assistants: number[], info: JsonObject, model: string | undefined): boolean {
  const system = history.find((m) => m.role === 'system');
  const commands = new Set([...SWE_COMMANDS, ...commandsFromSystemPrompt(contentText(system?.content))]);
  if (assistants.length !== steps.length) b.warn(`${steps.length} trajectory steps but ${assistants.length} assistant messages in history; paired in order`);
  let submitted = false;
  steps.forEach((step, i) => {
    const at = assistants[i];
    const from = i === 0 ? 0 : (assistants[i - 1] ?? -1) + 1;
    const before: JsonObject = {};
    if (model) before.model = model;
    if (at !== undefined) before.messages = history.slice(from, at);
    b.emit('model.before_call', `step-${i}:model.before`, null, before);
    const after: JsonObject = { response: contentText(step.response ?? (at !== undefined ? history[at]?.content : '')) };
    if (model) after.model = model;
    if (typeof step.thought === 'string') after.thought = step.thought;
    b.emit('model.after_call', `step-${i}:model.after`, null, after);
    const action = typeof step.action === 'string' ? step.action : '';
    if (action.trim() === '') {
      b.warn(`step ${i} has no action: no tool call`);
      return;
    }
    const call = parseSweAction(action, commands);
    const useId = `step-${i}`;
    b.emit('tool.before_call', `step-${i}:tool.before`, null, { ...call, tool_use_id: useId });
    const result: JsonObject = { ...call, tool_response: (step.observation as JsonValue | undefined) ?? null, tool_use_id: useId };
    if (typeof step.state === 'string' || isJsonObject(step.state)) result.state = parseMaybeJson(step.state as JsonValue).value;
    if (typeof step.execution_time === 'number') result.execution_time = step.execution_time;
    b.emit('tool.after_call', `step-${i}:tool.after`, null, result);
    if (call.tool_name === 'submit') {
      submitted = true;
      const text = typeof info.submission === 'string' ? info.submission : contentText(step.observation);
      b.finalAnswer(`step-${i}`, null, { text });
    }
  });
  return submitted;
}

/** The replay_config (a JSON string in newer files): model name and instance id, when present. */
function replayConfig(raw: unknown): { model?: string; instanceId?: string } {
  const cfg = typeof raw === 'string' ? parseMaybeJson(raw).value : raw;
  if (!isJsonObject(cfg)) return {};
  const out: { model?: string; instanceId?: string } = {};
  const agent = isJsonObject(cfg.agent) ? cfg.agent : {};
  const m = isJsonObject(agent.model) ? agent.model : {};
  const model = m.name ?? m.model_name;
  if (typeof model === 'string') out.model = model;
  const ps = isJsonObject(cfg.problem_statement) ? cfg.problem_statement : {};
  const id = ps.id ?? cfg.instance_id;
  if (typeof id === 'string' && id !== '') out.instanceId = id;
  return out;
}

/**
 * Function-calling trajectories (SWE-agent ≥ 1.0) [I6]: walks `history` from the first real assistant
 * message. Each assistant message is a model call whose `tool_calls` are tool calls (name =
 * function.name, input = JSON.parse(function.arguments)); a role "tool" message answers the ids in its
 * `tool_call_ids`. Returns true when a `submit` call ran (its final answer follows its result).
 */
export function importSweFunctionCalls(b: TraceBuilder, history: JsonObject[], firstAssistant: number, info: JsonObject, model: string | undefined): boolean {
  const calls = new Map<string, { tool_name: string; tool_input: JsonObject }>();
  const answered = new Set<string>();
  let pending: JsonObject[] = history.slice(0, firstAssistant);
  let submitted = false;
  let n = 0;
  for (let i = firstAssistant; i < history.length; i++) {
    const m = history[i] as JsonObject;
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
        calls.set(id, call);
        b.emit('tool.before_call', `${id}:before`, null, { ...call, tool_use_id: id });
      }
      continue;
    }
    pending.push(m);
    if (m.role !== 'tool') continue;
    const ids = Array.isArray(m.tool_call_ids) ? m.tool_call_ids.filter((x): x is string => typeof x === 'string') : [];
    for (const id of ids) {
      const call = calls.get(id) ?? { tool_name: 'unknown', tool_input: {} };
      if (!calls.has(id)) b.warn(`tool message answers ${id}, which no assistant message called`);
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
