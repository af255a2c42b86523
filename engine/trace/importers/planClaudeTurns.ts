import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';

/** One model call: the assistant records that share a message.id (Claude Code writes one line per block). */
export interface ClaudeGroup {
  id: string;
  first: JsonObject;
  last: JsonObject;
  blocks: JsonValue[];
  model?: string;
  usage?: JsonObject;
  stopReason: JsonValue;
  /** The text blocks joined (blank ones left out). */
  text: string;
  hasToolUse: boolean;
}

/** What a `user` record is, decided in one place for the planner and the importer. */
export type UserRecordKind = 'prompt' | 'text_prompt' | 'tool_results' | 'interrupt' | 'meta' | 'compact_summary' | 'local_command' | 'other';

/** First pass over a transcript: model-call groups, tool uses, and which model calls are final answers. */
export interface ClaudePlan {
  toolUses: Map<string, { name: string; input: JsonObject }>;
  /** Filled by the importer as tool results arrive. */
  answered: Set<string>;
  /** Message ids whose model call is the final answer of its turn. */
  finals: Set<string>;
  groupOf(rec: JsonObject): ClaudeGroup | undefined;
  unansweredToolUses(): string[];
}

const LOCAL_COMMAND = /^\s*<(command-name|local-command-|bash-input|bash-stdout|bash-stderr)/;

/**
 * Classifies a `user` record: a typed prompt, tool results, an interrupt mark, a local command, or text
 * Claude Code injected (`isMeta`: skill and command text; `isCompactSummary`: the compaction summary),
 * which is context, not input [I4].
 */
export function userRecordKind(rec: JsonObject): UserRecordKind {
  const content = isJsonObject(rec.message) ? rec.message.content : undefined;
  const toolResults = Array.isArray(content) && content.some((c) => isJsonObject(c) && c.type === 'tool_result');
  if (!toolResults && rec.isCompactSummary === true) return 'compact_summary';
  if (!toolResults && rec.isMeta === true) return 'meta';
  if (typeof content === 'string') return LOCAL_COMMAND.test(content) ? 'local_command' : 'prompt';
  if (!Array.isArray(content)) return 'other';
  if (toolResults) return 'tool_results';
  const texts = content.filter((c) => isJsonObject(c) && c.type === 'text').map((c) => String((c as JsonObject).text ?? ''));
  if (texts.length === 0) return 'other';
  return texts.every((t) => t.startsWith('[Request interrupted by user')) ? 'interrupt' : 'text_prompt';
}

/**
 * Groups assistant records by message.id and finds each turn's final answer [I4]: the last model call of a
 * turn (a turn ends at the next typed prompt or the end of the file) when it has text and no tool_use.
 * Sidechain (subagent) records never make a final answer of the main turn.
 */
export function planClaudeTurns(records: readonly { value: unknown }[]): ClaudePlan {
  const groups = new Map<string, ClaudeGroup>();
  const byRecord = new Map<JsonObject, ClaudeGroup>();
  const toolUses = new Map<string, { name: string; input: JsonObject }>();
  const finals = new Set<string>();
  let lastGroup: ClaudeGroup | null = null;
  const closeTurn = (): void => {
    if (lastGroup && !lastGroup.hasToolUse && lastGroup.text.trim() !== '') finals.add(lastGroup.id);
    lastGroup = null;
  };
  for (const { value: rec } of records) {
    if (!isJsonObject(rec)) continue;
    if (rec.type === 'user' && rec.isSidechain !== true) {
      const kind = userRecordKind(rec);
      if (kind === 'prompt' || kind === 'text_prompt') closeTurn();
    }
    if (rec.type !== 'assistant') continue;
    const msg = isJsonObject(rec.message) ? rec.message : {};
    const id = typeof msg.id === 'string' ? msg.id : `record:${String(rec.uuid ?? byRecord.size)}`;
    let g = groups.get(id);
    if (!g) {
      g = { id, first: rec, last: rec, blocks: [], stopReason: null, text: '', hasToolUse: false };
      groups.set(id, g);
    }
    g.last = rec;
    byRecord.set(rec, g);
    if (typeof msg.model === 'string') g.model = msg.model;
    if (isJsonObject(msg.usage)) g.usage = msg.usage;
    if (msg.stop_reason !== undefined && msg.stop_reason !== null) g.stopReason = msg.stop_reason;
    for (const block of Array.isArray(msg.content) ? msg.content : []) {
      g.blocks.push(block);
      if (!isJsonObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') g.text = g.text ? `${g.text}\n${block.text}` : block.text;
      if (block.type === 'tool_use' && typeof block.id === 'string') {
        g.hasToolUse = true;
        toolUses.set(block.id, { name: String(block.name ?? ''), input: isJsonObject(block.input) ? block.input : {} });
      }
    }
    if (rec.isSidechain !== true) lastGroup = g;
  }
  closeTurn();
  const answered = new Set<string>();
  return {
    toolUses,
    answered,
    finals,
    groupOf: (rec) => byRecord.get(rec),
    unansweredToolUses: () => [...toolUses.keys()].filter((id) => !answered.has(id)),
  };
}
