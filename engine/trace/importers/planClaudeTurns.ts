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
  /** The main thread's, or a subagent's (`s:<agentId>`, `s:` when the records name no agent). */
  thread: string;
  /** No record of this call can come any more: its events can be written. */
  closed: boolean;
  /** The final answer of its turn. */
  final: boolean;
}

/** A tool_use block's name and input, by its id. */
export interface ToolUse {
  name: string;
  input: JsonObject;
}

/** A tool use id's entry: `name` null for an id answered before any tool_use of it was seen. */
interface ToolUseEntry {
  name: string | null;
  input: JsonObject;
  answered: boolean;
}

/** What a `user` record is, decided in one place for the planner and the importer. */
export type UserRecordKind = 'prompt' | 'text_prompt' | 'tool_results' | 'interrupt' | 'meta' | 'compact_summary' | 'local_command' | 'other';

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
 * The plan of a transcript, read as its records arrive [I4]: assistant records grouped by message.id into model
 * calls, the tool uses, and each turn's final answer — the last model call of a turn (a turn ends at the next
 * typed prompt or the end of the file) when it has text and no tool_use. Sidechain (subagent) records never make
 * a final answer of the main turn.
 *
 * A model call is complete (`closed`) when another model call of its thread starts, when a main-thread model
 * call starts (the subagents' calls ran inside tool calls the main thread now has the results of), when the turn
 * ends, or at the end of the file: its records can then be imported, and only the records from the oldest open
 * call on are held. Claude Code writes a call's blocks one after another, though a tool's result may come
 * between two blocks of its call (a streamed tool call), so that is what the rule allows for; a record of a
 * call that is already closed starts a new call of the same id.
 */
export class ClaudeTurnPlanner {
  /**
   * Every tool use id seen, with the name and input of its last tool_use block, and whether a result for the id was
   * imported (`answer`). One Map, not a Map of the uses and a Set of the answered ids: the two tables of every id
   * were ~5% of a Claude Code import's CPU samples.
   */
  private readonly uses = new Map<string, ToolUseEntry>();
  private readonly open = new Map<string, ClaudeGroup>();
  private lastGroup: ClaudeGroup | null = null;
  private assistants = 0;

  /** Reads one record as it arrives (`kind` for a user record); returns the model call of an assistant record. */
  see(rec: JsonObject, kind: UserRecordKind | null): ClaudeGroup | undefined {
    if (rec.type === 'user' && rec.isSidechain !== true && (kind === 'prompt' || kind === 'text_prompt')) this.closeTurn();
    if (rec.type !== 'assistant') return undefined;
    const msg = isJsonObject(rec.message) ? rec.message : {};
    const id = typeof msg.id === 'string' ? msg.id : `record:${String(rec.uuid ?? this.assistants)}`;
    this.assistants++;
    const main = rec.isSidechain !== true;
    const thread = main ? '' : `s:${typeof rec.agentId === 'string' ? rec.agentId : ''}`;
    if (this.open.size > 0) for (const g of this.open.values()) if (g.id !== id && (main || g.thread === thread)) this.close(g);
    let g = this.open.get(id);
    if (!g) {
      g = { id, first: rec, last: rec, blocks: [], stopReason: null, text: '', hasToolUse: false, thread, closed: false, final: false };
      this.open.set(id, g);
    }
    g.last = rec;
    if (typeof msg.model === 'string') g.model = msg.model;
    if (isJsonObject(msg.usage)) g.usage = msg.usage;
    if (msg.stop_reason !== undefined && msg.stop_reason !== null) g.stopReason = msg.stop_reason;
    for (const block of Array.isArray(msg.content) ? msg.content : []) {
      g.blocks.push(block);
      if (!isJsonObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') g.text = g.text ? `${g.text}\n${block.text}` : block.text;
      if (block.type === 'tool_use' && typeof block.id === 'string') {
        g.hasToolUse = true;
        const name = String(block.name ?? '');
        const input = isJsonObject(block.input) ? block.input : {};
        const u = this.uses.get(block.id);
        if (u) {
          u.name = name;
          u.input = input;
        } else this.uses.set(block.id, { name, input, answered: false });
      }
    }
    if (main) this.lastGroup = g;
    return g;
  }

  /** The end of the file: the last turn ends and every call is complete. */
  end(): void {
    this.closeTurn();
    for (const g of this.open.values()) this.close(g);
  }

  /** A result for `id` was imported: returns its tool use (the last tool_use block of the id seen so far), if any. */
  answer(id: string): ToolUse | undefined {
    const u = this.uses.get(id);
    if (!u) {
      this.uses.set(id, { name: null, input: {}, answered: true });
      return undefined;
    }
    u.answered = true;
    return u.name !== null ? (u as ToolUse) : undefined;
  }

  /** True once a result for `id` was imported (answer). */
  answered(id: string): boolean {
    return this.uses.get(id)?.answered === true;
  }

  /** The tool uses without a result, in the order their ids were first seen. */
  unansweredToolUses(): { id: string; name: string }[] {
    const out: { id: string; name: string }[] = [];
    for (const [id, u] of this.uses) if (!u.answered && u.name !== null) out.push({ id, name: u.name });
    return out;
  }

  private closeTurn(): void {
    const g = this.lastGroup;
    if (g && !g.hasToolUse && g.text.trim() !== '') g.final = true;
    this.lastGroup = null;
    for (const o of this.open.values()) if (o.thread === '') this.close(o);
  }

  private close(g: ClaudeGroup): void {
    g.closed = true;
    this.open.delete(g.id);
  }
}
