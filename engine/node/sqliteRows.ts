// Reading rows of a database opened in sql.js (the SQLite session stores, engine/node/sqliteSessions.ts).
import type { Database, SqlValue } from 'sql.js';

export function rows(db: Database, sql: string, params: SqlValue[] = []): Record<string, SqlValue>[] {
  const st = db.prepare(sql);
  try {
    st.bind(params);
    const out: Record<string, SqlValue>[] = [];
    while (st.step()) out.push(st.getAsObject());
    return out;
  } finally {
    st.free();
  }
}

export function countBy(db: Database, sql: string): Map<string, number> {
  return new Map(rows(db, sql).map((r) => [String(r.k), Number(r.n)]));
}

/** A JSON text column (or a BLOB of UTF-8 JSON, as Cursor's `value`) parsed; undefined when it is not JSON; null for SQL NULL. */
export function json(v: SqlValue | undefined): unknown {
  if (v === null || v === undefined) return null;
  try {
    const t = v instanceof Uint8Array ? new TextDecoder('utf-8', { fatal: true }).decode(v) : v;
    if (typeof t !== 'string') return undefined;
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}
