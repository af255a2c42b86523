// Cursor's older per-workspace store [I24]: `<Cursor user data>/User/workspaceStorage/<hash>/state.vscdb`, VS Code's
// `ItemTable (key, value)`, where Cursor versions before the global `cursorDiskKV` store kept their chats under
// a few keys. Cursor documents none of them; what is read comes from public readers of the store (facts only,
// none of their code):
// - thomas-pedersen/cursor-chat-browser at 97e04a6 (Nov 2024), src/app/api/workspaces/[id]/tabs/route.ts and
//   src/types/workspace.ts: `workbench.panel.aichat.view.aichat.chatdata` is `{tabs: [{tabId, chatTitle,
//   lastSendTime (ms), bubbles: [{type: "user" | "ai", text, modelType, selections: [{text}]}]}]}`, and
//   `composer.composerData` is `{allComposers: [{composerId, name, createdAt, lastUpdatedAt, status,
//   conversation: [{type: 1 | 2, bubbleId, text, richText, timestamp}]}], selectedComposerId,
//   composerDataVersion}`; its commit acf1e73 ("compatibility for Cursor 0.43.x"): from 0.43 `allComposers`
//   holds only the composers' heads, their bodies are `composerData:<id>` rows of the global store [I23].
// - somogyijanos/cursor-chat-export src/export.py: a user bubble's text is `text`, else `delegate.a`, else the
//   Lexical JSON of `initText`, else `rawText`; an "ai" bubble's is `rawText`, its model `modelType`; a user
//   bubble may carry `selections` ([{text}]) and an `image` ({path}).
// - S2thend/cursor-history src/core/parser.ts (interface GenerationEntry): `aiService.generations` is
//   `[{unixMs, generationUUID, type, textDescription}]` (the description is the request's prompt);
//   mishanefedov/agentwatch issue #2: `aiService.prompts` is `[{text, commandType}]`, with no time.
// Each chat becomes a document in the shape the `cursor` importer reads (a composer with `conversation`).
import type { Database } from 'sql.js';
import { json, rows } from './sqliteRows.ts';

export const CURSOR_ITEM_KEYS = {
  chat: 'workbench.panel.aichat.view.aichat.chatdata',
  composers: 'composer.composerData',
  prompts: 'aiService.prompts',
  generations: 'aiService.generations',
} as const;

/** One session found in the ItemTable: what `hookwire sessions` lists, and its document for the importer. */
export interface ItemTableSession {
  id: string;
  title: string;
  updated: string;
  messages: number;
  doc: () => string;
}

export interface ItemTableChats {
  sessions: ItemTableSession[];
  /** What is there but could not be read, each with why (nothing is passed over silently). */
  unreadable: string[];
  /** Composers listed here whose messages are in the global store (Cursor 0.43 and later). */
  elsewhere: string[];
}

/** True when the database has an ItemTable holding any of Cursor's chat keys. */
export function hasCursorItems(db: Database): boolean {
  if (rows(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'ItemTable'").length === 0) return false;
  const keys = Object.values(CURSOR_ITEM_KEYS);
  return rows(db, `SELECT key FROM ItemTable WHERE key IN (${keys.map(() => '?').join(', ')}) LIMIT 1`, keys).length > 0;
}

/** Reads the chats of an ItemTable's Cursor keys [I24]. */
export function readCursorItemTable(db: Database): ItemTableChats {
  const out: ItemTableChats = { sessions: [], unreadable: [], elsewhere: [] };
  if (!hasCursorItems(db)) return out;
  const value = (key: string): { found: boolean; value: unknown } => {
    const row = rows(db, 'SELECT value FROM ItemTable WHERE key = ?', [key])[0];
    return { found: row !== undefined, value: row ? json(row.value) : undefined };
  };
  chatTabs(value(CURSOR_ITEM_KEYS.chat), out);
  inlineComposers(value(CURSOR_ITEM_KEYS.composers), out);
  promptHistory(value(CURSOR_ITEM_KEYS.prompts), value(CURSOR_ITEM_KEYS.generations), out);
  return out;
}

const where = (key: string) => `ItemTable ${key}`;

/** The chat panel's tabs: one session each (`tabId`; a tab without one is `tab-<n>`). An empty tab is not a chat. */
function chatTabs({ found, value }: { found: boolean; value: unknown }, out: ItemTableChats): void {
  // An object without tabs is the panel's empty state.
  if (!found || (isObject(value) && value.tabs === undefined)) return;
  const tabs = isObject(value) && Array.isArray(value.tabs) ? value.tabs : null;
  if (tabs === null) return void out.unreadable.push(`${where(CURSOR_ITEM_KEYS.chat)}: ${value === undefined ? 'not JSON' : 'no list of tabs'}`);
  tabs.forEach((tab, i) => {
    if (!isObject(tab)) return void out.unreadable.push(`${where(CURSOR_ITEM_KEYS.chat)}: tab ${i + 1} is not an object`);
    const id = str(tab.tabId) || `tab-${i + 1}`;
    if (!Array.isArray(tab.bubbles)) return void out.unreadable.push(`${where(CURSOR_ITEM_KEYS.chat)}: tab ${id} has no list of bubbles`);
    if (tab.bubbles.length === 0) return;
    const title = str(tab.chatTitle).split('\n')[0] ?? '';
    const updated = typeof tab.lastSendTime === 'number' ? iso(tab.lastSendTime) : '';
    out.sessions.push({
      id, title, updated, messages: tab.bubbles.length,
      doc: () => JSON.stringify({ composerId: id, name: title, lastUpdatedAt: tab.lastSendTime, origin: CURSOR_ITEM_KEYS.chat, conversation: tab.bubbles }),
    });
  });
}

/** Composers of versions before 0.43, which hold their bubbles inline; later ones only name a global row. */
function inlineComposers({ found, value }: { found: boolean; value: unknown }, out: ItemTableChats): void {
  if (!found || (isObject(value) && value.allComposers === undefined)) return;
  const all = isObject(value) && Array.isArray(value.allComposers) ? value.allComposers : null;
  if (all === null) return void out.unreadable.push(`${where(CURSOR_ITEM_KEYS.composers)}: ${value === undefined ? 'not JSON' : 'no allComposers list'}`);
  all.forEach((c, i) => {
    if (!isObject(c) || str(c.composerId) === '') return void out.unreadable.push(`${where(CURSOR_ITEM_KEYS.composers)}: composer ${i + 1} ${isObject(c) ? 'has no composerId' : 'is not an object'}`);
    const id = str(c.composerId);
    if (!Array.isArray(c.conversation)) return void out.elsewhere.push(id);
    if (c.conversation.length === 0) return;
    const updated = typeof c.lastUpdatedAt === 'number' ? iso(c.lastUpdatedAt) : typeof c.createdAt === 'number' ? iso(c.createdAt) : '';
    // composerId first: the importer's format is detected from the first bytes.
    out.sessions.push({ id, title: str(c.name), updated, messages: c.conversation.length, doc: () => JSON.stringify({ composerId: id, ...c, origin: CURSOR_ITEM_KEYS.composers }) });
  });
}

/**
 * The typed prompt history (`#prompts`: no time, no answer) and the generations (`#generations`: each request's
 * time, id, kind and prompt), two sessions of user prompts. The same prompt is often in both, and in a chat:
 * they are not merged, since nothing in them says which is which.
 */
function promptHistory(prompts: { found: boolean; value: unknown }, generations: { found: boolean; value: unknown }, out: ItemTableChats): void {
  if (prompts.found) {
    if (!Array.isArray(prompts.value)) out.unreadable.push(`${where(CURSOR_ITEM_KEYS.prompts)}: ${prompts.value === undefined ? 'not JSON' : 'not a list'}`);
    else if (prompts.value.length > 0) {
      const list = prompts.value;
      out.sessions.push({
        id: 'prompts', title: `prompt history (${CURSOR_ITEM_KEYS.prompts}: prompts only, no time, no answers)`, updated: '', messages: list.length,
        doc: () => JSON.stringify({ composerId: 'prompts', name: 'prompt history', origin: CURSOR_ITEM_KEYS.prompts, conversation: list.map((p) => (isObject(p) ? { ...p, type: 1 } : p)) }),
      });
    }
  }
  if (generations.found) {
    if (!Array.isArray(generations.value)) out.unreadable.push(`${where(CURSOR_ITEM_KEYS.generations)}: ${generations.value === undefined ? 'not JSON' : 'not a list'}`);
    else if (generations.value.length > 0) {
      const list = generations.value;
      const last = list.reduce<number>((m, g) => (isObject(g) && typeof g.unixMs === 'number' && g.unixMs > m ? g.unixMs : m), 0);
      out.sessions.push({
        id: 'generations', title: `requests made (${CURSOR_ITEM_KEYS.generations}: their prompts and times, no answers)`, updated: last > 0 ? iso(last) : '', messages: list.length,
        // A generation's own `type` (composer, cmdk, …) is its kind; `type: 1` makes it a user bubble.
        doc: () => JSON.stringify({
          composerId: 'generations', name: 'requests made', origin: CURSOR_ITEM_KEYS.generations,
          conversation: list.map((g) => (isObject(g) ? { type: 1, bubbleId: g.generationUUID, text: g.textDescription, createdAt: g.unixMs, generationType: g.type } : g)),
        }),
      });
    }
  }
}

function iso(ms: number): string {
  const d = new Date(ms);
  return Number.isFinite(d.getTime()) ? d.toISOString() : '';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
