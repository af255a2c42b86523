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

/**
 * The rows of a query one at a time, as SQLite steps through them, so a session's rows are never all held
 * [I1][I22]. The statement is freed when the loop ends, early or not.
 */
export function* eachRow(db: Database, sql: string, params: SqlValue[] = []): Generator<Record<string, SqlValue>> {
  const st = db.prepare(sql);
  try {
    st.bind(params);
    while (st.step()) yield st.getAsObject();
  } finally {
    st.free();
  }
}

/**
 * Joins JSON texts into the text of one object: `head`'s members, then `key` holding an array of `items`, then
 * `tail`'s members, exactly as JSON.stringify of the whole object would write it, a piece at a time [I1].
 */
export function* objectWithArray(head: Record<string, unknown>, key: string, items: Iterable<unknown>, tail: () => Record<string, unknown> = () => ({})): Generator<string> {
  const start = JSON.stringify(head);
  yield `${start.length > 2 ? `${start.slice(0, -1)},` : '{'}${JSON.stringify(key)}:[`;
  let sep = '';
  for (const item of items) {
    yield `${sep}${JSON.stringify(item)}`;
    sep = ',';
  }
  const end = JSON.stringify(tail());
  yield `]${end.length > 2 ? `,${end.slice(1)}` : '}'}`;
}
