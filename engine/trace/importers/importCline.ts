import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import { setPortableFields } from '../../model/portableTool.ts';
import { sessionPortableFields } from '../../model/toolTables.ts';
import { parseXmlToolCalls, ROO_ONLY_TOOLS } from './clineXmlTools.ts';
import type { ElementImporter, ImporterOptions, ImportResult } from './importReport.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { TraceBuilder } from './traceBuilder.ts';
import { toIsoTs } from './toIsoTs.ts';

/** `[execute_command for 'npm test'] Result:` — the text block Cline and Roo put before a tool's result (cline/cline src/core/Cline.ts 3.4). */
const RESULT_HEAD = /^\[([a-z_]+)(?: for '[\s\S]*?')?\] Result:\s*$/;
/**
 * A failed tool result: Cline's `formatResponse.toolError` / `toolDenied` text (cline/cline
 * src/core/prompts/responses.ts), Roo Code's JSON `{"status":"error"|"denied"}` and its command result
 * `Exit code: N` with N ≠ 0 or a signal (RooCodeInc/Roo-Code 3.52 src/core/prompts/responses.ts,
 * src/core/tools/ExecuteCommandTool.ts).
 */
const FAILED = /^The tool execution failed|^The user denied this operation|^\{"status":"(error|denied)"|^Exit code: (-\d+|[1-9]\d*)\b|^Process terminated by signal|^Command execution was not successful|^\[ERROR\]/m;
const TASK = /^<task>\n?([\s\S]*?)\n?<\/task>$/;
const FEEDBACK = /^<(feedback|user_message|answer)>\n?([\s\S]*?)\n?<\/\1>$/;

interface ClineRun {
  b: TraceBuilder;
  agent: 'cline' | 'roo-code';
  taskId: string;
}

interface Call {
  id: string;
  name: string;
  input: JsonObject;
}

/**
 * Cline and Roo Code task history (`tasks/<id>/api_conversation_history.json`: the Anthropic messages the
 * extension sent, `{role, content, ts?, modelInfo?, metrics?}`) → trace v1 [I14]. Sources: cline/cline
 * apps/vscode/src/shared/messages/content.ts (ClineStorageMessage, 2026) and src/core/Cline.ts (3.4);
 * RooCodeInc/Roo-Code 3.52 src/core/task-persistence/apiMessages.ts.
 *
 * | message                                   | event(s)                                   | payload                                        |
 * |-------------------------------------------|--------------------------------------------|------------------------------------------------|
 * | (first)                                   | agent.start                                | task_id (from the file path)                   |
 * | user text `<task>…</task>`, `<feedback>`, `<user_message>`, plain text | input.received  | prompt                                         |
 * | user text `<environment_details>`         | context.added                              | source environment_details, text               |
 * | assistant message                         | model.before_call + model.after_call       | model (modelInfo.modelId), response blocks, usage (metrics.tokens) |
 * | its `tool_use` blocks, or XML tool tags in its text (older tasks) | tool.before_call   | tool_name, tool_input, tool_use_id, portable fields |
 * | user `tool_result` block, or `[tool …] Result:` text and what follows | tool.after_call | tool_response, is_error (block flag, or error/denied/exit-code text) |
 * | `attempt_completion`                      | final_answer.before + .after (not a tool)  | text = its result                              |
 * | (end)                                     | agent.end                                  | status completed (after attempt_completion) / incomplete |
 */
export function importCline(doc: unknown, options: ImporterOptions = {}): ImportResult {
  const messages = Array.isArray(doc) ? doc : [];
  const imp = clineImporter(options);
  messages.forEach((m, i) => imp.record(m, i + 1));
  return imp.finish(messages.length);
}

/**
 * The same, one message at a time, as they stream from the file; with `onEvent` the events are handed over, not
 * kept. When the path does not say which extension wrote the file, the first messages it is told by
 * ({@link clineAgent}: up to 50) are held until it is known, since every event carries the agent.
 */
export function clineImporter(options: ImporterOptions, onEvent?: (event: TraceEvent) => void): ElementImporter {
  const path = options.filePath ?? options.fileName;
  /** Messages held while the agent is not known yet. */
  let held: { m: unknown; n: number }[] = [];
  let run: ClineRun | null = null;
  const current = (): ClineRun => {
    if (!run) throw new Error('bug: a Cline message read before its agent was known');
    return run;
  };
  const begin = (agent: 'cline' | 'roo-code') => {
    const taskId = taskIdOf(path) ?? options.fallbackTraceId ?? agent;
    const b = new TraceBuilder('cline', agent === 'roo-code' ? 'roo' : 'cline', taskId, agent, options.ids);
    if (onEvent) b.streamTo(onEvent);
    run = { b, agent, taskId };
    const waiting = held;
    held = [];
    for (const w of waiting) read(w.m, w.n);
  };
  let open: Call[] = [];
  let completed = false;
  const read = (m: unknown, line: number): void => {
    const { b, agent, taskId } = current();
    const i = line - 1;
    if (!isJsonObject(m)) return b.dropRecord('(not an object)', 0, `message ${line}: not a JSON object`);
    const ts = toIsoTs(m.ts)?.iso ?? null;
    if (i === 0 || b.count === 0) b.emit('agent.start', 'start', ts, { task_id: taskId });
    if (m.role === 'assistant') {
      open = assistant(b, m, `m${line}`, ts, agent);
      completed = open.some((c) => c.name === 'attempt_completion');
      open = open.filter((c) => c.name !== 'attempt_completion');
    } else if (m.role === 'user') {
      open = user(b, m, `m${line}`, ts, open, agent);
    } else if (m.type === 'reasoning') b.annotate('reasoning', { text: typeof m.text === 'string' ? m.text : '' });
    else b.unknownRecord(typeof m.role === 'string' ? `role ${m.role}` : '(no role)', 0, m, `message ${line}: `);
  };
  const fromPath = agentOfPath(path);
  if (fromPath) begin(fromPath);
  return {
    record(m, n) {
      if (run) return read(m, n);
      held.push({ m, n });
      if (held.length >= AGENT_SIGNS_WITHIN) begin(clineAgent(held.map((h) => h.m), path));
    },
    finish(records) {
      if (!run) begin(clineAgent(held.map((h) => h.m), path));
      const { b, agent, taskId } = current();
      for (const c of open) b.warn(`tool call ${c.id} (${c.name}) has no result in the history`);
      if (b.count > 0) b.emit('agent.end', 'end', b.latestTs, { status: completed ? 'completed' : 'incomplete', task_id: taskId });
      const source: JsonObject = { kind: 'cline', agent, task_id: taskId };
      if (options.fileName) source.file_name = options.fileName;
      return b.finish(source as JsonObject & { kind: string }, records);
    },
  };
}

function assistant(b: TraceBuilder, m: JsonObject, id: string, ts: string | null, agent: string): Call[] {
  const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content.filter(isJsonObject) : [];
  const response: JsonValue[] = [];
  const calls: Call[] = [];
  for (const block of blocks) {
    if (block.type === 'text' && typeof block.text === 'string') {
      const parsed = parseXmlToolCalls(block.text);
      if (parsed.text !== '') response.push({ type: 'text', text: parsed.text });
      for (const c of parsed.calls) {
        const call = { id: `${id}:${calls.length + 1}`, name: c.name, input: c.input };
        calls.push(call);
        response.push({ type: 'tool_use', id: call.id, name: c.name, input: c.input });
      }
    } else if (block.type === 'tool_use') {
      const call = { id: typeof block.id === 'string' ? block.id : `${id}:${calls.length + 1}`, name: String(block.name ?? ''), input: isJsonObject(block.input) ? block.input : {} };
      calls.push(call);
      response.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
    } else if (block.type === 'thinking') response.push({ type: 'thinking', thinking: typeof block.thinking === 'string' ? block.thinking : '' });
  }
  const model = isJsonObject(m.modelInfo) && typeof m.modelInfo.modelId === 'string' ? m.modelInfo.modelId : null;
  const before: JsonObject = { message_id: typeof m.id === 'string' ? m.id : id };
  if (model) before.model = model;
  b.emit('model.before_call', `${id}:model.before`, ts, before);
  const after: JsonObject = { ...before, response };
  if (isJsonObject(m.metrics) && isJsonObject(m.metrics.tokens)) after.usage = m.metrics.tokens;
  b.emit('model.after_call', `${id}:model.after`, ts, after);
  for (const c of calls) {
    if (c.name === 'attempt_completion') {
      const text = typeof c.input.result === 'string' ? c.input.result : '';
      b.finalAnswer(id, ts, { text });
      continue;
    }
    b.emit('tool.before_call', `${c.id}:before`, ts, setPortableFields({ tool_name: c.name, tool_input: c.input, tool_use_id: c.id }, portable(agent, c)));
  }
  return calls;
}

/** Results of the open calls (by id, or in order for `[tool] Result:` texts), then prompts and context. */
function user(b: TraceBuilder, m: JsonObject, id: string, ts: string | null, open: Call[], agent: string): Call[] {
  const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content.filter(isJsonObject) : [];
  const waiting = [...open];
  let result: { call: Call | undefined; name: string; parts: string[] } | null = null;
  const flush = () => {
    if (!result) return;
    const r = result;
    result = null;
    const text = r.parts.join('\n');
    toolAfter(b, r.call ?? { id: `${id}:result`, name: r.name, input: {} }, text, FAILED.test(text), ts, agent);
  };
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      flush();
      const useId = String(block.tool_use_id ?? '');
      const at = waiting.findIndex((c) => c.id === useId);
      const call = at === -1 ? undefined : waiting.splice(at, 1)[0];
      const content = typeof block.content === 'string' ? block.content : Array.isArray(block.content) ? block.content.map((c) => (isJsonObject(c) && typeof c.text === 'string' ? c.text : '')).join('\n') : '';
      if (!call) b.warn(`tool_result for ${useId} has no matching tool call`);
      toolAfter(b, call ?? { id: useId, name: 'unknown', input: {} }, content, block.is_error === true || FAILED.test(content), ts, agent);
      continue;
    }
    if (block.type !== 'text' || typeof block.text !== 'string') {
      if (result) (result as { parts: string[] }).parts.push(`[${String(block.type)}]`);
      continue;
    }
    const text = block.text;
    const head = RESULT_HEAD.exec(text.trim());
    if (head) {
      flush();
      const at = waiting.findIndex((c) => c.name === head[1]);
      result = { call: at === -1 ? undefined : waiting.splice(at, 1)[0], name: head[1] as string, parts: [] };
      continue;
    }
    if (text.trimStart().startsWith('<environment_details>')) {
      flush();
      b.emit('context.added', `${id}:context`, ts, { source: 'environment_details', text });
      continue;
    }
    if (result) {
      // Feedback the user typed while answering a tool (`<feedback>`) is theirs, not the tool's.
      const fb = FEEDBACK.exec(text.trim());
      if (!fb || fb[1] === 'answer') {
        (result as { parts: string[] }).parts.push(text);
        continue;
      }
      flush();
    }
    const task = TASK.exec(text.trim()) ?? FEEDBACK.exec(text.trim());
    const prompt = task ? (task[2] ?? task[1] ?? '') : text;
    b.emit('input.received', `${id}:input`, ts, { prompt });
  }
  flush();
  return waiting;
}

function toolAfter(b: TraceBuilder, call: Call, text: string, failed: boolean, ts: string | null, agent: string): void {
  b.emit('tool.after_call', `${call.id}:after`, ts, setPortableFields({ tool_name: call.name, tool_input: call.input, tool_response: text, is_error: failed, tool_use_id: call.id }, portable(agent, call)));
}

function portable(agent: string, c: Call) {
  return sessionPortableFields(agent, c.name, c.input, { mcp: c.name === 'use_mcp_tool' });
}

/** Roo Code or Cline: the extension's storage folder in the path, else a Roo-only tool or Roo's `<slug>` mode line. */
export function clineAgent(messages: unknown[], fileName: string | undefined): 'cline' | 'roo-code' {
  const byPath = agentOfPath(fileName);
  if (byPath) return byPath;
  for (const m of messages.slice(0, AGENT_SIGNS_WITHIN)) {
    if (!isJsonObject(m) || !Array.isArray(m.content)) continue;
    for (const c of m.content) {
      if (!isJsonObject(c)) continue;
      if (c.type === 'tool_use' && ROO_ONLY_TOOLS.has(String(c.name))) return 'roo-code';
      // Roo Code writes the current mode as `<slug>code</slug>` in environment details (src/core/environment/getEnvironmentDetails.ts).
      const text = c.type === 'text' && typeof c.text === 'string' ? c.text : '';
      if (/<slug>[a-z-]+<\/slug>/.test(text) || [...ROO_ONLY_TOOLS].some((t) => text.includes(`<${t}>`))) return 'roo-code';
    }
  }
  return 'cline';
}

/** The messages read for signs of Roo Code. */
const AGENT_SIGNS_WITHIN = 50;

/** The extension folder in the path names the agent; null when the path says nothing. */
function agentOfPath(fileName: string | undefined): 'cline' | 'roo-code' | null {
  const path = (fileName ?? '').toLowerCase();
  if (path.includes('rooveterinaryinc.roo-cline') || path.includes('roo-code')) return 'roo-code';
  if (path.includes('saoudrizwan.claude-dev') || path.includes('/.cline/')) return 'cline';
  return null;
}

/** The task id: the folder name in `tasks/<id>/api_conversation_history.json`. */
export function taskIdOf(fileName: string | undefined): string | null {
  const m = /(?:^|[\\/])tasks[\\/]([^\\/]+)[\\/][^\\/]+$/.exec(fileName ?? '');
  return m ? (m[1] as string) : null;
}
