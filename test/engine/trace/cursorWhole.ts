// The Cursor composer import as it was before it streamed (importCursor.ts at 4430cdc): the oracle of the
// streamed import's property test [I1][I23], which must give the same for any composer and any chunking.
import { isJsonObject, type JsonObject, type JsonValue } from '../../../engine/model/json.ts';
import { setPortableFields } from '../../../engine/model/portableTool.ts';
import { sessionPortableFields } from '../../../engine/model/toolTables.ts';
import type { ImporterOptions, ImportResult } from '../../../engine/trace/importers/importReport.ts';
import { TraceBuilder } from '../../../engine/trace/importers/traceBuilder.ts';
import { toIsoTs } from '../../../engine/trace/importers/toIsoTs.ts';

/** Tool statuses that ended the call without a result (the call failed or never ran): `is_error`. */
const FAILED = new Set(['error', 'failed', 'cancelled', 'canceled', 'rejected', 'aborted']);
const DONE = new Set(['completed', 'success']);

/**
 * One Cursor chat (a "composer") of Cursor's own store → trace v1 [I23]. Cursor documents no format; it is
 * read from what public readers of the store write down (none of their code is used):
 * - michaeldhood/chatrxiv docs/cursor/storage-reference.md (composerData `_v` 10 and bubble `_v` 3: the
 *   `cursorDiskKV` table of `globalStorage/state.vscdb`, keys `composerData:<composerId>` and
 *   `bubbleId:<composerId>:<bubbleId>`; composerData `{composerId, name, createdAt (ms), lastUpdatedAt,
 *   status, unifiedMode, forceMode, modelConfig: {modelName}, fullConversationHeadersOnly: [{bubbleId, type}],
 *   conversation (older: the bubbles inline)}`; a bubble `{type: 1 user | 2 assistant, bubbleId, text,
 *   createdAt (ISO), requestId, modelInfo: {modelName}, thinking: {text}, tokenCount: {inputTokens,
 *   outputTokens}}`);
 * - kenn-io/agentsview internal/parser/cursor_vscdb.go (a bubble's `toolFormerData {name, toolCallId, status,
 *   params, result}`, params and result JSON text or JSON; consecutive assistant bubbles are one answer);
 * - pppp606/cursor-efficiency docs/vscdbRelation.md (Cursor 0.50.5: the same keys, `tokenCount` per bubble).
 * The Node reader (engine/node/sqliteSessions.ts) assembles one composer into the older inline shape: the
 * composerData with `conversation` holding its bubbles in the order of `fullConversationHeadersOnly` (a
 * header whose bubble row is missing or not JSON is `{unreadable: why}`).
 *
 * | source                                          | event(s)                                  | payload |
 * |-------------------------------------------------|-------------------------------------------|---------|
 * | composerData                                    | agent.start                               | session_id, title, mode, model, subagent_composer_ids |
 * | user bubble (type 1)                            | input.received                            | prompt, request_id |
 * | assistant bubbles up to and with the tool bubbles that end them | model.before_call + model.after_call | model, response (thinking, text, tool_use), usage (summed tokenCount) |
 * | a bubble's `toolFormerData`                     | tool.before_call; tool.after_call when it has ended | tool_name, tool_input (params, else rawArgs), tool_use_id, tool_response (result), is_error (status error / cancelled …), portable fields |
 * | last assistant text without tools before the next prompt or the end | final_answer.before + .after | text |
 * | (end)                                           | agent.end                                 | status (the composer's) |
 *
 * The older per-workspace store's chats [I24] (engine/node/cursorWorkspaceStore.ts) come in the same shape: the
 * chat panel's tabs with bubbles of type "user" / "ai" (text in `rawText`, `delegate.a` or Lexical `initText`
 * too; the model in `modelType`; `selections` and `image` sent with a prompt), composers of versions before
 * 0.43 with their `conversation` (times in `timestamp`), and the prompt history as user bubbles (`commandType`;
 * a generation's kind in `generationType`). The key they came from is the source's `store_key`.
 *
 * A bubble of another type is an unknown record (kept as an annotation); an unreadable one is listed.
 * Bubbles often have no `createdAt`: their events keep the order with the previous time (counted).
 */
export function importCursorWhole(doc: unknown, options: ImporterOptions = {}): ImportResult {
  const c = isJsonObject(doc) ? doc : {};
  const composerId = str(c.composerId) || (options.fallbackTraceId ?? 'cursor');
  const b = new TraceBuilder('cursor', 'cursor', composerId, 'cursor');
  const conversation = Array.isArray(c.conversation) ? c.conversation : [];
  if (!Array.isArray(c.conversation)) b.warn('a composer without its bubbles: import it from the database as state.vscdb#<composer id>, which reads them');
  const model = isJsonObject(c.modelConfig) && str(c.modelConfig.modelName) !== '' ? str(c.modelConfig.modelName) : null;
  const start: JsonObject = { session_id: composerId };
  if (str(c.name) !== '') start.title = str(c.name);
  const mode = str(c.unifiedMode) || str(c.forceMode);
  if (mode !== '') start.mode = mode;
  if (model) start.model = model;
  const subs = [...strings(c.subagentComposerIds), ...strings(c.subComposerIds)];
  if (subs.length > 0) start.subagent_composer_ids = subs;
  b.emit('agent.start', 'start', toIsoTs(c.createdAt)?.iso ?? null, start);

  /** Assistant bubbles of the model call being gathered. */
  let turn: { bubbles: JsonObject[]; tools: JsonObject[] } = { bubbles: [], tools: [] };
  let final: { id: string; text: string; ts: string | null } | null = null;
  const emitFinal = (): void => {
    if (final) b.finalAnswer(final.id, final.ts, { text: final.text });
    final = null;
  };
  const flush = (): void => {
    if (turn.bubbles.length === 0) return;
    const { bubbles, tools } = turn;
    turn = { bubbles: [], tools: [] };
    const first = bubbles[0] as JsonObject;
    const id = str(first.bubbleId) || str(first.id) || `b${b.count}`;
    const ts = bubbleTs(first);
    const response: JsonValue[] = [];
    const texts: string[] = [];
    const usage = { input_tokens: 0, output_tokens: 0 };
    let used = false;
    let turnModel = model;
    for (const x of bubbles) {
      if (isJsonObject(x.modelInfo) && str(x.modelInfo.modelName) !== '') turnModel = str(x.modelInfo.modelName);
      else if (str(x.modelType) !== '') turnModel = str(x.modelType);
      if (isJsonObject(x.thinking) && str(x.thinking.text) !== '') response.push({ type: 'thinking', thinking: str(x.thinking.text) });
      const said = str(x.text) || str(x.rawText);
      if (said !== '') {
        texts.push(said);
        response.push({ type: 'text', text: said });
      }
      const tf = isJsonObject(x.toolFormerData) ? x.toolFormerData : null;
      if (tf && str(tf.name) !== '') response.push({ type: 'tool_use', id: toolUseId(tf, x), name: str(tf.name), input: toolInput(tf) });
      const t = isJsonObject(x.tokenCount) ? x.tokenCount : null;
      if (t && (num(t.inputTokens) > 0 || num(t.outputTokens) > 0)) {
        used = true;
        usage.input_tokens += num(t.inputTokens);
        usage.output_tokens += num(t.outputTokens);
      }
    }
    const before: JsonObject = { message_id: id };
    if (turnModel) before.model = turnModel;
    b.emit('model.before_call', `${id}:model.before`, ts, before);
    const after: JsonObject = { ...before, response };
    if (used) after.usage = usage;
    b.emit('model.after_call', `${id}:model.after`, ts, after);
    for (const x of tools) tool(b, x);
    const text = texts.join('\n');
    final = tools.length === 0 && text !== '' ? { id, text, ts } : null;
  };

  conversation.forEach((x, i) => {
    const where = `bubble ${i + 1}: `;
    if (isJsonObject(x) && typeof x.unreadable === 'string') return b.dropRecord('bubble', 0, x.unreadable, where);
    if (!isJsonObject(x)) return b.dropRecord('bubble', 0, 'a bubble that is not an object', where);
    if (x.type === 1 || x.type === 'user') {
      flush();
      const text = userText(x);
      if (text === '') return b.annotate('empty_user_bubble', { bubble_id: str(x.bubbleId) });
      emitFinal();
      return void b.emit('input.received', `${str(x.bubbleId) || str(x.id) || `u${i}`}:input`, bubbleTs(x), promptPayload(x, text));
    }
    if (x.type !== 2 && x.type !== 'ai') return b.unknownRecord(`bubble type ${JSON.stringify(x.type ?? null)}`, 0, x, where);
    final = null;
    const isTool = isJsonObject(x.toolFormerData) && str(x.toolFormerData.name) !== '';
    // A text or thinking bubble after tool bubbles is the next model call.
    if (!isTool && turn.tools.length > 0) flush();
    turn.bubbles.push(x);
    if (isTool) turn.tools.push(x);
  });
  flush();
  emitFinal();
  const status = str(c.status);
  b.emit('agent.end', 'end', toIsoTs(c.lastUpdatedAt)?.iso ?? b.latestTs, { status: status || 'unknown', session_id: composerId });
  const source: JsonObject & { kind: string } = { kind: 'cursor', composer_id: composerId };
  if (str(c.origin) !== '') source.store_key = str(c.origin);
  if (options.fileName) source.file_name = options.fileName;
  return b.finish(source, conversation.length, toIsoTs(c.createdAt)?.iso);
}

function tool(b: TraceBuilder, x: JsonObject): void {
  const tf = x.toolFormerData as JsonObject;
  const name = str(tf.name);
  const input = toolInput(tf);
  const useId = toolUseId(tf, x);
  // Cursor's own tool names (run_terminal_cmd, read_file, edit_file, …; MCP tools `mcp_<server>_<tool>`): the SpecStory table.
  const portable = sessionPortableFields('cursor', name, input, { mcp: name.startsWith('mcp_') });
  const p: JsonObject = { tool_name: name, tool_input: input, tool_use_id: useId };
  const ts = bubbleTs(x);
  b.emit('tool.before_call', `${useId}:before`, ts, setPortableFields(p, portable));
  const status = str(tf.status) || (isJsonObject(tf.additionalData) ? str(tf.additionalData.status) : '');
  const failed = FAILED.has(status) || (isJsonObject(tf.additionalData) && tf.additionalData.status === 'error');
  if (!failed && !DONE.has(status)) return b.warn(`tool call ${useId} (${name}) has no result in the store (status ${JSON.stringify(status || null)})`);
  const after: JsonObject = { ...p, tool_response: parsed(tf.result) ?? '', is_error: failed, status };
  b.emit('tool.after_call', `${useId}:after`, ts, setPortableFields(after, portable));
}

/** The call's arguments: `params` (an object, or JSON text of one), else `rawArgs`; other text is kept as `{raw}`. */
function toolInput(tf: JsonObject): JsonObject {
  for (const v of [tf.params, tf.rawArgs]) {
    const value = parsed(v);
    if (isJsonObject(value)) return value;
    if (typeof value === 'string' && value !== '') return { raw: value };
  }
  return {};
}

function toolUseId(tf: JsonObject, x: JsonObject): string {
  return str(tf.toolCallId) || str(x.bubbleId) || 'tool';
}

/** JSON text parsed (a value that is not JSON text is itself); undefined for none. */
function parsed(v: unknown): JsonValue | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') return v as JsonValue;
  const t = v.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.parse(t) as JsonValue;
    } catch {
      return v;
    }
  }
  return v;
}

function bubbleTs(x: JsonObject): string | null {
  return toIsoTs(x.createdAt)?.iso ?? toIsoTs(x.timestamp)?.iso ?? null;
}

/**
 * A user bubble's text: `text`; in the older chat panel's bubbles also `rawText`, `delegate.a`, or the Lexical
 * editor state of `initText` / `richText` (somogyijanos/cursor-chat-export src/export.py) [I24].
 */
function userText(x: JsonObject): string {
  const direct = str(x.text) || str(x.rawText) || (isJsonObject(x.delegate) ? str(x.delegate.a) : '');
  return direct || lexicalText(x.initText) || lexicalText(x.richText);
}

/** The text of a Lexical editor state (`{root: {children: [...]}}`, JSON text or parsed): its text nodes, a paragraph a line. */
function lexicalText(v: unknown): string {
  const state = parsed(v);
  if (!isJsonObject(state) || !isJsonObject(state.root)) return '';
  const walk = (node: JsonValue, depth: number): string => {
    if (!isJsonObject(node) || depth > 64) return '';
    if (typeof node.text === 'string') return node.text;
    return Array.isArray(node.children) ? node.children.map((c) => walk(c, depth + 1)).join(node === state.root ? '\n' : '') : '';
  };
  return walk(state.root, 0).trim();
}

/** The prompt and what the bubble says of its request: id, the selections and image sent with it, the prompt history's kinds [I24]. */
function promptPayload(x: JsonObject, text: string): JsonObject {
  const p: JsonObject = { prompt: text };
  if (str(x.requestId) !== '') p.request_id = str(x.requestId);
  const selections = Array.isArray(x.selections) ? x.selections.flatMap((s) => (isJsonObject(s) && typeof s.text === 'string' ? [s.text] : [])) : [];
  if (selections.length > 0) p.selections = selections;
  if (isJsonObject(x.image) && str(x.image.path) !== '') p.image_path = str(x.image.path);
  if (x.commandType !== undefined && x.commandType !== null) p.command_type = x.commandType;
  if (str(x.generationType) !== '') p.generation_type = str(x.generationType);
  return p;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s !== '') : [];
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
