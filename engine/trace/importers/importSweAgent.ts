import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import { traceProblem } from '../traceProblem.ts';
import type { ImporterOptions, ImportResult } from './importReport.ts';
import { commandsFromSystemPrompt, parseSweAction, SWE_COMMANDS } from './parseSweAction.ts';
import { importSweFunctionCalls } from './importSweFunctionCalls.ts';
import { TraceBuilder } from './traceBuilder.ts';
import { heldValues, type HeldValues } from './heldValues.ts';
import { importKeyed, type KeyedImporter } from './keyedImporter.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { parseMaybeJson } from './otelAttributes.ts';
import { contentText } from './contentText.ts';

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
export function importSweAgent(doc: unknown, options: ImporterOptions = {}): ImportResult {
  return importKeyed(doc, sweAgentImporter(options));
}

/** The fields of a trajectory step the import reads (a step's `query`, the whole prompt again, is not kept). */
const STEP_FIELDS = ['action', 'observation', 'response', 'thought', 'state', 'execution_time'] as const;

/**
 * The same, fed as the file streams [I1]. Nothing can be emitted before the end: the steps are paired with the
 * assistant messages of `history`, written after them; whether the file uses function calling is known only from
 * all of `history`; the model and the trace id come from `replay_config`, written last. So the steps (their
 * fields above) and the messages are kept in `options.spool` (a temporary file in the CLI; memory without one)
 * with what the end needs to know of them, and the events are made from there at the end.
 */
export function sweAgentImporter(options: ImporterOptions, onEvent?: (event: TraceEvent) => void): KeyedImporter {
  const steps = heldValues(options.spool);
  const history = heldValues(options.spool);
  const scan = new HistoryScan();
  return {
    arrays: new Set(['trajectory', 'history']),
    needs: [],
    begin() {},
    element(key, value) {
      if (!isJsonObject(value)) return;
      if (key === 'history') {
        scan.add(value, history.length);
        history.push(value);
        return;
      }
      const step: JsonObject = {};
      for (const k of STEP_FIELDS) if (value[k] !== undefined) step[k] = value[k] as JsonValue;
      steps.push(step);
    },
    finish(shell, arrays) {
      if (!arrays.has('trajectory') && !arrays.has('history')) {
        return { ok: false, problem: traceProblem('bad_source', 0, 'expected a SWE-agent trajectory: an object with "trajectory" and "history" arrays', 'error', true) };
      }
      return emitTrajectory(shell, steps, history, scan, options, onEvent);
    },
  };
}

/** What the events need to know of `history` before walking it, gathered message by message. */
class HistoryScan {
  /** The first message's `agent`. */
  agent: JsonValue | null = null;
  /** The indices of the assistant messages that are not demonstrations. */
  readonly assistants: number[] = [];
  /** The first non-demo user message before the first assistant one (the issue). */
  issue = -1;
  functionCalling = false;
  /** Command names documented in the first system message. */
  commands: string[] | null = null;

  add(m: JsonObject, i: number): void {
    if (i === 0) this.agent = (m.agent as JsonValue | undefined) ?? null;
    if (this.commands === null && m.role === 'system') this.commands = commandsFromSystemPrompt(contentText(m.content));
    if (m.is_demo === true) return;
    if (m.role === 'user' && this.issue === -1 && this.assistants.length === 0) this.issue = i;
    if (m.role !== 'assistant') return;
    this.assistants.push(i);
    if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) this.functionCalling = true;
  }
}

/** Every event, from the members and the kept steps and messages. */
function emitTrajectory(shell: JsonObject, steps: HeldValues, history: HeldValues, scan: HistoryScan, options: ImporterOptions, onEvent?: (event: TraceEvent) => void): ImportResult {
  const info = isJsonObject(shell.info) ? shell.info : {};
  const config = replayConfig(shell.replay_config);
  const traceId = config.instanceId ?? options.fallbackTraceId ?? 'swe-agent';
  const b = new TraceBuilder('swe-agent', 'swe', traceId, 'swe-agent', options.ids);
  if (onEvent) b.streamTo(onEvent);
  const start: JsonObject = { environment: shell.environment ?? null, agent: scan.agent };
  if (config.model) start.model = config.model;
  if (config.instanceId) start.instance_id = config.instanceId;
  b.emit('agent.start', 'start', null, start);

  const firstAssistant = scan.assistants[0] ?? history.length;
  if (scan.issue !== -1) b.emit('input.received', 'input', null, { prompt: contentText((history.get(scan.issue) as JsonObject).content) });
  if (firstAssistant > 0) b.emit('prompt.built', 'prompt', null, { messages: history.slice(0, firstAssistant) });

  const submitted = scan.functionCalling
    ? importSweFunctionCalls(b, history, firstAssistant, info, config.model, options.spool)
    : oldFormatSteps(b, history, steps, scan, info, config.model);
  if (!submitted && typeof info.submission === 'string' && info.submission !== '') {
    b.emit('final_answer.before', 'final.before', null, { text: info.submission, source: 'info.submission' });
    b.emit('final_answer.after', 'final.after', null, { text: info.submission, source: 'info.submission' });
  }
  const exit = typeof info.exit_status === 'string' ? info.exit_status : null;
  if (exit !== null && !exit.startsWith('submitted')) b.emit('agent.error', 'error', null, { error: exit });
  b.emit('agent.end', 'end', null, { status: exit ?? 'unknown', model_stats: info.model_stats ?? null });
  b.note('a .traj has no timestamps: events are one synthetic second apart, from 1970-01-01T00:00:00Z');
  const source: JsonObject = { kind: 'swe-agent', format: scan.functionCalling ? 'function_calling' : 'action_string' };
  if (options.fileName) source.file_name = options.fileName;
  return b.finish(source as JsonObject & { kind: string }, steps.length + history.length);
}

/** Old format: trajectory steps paired with the non-demo assistant messages. Returns true when `submit` ran. */
function oldFormatSteps(b: TraceBuilder, history: HeldValues, steps: HeldValues, scan: HistoryScan, info: JsonObject, model: string | undefined): boolean {
  const commands = new Set([...SWE_COMMANDS, ...(scan.commands ?? [])]);
  const assistants = scan.assistants;
  if (assistants.length !== steps.length) b.warn(`${steps.length} trajectory steps but ${assistants.length} assistant messages in history; paired in order`);
  let submitted = false;
  for (let i = 0; i < steps.length; i++) {
    const step = steps.get(i) as JsonObject;
    const at = assistants[i];
    const from = i === 0 ? 0 : (assistants[i - 1] ?? -1) + 1;
    const before: JsonObject = {};
    if (model) before.model = model;
    if (at !== undefined) before.messages = history.slice(from, at);
    b.emit('model.before_call', `step-${i}:model.before`, null, before);
    const after: JsonObject = { response: contentText(step.response ?? (at !== undefined ? (history.get(at) as JsonObject).content : '')) };
    if (model) after.model = model;
    if (typeof step.thought === 'string') after.thought = step.thought;
    b.emit('model.after_call', `step-${i}:model.after`, null, after);
    const action = typeof step.action === 'string' ? step.action : '';
    if (action.trim() === '') {
      b.warn(`step ${i} has no action: no tool call`);
      continue;
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
  }
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
