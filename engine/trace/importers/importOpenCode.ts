import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import { setPortableFields } from '../../model/portableTool.ts';
import { sessionPortableFields } from '../../model/toolTables.ts';
import type { ImporterOptions, ImportResult } from './importReport.ts';
import { importKeyed, type KeyedImporter } from './keyedImporter.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { TraceBuilder } from './traceBuilder.ts';
import { toIsoTs } from './toIsoTs.ts';

/** Part kinds kept as annotations (nothing to replay) — packages/opencode/src/session/message-v2.ts. */
const ANNOTATED = new Set(['file', 'agent', 'subtask', 'snapshot', 'patch', 'retry', 'compaction']);

/** One model call: the parts between a `step-start` and its `step-finish` (or the whole message). */
interface Step {
  parts: JsonObject[];
  finish: JsonObject | null;
}

/**
 * OpenCode sessions → trace v1 [I18]. Source: anomalyco/opencode (formerly sst/opencode, 2026)
 * packages/opencode/src/session/message-v2.ts (User / Assistant message info; text, reasoning, tool,
 * step-start, step-finish, file, agent, subtask, snapshot, patch, retry, compaction parts; tool state
 * pending / running / completed / error) and src/cli/cmd/export.ts: `opencode export <id>` writes
 * `{info: <session>, messages: [{info, parts}], todos}`. The older on-disk storage
 * (`storage/session/<project>/<id>.json`, `storage/message/<id>/<msg>.json`, `storage/part/<msg>/<part>.json`)
 * is assembled into the same shape by the Node reader (engine/node/openCodeStorage.ts).
 *
 * | source                                  | event(s)                                   | payload                                   |
 * |-----------------------------------------|--------------------------------------------|-------------------------------------------|
 * | session info                            | agent.start                                | session_id, title, directory, parent_id   |
 * | user message, its text parts            | input.received                             | prompt (synthetic text parts: context.added) |
 * | assistant message, per step             | model.before_call + model.after_call       | model (providerID/modelID), agent, response (text, reasoning, tool_use), usage (step-finish tokens, cost) |
 * | `tool` part                             | tool.before_call; tool.after_call when completed or error | tool_name, tool_input, tool_use_id (callID), tool_response (an interrupted call's `metadata.output`, its error beside it), is_error (status error, or bash `metadata.exit` ≠ 0), title |
 * | assistant `error`                       | agent.error                                | error (name: message)                     |
 * | last assistant text without tools before the next user message or the end | final_answer.before + .after | text |
 * | file, agent, subtask, snapshot, patch, retry, compaction parts | annotations         |                                           |
 *
 * A child session (`parentID`, a subagent run by the `task` tool) gets agent_id `opencode:subagent`; the
 * main session's messages carry the agent name (`build`, `plan`, …) in `agent`.
 */
export function importOpenCode(doc: unknown, options: ImporterOptions = {}): ImportResult {
  return importKeyed(doc, openCodeImporter(options));
}

/**
 * The same, fed as the export streams [I1]: `info` first (the messages wait for it), then one message at a time;
 * with `onEvent` the events are handed over, not kept.
 */
export function openCodeImporter(options: ImporterOptions, onEvent?: (event: TraceEvent) => void): KeyedImporter {
  let b = null as unknown as TraceBuilder;
  let sessionId = '';
  let final: { id: string; text: string; ts: string | null } | null = null;
  let answered = false;
  const emitFinal = () => {
    if (!final) return;
    b.finalAnswer(final.id, final.ts, { text: final.text });
    final = null;
  };
  return {
    arrays: new Set(['messages']),
    needs: ['info'],
    begin(shell, arrays) {
      // An export `{info, messages}`, or a bare session info file of the storage.
      const info = isJsonObject(shell.info) ? shell.info : shell;
      sessionId = typeof info.id === 'string' && info.id !== '' ? info.id : (options.fallbackTraceId ?? 'opencode');
      const agentId = typeof info.parentID === 'string' && info.parentID !== '' ? 'opencode:subagent' : 'opencode';
      b = new TraceBuilder('opencode', 'opencode', sessionId, agentId, options.ids);
      if (onEvent) b.streamTo(onEvent);
      if (!arrays.has('messages')) b.warn('a session info without its messages: import the session file of the storage folder with hookwire import (it reads storage/message and storage/part), or an `opencode export` file');
      const start: JsonObject = { session_id: sessionId };
      for (const k of ['title', 'directory', 'version'] as const) if (typeof info[k] === 'string') start[k] = info[k] as string;
      if (typeof info.parentID === 'string') start.parent_id = info.parentID;
      b.emit('agent.start', 'start', ms(isJsonObject(info.time) ? info.time.created : undefined), start);
    },
    element(_key, m, index) {
      const i = index - 1;
      const where = `message ${i + 1}: `;
      if (isJsonObject(m) && typeof m.unreadable === 'string') return b.dropRecord('message', 0, m.unreadable, where);
      if (!isJsonObject(m) || !isJsonObject(m.info)) return b.dropRecord('message', 0, 'not an object with info and parts', where);
      const mi = m.info;
      const id = typeof mi.id === 'string' ? mi.id : `m${i + 1}`;
      const parts = Array.isArray(m.parts) ? m.parts : [];
      const ts = ms(isJsonObject(mi.time) ? mi.time.created : undefined);
      if (mi.role === 'user') {
        emitFinal();
        answered = false;
        const texts: string[] = [];
        for (const p of parts) {
          if (!isJsonObject(p)) b.dropRecord('part', 0, 'a part that is not an object', `${where}`);
          else if (typeof p.unreadable === 'string') b.dropRecord('part', 0, p.unreadable, where);
          else if (p.type === 'text' && typeof p.text === 'string') {
            if (p.synthetic === true) b.emit('context.added', `${str(p.id) || id}:context`, ts, { source: 'synthetic', text: p.text });
            else if (p.ignored !== true) texts.push(p.text);
          } else if (typeof p.type === 'string' && ANNOTATED.has(p.type)) b.annotate(p.type, p);
          else b.unknownRecord(`part ${String(p.type)}`, 0, p, where);
        }
        b.emit('input.received', `${id}:input`, ts, { prompt: texts.join('\n'), ...(typeof mi.agent === 'string' ? { agent: mi.agent } : {}) });
        return;
      }
      if (mi.role !== 'assistant') return b.unknownRecord(`role ${String(mi.role)}`, 0, m, where);
      final = null;
      const steps = splitSteps(parts, b, where);
      const model = [mi.providerID, mi.modelID].filter((x) => typeof x === 'string' && x !== '').join('/') || null;
      let lastText = '';
      let lastTools = 0;
      steps.forEach((s, k) => {
        // Times never go back: a later step starts after the previous step's tools ended.
        const at = ts !== null && b.latestTs !== null && b.latestTs > ts ? b.latestTs : ts;
        const sid = steps.length === 1 ? id : `${id}:${k + 1}`;
        const response: JsonValue[] = [];
        const tools = s.parts.filter((p) => p.type === 'tool');
        for (const p of s.parts) {
          if (p.type === 'reasoning' && typeof p.text === 'string') response.push({ type: 'thinking', thinking: p.text });
          else if (p.type === 'text' && typeof p.text === 'string') response.push({ type: 'text', text: p.text });
          else if (p.type === 'tool') response.push({ type: 'tool_use', id: str(p.callID), name: str(p.tool), input: toolState(p).input });
        }
        const before: JsonObject = { message_id: sid };
        if (model) before.model = model;
        if (typeof mi.agent === 'string') before.agent = mi.agent;
        b.emit('model.before_call', `${sid}:model.before`, at, before);
        const after: JsonObject = { ...before, response };
        const usage = s.finish ? { tokens: s.finish.tokens ?? null, cost: s.finish.cost ?? null, reason: s.finish.reason ?? null } : steps.length === 1 && isJsonObject(mi.tokens) ? { tokens: mi.tokens, cost: mi.cost ?? null } : null;
        if (usage) after.usage = usage as JsonObject;
        b.emit('model.after_call', `${sid}:model.after`, at, after);
        for (const p of tools) tool(b, p, at);
        lastText = s.parts.filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text as string).join('\n');
        lastTools = tools.length;
      });
      if (isJsonObject(mi.error)) {
        const e = mi.error;
        const msg = isJsonObject(e.data) && typeof e.data.message === 'string' ? e.data.message : '';
        b.emit('agent.error', `${id}:error`, ms(isJsonObject(mi.time) ? mi.time.completed : undefined) ?? ts, { error: `${str(e.name)}${msg ? `: ${msg}` : ''}` });
      }
      answered = lastTools === 0 && lastText !== '' && !isJsonObject(mi.error);
      if (answered) final = { id, text: lastText, ts: ms(isJsonObject(mi.time) ? mi.time.completed : undefined) ?? b.latestTs };
    },
    finish(shell, arrays) {
      emitFinal();
      b.emit('agent.end', 'end', b.latestTs, { status: answered ? 'completed' : 'incomplete', session_id: sessionId });
      if (Array.isArray(shell.todos) && shell.todos.length > 0) b.annotate('todos', { todos: shell.todos });
      const source: JsonObject = { kind: 'opencode', session_id: sessionId };
      if (options.fileName) source.file_name = options.fileName;
      return b.finish(source as JsonObject & { kind: string }, arrays.get('messages') ?? 0);
    },
  };
}

/** Splits an assistant message's parts into steps at `step-start` / `step-finish`; other parts are annotations. */
function splitSteps(parts: unknown[], b: TraceBuilder, where: string): Step[] {
  const steps: Step[] = [];
  let cur: Step | null = null;
  for (const p of parts) {
    if (!isJsonObject(p) || typeof p.unreadable === 'string') {
      b.dropRecord('part', 0, isJsonObject(p) ? String(p.unreadable) : 'a part that is not an object', where);
      continue;
    }
    if (p.type === 'step-start') {
      cur = { parts: [], finish: null };
      steps.push(cur);
    } else if (p.type === 'step-finish') {
      if (cur) cur.finish = p;
      cur = null;
    } else if (p.type === 'text' || p.type === 'reasoning' || p.type === 'tool') {
      if (!cur) {
        cur = { parts: [], finish: null };
        steps.push(cur);
      }
      cur.parts.push(p);
    } else if (typeof p.type === 'string' && ANNOTATED.has(p.type)) b.annotate(p.type, p);
    else b.unknownRecord(`part ${String(p.type)}`, 0, p, where);
  }
  return steps.length > 0 ? steps : [{ parts: [], finish: null }];
}

function toolState(p: JsonObject): { status: string; input: JsonObject; state: JsonObject } {
  const state = isJsonObject(p.state) ? p.state : {};
  return { status: str(state.status), input: isJsonObject(state.input) ? state.input : {}, state };
}

function tool(b: TraceBuilder, p: JsonObject, ts: string | null): void {
  const name = str(p.tool);
  const useId = str(p.callID) || str(p.id);
  const { status, input, state } = toolState(p);
  const time = isJsonObject(state.time) ? state.time : {};
  const portable = sessionPortableFields('opencode', name, input);
  b.emit('tool.before_call', `${useId}:before`, ms(time.start) ?? ts, setPortableFields({ tool_name: name, tool_input: input, tool_use_id: useId }, portable));
  if (status !== 'completed' && status !== 'error') return b.warn(`tool call ${useId} (${name}) has no result in the session (status ${status || 'missing'})`);
  const meta = isJsonObject(state.metadata) ? state.metadata : {};
  const exit = typeof meta.exit === 'number' ? meta.exit : null;
  // A call interrupted while running (aborted, the session stopped) ends as `error` with what it had printed in
  // `metadata.output` (`interrupted: true`), and that output is what the model is sent (message-v2.ts toModelMessages,
  // commit 007a9409): the response is the output, the error beside it.
  const interrupted = status === 'error' && meta.interrupted === true && typeof meta.output === 'string' ? meta.output : null;
  const out: JsonObject = {
    tool_name: name, tool_input: input,
    tool_response: interrupted ?? (status === 'error' ? str(state.error) : ((state.output as JsonValue | undefined) ?? '')),
    is_error: status === 'error' || (exit !== null && exit !== 0), tool_use_id: useId, status,
  };
  if (interrupted !== null) {
    out.error = str(state.error);
    out.interrupted = true;
  }
  if (typeof state.title === 'string') out.title = state.title;
  if (exit !== null) out.exit_code = exit;
  if (name === 'task' && typeof meta.sessionId === 'string') out.child_session_id = meta.sessionId;
  b.emit('tool.after_call', `${useId}:after`, ms(time.end) ?? ms(time.start) ?? ts, setPortableFields(out, portable));
}

function ms(v: unknown): string | null {
  return toIsoTs(v)?.iso ?? null;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}
