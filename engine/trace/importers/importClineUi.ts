import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import { setPortableFields } from '../../model/portableTool.ts';
import { sessionPortableFields } from '../../model/toolTables.ts';
import { clineAgent, taskIdOf } from './importCline.ts';
import type { ElementImporter, ImporterOptions, ImportResult } from './importReport.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { TraceBuilder } from './traceBuilder.ts';
import { toIsoTs } from './toIsoTs.ts';

/** ClineSayTool.tool → the tool the model called (cline/cline src/core/task/tools/handlers/*). */
const SAY_TOOL: Record<string, string> = {
  editedExistingFile: 'replace_in_file', newFileCreated: 'write_to_file', fileDeleted: 'delete_file', readFile: 'read_file',
  listFilesTopLevel: 'list_files', listFilesRecursive: 'list_files', listCodeDefinitionNames: 'list_code_definition_names',
  searchFiles: 'search_files', webFetch: 'web_fetch', webSearch: 'web_search', summarizeTask: 'summarize_task', useSkill: 'use_skill',
};
/** Kinds with nothing to replay: kept as annotations. */
const NOTED = new Set([
  'checkpoint_created', 'shell_integration_warning', 'shell_integration_warning_with_suggestion', 'info', 'task_progress', 'hook_status',
  'hook_output_stream', 'deleted_api_reqs', 'api_req_retried', 'error_retry', 'diff_error', 'clineignore_error', 'conditional_rules_applied',
  'subagent', 'subagent_usage', 'use_subagents', 'generate_explanation', 'load_mcp_documentation', 'browser_action_launch', 'browser_action',
  'browser_action_result', 'mcp_notification', 'followup', 'plan_mode_respond', 'act_mode_respond', 'resume_task', 'resume_completed_task',
  'new_task', 'condense', 'summarize_task', 'report_bug', 'user_feedback_diff', 'api_req_finished', 'mcp_server_request_started',
]);
const FAILED_OUTPUT = /^Exit code: (-\d+|[1-9]\d*)\b|^Process terminated by signal|^Command execution was not successful/m;

interface Open {
  id: string;
  name: string;
  input: JsonObject;
  output: string[];
}

/**
 * Cline and Roo Code UI message logs (`tasks/<id>/ui_messages.json`, the chat as the extension showed it:
 * `[{ts, type: "say" | "ask", say?, ask?, text?, partial?}]`) → trace v1 [I20]. Source: cline/cline
 * src/shared/ExtensionMessage.ts (ClineMessage, ClineAsk, ClineSay, ClineSayTool, ClineApiReqInfo, 2026).
 *
 * | message                                     | event(s)                                  | payload                               |
 * |---------------------------------------------|-------------------------------------------|---------------------------------------|
 * | `say: task`                                 | agent.start + input.received              | prompt (text)                         |
 * | `say: user_feedback`                        | input.received                            | prompt                                |
 * | `say: api_req_started` (JSON text)          | model.before_call; model.after_call at the next request, prompt or the end | usage (tokensIn, tokensOut, cacheReads, cacheWrites, cost), response (`say: text`, `reasoning`, tools) |
 * | `ask`/`say: command` (the command)          | tool.before_call `execute_command`        | command                               |
 * | `command_output` after it                   | tool.after_call                           | tool_response, is_error (Exit code N≠0, a denied command) |
 * | `ask`/`say: tool` (ClineSayTool JSON)       | tool.before_call (replace_in_file, read_file, …) | path, diff, content, regex        |
 * | `ask: use_mcp_server` / `say: mcp_server_response` | tool.before_call / tool.after_call `use_mcp_tool` |                              |
 * | `completion_result`                         | final_answer.before + .after              | text                                  |
 * | `say: error`, `ask: api_req_failed`, `mistake_limit_reached` | agent.error              | error                                 |
 * | `partial: true` (a streaming update)        | skipped (the complete message follows)    |                                       |
 *
 * The UI log does not hold a file tool's result (the API history does): those calls have no tool.after_call,
 * and the report says so.
 */
export function importClineUi(doc: unknown, options: ImporterOptions = {}): ImportResult {
  const messages = Array.isArray(doc) ? doc : [];
  const imp = clineUiImporter(options);
  messages.forEach((m, i) => imp.record(m, i + 1));
  return imp.finish(messages.length);
}

/** The same, one message at a time, as they stream from the file; with `onEvent` the events are handed over, not kept. */
export function clineUiImporter(options: ImporterOptions, onEvent?: (event: TraceEvent) => void): ElementImporter {
  const agent = clineAgent([], options.filePath ?? options.fileName);
  const taskId = taskIdOf(options.filePath ?? options.fileName) ?? options.fallbackTraceId ?? agent;
  const b = new TraceBuilder('cline-ui', agent === 'roo-code' ? 'roo-ui' : 'cline-ui', taskId, agent, options.ids);
  if (onEvent) b.streamTo(onEvent);
  // A model call is emitted (before and after together) at its first tool or when the next message ends it,
  // so its tool calls come after it.
  let model: { id: string; ts: string | null; before: JsonObject; usage: JsonObject | null; response: JsonValue[]; emitted: boolean } | null = null;
  let open: Open | null = null;
  let answered = false;
  let fileTools = 0;
  const emitModel = () => {
    if (!model || model.emitted) return;
    model.emitted = true;
    b.emit('model.before_call', `${model.id}:model.before`, model.ts, model.before);
    const after: JsonObject = { ...model.before, response: model.response };
    if (model.usage) after.usage = model.usage;
    b.emit('model.after_call', `${model.id}:model.after`, model.ts, after);
  };
  const closeModel = () => {
    emitModel();
    model = null;
  };
  const closeTool = (ts: string | null, failed = false) => {
    if (!open) return;
    const o = open;
    open = null;
    const text = o.output.join('\n');
    b.emit('tool.after_call', `${o.id}:after`, ts, setPortableFields({ tool_name: o.name, tool_input: o.input, tool_response: text, is_error: failed || FAILED_OUTPUT.test(text), tool_use_id: o.id }, sessionPortableFields(agent, o.name, o.input)));
  };
  const startTool = (id: string, name: string, input: JsonObject, ts: string | null) => {
    closeTool(ts);
    answered = false;
    if (model && !model.emitted) {
      model.response.push({ type: 'tool_use', id, name, input });
      emitModel();
    }
    b.emit('tool.before_call', `${id}:before`, ts, setPortableFields({ tool_name: name, tool_input: input, tool_use_id: id }, sessionPortableFields(agent, name, input, { mcp: name === 'use_mcp_tool' })));
  };
  const record = (m: unknown, n: number): void => {
    const i = n - 1;
    const where = `message ${n}: `;
    if (!isJsonObject(m)) return b.dropRecord('(not an object)', 0, 'not a JSON object', where);
    const ts = toIsoTs(m.ts)?.iso ?? null;
    if (b.count === 0) b.emit('agent.start', 'start', ts, { task_id: taskId });
    const kind = m.type === 'say' ? m.say : m.type === 'ask' ? m.ask : undefined;
    if (typeof kind !== 'string') return b.unknownRecord(`type ${String(m.type)}`, 0, m, where);
    if (m.partial === true) return b.skip(`${String(m.type)}:${kind} (partial)`);
    const text = typeof m.text === 'string' ? m.text : '';
    const id = `m${i + 1}`;
    if (kind === 'command_output') {
      if (open) open.output.push(text);
      else b.dropRecord(kind, 0, 'command output that follows no command', where);
      return;
    }
    if (kind === 'mcp_server_response' && open) {
      open.output.push(text);
      // An MCP tool's failure comes back as its text: "Error: …" (cline src/services/mcp/McpHub.ts).
      return closeTool(ts, /^Error\b/.test(text));
    }
    if (kind === 'command_permission_denied' && open) {
      open.output.push(text);
      return closeTool(ts, true);
    }
    closeTool(ts);
    if (kind === 'task' || kind === 'user_feedback') {
      closeModel();
      answered = false;
      b.emit('input.received', `${id}:input`, ts, { prompt: text });
    } else if (kind === 'api_req_started') {
      closeModel();
      const info = parse(text);
      const before: JsonObject = { message_id: id };
      if (isJsonObject(m.modelInfo) && typeof m.modelInfo.modelId === 'string') before.model = m.modelInfo.modelId;
      const usage: JsonObject = {};
      for (const k of ['tokensIn', 'tokensOut', 'cacheReads', 'cacheWrites', 'cost'] as const) if (isJsonObject(info) && typeof info[k] === 'number') usage[k] = info[k] as number;
      model = { id, ts, before, usage: Object.keys(usage).length > 0 ? usage : null, response: [], emitted: false };
      if (isJsonObject(info) && typeof info.cancelReason === 'string') b.annotate('api_req_cancelled', { reason: info.cancelReason });
    } else if (kind === 'text' || kind === 'reasoning') {
      const r: JsonObject = kind === 'text' ? { type: 'text', text } : { type: 'thinking', thinking: text };
      if (model && !model.emitted) model.response.push(r);
      else b.annotate(kind, { text });
    } else if (kind === 'command') {
      startTool(id, 'execute_command', { command: text }, ts);
      open = { id, name: 'execute_command', input: { command: text }, output: [] };
    } else if (kind === 'tool') {
      const t = parse(text);
      if (!isJsonObject(t) || typeof t.tool !== 'string') return b.dropRecord('tool', 0, 'a tool message whose text is not a ClineSayTool JSON object', where);
      const name = Object.prototype.hasOwnProperty.call(SAY_TOOL, t.tool) ? (SAY_TOOL[t.tool] as string) : t.tool;
      const input: JsonObject = {};
      for (const k of ['path', 'diff', 'content', 'regex', 'filePattern'] as const) if (typeof t[k] === 'string') input[k] = t[k] as string;
      fileTools++;
      startTool(id, name, input, ts);
    } else if (kind === 'use_mcp_server') {
      const t = parse(text);
      const input: JsonObject = isJsonObject(t) ? { server_name: String(t.serverName ?? ''), tool_name: String(t.toolName ?? t.uri ?? ''), arguments: String(t.arguments ?? '') } : { text };
      startTool(id, 'use_mcp_tool', input, ts);
      open = { id, name: 'use_mcp_tool', input, output: [] };
    } else if (kind === 'completion_result') {
      if (model && !model.emitted && text !== '') model.response.push({ type: 'text', text: text.replace(/HAS_CHANGES$/, '') });
      closeModel();
      if (text === '' || text === 'HAS_CHANGES') return;
      b.finalAnswer(id, ts, { text: text.replace(/HAS_CHANGES$/, '') });
      answered = true;
    } else if (kind === 'error' || kind === 'api_req_failed' || kind === 'mistake_limit_reached') {
      closeModel();
      b.emit('agent.error', `${id}:error`, ts, { error: text, kind });
    } else if (NOTED.has(kind) || kind === 'mcp_server_response' || kind === 'command_permission_denied') b.annotate(`${String(m.type)}:${kind}`, { text: text.slice(0, 4000) });
    else b.unknownRecord(`${String(m.type)}:${kind}`, 0, m, where);
  };
  const finish = (records: number): ImportResult => {
    closeTool(b.latestTs);
    closeModel();
    if (fileTools > 0) b.note(`${fileTools} file tool calls have no result here: ui_messages.json does not keep them (api_conversation_history.json beside it does)`);
    if (b.count > 0) b.emit('agent.end', 'end', b.latestTs, { status: answered ? 'completed' : 'incomplete', task_id: taskId });
    const source: JsonObject = { kind: 'cline-ui', agent, task_id: taskId };
    if (options.fileName) source.file_name = options.fileName;
    return b.finish(source as JsonObject & { kind: string }, records);
  };
  return { record, finish };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
