// SQLite session stores (#29, SPEC I22): goose's sessions.db and OpenCode's opencode.db hold many sessions in
// one file. One session is addressed as `<file>#<session id>`; it is read read-only (the file's bytes, opened
// in sql.js, SQLite compiled to WebAssembly, so no native module) and assembled into the JSON shape its
// importer reads: goose's `goose session export` [I21], OpenCode's `opencode export` [I18].
// Sources: block/goose crates/goose/src/session/session_manager.rs (tables sessions, messages(role,
// content_json, created_timestamp, timestamp, tokens, metadata_json)); anomalyco/opencode
// packages/opencode/src/session/session.sql.ts (tables session, message(data), part(data): each row's JSON
// without its ids, which are columns) and src/storage/db.ts (`<data>/opencode.db`). Cursor's state.vscdb
// [I23]: a key-value table `cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)` with rows
// `composerData:<composerId>` and `bubbleId:<composerId>:<bubbleId>`, as michaeldhood/chatrxiv
// docs/cursor/storage-reference.md and kenn-io/agentsview internal/parser/cursor_vscdb.go describe it (Cursor
// documents no format; engine/trace/importers/importCursor.ts says what is read). Its older per-workspace
// store, chats under ItemTable keys [I24]: engine/node/cursorWorkspaceStore.ts.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { Database, SqlValue } from 'sql.js';
import type { TraceFormat } from '../trace/detectTraceFormat.ts';
import { CURSOR_ITEM_KEYS, hasCursorItems, readCursorItemTable } from './cursorWorkspaceStore.ts';
import { countBy, eachRow, json, objectWithArray, rows } from './sqliteRows.ts';
import { CURSOR_START_MEMBERS } from '../trace/importers/importCursor.ts';
import { GOOSE_EXPORT_NEEDS } from '../trace/importers/importGoose.ts';

const SQLITE_MAGIC = 'SQLite format 3\0';

export type SqliteStoreKind = 'goose' | 'opencode' | 'cursor';

/** One session of a store, as `hookwire sessions` lists it. */
export interface SqliteSession {
  id: string;
  title: string;
  /** Last change, ISO (or '' when the row has none). */
  updated: string;
  messages: number;
}

export interface SqliteStore {
  kind: SqliteStoreKind;
  format: TraceFormat;
  sessions(): SqliteSession[];
  /**
   * The session as its importer's JSON text, in pieces made as they are taken (its rows read one at a time, so only
   * the current message is held [I1]), or null when the store has no session with that id.
   */
  assemble(id: string): Iterable<string> | null;
  /**
   * What the store holds that is not a session here, each with why: values that cannot be read, and chats kept in
   * another file (`elsewhere`: Cursor's global store, which `hookwire sessions` lists by itself when it finds it).
   */
  skipped(): { reason: string; elsewhere?: true }[];
  close(): void;
}

/** True when the file starts with SQLite's header (a missing or short file is not one). */
export function isSqliteFile(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(16);
    return readSync(fd, head, 0, 16, 0) === 16 && head.toString('latin1') === SQLITE_MAGIC;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * `<file>#<id>` → the file and the session id. A path that names an existing file is the file (a `#` in a
 * file name is kept), so only a path that does not exist is split at its last `#`.
 */
export function splitSessionPath(path: string): { file: string; session: string | null } {
  if (statSync(path, { throwIfNoEntry: false })?.isFile()) return { file: path, session: null };
  const at = path.lastIndexOf('#');
  if (at <= 0 || at === path.length - 1) return { file: path, session: null };
  return { file: path.slice(0, at), session: path.slice(at + 1) };
}

let sqlJs: Promise<{ Database: new (data?: Uint8Array) => Database }> | null = null;

/** sql.js, loaded on first use: most commands never read a database. */
function loadSqlJs(): Promise<{ Database: new (data?: Uint8Array) => Database }> {
  sqlJs ??= import('sql.js').then((m) => ((m as unknown as { default?: typeof m.default }).default ?? (m as unknown as typeof m.default))());
  return sqlJs;
}

/** Opens a session store; an error text when the file is not SQLite, cannot be read, or is a database of another kind (`noStore`). */
export async function openSqliteStore(file: string): Promise<SqliteStore | { error: string; noStore?: true }> {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    return { error: `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
  }
  if (Buffer.from(bytes.subarray(0, 16)).toString('latin1') !== SQLITE_MAGIC) return { error: `${file} is not an SQLite database` };
  // A database in WAL mode says so in its header (read and write versions 2); the copy in memory is read as a
  // rollback-journal database, since sql.js has no WAL of its own (the -wal file is reported apart).
  if (bytes[18] === 2) bytes[18] = 1;
  if (bytes[19] === 2) bytes[19] = 1;
  let db: Database;
  try {
    db = new (await loadSqlJs()).Database(bytes);
    rows(db, 'SELECT name FROM sqlite_master LIMIT 1');
  } catch (err) {
    return { error: `${file} cannot be opened as an SQLite database (${err instanceof Error ? err.message : String(err)})` };
  }
  const tables = new Set(rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => String(r.name)));
  const columns = (t: string) => new Set(rows(db, `PRAGMA table_info(${t})`).map((r) => String(r.name)));
  if (tables.has('sessions') && tables.has('messages') && columns('messages').has('content_json')) return gooseStore(db);
  if (tables.has('session') && tables.has('message') && tables.has('part') && columns('message').has('data')) return openCodeStore(db);
  const kv = tables.has('cursorDiskKV') && columns('cursorDiskKV').has('key') && columns('cursorDiskKV').has('value');
  if (kv || (tables.has('ItemTable') && columns('ItemTable').has('value') && hasCursorItems(db))) return cursorStore(db, kv);
  db.close();
  return { noStore: true, error: `${file} is an SQLite database, but not a goose (sessions, messages), OpenCode (session, message, part) or Cursor (cursorDiskKV, or an ItemTable with ${Object.values(CURSOR_ITEM_KEYS).join(', ')}) session store; its tables: ${[...tables].sort().join(', ') || 'none'}` };
}

/** The size of the `-wal` file beside a database (0 when there is none): changes not yet in the main file. */
export function walBytes(file: string): number {
  return statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
}

function gooseStore(db: Database): SqliteStore {
  const counts = countBy(db, 'SELECT session_id AS k, COUNT(*) AS n FROM messages GROUP BY session_id');
  return {
    kind: 'goose',
    format: 'goose',
    sessions: () => rows(db, 'SELECT * FROM sessions').map((s) => ({
      id: String(s.id),
      title: text(s.name) || text(s.description),
      updated: sqliteTime(s.updated_at) ?? '',
      messages: counts.get(String(s.id)) ?? 0,
    })),
    assemble(id) {
      const row = rows(db, 'SELECT * FROM sessions WHERE id = ?', [id])[0];
      if (!row) return null;
      const session: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row)) {
        // JSON columns under the names the export gives them (session_manager.rs Session).
        if (k === 'extension_data' || k.endsWith('_json')) session[k.replace(/_json$/, '')] = json(v);
        else if (k === 'created_at' || k === 'updated_at') session[k] = sqliteTime(v) ?? v;
        else session[k] = v instanceof Uint8Array ? null : v;
      }
      delete session.conversation;
      delete session.message_count;
      // The members its messages wait for come first, null where the row has none (the importer reads null as none), so
      // they are not held to the end [I1].
      withNulls(session, GOOSE_EXPORT_NEEDS);
      let count = 0;
      // goose reads them back ordered by their insertion time (get_conversation: ORDER BY timestamp); the row id breaks ties.
      const messages = map(eachRow(db, 'SELECT * FROM messages WHERE session_id = ? ORDER BY timestamp, id', [id]), (m) => {
        const i = count++;
        const content = json(m.content_json);
        if (content === undefined) return { unreadable: `messages row ${String(m.id ?? i + 1)}: content_json is not valid JSON` };
        const out: Record<string, unknown> = { id: null, role: m.role, created: m.created_timestamp, content };
        const meta = json(m.metadata_json);
        if (meta !== undefined && meta !== null) out.metadata = meta;
        if (typeof m.tokens === 'number') out.tokens = m.tokens;
        return out;
      });
      return objectWithArray(session, 'conversation', messages, () => ({ message_count: count }));
    },
    skipped: () => [],
    close: () => db.close(),
  };
}

function openCodeStore(db: Database): SqliteStore {
  const counts = countBy(db, 'SELECT session_id AS k, COUNT(*) AS n FROM message GROUP BY session_id');
  return {
    kind: 'opencode',
    format: 'opencode',
    sessions: () => rows(db, 'SELECT * FROM session').map((s) => ({
      id: String(s.id),
      title: text(s.title),
      updated: typeof s.time_updated === 'number' ? new Date(s.time_updated).toISOString() : '',
      messages: counts.get(String(s.id)) ?? 0,
    })),
    assemble(id) {
      const s = rows(db, 'SELECT * FROM session WHERE id = ?', [id])[0];
      if (!s) return null;
      // The session info as `opencode export` writes it (Session.Info: camelCase, times under `time`).
      const info: Record<string, unknown> = { id: s.id, projectID: s.project_id, directory: s.directory, title: s.title, version: s.version, time: { created: s.time_created, updated: s.time_updated } };
      if (typeof s.parent_id === 'string') info.parentID = s.parent_id;
      if (typeof s.slug === 'string') info.slug = s.slug;
      const messages = map(eachRow(db, 'SELECT * FROM message WHERE session_id = ? ORDER BY time_created, id', [id]), (m) => {
        const data = json(m.data);
        if (data === undefined || data === null || typeof data !== 'object') return { unreadable: `message ${String(m.id)}: its data is not a JSON object` };
        const parts = rows(db, 'SELECT * FROM part WHERE message_id = ? ORDER BY id', [m.id as string]).map((p) => {
          const pd = json(p.data);
          if (pd === undefined || pd === null || typeof pd !== 'object') return { unreadable: `part ${String(p.id)}: its data is not a JSON object` };
          return { ...(pd as object), id: p.id, sessionID: id, messageID: m.id };
        });
        return { info: { ...(data as object), id: m.id, sessionID: id }, parts };
      });
      const todos = () => ({
        todos: rows(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'todo'").length > 0
          ? rows(db, 'SELECT content, status, priority FROM todo WHERE session_id = ? ORDER BY position', [id])
          : [],
      });
      return objectWithArray({ info }, 'messages', messages, todos);
    },
    skipped: () => [],
    close: () => db.close(),
  };
}

/**
 * Cursor's state.vscdb [I23]: each `composerData:<id>` row is a chat; its bubbles are the rows
 * `bubbleId:<id>:<bubble id>`, in the order of the composer's `fullConversationHeadersOnly`. A composer that
 * already holds its bubbles inline (`conversation`, older versions) is taken as it is. Chats with no message
 * (Cursor makes one each time the chat panel opens) are not listed. The chats older versions kept in the
 * ItemTable of a workspace's state.vscdb are sessions too [I24] (`kv` false: a database without cursorDiskKV).
 */
function cursorStore(db: Database, kv: boolean): SqliteStore {
  const composer = (key: string): Record<string, unknown> | null => {
    if (!kv) return null;
    const row = rows(db, 'SELECT value FROM cursorDiskKV WHERE key = ?', [key])[0];
    const value = row ? json(row.value) : undefined;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  };
  const headers = (c: Record<string, unknown>): unknown[] => (Array.isArray(c.fullConversationHeadersOnly) ? c.fullConversationHeadersOnly : Array.isArray(c.conversation) ? c.conversation : []);
  // Keys by range, not LIKE (whose `_` matches any character): the key's unique index answers it.
  const prefixed = (prefix: string) => (kv ? rows(db, 'SELECT key, value FROM cursorDiskKV WHERE key >= ? AND key < ?', [prefix, `${prefix}\uffff`]) : []);
  let items: ReturnType<typeof readCursorItemTable> | null = null;
  const itemTable = () => (items ??= readCursorItemTable(db));
  const global = (): SqliteSession[] => prefixed('composerData:').flatMap((r) => {
    const c = json(r.value);
    if (c === null || typeof c !== 'object' || Array.isArray(c)) return [];
    const count = headers(c as Record<string, unknown>).length;
    if (count === 0) return [];
    const o = c as Record<string, unknown>;
    const updated = typeof o.lastUpdatedAt === 'number' ? o.lastUpdatedAt : typeof o.createdAt === 'number' ? o.createdAt : null;
    return [{ id: String(r.key).slice('composerData:'.length), title: typeof o.name === 'string' ? o.name : '', updated: updated !== null ? new Date(updated).toISOString() : '', messages: count }];
  });
  return {
    kind: 'cursor',
    format: 'cursor',
    sessions() {
      const seen = new Set<string>();
      const out = global();
      for (const s of out) seen.add(s.id);
      // A chat in both stores is the global one's (the newer copy).
      for (const s of itemTable().sessions) if (!seen.has(s.id)) out.push({ id: s.id, title: s.title, updated: s.updated, messages: s.messages });
      return out;
    },
    assemble(id) {
      const c = composer(`composerData:${id}`);
      if (!c) {
        const doc = itemTable().sessions.find((s) => s.id === id)?.doc();
        return doc === undefined ? null : [doc];
      }
      if (!Array.isArray(c.fullConversationHeadersOnly) && Array.isArray(c.conversation)) return [JSON.stringify({ composerId: id, ...c })];
      // composerId first: the format is detected from the first bytes. The members the chat's start reads follow,
      // null where the composer has none (read as none), so its bubbles do not wait for them to the end [I1].
      const head: Record<string, unknown> = { composerId: id, ...c };
      delete head.fullConversationHeadersOnly;
      delete head.conversation;
      withNulls(head, CURSOR_START_MEMBERS);
      return objectWithArray(head, 'conversation', composerBubbles(db, id, headers(c)));
    },
    skipped() {
      const { unreadable, elsewhere } = itemTable();
      const inGlobal = new Set(global().map((s) => s.id));
      const away = elsewhere.filter((id) => !inGlobal.has(id));
      const out: { reason: string; elsewhere?: true }[] = unreadable.map((reason) => ({ reason }));
      if (away.length > 0) {
        out.push({ elsewhere: true, reason: `${away.length} composer${away.length === 1 ? '' : 's'} of ${CURSOR_ITEM_KEYS.composers} keep their messages in Cursor's global store (Cursor 0.43 and later): import them from <Cursor user data>/User/globalStorage/state.vscdb#<composer id> (${away.slice(0, 5).join(', ')}${away.length > 5 ? ', …' : ''})` });
      }
      return out;
    },
    close: () => db.close(),
  };
}

/**
 * A composer's bubbles in the order of its headers, each row looked up by its key as it is taken (the key's unique
 * index answers it), so only the current bubble is held [I1]. A header whose row is missing or not a JSON object is
 * `{unreadable: why}` in its place (the importer lists it).
 */
function* composerBubbles(db: Database, id: string, headers: unknown[]): Generator<unknown> {
  const st = db.prepare('SELECT value FROM cursorDiskKV WHERE key = ?');
  try {
    for (const [i, h] of headers.entries()) {
      const bubbleId = h !== null && typeof h === 'object' && typeof (h as { bubbleId?: unknown }).bubbleId === 'string' ? (h as { bubbleId: string }).bubbleId : null;
      if (bubbleId === null) {
        yield { unreadable: `header ${i + 1} of the composer names no bubbleId` };
        continue;
      }
      st.bind([`bubbleId:${id}:${bubbleId}`]);
      const found = st.step();
      const value = found ? st.get()[0] : undefined;
      st.reset();
      if (!found) yield { unreadable: `bubble ${bubbleId}: no row bubbleId:${id}:${bubbleId} in cursorDiskKV` };
      else {
        const b = json(value);
        yield b === null || typeof b !== 'object' || Array.isArray(b) ? { unreadable: `bubble ${bubbleId}: its value is not a JSON object` } : b;
      }
    }
  } finally {
    st.free();
  }
}

/** Adds each of `keys` the object lacks, as null (at its end). */
function withNulls(o: Record<string, unknown>, keys: readonly string[]): void {
  for (const k of keys) if (!Object.hasOwn(o, k)) o[k] = null;
}

function* map<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

function text(v: SqlValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

/** SQLite's `CURRENT_TIMESTAMP` (`2026-03-01 10:00:00`, UTC) or RFC 3339 text → ISO; null when neither. */
function sqliteTime(v: SqlValue | undefined): string | null {
  if (typeof v !== 'string') return null;
  const s = /^\d{4}-\d\d-\d\d \d/.test(v) ? v.replace(' ', 'T') : v;
  const ms = Date.parse(/(Z|[+-]\d\d:?\d\d)$/i.test(s) ? s : `${s}Z`);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}
