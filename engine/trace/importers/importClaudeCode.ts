import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import { setPortableFields } from '../../model/portableTool.ts';
import { sessionPortableFields } from '../../model/toolTables.ts';
import type { ImporterOptions, ImportResult } from './importReport.ts';
import { TraceBuilder } from './traceBuilder.ts';
import { toIsoTs } from './toIsoTs.ts';
import { ClaudeTurnPlanner, userRecordKind, type ClaudeGroup, type UserRecordKind } from './planClaudeTurns.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { annotateClaudeRecord } from './annotateClaudeRecord.ts';

/** One parsed line of a JSONL source and its 1-based line number. */
export interface JsonlRecord {
  line: number;
  value: unknown;
}

/**
 * Claude Code session transcript (JSONL, one record per line) → trace v1. Rules [I4]; the table below is
 * the mapping (FORMATS.md §C in the fixtures). Event ids are `cc:<source id>:<role>`.
 *
 * | source record                                       | event(s)                                   | payload                                                      |
 * |-----------------------------------------------------|--------------------------------------------|--------------------------------------------------------------|
 * | first record with a sessionId                       | agent.start                                | session_id, cwd, version, git_branch, permission_mode        |
 * | `user`, string content, not meta / local command    | input.received                             | prompt (= UserPromptSubmit's prompt)                         |
 * | `user`, list of text blocks (not an interrupt mark) | input.received                             | prompt = the texts joined                                    |
 * | `user` with isMeta (skill/command text) or          | context.added (not input.received: a rule  | source: meta / compact_summary, text                         |
 * |   isCompactSummary (the compaction summary)         |   on user input must not fire on it)       |                                                              |
 * | first `assistant` record of a message.id            | model.before_call + model.after_call       | model, message_id; response = all content blocks of the id,  |
 * |                                                     |                                            | usage (last record's), stop_reason                           |
 * | `assistant` tool_use block                          | tool.before_call (= PreToolUse)            | tool_name, tool_input, tool_use_id, portable fields [I13]    |
 * | `user` tool_result block                            | tool.after_call (= PostToolUse)            | tool_name, tool_input, tool_response (toolUseResult, else    |
 * |                                                     |                                            | the block content), is_error, tool_use_id, content, portable |
 * | last model call of a turn, text and no tool_use     | final_answer.before + final_answer.after   | text                                                         |
 * | `system` subtype api_error                          | agent.error                                | error                                                        |
 * | end of file                                         | agent.end                                  | status: completed / interrupted / incomplete                 |
 * | `progress` hook_progress, agent_progress; `system`  | annotation (meta.annotations) of the event | hook_event, hook_name, command / subtype, content            |
 * |   local_command, stop_hook_summary, ...;            |   it concerns (PreToolUse → that tool's    |                                                              |
 * |   local-command `user` strings; interrupt marks     |   tool.before_call, SessionStart → start)  |                                                              |
 * | file-history-snapshot, queue-operation, summary     | skipped (counted)                          |                                                              |
 * | anything else                                       | unknown (counted)                          |                                                              |
 *
 * Records with `isSidechain: true` (a subagent's conversation) get agent_id `claude-code:sidechain`.
 *
 * Streamed [I1]: records are planned as they arrive (ClaudeTurnPlanner) and imported once their model call is
 * complete, so only the records from the oldest open model call on are held, and events go to the sink as soon
 * as no annotation can still come for them (a tool call's `tool.before_call` waits for its result: hooks and
 * subagent progress name it until then).
 */
export function importClaudeCode(records: readonly JsonlRecord[], options: ImporterOptions = {}): ImportResult {
  const imp = new ClaudeCodeImporter(options);
  for (const r of records) imp.record(r.value);
  return imp.finish(records.length);
}

/**
 * Records that may wait for a session id [I4]. Claude Code writes `sessionId` on its first user record; only
 * a few `summary` and snapshot records come before it. A transcript without one in its first 10,000 records
 * is read as one without any, so a file with none is streamed too, not held whole.
 */
export const SESSION_ID_WITHIN = 10_000;

/** A record as it waits to be imported: its kind and model call, decided once when it arrived. */
interface Waiting {
  rec: unknown;
  kind: UserRecordKind | null;
  group: ClaudeGroup | undefined;
}

/** The Claude Code importer fed one parsed record at a time (see importClaudeCode for the mapping). */
export class ClaudeCodeImporter {
  private readonly plan = new ClaudeTurnPlanner();
  private readonly waiting: Waiting[] = [];
  private head = 0;
  private b: TraceBuilder | null = null;
  /** The first record with a session id: the trace id and agent.start come from it; nothing is imported before it is known. */
  private first: JsonObject | null = null;
  private startRec: unknown = undefined;
  /** No session id in the first SESSION_ID_WITHIN records: the trace id is derived from the input. */
  private noSession = false;
  private started = false;
  private status: 'completed' | 'interrupted' | 'incomplete' = 'incomplete';
  /** Tool calls whose tool.before_call is held until their result. */
  private readonly open = new Map<string, TraceEvent>();

  constructor(
    private readonly options: ImporterOptions,
    private readonly onEvent?: (event: TraceEvent) => void,
  ) {}

  /** One parsed line of the transcript. */
  record(value: unknown): void {
    let kind: UserRecordKind | null = null;
    let group: ClaudeGroup | undefined;
    if (isJsonObject(value)) {
      if (this.first === null && !this.noSession && typeof value.sessionId === 'string') {
        this.first = value;
        this.startRec = value;
      }
      if (value.type === 'user') kind = userRecordKind(value);
      group = this.plan.see(value, kind);
    }
    this.waiting.push({ rec: value, kind, group });
    if (this.first === null && !this.noSession && this.waiting.length >= SESSION_ID_WITHIN) this.withoutSession();
    if (this.first !== null || this.noSession) this.drain();
  }

  finish(sourceRecords: number): ImportResult {
    this.plan.end();
    const late = this.noSession;
    if (this.first === null && !this.noSession) this.withoutSession();
    this.drain();
    const b = this.builder();
    const sessionId = b.traceId;
    const lastTs = b.events[b.events.length - 1]?.ts ?? null;
    if (this.started) b.emit('agent.end', `${sessionId}:end`, lastTs, { status: this.status, session_id: sessionId });
    if (!this.first) b.warn(`no record${late ? ` of the first ${SESSION_ID_WITHIN}` : ''} carries a sessionId: the trace id was derived from the input`);
    for (const { id, name } of this.plan.unansweredToolUses()) b.warn(`tool call ${id} (${name}) has no tool_result in the transcript`);
    return b.finish(this.source(sessionId), sourceRecords);
  }

  /** No session id (in the first SESSION_ID_WITHIN records): agent.start goes at the first timed record, failing that the first object. */
  private withoutSession(): void {
    this.noSession = true;
    const recs = this.waiting.map((w) => w.rec);
    this.startRec = recs.find((r) => isJsonObject(r) && typeof r.timestamp === 'string') ?? recs.find((r) => isJsonObject(r));
  }

  /** The header's source: the session and what its first record says of it (known before the first event). */
  private source(sessionId: string): JsonObject & { kind: string } {
    const first = this.first;
    const source: JsonObject & { kind: string } = { kind: 'claude-code', session_id: sessionId };
    if (first) {
      if (typeof first.version === 'string') source.version = first.version;
      if (typeof first.cwd === 'string') source.cwd = first.cwd;
      if (typeof first.gitBranch === 'string') source.git_branch = first.gitBranch;
    }
    if (this.options.fileName) source.file_name = this.options.fileName;
    return source;
  }

  /** Made when the first record is imported, once the session id (the trace id) is known. */
  private builder(): TraceBuilder {
    if (this.b) return this.b;
    const sessionId = typeof this.first?.sessionId === 'string' ? this.first.sessionId : (this.options.fallbackTraceId ?? 'claude-code');
    const b = new TraceBuilder('claude-code', 'cc', sessionId, 'claude-code', this.options.ids);
    if (this.onEvent) b.streamTo(this.onEvent, { keyedLater: true });
    if (this.onEvent && this.options.onHeader) b.announceHeader(() => this.source(sessionId), this.options.onHeader);
    this.b = b;
    return b;
  }

  /** Imports the waiting records whose model call is complete, in order. */
  private drain(): void {
    const w = this.waiting;
    while (this.head < w.length) {
      const next = w[this.head] as Waiting;
      if (next.group && !next.group.closed) break;
      this.head++;
      this.one(next);
    }
    if (this.head === w.length) {
      w.length = 0;
      this.head = 0;
    } else if (this.head > 1024) {
      w.splice(0, this.head);
      this.head = 0;
    }
  }

  private one({ rec, kind: userKind, group }: Waiting): void {
    const b = this.builder();
    if (!isJsonObject(rec)) {
      b.unknown('(not an object)');
      return;
    }
    const ts = toIsoTs(rec.timestamp)?.iso ?? null;
    const agentId = rec.isSidechain === true ? 'claude-code:sidechain' : undefined;
    const before = b.count;
    if (!this.started && rec === this.startRec) {
      this.started = true;
      b.emit('agent.start', `${b.traceId}:start`, ts, startPayload(rec), { key: 'start' });
    }
    const kind = typeof rec.type === 'string' ? rec.type : '(no type)';
    if (kind === 'user') {
      if (this.onUser(b, rec, userKind as UserRecordKind, ts, agentId)) this.status = 'interrupted';
    } else if (kind === 'assistant') this.onAssistant(b, rec, group, ts, agentId);
    else if (kind === 'system' && rec.subtype === 'api_error') b.emit('agent.error', str(rec.uuid), ts, { error: errorText(rec) }, { agentId });
    else if (!annotateClaudeRecord(b, rec, kind)) {
      if (kind === 'file-history-snapshot' || kind === 'queue-operation' || kind === 'summary') b.skip(kind);
      else b.unknown(kind);
    }
    const last = b.events[b.events.length - 1];
    if (b.count > before && last && last.type !== 'agent.start') this.status = last.type === 'final_answer.after' ? 'completed' : 'incomplete';
  }

  /** Emits input or tool results; returns true for an interrupt mark (the turn was stopped by the user). */
  private onUser(b: TraceBuilder, rec: JsonObject, kind: UserRecordKind, ts: string | null, agentId: string | undefined): boolean {
    const content = isJsonObject(rec.message) ? rec.message.content : undefined;
    const uuid = str(rec.uuid);
    if (kind === 'prompt' || kind === 'text_prompt') {
      // A new turn: hooks and subagents of the last one are done.
      if (rec.isSidechain !== true) this.releaseOpen(b);
      const prompt = typeof content === 'string' ? content : textsOf(content).join('\n');
      const p: JsonObject = { prompt };
      if (typeof rec.permissionMode === 'string') p.permission_mode = rec.permissionMode;
      b.emit('input.received', `${uuid}:input`, ts, p, { agentId });
    } else if (kind === 'meta' || kind === 'compact_summary') {
      const text = typeof content === 'string' ? content : textsOf(content).join('\n');
      b.emit('context.added', `${uuid}:context`, ts, { source: kind === 'meta' ? 'meta' : 'compact_summary', text }, { agentId });
    } else if (kind === 'local_command') {
      b.annotate(`user:${kind}`, { content: String(content), uuid });
    } else if (kind === 'interrupt') {
      b.annotate('user:interrupt', { text: textsOf(content).join('\n'), uuid });
      return true;
    } else if (kind === 'tool_results' && Array.isArray(content)) {
      const results = content.filter((c) => isJsonObject(c) && c.type === 'tool_result') as JsonObject[];
      for (const block of results) this.onToolResult(b, rec, block, results.length, ts, agentId);
    } else b.unknown('user:(no text, prompt or tool_result)');
    return false;
  }

  private onToolResult(b: TraceBuilder, rec: JsonObject, block: JsonObject, count: number, ts: string | null, agentId: string | undefined): void {
    const id = str(block.tool_use_id);
    const use = this.plan.answer(id);
    if (!use) b.warn(`tool_result for ${id} has no matching tool_use`);
    // toolUseResult (the structured result, PostToolUse's tool_response) belongs to a record's only result.
    const structured = count === 1 ? rec.toolUseResult : undefined;
    const p: JsonObject = {
      tool_name: use?.name ?? 'unknown',
      tool_input: use?.input ?? {},
      tool_response: structured !== undefined ? (structured as JsonValue) : ((block.content as JsonValue | undefined) ?? null),
      is_error: block.is_error === true,
      tool_use_id: id,
    };
    if (structured !== undefined) p.content = (block.content as JsonValue | undefined) ?? null;
    if (use) setPortableFields(p, sessionPortableFields('claude-code', use.name, use.input));
    b.emit('tool.after_call', `${id}:after`, ts, p, { key: `after:${id}`, agentId });
    const held = this.open.get(id);
    if (held) {
      this.open.delete(id);
      b.release(held);
    }
  }

  /** Emits the model call (at the first record of a message id), tool calls, and the final answer (at the last). */
  private onAssistant(b: TraceBuilder, rec: JsonObject, group: ClaudeGroup | undefined, ts: string | null, agentId: string | undefined): void {
    const msg = isJsonObject(rec.message) ? rec.message : {};
    if (group && group.first === rec) {
      const before: JsonObject = { message_id: group.id };
      if (group.model) before.model = group.model;
      b.emit('model.before_call', `${group.id}:before`, ts, before, { agentId });
      const after: JsonObject = { message_id: group.id, response: group.blocks, stop_reason: group.stopReason };
      if (group.model) after.model = group.model;
      if (group.usage) after.usage = group.usage;
      b.emit('model.after_call', `${group.id}:after`, ts, after, { agentId });
    }
    const blocks = Array.isArray(msg.content) ? msg.content : [];
    for (const block of blocks) {
      if (!isJsonObject(block) || block.type !== 'tool_use') continue;
      const id = str(block.id);
      const input = isJsonObject(block.input) ? block.input : {};
      const name = str(block.name);
      const p = setPortableFields({ tool_name: name, tool_input: input, tool_use_id: id }, sessionPortableFields('claude-code', name, input));
      const e = b.emit('tool.before_call', `${id}:before`, ts, p, { key: `before:${id}`, agentId });
      // Its PreToolUse hooks and its subagent's progress come after it: held until its result.
      if (!this.plan.answered(id) && !this.open.has(id)) {
        this.open.set(id, e);
        b.hold(e);
      }
    }
    if (group && group.last === rec && group.final) b.finalAnswer(group.id, ts, { text: group.text }, { key: `final:${group.id}`, agentId });
  }

  private releaseOpen(b: TraceBuilder): void {
    if (this.open.size === 0) return;
    b.releaseAll();
    this.open.clear();
  }
}

function startPayload(rec: JsonObject): JsonObject {
  const p: JsonObject = {};
  if (typeof rec.sessionId === 'string') p.session_id = rec.sessionId;
  if (typeof rec.cwd === 'string') p.cwd = rec.cwd;
  if (typeof rec.version === 'string') p.version = rec.version;
  if (typeof rec.gitBranch === 'string') p.git_branch = rec.gitBranch;
  return p;
}

function textsOf(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.filter((c) => isJsonObject(c) && c.type === 'text').map((c) => str((c as JsonObject).text));
}

function errorText(rec: JsonObject): string {
  if (typeof rec.content === 'string') return rec.content;
  const e = rec.error;
  if (isJsonObject(e) && typeof e.message === 'string') return e.message;
  return JSON.stringify(e ?? rec.content ?? 'API error');
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}
