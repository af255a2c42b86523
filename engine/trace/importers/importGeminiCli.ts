import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { setPortableFields } from '../../model/portableTool.ts';
import { sessionPortableFields } from '../../model/toolTables.ts';
import type { ImporterOptions, ImportResult } from './importReport.ts';
import { RecordImporter } from './recordImporter.ts';
import type { KeyedImporter } from './keyedImporter.ts';
import { toIsoTs } from './toIsoTs.ts';

/** A tool call whose start was emitted. */
interface Started {
  useId: string;
  name: string;
  input: JsonObject;
  agentId: string | undefined;
  portable: JsonObject;
}

/** A message as the importer holds it until a record with another id shows it is final. */
interface Held {
  rec: JsonObject;
  line: number;
}

/** Tool call statuses after which the call has ended (gemini-cli packages/core/src/scheduler/types.ts CoreToolCallStatus). */
const ENDED = new Set(['success', 'error', 'cancelled']);
/** Shell output of a failed command: `Exit Code: N` (gemini-cli packages/core/src/tools/shell.ts, 0.56). */
const EXIT_CODE = /^Exit Code: (-?\d+)\s*$/m;

/**
 * Gemini CLI chat recordings → trace v1, streamed [I12]. Source: google-gemini/gemini-cli 0.56
 * (packages/core/src/services/chatRecordingService.ts and chatRecordingTypes.ts). Two shapes:
 * - `~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`: a metadata line `{sessionId, projectHash,
 *   startTime, kind?}`, then message records `{id, timestamp, type, content, …}` — the same id written again
 *   whenever the message changes (tool calls, tokens added: the last copy wins) — `{$set: {…}}` metadata
 *   updates and `{$rewindTo: id}` marks;
 * - the older `session-*.json`: one `{sessionId, projectHash, startTime, lastUpdated, messages: […]}`.
 *
 * | record                                  | event(s)                                   | payload                                           |
 * |-----------------------------------------|--------------------------------------------|---------------------------------------------------|
 * | metadata                                | agent.start                                | session_id, project_hash, kind                    |
 * | `user` message                          | input.received                             | prompt (text parts joined)                        |
 * | `gemini` message                        | model.before_call + model.after_call       | model, message_id; response (text, thinking, tool_use blocks), usage (tokens) |
 * | its `toolCalls[]`                       | tool.before_call; tool.after_call once the status is success/error/cancelled | tool_name, tool_input (args), tool_use_id, tool_response (the functionResponse), is_error (status ≠ success, or `Exit Code: N≠0`), status, portable fields |
 * | `gemini` text with no tool call, last before the next `user` message or the end | final_answer.before + .after | text |
 * | `error` message                         | agent.error                                | error                                             |
 * | `info`, `warning`, `$set`, `$rewindTo`  | annotations                                |                                                   |
 * | (end)                                   | agent.end                                  | status                                            |
 *
 * A tool call with an `agentId` (a subagent's) gets agent_id `gemini-cli:<agentId>`; a subagent's own file
 * (`kind: "subagent"`) gets `gemini-cli:subagent`.
 */
export class GeminiCliImporter extends RecordImporter {
  private started = false;
  private held: Held | null = null;
  private final: { id: string; text: string; ts: string | null } | null = null;
  private readonly seen = new Set<string>();
  private sessionId: string | null = null;
  private readonly meta: JsonObject = {};
  private agentId = 'gemini-cli';

  constructor(options: ImporterOptions, onEvent?: (event: TraceEvent) => void) {
    super('gemini-cli', 'gemini', 'gemini-cli', options, onEvent);
  }

  protected object(value: JsonObject, line: number): void {
    const b = this.b;
    if (typeof value.$rewindTo === 'string') {
      this.flush();
      return b.annotate('rewind', { to: value.$rewindTo, line });
    }
    if (isJsonObject(value.$set)) {
      const set = value.$set;
      if (Array.isArray(set.messages)) for (const m of set.messages) this.message(m, line);
      const rest: JsonObject = {};
      for (const [k, v] of Object.entries(set)) if (k !== 'messages') rest[k] = v as JsonValue;
      if (Object.keys(rest).length > 0) b.annotate('metadata', rest);
      return;
    }
    if (typeof value.sessionId === 'string' && typeof value.projectHash === 'string' && typeof value.id !== 'string') {
      this.metadata(value, line);
      if (Array.isArray(value.messages)) for (const m of value.messages) this.message(m, line);
      return;
    }
    if (typeof value.id === 'string') return this.message(value, line);
    b.unknownRecord(typeof value.type === 'string' ? value.type : '(no id, no type)', line, value);
  }

  /**
   * The older `session-*.json` fed as it streams [I1]: its metadata first (the messages wait for `sessionId`,
   * `projectHash` and `startTime`, which Gemini CLI writes before them), then one message at a time. `kind` and
   * `directories` shape agent.start only when they come before the messages (the older files have neither);
   * written after them, they are an annotation. A document without that metadata is read as one record at the
   * end, as it would be whole.
   */
  asDocument(): KeyedImporter {
    let other: unknown[] | null = null;
    let early: JsonObject = {};
    return {
      arrays: new Set(['messages']),
      needs: ['sessionId', 'projectHash', 'startTime'],
      begin: (shell, arrays) => {
        if (!arrays.has('messages')) return;
        if (typeof shell.sessionId !== 'string' || typeof shell.projectHash !== 'string' || typeof shell.id === 'string') {
          other = [];
          return;
        }
        this.records++;
        early = shell;
        this.metadata(shell, 1);
      },
      element: (_key, m) => (other ? other.push(m) : this.message(m, 1)),
      finish: (shell, arrays) => {
        if (!arrays.has('messages')) this.record(shell, 1);
        else if (other) this.record({ ...shell, messages: other as JsonValue[] }, 1);
        else {
          const late: JsonObject = {};
          for (const k of ['kind', 'directories']) if (shell[k] !== undefined && early[k] === undefined) late[k] = shell[k] as JsonValue;
          if (Object.keys(late).length > 0) this.b.annotate('metadata', late);
        }
        return this.finish();
      },
    };
  }

  finish(_lines?: number): ImportResult {
    this.flush();
    this.emitFinal();
    const b = this.b;
    if (!this.started) this.start(null);
    const status = this.lastWasAnswer ? 'completed' : 'incomplete';
    b.emit('agent.end', 'end', b.latestTs, { status, session_id: this.sessionId ?? b.traceId });
    if (!this.sessionId) b.warn('no metadata record with a sessionId: the trace id was derived from the input');
    return b.finish(this.source('gemini-cli', this.meta), this.records);
  }

  private lastWasAnswer = false;

  private metadata(m: JsonObject, line: number): void {
    if (this.started) return this.b.annotate('metadata', { session_id: m.sessionId as string, line });
    this.sessionId = m.sessionId as string;
    this.b.traceId = this.sessionId;
    this.meta.session_id = this.sessionId;
    this.meta.project_hash = m.projectHash as string;
    if (m.kind === 'subagent') this.agentId = 'gemini-cli:subagent';
    this.b.agentId = this.agentId;
    const p: JsonObject = { session_id: this.sessionId, project_hash: m.projectHash as string };
    if (typeof m.kind === 'string') p.kind = m.kind;
    if (Array.isArray(m.directories)) p.directories = m.directories as JsonValue;
    this.start(toIsoTs(m.startTime)?.iso ?? null, p);
  }

  private start(ts: string | null, p: JsonObject = {}): void {
    this.started = true;
    this.b.emit('agent.start', 'start', ts, p);
  }

  /** Holds a message until a record with another id arrives: a later copy of the same id replaces it. */
  private message(m: unknown, line: number): void {
    if (!isJsonObject(m) || typeof m.id !== 'string') return this.b.dropRecord('message', line, 'a message without an id');
    if (this.held && this.held.rec.id === m.id) {
      this.held = { rec: m, line };
      return;
    }
    this.flush();
    if (this.seen.has(m.id)) this.b.warn(`line ${line}: message ${m.id} was written again after later messages; the later copy is imported as another message`);
    this.held = { rec: m, line };
  }

  private flush(): void {
    const h = this.held;
    if (!h) return;
    this.held = null;
    this.seen.add(h.rec.id as string);
    if (!this.started) this.start(toIsoTs(h.rec.timestamp)?.iso ?? null);
    const type = typeof h.rec.type === 'string' ? h.rec.type : '(no type)';
    const ts = toIsoTs(h.rec.timestamp)?.iso ?? null;
    const id = h.rec.id as string;
    const b = this.b;
    if (type === 'user') {
      this.emitFinal();
      this.lastWasAnswer = false;
      b.emit('input.received', `${id}:input`, ts, { prompt: partsText(h.rec.content) });
    } else if (type === 'gemini') this.model(h.rec, id, ts);
    else if (type === 'error') {
      b.emit('agent.error', `${id}:error`, ts, { error: partsText(h.rec.content) });
    } else if (type === 'info' || type === 'warning') b.annotate(type, { text: partsText(h.rec.content), id });
    else b.unknownRecord(type, h.line, h.rec, `message ${id}: `);
  }

  private model(m: JsonObject, id: string, ts: string | null): void {
    const b = this.b;
    // A gemini message after an answer means the answer was not the turn's last word.
    this.final = null;
    const calls = Array.isArray(m.toolCalls) ? m.toolCalls.filter(isJsonObject) : [];
    const text = partsText(m.content);
    const response: JsonValue[] = [];
    if (Array.isArray(m.thoughts)) for (const t of m.thoughts) if (isJsonObject(t)) response.push({ type: 'thinking', thinking: [t.subject, t.description].filter((x) => typeof x === 'string' && x !== '').join(': ') });
    if (text !== '') response.push({ type: 'text', text });
    for (const c of calls) response.push({ type: 'tool_use', id: str(c.id), name: str(c.name), input: isJsonObject(c.args) ? c.args : {} });
    const model = typeof m.model === 'string' ? m.model : null;
    const before: JsonObject = { message_id: id };
    if (model) before.model = model;
    b.emit('model.before_call', `${id}:model.before`, ts, before);
    const after: JsonObject = { message_id: id, response };
    if (model) after.model = model;
    if (isJsonObject(m.tokens)) after.usage = m.tokens;
    b.emit('model.after_call', `${id}:model.after`, ts, after);
    // The calls of one message are scheduled together: all starts, then the results as they ended.
    const started = calls.map((c) => this.toolCall(c, id, ts));
    const order = calls.map((c, i) => ({ c, s: started[i] as Started, at: toIsoTs(c.timestamp)?.iso ?? '' }));
    order.sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0));
    for (const o of order) this.toolResult(o.c, o.s, ts);
    this.lastWasAnswer = calls.length === 0 && text !== '';
    if (this.lastWasAnswer) this.final = { id, text, ts };
  }

  private toolCall(c: JsonObject, messageId: string, ts: string | null): Started {
    const useId = typeof c.id === 'string' && c.id !== '' ? c.id : `${messageId}:${str(c.name)}`;
    const name = str(c.name);
    const input: JsonObject = isJsonObject(c.args) ? c.args : {};
    const agentId = typeof c.agentId === 'string' && c.agentId !== '' ? `gemini-cli:${c.agentId}` : undefined;
    const portable = sessionPortableFields('gemini-cli', name, input, { mcp: /__/.test(name) });
    this.b.emit('tool.before_call', `${useId}:before`, ts, setPortableFields({ tool_name: name, tool_input: input, tool_use_id: useId }, portable), { agentId });
    return { useId, name, input, agentId, portable };
  }

  private toolResult(c: JsonObject, s: Started, ts: string | null): void {
    const status = typeof c.status === 'string' ? c.status : null;
    if (status === null || !ENDED.has(status)) return this.b.warn(`tool call ${s.useId} (${s.name}) has no result in the recording (status ${status ?? 'missing'})`);
    const response = functionResponse(c.result);
    const exit = EXIT_CODE.exec(responseText(response));
    const failed = status !== 'success' || (exit !== null && Number(exit[1]) !== 0);
    const at = toIsoTs(c.timestamp)?.iso ?? ts;
    const p: JsonObject = { tool_name: s.name, tool_input: s.input, tool_response: response, is_error: failed, tool_use_id: s.useId, status };
    if (typeof c.resultDisplay === 'string') p.result_display = c.resultDisplay;
    this.b.emit('tool.after_call', `${s.useId}:after`, at && ts && at < ts ? ts : at, setPortableFields(p, s.portable), { agentId: s.agentId });
  }

  private emitFinal(): void {
    const f = this.final;
    if (!f) return;
    this.final = null;
    this.b.finalAnswer(f.id, f.ts, { text: f.text });
  }
}

/** Text of a PartListUnion: a string, a part `{text}`, or a list of them (other parts ignored). */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (isJsonObject(content)) return typeof content.text === 'string' ? content.text : '';
  if (!Array.isArray(content)) return '';
  return content.map((p) => (typeof p === 'string' ? p : isJsonObject(p) && typeof p.text === 'string' ? p.text : '')).filter((t) => t !== '').join('');
}

/** A tool result (PartListUnion): the `functionResponse.response` of its part when there is one, else it as is. */
function functionResponse(result: unknown): JsonValue {
  const parts = Array.isArray(result) ? result : [result];
  const fr = parts.find((p) => isJsonObject(p) && isJsonObject(p.functionResponse));
  if (fr && isJsonObject(fr) && isJsonObject(fr.functionResponse)) return (fr.functionResponse.response as JsonValue | undefined) ?? null;
  return (result as JsonValue | undefined) ?? null;
}

function responseText(response: JsonValue): string {
  if (typeof response === 'string') return response;
  if (isJsonObject(response)) {
    const out = response.output ?? response.error ?? response.llmContent;
    return typeof out === 'string' ? out : '';
  }
  return '';
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}
