import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import { traceProblem } from '../traceProblem.ts';
import { messageText } from './contentText.ts';
import type { ImporterOptions, ImportResult } from './importReport.ts';
import { parseMaybeJson } from './otelAttributes.ts';
import { TraceBuilder } from './traceBuilder.ts';
import { importKeyed, type KeyedImporter } from './keyedImporter.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { toIsoTs } from './toIsoTs.ts';

/** The action block of the text-based formats: v1 ```bash, v2 ```mswea_bash_command. */
const ACTION_BLOCK = /```(?:bash|mswea_bash_command)[ \t]*\r?\n([\s\S]*?)\r?\n```/g;
const SUBMIT_MARKERS = ['MINI_SWE_AGENT_FINAL_OUTPUT', 'COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT'];

/**
 * mini-swe-agent trajectory (`*.traj.json`: `{info, messages, trajectory_format}`) → trace v1 [I10].
 * Every assistant message is one model call (mini-swe-agent makes one call per step); its action is one
 * bash call: the v2 tool call (`tool_calls`, answered by a `tool` message), else `extra.actions`, else
 * the one ```bash / ```mswea_bash_command block of the text (v1 and v2 text-based; answered by the next
 * `user` message, `<returncode>` read). Event ids are `mini:msg-<index>:<role>`.
 *
 * | message                                  | event(s)                                    | payload                                      |
 * |------------------------------------------|---------------------------------------------|----------------------------------------------|
 * | (start)                                  | agent.start [synth]                         | model, mini_version                           |
 * | first `user` message                     | input.received, prompt.built                | prompt; messages (system + task)             |
 * | `assistant`                              | model.before_call + model.after_call        | model; response (text), usage, cost          |
 * | its action                               | tool.before_call                            | tool_name "bash", tool_input {command}, id   |
 * | `tool` message, or the next `user` one   | tool.after_call                             | tool_response, returncode, is_error          |
 * | `user` after a message without an action | context.added (format error or feedback)    | text                                         |
 * | `exit` message, info                     | final_answer.* (submission), agent.error    | text; error = exit status when not submitted |
 * | (end)                                    | agent.end [synth]                           | status = info.exit_status                    |
 *
 * Trajectories have no time unless `extra.timestamp` is given; others are synthesised.
 */
export function importMiniSweAgent(doc: unknown, options: ImporterOptions = {}): ImportResult {
  return importKeyed(doc, miniSweAgentImporter(options));
}

/**
 * The same, fed as the trajectory streams [I1]: `info` first (the messages wait for it), then one message at a
 * time. `trajectory_format`, which mini-swe-agent writes after the messages, goes in the header's source.
 */
export function miniSweAgentImporter(options: ImporterOptions, onEvent?: (event: TraceEvent) => void): KeyedImporter {
  const b = new TraceBuilder('mini-swe-agent', 'mini', options.fallbackTraceId ?? 'mini-swe-agent', 'mini-swe-agent', options.ids);
  if (onEvent) b.streamTo(onEvent);
  let info: JsonObject = {};
  let model: string | null = null;
  let started = false;
  /** The messages up to the first `user` one, for prompt.built; dropped once it came. */
  let prompt: JsonObject[] | null = [];
  let open: { id: string; command: string }[] = [];
  let submitted = false;
  let objects = 0;
  const start = (ts: string | null): void => {
    if (started) return;
    started = true;
    const p: JsonObject = { synthesised: true };
    if (model) p.model = model;
    if (typeof info.mini_version === 'string') p.mini_version = info.mini_version;
    b.emit('agent.start', 'start', ts, p);
  };
  const message = (m: JsonObject, i: number): void => {
    const ts = msgTs(m);
    start(ts);
    const text = messageText(m);
    const id = `msg-${i}`;
    if (prompt) prompt.push(plainMessage(m));
    if (m.role === 'system') return b.annotate('system', { length: text.length });
    if (m.role === 'user' && prompt) {
      b.emit('input.received', `${id}:input`, ts, { prompt: text });
      b.emit('prompt.built', `${id}:prompt`, ts, { messages: prompt });
      prompt = null;
      return;
    }
    if (m.role === 'assistant') {
      open = onAssistant(b, m, id, ts, model, text);
      if (open.some((a) => SUBMIT_MARKERS.some((k) => a.command.includes(k)))) submitted = true;
      return;
    }
    if (m.role === 'tool' || (m.role === 'user' && open.length > 0)) {
      const callId = typeof m.tool_call_id === 'string' ? m.tool_call_id : null;
      const k = callId ? open.findIndex((a) => a.id === callId) : 0;
      const call = open.splice(k === -1 ? 0 : k, 1)[0];
      if (!call) return b.dropRecord(`${String(m.role)}:(no open action)`, 0, `message ${i} (role ${String(m.role)}) answers no open action: its output has no tool call to belong to`);
      b.emit('tool.after_call', `${id}:tool.after`, ts, observation(call, text));
      return;
    }
    if (m.role === 'user') return void b.emit('context.added', `${id}:context`, ts, { role: 'user', text });
    if (m.role === 'exit') return b.annotate('exit', { extra: (m.extra as JsonValue | undefined) ?? null });
    b.unknownRecord(`message:${String(m.role)}`, 0, m, `message ${i}: `);
  };
  return {
    arrays: new Set(['messages']),
    needs: ['info'],
    begin(shell) {
      info = isJsonObject(shell.info) ? shell.info : {};
      const config = isJsonObject(info.config) ? info.config : {};
      const modelCfg = isJsonObject(config.model) ? config.model : {};
      model = typeof modelCfg.model_name === 'string' ? modelCfg.model_name : null;
    },
    element(_key, m, index) {
      // A message that is not an object is listed, not skipped silently [I11].
      if (!isJsonObject(m)) return b.dropRecord('(message not an object)', 0, `messages[${index - 1}] is not a JSON object`);
      message(m, objects++);
    },
    finish(shell, arrays) {
      const count = arrays.get('messages');
      if (count === undefined) return { ok: false, problem: traceProblem('bad_source', 0, 'expected a mini-swe-agent trajectory: {"info": {...}, "messages": [...]}', 'error', true) };
      start(null);
      for (const a of open) b.warn(`action ${a.id} (${a.command.slice(0, 60)}) has no output`);
      const exit = typeof info.exit_status === 'string' ? info.exit_status : null;
      const submission = typeof info.submission === 'string' ? info.submission : null;
      if (submission !== null && (submitted || exit === 'Submitted')) {
        b.emit('final_answer.before', 'final.before', null, { text: submission, exit_status: exit });
        b.emit('final_answer.after', 'final.after', null, { text: submission, exit_status: exit });
      }
      if (exit !== null && exit !== 'Submitted') b.emit('agent.error', 'error', null, { error: exit, submission });
      b.emit('agent.end', 'end', null, { status: exit ?? 'unknown', synthesised: true });
      const source: JsonObject = { kind: 'mini-swe-agent' };
      if (typeof info.mini_version === 'string') source.mini_version = info.mini_version;
      if (typeof shell.trajectory_format === 'string') source.trajectory_format = shell.trajectory_format;
      if (options.fileName) source.file_name = options.fileName;
      return b.finish(source as JsonObject & { kind: string }, count);
    },
  };
}

function msgTs(m: JsonObject | undefined): string | null {
  const extra = m && isJsonObject(m.extra) ? m.extra : {};
  return toIsoTs(extra.timestamp)?.iso ?? null;
}

function plainMessage(m: JsonObject): JsonObject {
  return { role: (m.role as JsonValue | undefined) ?? null, content: messageText(m) };
}

/** The model call and its actions; returns the actions waiting for their output. */
function onAssistant(b: TraceBuilder, m: JsonObject, id: string, ts: string | null, model: string | null, text: string): { id: string; command: string }[] {
  const extra = isJsonObject(m.extra) ? m.extra : {};
  const before: JsonObject = {};
  if (model) before.model = model;
  b.emit('model.before_call', `${id}:model.before`, ts, before);
  const after: JsonObject = { response: text };
  if (model) after.model = model;
  const response = isJsonObject(extra.response) ? extra.response : null;
  const usage = response && isJsonObject(response.usage) ? response.usage : isJsonObject(m.usage) ? m.usage : null;
  if (usage) {
    const u: JsonObject = {};
    if (typeof usage.prompt_tokens === 'number') u.input_tokens = usage.prompt_tokens;
    if (typeof usage.completion_tokens === 'number') u.output_tokens = usage.completion_tokens;
    after.usage = u;
  }
  if (typeof extra.cost === 'number') after.cost = extra.cost;
  b.emit('model.after_call', `${id}:model.after`, ts, after);
  const actions = actionsOf(m, extra, text).map((a, k) => ({ id: a.id ?? `${id}:action-${k}`, command: a.command }));
  for (const a of actions) b.emit('tool.before_call', `${a.id}:tool.before`, ts, { tool_name: 'bash', tool_input: { command: a.command }, tool_use_id: a.id });
  return actions;
}

function actionsOf(m: JsonObject, extra: JsonObject, text: string): { id: string | null; command: string }[] {
  if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
    return m.tool_calls.filter(isJsonObject).map((tc) => {
      const fn = isJsonObject(tc.function) ? tc.function : {};
      const args = typeof fn.arguments === 'string' ? parseMaybeJson(fn.arguments).value : fn.arguments;
      const command = isJsonObject(args) && typeof args.command === 'string' ? args.command : JSON.stringify(args ?? null);
      return { id: typeof tc.id === 'string' ? tc.id : null, command };
    });
  }
  if (Array.isArray(extra.actions) && extra.actions.length > 0) {
    return extra.actions.map((a) => ({ id: null, command: isJsonObject(a) && typeof a.command === 'string' ? a.command : String(a) }));
  }
  const blocks = [...text.matchAll(ACTION_BLOCK)].map((x) => x[1] as string);
  // mini-swe-agent runs an action only when the reply has exactly one block; otherwise it is a format error.
  return blocks.length === 1 ? [{ id: null, command: (blocks[0] as string).trim() }] : [];
}

function observation(call: { id: string; command: string }, text: string): JsonObject {
  const rc = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(text);
  const out = /<output>\r?\n?([\s\S]*?)\r?\n?<\/output>/.exec(text);
  const returncode = rc ? Number(rc[1]) : null;
  return {
    tool_name: 'bash',
    tool_input: { command: call.command },
    tool_response: out ? (out[1] as string) : text,
    returncode,
    is_error: returncode !== null && returncode !== 0,
    tool_use_id: call.id,
  };
}
