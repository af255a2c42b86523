import { isJsonObject, ownSet, type JsonObject, type JsonValue } from '../../model/json.ts';
import type { TraceBuilder } from './traceBuilder.ts';

/** Fields every transcript record repeats; left out of annotations. */
const ENVELOPE = new Set(['parentUuid', 'isSidechain', 'userType', 'cwd', 'sessionId', 'version', 'gitBranch', 'slug', 'type', 'subtype']);

/**
 * Keeps `progress` and `system` records as annotations of the event they concern [I4]: a PreToolUse hook
 * run on that tool's tool.before_call, PostToolUse on its tool.after_call, SessionStart on agent.start,
 * anything else on the event current when it was recorded. They are real hook runs, useful to check
 * ordering, but not lifecycle events. Returns false for records of other types.
 */
export function annotateClaudeRecord(b: TraceBuilder, rec: JsonObject, type: string): boolean {
  if (type === 'progress') {
    const data = isJsonObject(rec.data) ? rec.data : {};
    const dataType = typeof data.type === 'string' ? data.type : '(no data.type)';
    const toolUseId = typeof rec.toolUseID === 'string' ? rec.toolUseID : undefined;
    const parentToolUseId = typeof rec.parentToolUseID === 'string' ? rec.parentToolUseID : undefined;
    if (dataType === 'hook_progress') {
      const hookEvent = String(data.hookEvent ?? '');
      const a: JsonObject = { hook_event: hookEvent, hook_name: String(data.hookName ?? ''), command: String(data.command ?? '') };
      if (toolUseId) a.tool_use_id = toolUseId;
      if (typeof rec.timestamp === 'string') a.ts = rec.timestamp;
      b.annotate('hook_progress', a, hookTarget(hookEvent, toolUseId));
      return true;
    }
    const a: JsonObject = { data };
    if (parentToolUseId) a.parent_tool_use_id = parentToolUseId;
    if (typeof rec.timestamp === 'string') a.ts = rec.timestamp;
    // A subagent's progress belongs to the Task tool call that started it.
    b.annotate(`progress:${dataType}`, a, parentToolUseId ? `before:${parentToolUseId}` : null);
    return true;
  }
  if (type === 'system') {
    const a: JsonObject = {};
    for (const k of Object.keys(rec)) if (!ENVELOPE.has(k)) ownSet(a, k, rec[k] as JsonValue);
    b.annotate(`system:${typeof rec.subtype === 'string' ? rec.subtype : '(no subtype)'}`, a);
    return true;
  }
  return false;
}

function hookTarget(hookEvent: string, toolUseId: string | undefined): string | null {
  if (hookEvent === 'SessionStart') return 'start';
  if (!toolUseId) return null;
  if (hookEvent === 'PreToolUse') return `before:${toolUseId}`;
  if (hookEvent === 'PostToolUse' || hookEvent === 'PostToolUseFailure') return `after:${toolUseId}`;
  return null;
}
