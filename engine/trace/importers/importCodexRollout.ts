import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import type { TraceEvent } from '../traceTypes.ts';
import type { ImporterOptions, ImportResult } from './importReport.ts';
import { parseMaybeJson } from './otelAttributes.ts';
import { setPortableFields } from '../../model/portableTool.ts';
import { sessionPortableFields } from '../../model/toolTables.ts';
import { TraceBuilder } from './traceBuilder.ts';
import { toIsoTs } from './toIsoTs.ts';

/** Injected context that Codex writes as `user` messages: not typed by the user [I9]. */
const CONTEXT_TEXT = /^\s*(<(environment_context|user_instructions|user_shell_command|turn_aborted)\b|# AGENTS\.md instructions)/;
/** A shell result written as text: `Process exited with code 1` (its first line, or a line of its own). */
const PROCESS_EXITED = /^Process exited with code (-?\d+)\b/m;
/**
 * The header of a shell result in Codex's freeform text (openai/codex codex-rs/core/src/tools/mod.rs
 * `format_exec_output_for_model_freeform`): `Exit code: N` then `Wall time: …` and `Output:`; later versions open with
 * `Execution outcome: …` and say `Shell exit code: N`. Only the header is read: the same words in the output are not.
 */
const EXIT_HEADER = /^(?:Execution outcome: [^\n]*\n)?(?:Shell exit code|Exit code): (-?\d+)(?:\r?\n|$)/;
/** Response items the model produces: together, between two inputs, they are one model call. */
const MODEL_ITEMS = new Set(['message', 'reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call']);

/**
 * Codex CLI session rollout (`~/.codex/sessions/…/rollout-*.jsonl`: one `{timestamp, type, payload}` per
 * line) → trace v1, streamed record by record [I9]. Event ids are `codex:<call id or line>:<role>`.
 *
 * | record                                              | event(s)                                   | payload                                 |
 * |-----------------------------------------------------|--------------------------------------------|-----------------------------------------|
 * | session_meta                                        | agent.start                                | session_id, cwd, cli_version, model_provider, originator |
 * | response_item message role user (typed text)        | input.received (once per text: the event_msg user_message copy is skipped) | prompt |
 * | response_item message role developer/system, or user text that is injected context (`<environment_context>`, `<user_instructions>`, AGENTS.md) | context.added | role, text |
 * | response_item assistant message / reasoning / function_call / custom_tool_call / local_shell_call / web_search_call, up to the next input, tool output or token_count | model.before_call + model.after_call | model (turn_context), response blocks, usage (token_count's last_token_usage) |
 * | function_call / custom_tool_call / local_shell_call / web_search_call | tool.before_call (after its model call)  | tool_name, tool_input (arguments parsed), tool_use_id = call_id, portable fields [I13] |
 * | function_call_output / custom_tool_call_output      | tool.after_call                            | tool_response (JSON text parsed), is_error (exit code ≠ 0 or success false), portable fields |
 * | event_msg task_complete                             | final_answer.before + final_answer.after   | text = last_agent_message               |
 * | event_msg error / stream_error                      | agent.error                                | error                                   |
 * | turn_context, compacted, other event_msg            | annotation / skipped (counted)             |                                         |
 * | (end)                                               | agent.end                                  | status: completed / interrupted / incomplete |
 */
export class CodexRolloutImporter {
  private readonly b: TraceBuilder;
  private started = false;
  private model: string | null = null;
  /** The model call being collected: its response items, until something ends it. */
  private call: { items: JsonObject[]; first: string | null; last: string | null; line: number } | null = null;
  /** Tool calls waiting for their output (answered ones are dropped, so memory follows the open calls only). */
  private readonly calls = new Map<string, { name: string; input: JsonValue; portable: JsonObject }>();
  private lastPrompt: string | null = null;
  private status: 'completed' | 'interrupted' | 'incomplete' = 'incomplete';
  private line = 0;
  private sessionId: string | null = null;
  private meta: JsonObject = {};

  constructor(
    private readonly options: ImporterOptions,
    onEvent?: (event: TraceEvent) => void,
  ) {
    this.b = new TraceBuilder('codex-rollout', 'codex', options.fallbackTraceId ?? 'codex', 'codex', options.ids);
    if (onEvent) this.b.streamTo(onEvent);
    // The trace id and the session's fields come from session_meta, the first record, or never: fixed by the first event.
    if (onEvent && options.onHeader) this.b.announceHeader(() => this.source(), options.onHeader);
  }

  /** One parsed line of the rollout. */
  record(value: unknown): void {
    this.line++;
    const b = this.b;
    if (!isJsonObject(value)) return b.unknown('(not an object)');
    const ts = toIsoTs(value.timestamp)?.iso ?? null;
    // Rollouts before the {timestamp, type, payload} envelope wrote the response items themselves.
    const type = typeof value.type === 'string' ? value.type : '(no type)';
    const payload = isJsonObject(value.payload) ? value.payload : null;
    if (type === 'session_meta' && payload) return this.sessionMeta(payload, ts);
    if (!payload && value.record_type === 'state') return b.skip('state');
    if (!this.started) this.start({}, ts);
    if (type === 'response_item' && payload) return this.responseItem(payload, ts);
    if (!payload && MODEL_ITEMS.has(type)) return this.responseItem(value, ts);
    if (!payload && (type === 'function_call_output' || type === 'custom_tool_call_output')) return this.responseItem(value, ts);
    if (type === 'event_msg' && payload) return this.eventMsg(payload, ts);
    if (type === 'turn_context' && payload) {
      if (typeof payload.model === 'string') this.model = payload.model;
      return b.annotate('turn_context', { model: payload.model ?? null, cwd: payload.cwd ?? null, approval_policy: payload.approval_policy ?? null });
    }
    if (type === 'compacted') return b.annotate('compacted', { message: (payload?.message as JsonValue | undefined) ?? null });
    b.unknown(type);
  }

  finish(sourceRecords: number): ImportResult {
    this.closeCall(null);
    const b = this.b;
    if (this.started) b.emit('agent.end', 'end', b.latestTs, { status: this.status, session_id: this.sessionId ?? b.traceId });
    for (const [id, c] of this.calls) b.warn(`tool call ${id} (${c.name}) has no output in the rollout`);
    if (!this.sessionId) b.warn('no session_meta record: the trace id was derived from the input');
    return b.finish(this.source(), sourceRecords);
  }

  private source(): JsonObject & { kind: string } {
    const source: JsonObject & { kind: string } = { kind: 'codex-rollout', ...this.meta };
    if (this.options.fileName) source.file_name = this.options.fileName;
    return source;
  }

  private start(p: JsonObject, ts: string | null): void {
    this.started = true;
    this.b.emit('agent.start', 'start', ts, p);
  }

  private sessionMeta(p: JsonObject, ts: string | null): void {
    if (this.started) return this.b.annotate('session_meta', { id: (p.id as JsonValue | undefined) ?? null });
    if (typeof p.id === 'string') {
      this.sessionId = p.id;
      this.b.traceId = p.id;
      this.meta.session_id = p.id;
    }
    const start: JsonObject = {};
    for (const k of ['id', 'cwd', 'cli_version', 'originator', 'model_provider', 'source'] as const) {
      const v = p[k];
      if (typeof v === 'string') start[k === 'id' ? 'session_id' : k] = v;
    }
    if (typeof start.cli_version === 'string') this.meta.cli_version = start.cli_version;
    this.start(start, toIsoTs(p.timestamp)?.iso ?? ts);
  }

  private responseItem(p: JsonObject, ts: string | null): void {
    const kind = typeof p.type === 'string' ? p.type : '(no type)';
    const role = typeof p.role === 'string' ? p.role : null;
    if (kind === 'message' && role !== 'assistant') {
      this.closeCall(ts);
      const text = itemText(p.content);
      if (role === 'user' && !CONTEXT_TEXT.test(text)) return this.input(text, ts);
      this.b.emit('context.added', `line-${this.line}:context`, ts, { role: role ?? 'unknown', text });
      return;
    }
    if (MODEL_ITEMS.has(kind)) {
      if (!this.call) this.call = { items: [], first: ts, last: ts, line: this.line };
      this.call.items.push(p);
      this.call.last = ts ?? this.call.last;
      return;
    }
    if (kind === 'function_call_output' || kind === 'custom_tool_call_output') {
      this.closeCall(ts);
      return this.toolOutput(p, ts);
    }
    this.b.unknown(`response_item:${kind}`);
  }

  private input(prompt: string, ts: string | null): void {
    if (prompt === this.lastPrompt) return this.b.skip('user_message (the same text as the input just read)');
    this.lastPrompt = prompt;
    this.b.emit('input.received', `line-${this.line}:input`, ts, { prompt });
  }

  private eventMsg(p: JsonObject, ts: string | null): void {
    const kind = typeof p.type === 'string' ? p.type : '(no type)';
    const b = this.b;
    if (kind === 'token_count') {
      const info = isJsonObject(p.info) ? p.info : null;
      const usage = info && isJsonObject(info.last_token_usage) ? info.last_token_usage : null;
      return this.closeCall(ts, usage);
    }
    if (kind === 'user_message') {
      this.closeCall(ts);
      return this.input(typeof p.message === 'string' ? p.message : '', ts);
    }
    if (kind === 'task_complete') {
      this.closeCall(ts);
      this.status = 'completed';
      if (typeof p.last_agent_message !== 'string') return b.annotate('task_complete', {});
      b.emit('final_answer.before', `line-${this.line}:final.before`, ts, { text: p.last_agent_message });
      b.emit('final_answer.after', `line-${this.line}:final.after`, ts, { text: p.last_agent_message });
      return;
    }
    if (kind === 'turn_aborted') {
      this.status = 'interrupted';
      return b.annotate('turn_aborted', { reason: (p.reason as JsonValue | undefined) ?? null });
    }
    if (kind === 'error' || kind === 'stream_error') {
      b.emit('agent.error', `line-${this.line}:error`, ts, { error: String(p.message ?? kind) });
      return;
    }
    if (kind === 'task_started') return b.annotate('task_started', {});
    // agent_message, agent_reasoning, exec_command_*, …: copies of response items or UI progress.
    b.skip(`event_msg:${kind}`);
  }

  /** Emits the collected model call and its tool calls; `usage` comes from the token_count that ends it. */
  private closeCall(ts: string | null, usage: JsonObject | null = null): void {
    const call = this.call;
    if (!call) return;
    this.call = null;
    const b = this.b;
    const id = `line-${call.line}`;
    const before: JsonObject = {};
    if (this.model) before.model = this.model;
    b.emit('model.before_call', `${id}:model.before`, call.first ?? ts, before);
    // Each tool call read once: the response block and the tool event share its input (a function call's arguments,
    // a JSON string, were parsed twice: ~3% of a Codex import's CPU samples).
    const tools = call.items.map((item) => (item.type === 'message' || item.type === 'reasoning' ? null : toolCall(item)));
    const after: JsonObject = { response: call.items.map((item, i) => responseBlock(item, tools[i] ?? null)) };
    if (this.model) after.model = this.model;
    if (usage) after.usage = usage;
    const at = call.last ?? ts;
    b.emit('model.after_call', `${id}:model.after`, at, after);
    for (let i = 0; i < call.items.length; i++) {
      const t = tools[i];
      if (!t) continue;
      const useId = t.id ?? `${id}:${(call.items[i] as JsonObject).type as string}`;
      // Read once: the call's result carries the same portable fields.
      const portable = codexPortable(t.name, t.input);
      if (t.id) this.calls.set(t.id, { name: t.name, input: t.input, portable });
      b.emit('tool.before_call', `${useId}:before`, at, setPortableFields({ tool_name: t.name, tool_input: t.input, tool_use_id: useId }, portable));
    }
  }

  private toolOutput(p: JsonObject, ts: string | null): void {
    const id = typeof p.call_id === 'string' ? p.call_id : `line-${this.line}`;
    const call = this.calls.get(id);
    this.calls.delete(id);
    if (!call) this.b.warn(`output for ${id} has no matching tool call`);
    const raw = p.output as JsonValue | undefined;
    const response = typeof raw === 'string' ? parseMaybeJson(raw).value : (raw ?? null);
    const out: JsonObject = {
      tool_name: call?.name ?? 'unknown',
      tool_input: call?.input ?? {},
      tool_response: response,
      is_error: outputFailed(response),
      tool_use_id: id,
    };
    this.b.emit('tool.after_call', `${id}:after`, ts, call ? setPortableFields(out, call.portable) : out);
  }
}

/**
 * A Codex call's portable fields [I13]: its session table. MCP tools are `mcp__<server>__<tool>` (codex-rs
 * mcp_connection_manager `qualify_tools`), `<server>__<tool>` in earlier versions (MCP_TOOL_NAME_DELIMITER, no prefix):
 * no built-in tool's name holds `__`, so one that does is an MCP call.
 */
function codexPortable(name: string, input: JsonValue): JsonObject {
  return sessionPortableFields('codex', name, input, { mcp: name.includes('__') });
}

function itemText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (isJsonObject(c) && typeof c.text === 'string' ? c.text : '')).filter((t) => t !== '').join('\n');
}

/** A response item as a response block (text, thinking, tool_use), as the other importers write them; `t` is a tool call's toolCall. */
function responseBlock(item: JsonObject, t: ToolCall | null): JsonValue {
  if (item.type === 'message') return { type: 'text', text: itemText(item.content) };
  if (item.type === 'reasoning') {
    const summary = Array.isArray(item.summary) ? item.summary.map((s) => (isJsonObject(s) && typeof s.text === 'string' ? s.text : '')).join('\n') : '';
    return { type: 'thinking', thinking: summary };
  }
  const call = t ?? toolCall(item);
  return { type: 'tool_use', id: call.id, name: call.name, input: call.input };
}

interface ToolCall {
  id: string | null;
  name: string;
  input: JsonValue;
}

function toolCall(item: JsonObject): ToolCall {
  const id = typeof item.call_id === 'string' ? item.call_id : typeof item.id === 'string' ? item.id : null;
  if (item.type === 'function_call') {
    const args = typeof item.arguments === 'string' ? parseMaybeJson(item.arguments).value : ((item.arguments as JsonValue | undefined) ?? {});
    return { id, name: String(item.name ?? ''), input: isJsonObject(args) ? args : { arguments: args } };
  }
  if (item.type === 'custom_tool_call') return { id, name: String(item.name ?? ''), input: { input: (item.input as JsonValue | undefined) ?? null } };
  if (item.type === 'local_shell_call') return { id, name: 'local_shell', input: isJsonObject(item.action) ? item.action : {} };
  return { id, name: 'web_search', input: isJsonObject(item.action) ? item.action : {} };
}

/**
 * A failed call: an exit code other than 0 in the output's metadata, `success: false`, or an output text
 * that says `Process exited with code N` or opens with `Exit code: N` / `Shell exit code: N`, N ≠ 0 (the text forms
 * of a shell call's result) [I9].
 */
function outputFailed(response: JsonValue): boolean {
  const text = typeof response === 'string' ? response : isJsonObject(response) && typeof response.output === 'string' ? response.output : '';
  const exited = PROCESS_EXITED.exec(text) ?? EXIT_HEADER.exec(text);
  if (exited && Number(exited[1]) !== 0) return true;
  if (!isJsonObject(response)) return false;
  if (response.success === false) return true;
  const meta = isJsonObject(response.metadata) ? response.metadata : null;
  // `shell_exit_code` in the structured form of later versions (format_exec_output_for_model_structured).
  const code = meta ? (typeof meta.exit_code === 'number' ? meta.exit_code : meta.shell_exit_code) : undefined;
  return typeof code === 'number' && code !== 0;
}
