import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { setPortableFields } from '../../model/portableTool.ts';
import { sessionPortableFields } from '../../model/toolTables.ts';
import type { ImporterOptions, ImportResult } from './importReport.ts';
import { RecordImporter } from './recordImporter.ts';
import { toIsoTs } from './toIsoTs.ts';

/** A tool call whose start was emitted, until its completion. */
interface Started {
  name: string;
  input: JsonObject;
  agentId: string | undefined;
  portable: JsonObject;
}

/** An assistant message held until its usage (which may follow it) is known. */
interface HeldMessage {
  data: JsonObject;
  id: string;
  ts: string | null;
  agentId: string | undefined;
  usage: JsonObject | null;
  thinking: string[];
}

/**
 * Event kinds that carry nothing replay needs but are worth keeping with the event they follow (annotations);
 * and kinds that are bookkeeping of the live session (deltas, progress, idle): counted as skipped.
 * Source: github/copilot-sdk nodejs/src/generated/session-events.ts (SessionEvent union), v1.0.9, 2026-08.
 */
const ANNOTATED = new Set([
  'session.resume', 'session.info', 'session.warning', 'session.model_change', 'session.mode_changed', 'session.title_changed',
  'session.plan_changed', 'session.todos_changed', 'session.workspace_file_changed', 'session.handoff', 'session.truncation',
  'session.snapshot_rewind', 'session.compaction_start', 'session.compaction_complete', 'session.context_changed',
  'session.context_cleared', 'session.task_complete', 'session.usage_checkpoint', 'session.permissions_changed',
  'assistant.intent', 'skill.invoked', 'subagent.configured', 'subagent.selected', 'subagent.deselected',
  'subagent.completed', 'subagent.failed', 'hook.start', 'hook.end', 'system.message', 'system.notification',
  'permission.requested', 'permission.completed', 'user_input.requested', 'user_input.completed', 'abort',
  'tool.user_requested', 'command.execute', 'command.completed', 'model.call_failure',
]);
const SKIPPED = new Set([
  'session.idle', 'assistant.turn_start', 'assistant.turn_end', 'assistant.idle', 'assistant.message_start', 'assistant.message_delta',
  'assistant.reasoning_delta', 'assistant.streaming_delta', 'assistant.tool_call_delta', 'tool.execution_progress',
  'tool.execution_partial_result', 'pending_messages.modified', 'session.usage_info', 'model.call_finished', 'hook.progress',
  'command.queued', 'session.remote_steerable_changed', 'session.tools_updated', 'session.skills_loaded', 'session.mcp_servers_loaded',
]);

/**
 * GitHub Copilot CLI session event logs → trace v1, streamed [I15]. Source: github/copilot-sdk v1.0.9
 * (commit cc0438d, 2026-08-21) nodejs/src/generated/session-events.ts and docs/features/agent-loop.md:
 * `~/.copilot/session-state/<sessionId>/events.jsonl`, one event a line, each `{id, timestamp, parentId,
 * type, data, ephemeral?, agentId?}`.
 *
 * | event                         | event(s)                                  | payload                                          |
 * |-------------------------------|-------------------------------------------|--------------------------------------------------|
 * | `session.start`               | agent.start                               | session_id, copilot_version, producer, model, cwd |
 * | `user.message`                | input.received                            | prompt (`data.content`)                          |
 * | `assistant.reasoning`         | (a thinking block of the next message)    |                                                  |
 * | `assistant.message` (+ `assistant.usage`) | model.before_call + model.after_call | model, message_id; response (text, thinking, tool_use per `toolRequests`), usage |
 * | `tool.execution_start`        | tool.before_call                          | tool_name, tool_input (`arguments`), tool_use_id, mcp_server, portable fields |
 * | `tool.execution_complete`     | tool.after_call                           | tool_response (`result.content`), is_error (`success` false), error |
 * | an assistant text with no tool request, last before the next `user.message` or the end | final_answer.before + .after | text |
 * | `session.error`               | agent.error                               | error, error_type                                |
 * | `session.shutdown`, `abort`   | (agent.end's status; a shutdown's totals, summed over the file's shutdowns, are agent.end's `usage`: per-model tokens and requests, premium requests, API time, code changes) |   |
 * | `subagent.started`            | annotation; the calls under its `toolCallId` get agent_id `copilot-cli:<agentName>` |         |
 * | others of the schema          | annotations, or skipped (deltas, progress, idle) |                                           |
 *
 * Events written with `ephemeral: true` are not meant to be on disk; when found they are read the same way.
 */
export class CopilotCliImporter extends RecordImporter {
  private started = false;
  private sessionId: string | null = null;
  private readonly meta: JsonObject = {};
  private held: HeldMessage | null = null;
  private usageAhead: JsonObject | null = null;
  private thinking: string[] = [];
  private final: { id: string; text: string; ts: string | null; agentId: string | undefined } | null = null;
  private readonly open = new Map<string, Started>();
  /** Tool call id of a subagent's task → the subagent's agent id. */
  private readonly subagents = new Map<string, string>();
  private status: string | null = null;

  constructor(options: ImporterOptions, onEvent?: (event: TraceEvent) => void) {
    super('copilot-cli', 'copilot', 'copilot-cli', options, onEvent);
  }

  protected object(value: JsonObject, line: number): void {
    const b = this.b;
    const type = value.type;
    if (typeof type !== 'string') return b.unknownRecord('(no type)', line, value);
    const data = isJsonObject(value.data) ? value.data : null;
    if (!data) return b.dropRecord(type, line, `event ${JSON.stringify(type)} has no data object`);
    const ts = toIsoTs(value.timestamp)?.iso ?? null;
    const id = typeof value.id === 'string' && value.id !== '' ? value.id : `l${line}`;
    if (type === 'assistant.usage') return this.usage(data);
    if (type === 'assistant.reasoning') {
      if (typeof data.content === 'string' && data.content !== '') this.thinking.push(data.content);
      return;
    }
    this.flush();
    if (type === 'session.start') return this.start(data, ts);
    if (!this.started) this.begin(ts, {});
    const agentId = this.agentOf(value, data);
    if (type === 'user.message') return this.user(data, id, ts);
    if (type === 'assistant.message') {
      this.held = { data, id, ts, agentId, usage: this.usageAhead, thinking: this.thinking };
      this.usageAhead = null;
      this.thinking = [];
      return;
    }
    if (type === 'tool.execution_start') return this.toolStart(data, ts, agentId, line);
    if (type === 'tool.execution_complete') return this.toolEnd(data, ts, line);
    if (type === 'session.error') {
      const p: JsonObject = { error: typeof data.message === 'string' ? data.message : '' };
      if (typeof data.errorType === 'string') p.error_type = data.errorType;
      b.emit('agent.error', `${id}:error`, ts, p, { agentId });
      return;
    }
    if (type === 'subagent.started' && typeof data.toolCallId === 'string') {
      this.subagents.set(data.toolCallId, `copilot-cli:${typeof data.agentName === 'string' ? data.agentName : 'subagent'}`);
      b.annotate('subagent.started', { ...data, line });
      return;
    }
    if (type === 'session.shutdown') {
      this.status = data.shutdownType === 'error' ? 'error' : 'completed';
      this.addShutdown(data);
      b.annotate('session.shutdown', { shutdown_type: str(data.shutdownType), line });
      return;
    }
    if (type === 'abort') this.status = 'interrupted';
    if (ANNOTATED.has(type)) return b.annotate(type, { ...data, line });
    if (SKIPPED.has(type)) return b.skip(type);
    b.unknownRecord(type, line, value);
  }

  finish(_lines?: number): ImportResult {
    this.flush();
    this.emitFinal();
    const b = this.b;
    if (!this.started) this.begin(null, {});
    for (const [useId, s] of this.open) b.warn(`tool call ${useId} (${s.name}) has no tool.execution_complete in the log`);
    const status = this.status === 'error' ? 'error' : this.status === 'interrupted' ? 'interrupted' : this.lastWasAnswer ? 'completed' : 'incomplete';
    const end: JsonObject = { status, session_id: this.sessionId ?? b.traceId };
    if (this.totals) end.usage = this.totals;
    b.emit('agent.end', 'end', b.latestTs, end);
    if (!this.sessionId) b.warn('no session.start event: the trace id was derived from the input');
    return b.finish(this.source('copilot-cli', this.meta), this.records);
  }

  private lastWasAnswer = false;
  /** The session's totals from its `session.shutdown` events, summed: each covers one process's lifetime, and a resumed session writes another. */
  private totals: JsonObject | null = null;

  /**
   * Adds a `session.shutdown`'s totals (copilot-sdk session-events.ts ShutdownEvent, commit 01396124: `modelMetrics`
   * {<model>: {requests: {count, cost}, usage: {inputTokens, outputTokens, reasoningTokens, cacheReadTokens,
   * cacheWriteTokens}}}, `totalPremiumRequests`, `totalApiDurationMs`, `codeChanges` {linesAdded, linesRemoved,
   * filesModified}) to the session's, read on agent.end's `usage`.
   */
  private addShutdown(d: JsonObject): void {
    const t: JsonObject = this.totals ?? { models: {} };
    const models = t.models as JsonObject;
    if (isJsonObject(d.modelMetrics)) {
      for (const [model, m] of Object.entries(d.modelMetrics)) {
        if (!isJsonObject(m)) continue;
        // A Map-free object keyed by model names: `__proto__` is an own key here, never the prototype.
        const was = Object.prototype.hasOwnProperty.call(models, model) && isJsonObject(models[model]) ? (models[model] as JsonObject) : {};
        const sum = addNumbers(was, isJsonObject(m.usage) ? m.usage : {});
        if (isJsonObject(m.requests) && typeof m.requests.count === 'number') sum.requests = (typeof was.requests === 'number' ? was.requests : 0) + m.requests.count;
        Object.defineProperty(models, model, { value: sum, enumerable: true, writable: true, configurable: true });
      }
    }
    for (const k of ['totalPremiumRequests', 'totalApiDurationMs'] as const) if (typeof d[k] === 'number') t[k] = (typeof t[k] === 'number' ? (t[k] as number) : 0) + (d[k] as number);
    if (isJsonObject(d.codeChanges)) t.codeChanges = addNumbers(isJsonObject(t.codeChanges) ? t.codeChanges : {}, d.codeChanges);
    this.totals = t;
  }

  private start(d: JsonObject, ts: string | null): void {
    if (this.started) return this.b.annotate('session.start', { session_id: str(d.sessionId) });
    if (typeof d.sessionId === 'string' && d.sessionId !== '') {
      this.sessionId = d.sessionId;
      this.b.traceId = d.sessionId;
      this.meta.session_id = d.sessionId;
    }
    const p: JsonObject = { session_id: this.sessionId ?? this.b.traceId };
    if (typeof d.copilotVersion === 'string') p.copilot_version = this.meta.copilot_version = d.copilotVersion;
    if (typeof d.producer === 'string') p.producer = d.producer;
    if (typeof d.selectedModel === 'string') p.model = d.selectedModel;
    if (isJsonObject(d.context) && typeof d.context.cwd === 'string') p.cwd = d.context.cwd;
    this.begin(toIsoTs(d.startTime)?.iso ?? ts, p);
  }

  private begin(ts: string | null, p: JsonObject): void {
    this.started = true;
    this.b.emit('agent.start', 'start', ts, p);
  }

  /** A subagent's events: the envelope's `agentId`, else the subagent whose task call is the parent. */
  private agentOf(env: JsonObject, data: JsonObject): string | undefined {
    const parent = typeof data.parentToolCallId === 'string' ? this.subagents.get(data.parentToolCallId) : undefined;
    if (parent) return parent;
    return typeof env.agentId === 'string' && env.agentId !== '' ? `copilot-cli:${env.agentId}` : undefined;
  }

  private user(d: JsonObject, id: string, ts: string | null): void {
    this.emitFinal();
    this.lastWasAnswer = false;
    const p: JsonObject = { prompt: typeof d.content === 'string' ? d.content : '' };
    if (typeof d.agentMode === 'string') p.agent_mode = d.agentMode;
    if (Array.isArray(d.attachments) && d.attachments.length > 0) p.attachments = d.attachments;
    this.b.emit('input.received', `${id}:input`, ts, p);
  }

  private usage(d: JsonObject): void {
    const u: JsonObject = {};
    for (const k of ['model', 'inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens', 'cost', 'duration'] as const) {
      const v = d[k];
      if (v !== undefined) u[k] = v as JsonValue;
    }
    if (this.held && this.held.usage === null) this.held.usage = u;
    else this.usageAhead = u;
  }

  /** Emits the held assistant message as one model call. */
  private flush(): void {
    const h = this.held;
    if (!h) return;
    this.held = null;
    const b = this.b;
    this.final = null;
    const d = h.data;
    const text = typeof d.content === 'string' ? d.content : '';
    const requests = Array.isArray(d.toolRequests) ? d.toolRequests.filter(isJsonObject) : [];
    const response: JsonValue[] = [];
    const thinking = [...h.thinking, ...(typeof d.reasoningText === 'string' && d.reasoningText !== '' ? [d.reasoningText] : [])];
    for (const t of thinking) response.push({ type: 'thinking', thinking: t });
    if (text !== '') response.push({ type: 'text', text });
    for (const r of requests) response.push({ type: 'tool_use', id: str(r.toolCallId), name: str(r.name), input: args(r.arguments) });
    const model = typeof d.model === 'string' ? d.model : h.usage && typeof h.usage.model === 'string' ? h.usage.model : null;
    const messageId = typeof d.messageId === 'string' ? d.messageId : h.id;
    const before: JsonObject = { message_id: messageId };
    if (model) before.model = model;
    b.emit('model.before_call', `${h.id}:model.before`, h.ts, before, { agentId: h.agentId });
    const after: JsonObject = { ...before, response };
    if (h.usage) after.usage = h.usage;
    b.emit('model.after_call', `${h.id}:model.after`, h.ts, after, { agentId: h.agentId });
    // A subagent's last words go back to its caller: only the main agent's text can be the answer.
    this.lastWasAnswer = requests.length === 0 && text !== '' && h.agentId === undefined;
    if (this.lastWasAnswer) this.final = { id: h.id, text, ts: h.ts, agentId: h.agentId };
  }

  private toolStart(d: JsonObject, ts: string | null, agentId: string | undefined, line: number): void {
    if (typeof d.toolCallId !== 'string' || typeof d.toolName !== 'string') return this.b.dropRecord('tool.execution_start', line, 'a tool start without toolCallId or toolName');
    this.final = null;
    this.lastWasAnswer = false;
    const name = d.toolName;
    const input = args(d.arguments);
    const mcp = typeof d.mcpServerName === 'string';
    const portable = sessionPortableFields('copilot-cli', name, input, { mcp });
    const p: JsonObject = { tool_name: name, tool_input: input, tool_use_id: d.toolCallId };
    if (mcp) p.mcp_server = d.mcpServerName as string;
    if (typeof d.parentToolCallId === 'string') p.parent_tool_use_id = d.parentToolCallId;
    this.open.set(d.toolCallId, { name, input, agentId, portable });
    this.b.emit('tool.before_call', `${d.toolCallId}:before`, ts, setPortableFields(p, portable), { agentId });
  }

  private toolEnd(d: JsonObject, ts: string | null, line: number): void {
    if (typeof d.toolCallId !== 'string') return this.b.dropRecord('tool.execution_complete', line, 'a tool completion without toolCallId');
    const s = this.open.get(d.toolCallId);
    if (!s) return this.b.dropRecord('tool.execution_complete', line, `the completion of tool call ${d.toolCallId} answers no tool.execution_start`);
    this.open.delete(d.toolCallId);
    const result = isJsonObject(d.result) ? d.result : null;
    const error = isJsonObject(d.error) ? d.error : null;
    const response: JsonValue = result ? (typeof result.content === 'string' ? result.content : (result as JsonValue)) : error ? str(error.message) : null;
    const p: JsonObject = { tool_name: s.name, tool_input: s.input, tool_response: response, is_error: d.success !== true, tool_use_id: d.toolCallId };
    if (error) p.error = str(error.message);
    if (result && typeof result.detailedContent === 'string' && result.detailedContent !== result.content) p.detailed_response = result.detailedContent;
    this.b.emit('tool.after_call', `${d.toolCallId}:after`, ts, setPortableFields(p, s.portable), { agentId: s.agentId });
  }

  private emitFinal(): void {
    const f = this.final;
    if (!f) return;
    this.final = null;
    this.b.finalAnswer(f.id, f.ts, { text: f.text });
  }
}

/** Tool arguments: an object as is, a JSON string parsed when it holds an object, anything else wrapped. */
function args(v: unknown): JsonObject {
  if (isJsonObject(v)) return v;
  if (typeof v === 'string') {
    try {
      const parsed: unknown = JSON.parse(v);
      if (isJsonObject(parsed)) return parsed;
    } catch {
      // not JSON: kept as the raw text below
    }
    return { input: v };
  }
  return v === undefined || v === null ? {} : { input: v as JsonValue };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

/** `a` with each number of `b` added to it (a number only in `b` is taken as it is); other values of `b` are left out. */
function addNumbers(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [k, v] of Object.entries(b)) {
    if (typeof v !== 'number') continue;
    const had = Object.prototype.hasOwnProperty.call(a, k) && typeof a[k] === 'number' ? (a[k] as number) : 0;
    Object.defineProperty(out, k, { value: had + v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
