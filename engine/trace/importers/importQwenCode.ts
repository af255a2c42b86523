import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { setPortableFields } from '../../model/portableTool.ts';
import { sessionPortableFields } from '../../model/toolTables.ts';
import type { ImporterOptions, ImportResult } from './importReport.ts';
import { RecordImporter } from './recordImporter.ts';
import { toIsoTs } from './toIsoTs.ts';

/** Shell output of a failed command, as in Gemini CLI, which Qwen Code forked: `Exit Code: N`. */
const EXIT_CODE = /^Exit Code: (-?\d+)\s*$/m;

/**
 * Qwen Code chat recordings → trace v1, streamed [I19]. Qwen Code forked Gemini CLI but records sessions
 * like Claude Code: one JSON record a line, `{uuid, parentUuid, sessionId, timestamp, type: user | assistant |
 * tool_result | system, subtype?, cwd, version, message?: {role, parts}, model?, usageMetadata?,
 * toolCallResult?, agentId?, isSidechain?}` — with Gemini's `parts` where Claude Code has `content`, so it is
 * told apart by them. Source: QwenLM/qwen-code packages/core/src/services/chatRecordingService.ts (ChatRecord,
 * 2026-11).
 *
 * | record                          | event(s)                               | payload                                          |
 * |---------------------------------|----------------------------------------|--------------------------------------------------|
 * | (first)                         | agent.start                            | session_id, cwd, version, git_branch             |
 * | `user`                          | input.received                         | prompt (text parts)                              |
 * | `assistant`                     | model.before_call + model.after_call   | model, usage (usageMetadata), response (thinking, text, tool_use) |
 * | its `functionCall` parts        | tool.before_call                       | tool_name, tool_input (args), tool_use_id, portable fields (Gemini CLI's tool names) |
 * | `tool_result`                   | tool.after_call                        | tool_response (functionResponse.response), is_error (status error/cancelled, an error, `Exit Code: N≠0`) |
 * | `system` (any subtype)          | annotation `system:<subtype>`          |                                                  |
 * | last assistant text without calls before the next prompt or the end | final_answer.before + .after | text |
 *
 * Records of a subagent (`agentId`, `isSidechain`) get agent_id `qwen-code:<agentId>`.
 */
export class QwenCodeImporter extends RecordImporter {
  private started = false;
  private sessionId: string | null = null;
  private readonly open = new Map<string, { name: string; input: JsonObject; portable: JsonObject; agentId: string | undefined }>();
  private final: { id: string; text: string; ts: string | null } | null = null;
  private lastWasAnswer = false;

  constructor(options: ImporterOptions, onEvent?: (event: TraceEvent) => void) {
    super('qwen-code', 'qwen', 'qwen-code', options, onEvent);
  }

  protected object(value: JsonObject, line: number): void {
    const b = this.b;
    const ts = toIsoTs(value.timestamp)?.iso ?? null;
    if (!this.started) this.start(value, ts);
    const id = typeof value.uuid === 'string' && value.uuid !== '' ? value.uuid : `l${line}`;
    const agentId = typeof value.agentId === 'string' && value.agentId !== '' ? `qwen-code:${value.agentId}` : value.isSidechain === true ? 'qwen-code:sidechain' : undefined;
    const parts = isJsonObject(value.message) && Array.isArray(value.message.parts) ? value.message.parts.filter(isJsonObject) : [];
    if (value.type === 'user') {
      this.emitFinal();
      this.lastWasAnswer = false;
      b.emit('input.received', `${id}:input`, ts, { prompt: parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('') }, { agentId });
    } else if (value.type === 'assistant') this.assistant(value, parts, id, ts, agentId);
    else if (value.type === 'tool_result') this.toolResult(value, parts, ts, line);
    else if (value.type === 'system') b.annotate(`system:${typeof value.subtype === 'string' ? value.subtype : '(none)'}`, { line, ...(isJsonObject(value.systemPayload) ? { payload: value.systemPayload } : {}) });
    else b.unknownRecord(typeof value.type === 'string' ? value.type : '(no type)', line, value);
  }

  finish(_lines?: number): ImportResult {
    this.emitFinal();
    const b = this.b;
    if (!this.started) this.start({}, null);
    for (const [useId, s] of this.open) b.warn(`tool call ${useId} (${s.name}) has no tool_result in the recording`);
    b.emit('agent.end', 'end', b.latestTs, { status: this.lastWasAnswer ? 'completed' : 'incomplete', session_id: this.sessionId ?? b.traceId });
    return b.finish(this.source('qwen-code', this.sessionId ? { session_id: this.sessionId } : {}), this.records);
  }

  private start(r: JsonObject, ts: string | null): void {
    this.started = true;
    if (typeof r.sessionId === 'string' && r.sessionId !== '') {
      this.sessionId = r.sessionId;
      this.b.traceId = r.sessionId;
    }
    const p: JsonObject = { session_id: this.sessionId ?? this.b.traceId };
    if (typeof r.cwd === 'string') p.cwd = r.cwd;
    if (typeof r.version === 'string') p.version = r.version;
    if (typeof r.gitBranch === 'string') p.git_branch = r.gitBranch;
    this.b.emit('agent.start', 'start', ts, p);
  }

  private assistant(r: JsonObject, parts: JsonObject[], id: string, ts: string | null, agentId: string | undefined): void {
    const b = this.b;
    this.final = null;
    const response: JsonValue[] = [];
    const calls: JsonObject[] = [];
    let text = '';
    for (const p of parts) {
      if (typeof p.text === 'string' && p.thought === true) response.push({ type: 'thinking', thinking: p.text });
      else if (typeof p.text === 'string') {
        response.push({ type: 'text', text: p.text });
        text += p.text;
      } else if (isJsonObject(p.functionCall)) {
        const fc = p.functionCall;
        calls.push(fc);
        response.push({ type: 'tool_use', id: str(fc.id), name: str(fc.name), input: isJsonObject(fc.args) ? fc.args : {} });
      }
    }
    const before: JsonObject = { message_id: id };
    if (typeof r.model === 'string') before.model = r.model;
    b.emit('model.before_call', `${id}:model.before`, ts, before, { agentId });
    const after: JsonObject = { ...before, response };
    if (isJsonObject(r.usageMetadata)) after.usage = r.usageMetadata;
    b.emit('model.after_call', `${id}:model.after`, ts, after, { agentId });
    for (const fc of calls) {
      const name = str(fc.name);
      const useId = str(fc.id) || `${id}:${name}`;
      const input = isJsonObject(fc.args) ? fc.args : {};
      const portable = sessionPortableFields('qwen-code', name, input, { mcp: /__/.test(name) });
      this.open.set(useId, { name, input, portable, agentId });
      b.emit('tool.before_call', `${useId}:before`, ts, setPortableFields({ tool_name: name, tool_input: input, tool_use_id: useId }, portable), { agentId });
    }
    this.lastWasAnswer = calls.length === 0 && text !== '' && agentId === undefined;
    if (this.lastWasAnswer) this.final = { id, text, ts };
  }

  private toolResult(r: JsonObject, parts: JsonObject[], ts: string | null, line: number): void {
    const tcr = isJsonObject(r.toolCallResult) ? r.toolCallResult : {};
    const responses = parts.map((p) => p.functionResponse).filter(isJsonObject);
    if (responses.length === 0 && typeof tcr.callId === 'string') responses.push({ id: tcr.callId, name: '', response: null });
    if (responses.length === 0) return this.b.dropRecord('tool_result', line, 'a tool_result with no functionResponse and no callId');
    for (const fr of responses) {
      const useId = str(fr.id) || str(tcr.callId);
      const s = this.open.get(useId);
      if (!s) {
        this.b.dropRecord('tool_result', line, `the result of tool call ${useId} answers no functionCall`);
        continue;
      }
      this.open.delete(useId);
      const response = (fr.response as JsonValue | undefined) ?? null;
      const out = isJsonObject(response) ? (response.output ?? response.error ?? '') : response;
      const exit = typeof out === 'string' ? EXIT_CODE.exec(out) : null;
      const status = typeof tcr.status === 'string' ? tcr.status : null;
      const failed = status === 'error' || status === 'cancelled' || tcr.error !== undefined && tcr.error !== null || (isJsonObject(response) && response.error !== undefined) || (exit !== null && Number(exit[1]) !== 0);
      const p: JsonObject = { tool_name: s.name, tool_input: s.input, tool_response: response, is_error: failed, tool_use_id: useId };
      if (status) p.status = status;
      this.b.emit('tool.after_call', `${useId}:after`, ts, setPortableFields(p, s.portable), { agentId: s.agentId });
    }
  }

  private emitFinal(): void {
    const f = this.final;
    if (!f) return;
    this.final = null;
    this.b.finalAnswer(f.id, f.ts, { text: f.text });
  }
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}
