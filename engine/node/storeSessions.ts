// A backtest is over every session a team recorded [B1], and some agents keep many sessions in one SQLite file
// (goose's sessions.db, OpenCode's opencode.db, Cursor's state.vscdb [I22]). Walked as one file, such a store
// was skipped (a bare database path with several sessions is refused); here each store becomes one path per
// session, `<file>#<session id>`, and the store is kept open while its sessions are read one after another.
import { isSqliteFile, openSqliteStore, splitSessionPath, type SqliteStore } from './sqliteSessions.ts';

/**
 * The paths with each bare SQLite session store replaced by its sessions, `<file>#<id>` in id order (by code
 * unit). A store that cannot be opened, is of another kind or holds no session stays as it is, so the
 * command reading it says why it skips it.
 *
 * @example await sessionPaths(['runs/a.jsonl', 'runs/sessions.db']) → ['runs/a.jsonl', 'runs/sessions.db#s1', 'runs/sessions.db#s2']
 */
export async function sessionPaths(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    if (splitSessionPath(p).session !== null || !isSqliteFile(p)) {
      out.push(p);
      continue;
    }
    const store = await openSqliteStore(p);
    if ('error' in store) {
      out.push(p);
      continue;
    }
    try {
      const ids = store.sessions().map((s) => s.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (ids.length === 0) out.push(p);
      else for (const id of ids) out.push(`${p}#${id}`);
    } finally {
      store.close();
    }
  }
  return out;
}

/**
 * Keeps the last store opened: the sessions of one store come one after another, and each opening reads the
 * whole database into memory (sql.js), so a store of 300 chats is read once, not 300 times. One store at a time
 * is held; `close` releases it.
 */
export interface StoreCache {
  open(file: string): Promise<SqliteStore | { error: string; noStore?: true }>;
  close(): void;
}

export function createStoreCache(): StoreCache {
  let held: { file: string; store: SqliteStore } | null = null;
  const close = (): void => {
    held?.store.close();
    held = null;
  };
  return {
    async open(file) {
      if (held?.file === file) return held.store;
      close();
      const store = await openSqliteStore(file);
      if (!('error' in store)) held = { file, store };
      return store;
    },
    close,
  };
}
