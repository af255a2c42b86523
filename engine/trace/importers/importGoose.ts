import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { setPortableFields } from '../../model/portableTool.ts';
import { sessionPortableFields } from '../../model/toolTables.ts';
import type { ImporterOptions, ImportResult } from './importReport.ts';
import { RecordImporter } from './recordImporter.ts';
import type { KeyedImporter } from './keyedImporter.ts';
import { toIsoTs } from './toIsoTs.ts';

/** A tool request whose before event was emitted, until its response. */
interface Started {
  name: string;
  input: JsonObject;
  portable: JsonObject;
}

/** Message content kinds kept as annotations: nothing to replay (goose crates/goose/src/conversation/message.rs). */
const ANNOTATED = new Set(['toolConfirmationRequest', 'actionRequired', 'systemNotification', 'conversationCompacted', 'summarizationRequested', 'contextLengthExceeded']);

/** Session fields read into agent.start / agent.end (the sessions table and `goose session export`). */
const TOKEN_FIELDS = ['total_tokens', 'input_tokens', 'output_tokens', 'accumulated_total_tokens', 'accumulated_input_tokens', 'accumulated_output_tokens'] as const;
/** The members of an export that shape the events before its messages; goose's Session writes them before `conversation`. */
/** The members of `goose session export` its messages wait for (the session's start reads them). */
export const GOOSE_EXPORT_NEEDS: readonly string[] = ['id', 'working_dir', 'name', 'session_type', 'created_at', 'schedule_id', 'provider_name', 'model_config'];

function totalsOf(s: JsonObject): JsonObject | null {
  const totals: JsonObject = {};
  for (const k of TOKEN_FIELDS) if (typeof s[k] === 'number') totals[k] = s[k] as number;
  return Object.keys(totals).length > 0 ? totals : null;
}

/**
 * goose sessions → trace v1 [I21]. Source: block/goose crates/goose/src/conversation/message.rs (Message
 * `{id?, role, created, content: [MessageContent], metadata: {userVisible, agentVisible}}`; content tagged by
 * `type`: text, image, toolRequest `{id, toolCall: {status: success, value: {name, arguments}} | {status:
 * error, error}}`, toolResponse `{id, toolResult: {status: success, value: CallToolResult {content, isError}
 * | [Content]} | {status: error, error}}`, frontendToolRequest, toolConfirmationRequest, actionRequired,
 * thinking, redactedThinking, systemNotification), conversation/tool_result_serde.rs, session/legacy.rs and
 * session/session_manager.rs. Three shapes, one mapping:
 * - the older `~/.local/share/goose/sessions/<name>.jsonl`: a metadata line `{working_dir, description,
 *   schedule_id, message_count, total_tokens, …}` then one message a line (streamed);
 * - `goose session export` (a Session: `{id, working_dir, name, …tokens, conversation: [messages]}`);
 * - `sessions.db` (SQLite; the Node reader assembles one session into the export's shape, with the
 *   messages table's `tokens` per message when recorded).
 *
 * | source                                   | event(s)                                   | payload                                 |
 * |------------------------------------------|--------------------------------------------|-----------------------------------------|
 * | session / metadata line                  | agent.start                                | session_id, working_dir, name, session_type, provider, model |
 * | user message, its text                   | input.received                             | prompt                                  |
 * | assistant message                        | model.before_call + model.after_call       | model, message_id; response (thinking, text, tool_use), usage (tokens) |
 * | its toolRequest / frontendToolRequest    | tool.before_call                           | tool_name, tool_input, tool_use_id, extension, portable fields |
 * | toolResponse (in the next user message)  | tool.after_call                            | tool_response (the text content), is_error (`isError`, or status error), error |
 * | assistant text without tool requests, last before the next prompt or the end | final_answer.before + .after | text |
 * | (end)                                    | agent.end                                  | status, usage (the session's token totals) |
 * | confirmations, notifications, compaction | annotations                                |                                         |
 *
 * goose names a tool `<extension>__<tool>` (`developer__shell`); the portable fields read the part after
 * the last `__`. A sub-agent session (`session_type: sub_agent`) gets agent_id `goose:subagent`.
 */
export class GooseImporter extends RecordImporter {
  private started = false;
  /** A session without a time of its own (the legacy metadata line): agent.start waits for the first message's. */
  private pendingStart: JsonObject | null = null;
  private sessionId: string | null = null;
  private model: string | null = null;
  private totals: JsonObject | null = null;
  private readonly meta: JsonObject = {};
  private readonly open = new Map<string, Started>();
  private final: { id: string; text: string; ts: string | null } | null = null;
  private lastWasAnswer = false;
  private messages = 0;

  constructor(options: ImporterOptions, onEvent?: (event: TraceEvent) => void) {
    super('goose', 'goose', 'goose', options, onEvent);
  }

  protected object(value: JsonObject, line: number): void {
    if (typeof value.role === 'string') return this.message(value, line, '');
    if (Array.isArray(value.conversation)) {
      this.session(value, line);
      value.conversation.forEach((m, i) => this.exportMessage(m, i + 1));
      return;
    }
    // The legacy file's first line (or an export of a session without its messages).
    if (typeof value.working_dir === 'string' || typeof value.description === 'string') return this.session(value, line);
    this.b.unknownRecord('(no role)', line, value);
  }

  /**
   * `goose session export` fed as it streams [I1]: the session's members first (its messages wait for those
   * goose writes before them), then one message at a time; the token totals are read at the end.
   */
  asExport(): KeyedImporter {
    return {
      arrays: new Set(['conversation']),
      needs: GOOSE_EXPORT_NEEDS,
      begin: (shell, arrays) => {
        if (!arrays.has('conversation')) return;
        this.records++;
        this.session(shell, 1);
      },
      element: (_key, m, index) => this.exportMessage(m, index),
      finish: (shell, arrays) => {
        if (!arrays.has('conversation')) this.record(shell, 1);
        else this.totals = totalsOf(shell) ?? this.totals;
        return this.finish();
      },
    };
  }

  finish(): ImportResult {
    const b = this.b;
    this.emitFinal();
    if (!this.started) this.begin(this.pendingStart ?? {}, null);
    for (const [useId, s] of this.open) b.warn(`tool call ${useId} (${s.name}) has no tool response in the session`);
    const end: JsonObject = { status: this.lastWasAnswer ? 'completed' : 'incomplete', session_id: this.sessionId ?? b.traceId };
    if (this.totals) end.usage = this.totals;
    b.emit('agent.end', 'end', b.latestTs, end);
    return b.finish(this.source('goose', this.meta), this.records + this.messages);
  }

  private session(s: JsonObject, line: number): void {
    if (this.started || this.pendingStart) return this.b.annotate('session', { line, id: str(s.id) });
    const p: JsonObject = {};
    if (typeof s.id === 'string' && s.id !== '') {
      this.sessionId = s.id;
      this.b.traceId = s.id;
      this.meta.session_id = s.id;
    }
    if (s.session_type === 'sub_agent') this.b.agentId = 'goose:subagent';
    for (const k of ['working_dir', 'session_type', 'schedule_id'] as const) if (typeof s[k] === 'string') p[k] = s[k] as string;
    const name = typeof s.name === 'string' && s.name !== '' ? s.name : typeof s.description === 'string' ? s.description : '';
    if (name !== '') p.name = name;
    if (typeof s.provider_name === 'string') p.provider = s.provider_name;
    const config = isJsonObject(s.model_config) ? s.model_config : null;
    if (config && typeof config.model_name === 'string') this.model = p.model = config.model_name;
    this.totals = totalsOf(s);
    const ts = toIsoTs(s.created_at)?.iso ?? null;
    if (ts === null) this.pendingStart = p;
    else this.begin(p, ts);
  }

  /** One message of an export's `conversation` (`index` 1-based). */
  private exportMessage(m: unknown, index: number): void {
    this.messages++;
    const where = `message ${index}: `;
    if (isJsonObject(m) && typeof m.unreadable === 'string') this.b.dropRecord('message', 0, m.unreadable, where);
    else if (isJsonObject(m)) this.message(m, 0, where);
    else this.b.dropRecord('message', 0, 'a message that is not an object', where);
  }

  private begin(p: JsonObject, ts: string | null): void {
    this.started = true;
    this.b.emit('agent.start', 'start', ts, { session_id: this.sessionId ?? this.b.traceId, ...p });
  }

  private message(m: JsonObject, line: number, where: string): void {
    const b = this.b;
    const content = Array.isArray(m.content) ? m.content : null;
    const ts = toIsoTs(m.created)?.iso ?? null;
    if (!this.started) this.begin(this.pendingStart ?? {}, ts);
    if (!content) return b.dropRecord('message', line, 'a message without a content list', where);
    const id = typeof m.id === 'string' && m.id !== '' ? m.id : line > 0 ? `l${line}` : `m${this.messages}`;
    const hidden = isJsonObject(m.metadata) && m.metadata.agentVisible === false;
    if (m.role === 'assistant') return this.assistant(m, content, id, ts, line, where);
    if (m.role !== 'user') return b.unknownRecord(`role ${String(m.role)}`, line, m, where);
    const texts: string[] = [];
    for (const c of content) {
      if (!isJsonObject(c)) {
        b.dropRecord('content', line, 'a content item that is not an object', where);
        continue;
      }
      if (c.type === 'text' && typeof c.text === 'string') texts.push(c.text);
      else if (c.type === 'toolResponse') this.toolResponse(c, ts, line, where);
      else if (c.type === 'image') b.annotate('image', { mime_type: str(c.mimeType), line });
      else this.other(c, line, where);
    }
    if (texts.length === 0) return;
    if (hidden) return b.annotate('hidden_user_text', { text: texts.join('\n'), line });
    this.emitFinal();
    this.lastWasAnswer = false;
    b.emit('input.received', `${id}:input`, ts, { prompt: texts.join('\n') });
  }

  private assistant(m: JsonObject, content: unknown[], id: string, ts: string | null, line: number, where: string): void {
    const b = this.b;
    this.final = null;
    const response: JsonValue[] = [];
    const requests: JsonObject[] = [];
    const texts: string[] = [];
    for (const c of content) {
      if (!isJsonObject(c)) {
        b.dropRecord('content', line, 'a content item that is not an object', where);
        continue;
      }
      if (c.type === 'text' && typeof c.text === 'string') {
        texts.push(c.text);
        response.push({ type: 'text', text: c.text });
      } else if (c.type === 'thinking' && typeof c.thinking === 'string') response.push({ type: 'thinking', thinking: c.thinking });
      else if (c.type === 'redactedThinking') response.push({ type: 'redacted_thinking' });
      else if (c.type === 'toolRequest' || c.type === 'frontendToolRequest') {
        const call = toolCall(c);
        requests.push(c);
        response.push({ type: 'tool_use', id: str(c.id), name: call.name, input: call.input });
      } else if (c.type === 'image') b.annotate('image', { mime_type: str(c.mimeType), line });
      else this.other(c, line, where);
    }
    const before: JsonObject = { message_id: id };
    if (this.model) before.model = this.model;
    b.emit('model.before_call', `${id}:model.before`, ts, before);
    const after: JsonObject = { ...before, response };
    if (typeof m.tokens === 'number') after.usage = { tokens: m.tokens };
    b.emit('model.after_call', `${id}:model.after`, ts, after);
    for (const r of requests) this.toolRequest(r, ts, line, where);
    const text = texts.join('\n');
    this.lastWasAnswer = requests.length === 0 && text !== '';
    if (this.lastWasAnswer) this.final = { id, text, ts };
  }

  private toolRequest(c: JsonObject, ts: string | null, line: number, where: string): void {
    const useId = str(c.id);
    if (useId === '') return this.b.dropRecord('toolRequest', line, 'a tool request without an id', where);
    const call = toolCall(c);
    const portable = goosePortable(call.name, call.input);
    const p: JsonObject = { tool_name: call.name, tool_input: call.input, tool_use_id: useId };
    const ext = call.name.lastIndexOf('__');
    if (ext > 0) p.extension = call.name.slice(0, ext);
    if (call.error !== null) p.error = call.error;
    if (c.type === 'frontendToolRequest') p.frontend = true;
    this.open.set(useId, { name: call.name, input: call.input, portable });
    this.b.emit('tool.before_call', `${useId}:before`, ts, setPortableFields(p, portable));
  }

  private toolResponse(c: JsonObject, ts: string | null, line: number, where: string): void {
    const useId = str(c.id);
    const s = this.open.get(useId);
    if (!s) return this.b.dropRecord('toolResponse', line, `the tool response ${JSON.stringify(useId)} answers no tool request`, where);
    this.open.delete(useId);
    const r = isJsonObject(c.toolResult) ? c.toolResult : {};
    const p: JsonObject = { tool_name: s.name, tool_input: s.input, tool_use_id: useId };
    if (r.status === 'error') {
      p.tool_response = str(r.error);
      p.is_error = true;
      p.error = str(r.error);
    } else {
      // CallToolResult `{content, isError, structuredContent}`, or the legacy bare content list.
      const value = r.value;
      const result = isJsonObject(value) ? value : { content: Array.isArray(value) ? value : [] };
      p.tool_response = contentText(result.content);
      p.is_error = result.isError === true || r.status !== 'success';
      if (result.structuredContent !== undefined) p.structured_response = result.structuredContent as JsonValue;
    }
    this.b.emit('tool.after_call', `${useId}:after`, ts, setPortableFields(p, s.portable));
  }

  private other(c: JsonObject, line: number, where: string): void {
    const kind = typeof c.type === 'string' ? c.type : '(no type)';
    if (ANNOTATED.has(kind)) this.b.annotate(kind, { ...c, line });
    else this.b.unknownRecord(`content ${kind}`, line, c, where);
  }

  private emitFinal(): void {
    const f = this.final;
    if (!f) return;
    this.final = null;
    this.b.finalAnswer(f.id, f.ts, { text: f.text });
  }
}

/** A tool request's call: name and arguments, or the error goose recorded for a call it could not parse. */
function toolCall(c: JsonObject): { name: string; input: JsonObject; error: string | null } {
  const call = isJsonObject(c.toolCall) ? c.toolCall : {};
  if (call.status === 'error') return { name: '(invalid tool call)', input: {}, error: str(call.error) };
  const v = isJsonObject(call.value) ? call.value : {};
  return { name: str(v.name), input: isJsonObject(v.arguments) ? v.arguments : {}, error: null };
}

/**
 * The portable fields of a goose tool: its session table is keyed by the name after the extension
 * (`developer__shell` → `shell`); text_editor's kind is its `command`'s (view reads) by the table.
 */
function goosePortable(name: string, input: JsonObject): JsonObject {
  return sessionPortableFields('goose', name.slice(name.lastIndexOf('__') + 2), input);
}

/** The text of MCP content items joined; a result with other content (images, resources) is kept whole. */
function contentText(content: unknown): JsonValue {
  if (!Array.isArray(content)) return '';
  const texts = content.filter(isJsonObject);
  if (texts.length === content.length && texts.every((t) => t.type === 'text' && typeof t.text === 'string')) return texts.map((t) => t.text as string).join('\n');
  return content as JsonValue;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}
