import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import type { ImporterOptions, ImportResult } from './importReport.ts';
import { TraceBuilder } from './traceBuilder.ts';
import { toIsoTs } from './toIsoTs.ts';
import { planClaudeTurns, userRecordKind, type ClaudePlan } from './planClaudeTurns.ts';
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
 * | `assistant` tool_use block                          | tool.before_call (= PreToolUse)            | tool_name, tool_input, tool_use_id                           |
 * | `user` tool_result block                            | tool.after_call (= PostToolUse)            | tool_name, tool_input, tool_response (toolUseResult, else    |
 * |                                                     |                                            | the block content), is_error, tool_use_id, content           |
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
 */
export function importClaudeCode(records: readonly JsonlRecord[], options: ImporterOptions = {}): ImportResult {
  const first = records.find((r) => isJsonObject(r.value) && typeof r.value.sessionId === 'string')?.value as JsonObject | undefined;
  // agent.start goes at the first record with a session id (it has a time); failing that, the first timed record.
  const startRec = first ?? records.find((r) => isJsonObject(r.value) && typeof r.value.timestamp === 'string')?.value ?? records.find((r) => isJsonObject(r.value))?.value;
  const sessionId = typeof first?.sessionId === 'string' ? first.sessionId : (options.fallbackTraceId ?? 'claude-code');
  const b = new TraceBuilder('claude-code', 'cc', sessionId, 'claude-code');
  const plan = planClaudeTurns(records);
  let started = false;
  let status: 'completed' | 'interrupted' | 'incomplete' = 'incomplete';

  for (const { value: rec } of records) {
    if (!isJsonObject(rec)) {
      b.unknown('(not an object)');
      continue;
    }
    const ts = toIsoTs(rec.timestamp)?.iso ?? null;
    const agentId = rec.isSidechain === true ? 'claude-code:sidechain' : undefined;
    const before = b.events.length;
    if (!started && rec === startRec) {
      started = true;
      b.emit('agent.start', `${sessionId}:start`, ts, startPayload(rec), { key: 'start' });
    }
    const kind = typeof rec.type === 'string' ? rec.type : '(no type)';
    if (kind === 'user') {
      if (onUser(b, rec, ts, agentId, plan)) status = 'interrupted';
    } else if (kind === 'assistant') onAssistant(b, rec, ts, agentId, plan);
    else if (kind === 'system' && rec.subtype === 'api_error') b.emit('agent.error', str(rec.uuid), ts, { error: errorText(rec) }, { agentId });
    else if (!annotateClaudeRecord(b, rec, kind)) {
      if (kind === 'file-history-snapshot' || kind === 'queue-operation' || kind === 'summary') b.skip(kind);
      else b.unknown(kind);
    }
    const last = b.events[b.events.length - 1];
    if (b.events.length > before && last && last.type !== 'agent.start') status = last.type === 'final_answer.after' ? 'completed' : 'incomplete';
  }
  const lastTs = b.events[b.events.length - 1]?.ts ?? null;
  if (started) b.emit('agent.end', `${sessionId}:end`, lastTs, { status, session_id: sessionId });
  if (!first) b.warn('no record carries a sessionId: the trace id was derived from the input');
  for (const id of plan.unansweredToolUses()) b.warn(`tool call ${id} (${plan.toolUses.get(id)?.name ?? '?'}) has no tool_result in the transcript`);
  const source: JsonObject = { kind: 'claude-code', session_id: sessionId };
  if (first) {
    if (typeof first.version === 'string') source.version = first.version;
    if (typeof first.cwd === 'string') source.cwd = first.cwd;
    if (typeof first.gitBranch === 'string') source.git_branch = first.gitBranch;
  }
  if (options.fileName) source.file_name = options.fileName;
  return b.finish(source as JsonObject & { kind: string }, records.length);
}

function startPayload(rec: JsonObject): JsonObject {
  const p: JsonObject = {};
  if (typeof rec.sessionId === 'string') p.session_id = rec.sessionId;
  if (typeof rec.cwd === 'string') p.cwd = rec.cwd;
  if (typeof rec.version === 'string') p.version = rec.version;
  if (typeof rec.gitBranch === 'string') p.git_branch = rec.gitBranch;
  return p;
}

/** Emits input or tool results; returns true for an interrupt mark (the turn was stopped by the user). */
function onUser(b: TraceBuilder, rec: JsonObject, ts: string | null, agentId: string | undefined, plan: ClaudePlan): boolean {
  const content = isJsonObject(rec.message) ? rec.message.content : undefined;
  const uuid = str(rec.uuid);
  const kind = userRecordKind(rec);
  if (kind === 'prompt' || kind === 'text_prompt') {
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
    for (const block of results) onToolResult(b, rec, block, results.length, ts, agentId, plan);
  } else b.unknown('user:(no text, prompt or tool_result)');
  return false;
}

function onToolResult(b: TraceBuilder, rec: JsonObject, block: JsonObject, count: number, ts: string | null, agentId: string | undefined, plan: ClaudePlan): void {
  const id = str(block.tool_use_id);
  const use = plan.toolUses.get(id);
  plan.answered.add(id);
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
  b.emit('tool.after_call', `${id}:after`, ts, p, { key: `after:${id}`, agentId });
}

function textsOf(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.filter((c) => isJsonObject(c) && c.type === 'text').map((c) => str((c as JsonObject).text));
}

/** Emits the model call (at the first record of a message id), tool calls, and the final answer (at the last). */
function onAssistant(b: TraceBuilder, rec: JsonObject, ts: string | null, agentId: string | undefined, plan: ClaudePlan): void {
  const msg = isJsonObject(rec.message) ? rec.message : {};
  const group = plan.groupOf(rec);
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
    b.emit('tool.before_call', `${id}:before`, ts, { tool_name: str(block.name), tool_input: input, tool_use_id: id }, { key: `before:${id}`, agentId });
  }
  if (group && group.last === rec && plan.finals.has(group.id)) {
    const text = group.text;
    b.finalAnswer(group.id, ts, { text }, { key: `final:${group.id}`, agentId });
  }
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
