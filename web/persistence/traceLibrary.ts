import { type Expectation, type TraceFormat, type TraceProblem, type Trace, type TraceEvent, type TraceHeader, withExpectation } from '../../engine/app.ts';
import type { HookwireDb } from './db.ts';
import {
  checkStoredTrace, MAX_STORED_PROBLEMS, STORED_TRACE_FORMAT, STORED_TRACE_VERSION, TRACE_CHUNK,
  type EventSampleRow, type StoredTrace, type TraceChunk,
} from './storedTrace.ts';

/**
 * The trace library in IndexedDB: records and their event chunks. Used by the page (list, rename, delete),
 * by the import worker (writing) and by the replay worker (reading ranges); nothing here needs the DOM.
 */

export interface NewTrace {
  id?: string;
  name: string;
  header: TraceHeader;
  source_format: TraceFormat;
  file_name?: string | null;
  file_size?: number;
  demo?: boolean;
}

/** Starts a trace record in status `importing`; its events follow through a chunk writer. */
export async function beginTrace(db: HookwireDb, init: NewTrace): Promise<StoredTrace> {
  const now = Date.now();
  const record: StoredTrace = {
    id: init.id ?? crypto.randomUUID(),
    format: STORED_TRACE_FORMAT,
    store_version: STORED_TRACE_VERSION,
    name: init.name,
    status: 'importing',
    header: init.header,
    source_format: init.source_format,
    file_name: init.file_name ?? null,
    file_size: init.file_size ?? 0,
    event_count: 0,
    chunk_size: TRACE_CHUNK,
    event_types: [],
    problems: [],
    notes: [],
    created_at: now,
    updated_at: await changeStamp(db),
    ...(init.demo ? { demo: true } : {}),
  };
  await db.traces.put(record);
  return record;
}

/** Collects events into chunk rows and writes full chunks on `flush` (one transaction per flush). */
export interface ChunkWriter {
  add(event: TraceEvent): void;
  /** Events waiting in memory (not yet written). */
  readonly buffered: number;
  readonly count: number;
  /** Writes every full chunk; with `final`, the last partial one too. */
  flush(final?: boolean): Promise<void>;
  eventTypes(): { type: string; count: number }[];
}

export function createChunkWriter(db: HookwireDb, traceId: string, chunkSize = TRACE_CHUNK): ChunkWriter {
  let pending: TraceEvent[] = [];
  let written = 0;
  let count = 0;
  const types = new Map<string, number>();
  return {
    add(event) {
      pending.push(event);
      count++;
      types.set(event.type, (types.get(event.type) ?? 0) + 1);
    },
    get buffered() {
      return pending.length;
    },
    get count() {
      return count;
    },
    async flush(final = false) {
      const rows: TraceChunk[] = [];
      let at = 0;
      while (pending.length - at >= chunkSize || (final && at < pending.length)) {
        rows.push({ trace_id: traceId, chunk: written / chunkSize, events: pending.slice(at, at + chunkSize) });
        written += Math.min(chunkSize, pending.length - at);
        at += chunkSize;
      }
      pending = pending.slice(at);
      if (rows.length) await db.traceChunks.bulkPut(rows);
    },
    eventTypes: () => [...types].map(([type, n]) => ({ type, count: n })),
  };
}

/** Closes an import: counts, problems and notes on the record, and its status. */
export async function finishTrace(
  db: HookwireDb, id: string, writer: ChunkWriter, status: 'ready' | 'pending', problems: TraceProblem[], notes: string[] = [],
): Promise<StoredTrace> {
  await writer.flush(true);
  const current = await db.traces.get(id);
  if (!current) throw new Error(`trace ${id} vanished while it was being imported`);
  const record: StoredTrace = {
    ...current,
    status,
    event_count: writer.count,
    event_types: writer.eventTypes(),
    problems: problems.slice(0, MAX_STORED_PROBLEMS),
    notes,
    updated_at: await changeStamp(db),
  };
  await db.traces.put(record);
  return record;
}

/** Stores a trace held in memory (the demo, an import of a JSON document) in one go. */
export async function storeTrace(db: HookwireDb, trace: Trace, init: Omit<NewTrace, 'header'>, problems: TraceProblem[] = [], notes: string[] = []): Promise<StoredTrace> {
  const record = await beginTrace(db, { ...init, header: trace.header });
  const writer = createChunkWriter(db, record.id);
  for (const e of trace.events) {
    writer.add(e);
    if (writer.buffered >= TRACE_CHUNK * 16) await writer.flush();
  }
  const errors = problems.some((p) => p.severity === 'error');
  return finishTrace(db, record.id, writer, errors ? 'pending' : 'ready', problems, notes);
}

/**
 * The `updated_at` of a change: now, but always past every stamp already stored, so the library's "most
 * recently changed first" order is exact even for two changes within one millisecond (a rename right after
 * an import used to tie with it and could stay below it).
 */
async function changeStamp(db: HookwireDb): Promise<number> {
  const top = await db.traces.orderBy('updated_at').last();
  const now = Date.now();
  return top && top.updated_at >= now ? top.updated_at + 1 : now;
}

/** Traces of the library (ready, and imports waiting for a decision), most recently changed first. */
export async function listTraces(db: HookwireDb): Promise<StoredTrace[]> {
  const all = await db.traces.orderBy('updated_at').reverse().toArray();
  return all.filter((r) => r.deleted_at === undefined && r.status !== 'importing' && checkStoredTrace(r).ok);
}

export async function readTraceRecord(db: HookwireDb, id: string): Promise<StoredTrace | null> {
  const raw = await db.traces.get(id);
  if (!raw || raw.deleted_at !== undefined) return null;
  const check = checkStoredTrace(raw);
  return check.ok ? check.record : null;
}

/** Events `[start, end)` of a stored trace, read chunk by chunk. */
export async function readEventRange(db: HookwireDb, trace: Pick<StoredTrace, 'id' | 'chunk_size' | 'event_count'>, start: number, end: number): Promise<TraceEvent[]> {
  const to = Math.min(end, trace.event_count);
  if (start >= to) return [];
  const first = Math.floor(start / trace.chunk_size);
  const last = Math.floor((to - 1) / trace.chunk_size);
  const rows = await db.traceChunks.where('[trace_id+chunk]').between([trace.id, first], [trace.id, last], true, true).toArray();
  if (rows.length !== last - first + 1) throw new Error(`trace ${trace.id}: chunks ${first}..${last} are not all stored (found ${rows.length})`);
  const out: TraceEvent[] = [];
  for (const row of rows) {
    const base = row.chunk * trace.chunk_size;
    for (let k = 0; k < row.events.length; k++) {
      const i = base + k;
      if (i >= start && i < to) out.push(row.events[k]!);
    }
  }
  return out;
}

export async function renameTrace(db: HookwireDb, id: string, name: string): Promise<void> {
  await db.traces.update(id, { name, updated_at: await changeStamp(db) });
}

/** Accepts an import with dropped lines: the good events become a ready trace. */
export async function keepPendingTrace(db: HookwireDb, id: string): Promise<void> {
  await db.traces.update(id, { status: 'ready', updated_at: await changeStamp(db) });
}

/** Marks a trace deleted; `restoreTrace` undoes it until the next start purges it. */
export async function deleteTrace(db: HookwireDb, id: string): Promise<void> {
  await db.traces.update(id, { deleted_at: Date.now() });
}

export async function restoreTrace(db: HookwireDb, id: string): Promise<void> {
  await db.transaction('rw', db.traces, async () => {
    const current = await db.traces.get(id);
    if (!current) return;
    const { deleted_at: _gone, ...rest } = current;
    await db.traces.put(rest);
  });
}

/** Removes a trace and all its chunks at once (a cancelled or discarded import). */
export async function removeTraceNow(db: HookwireDb, id: string): Promise<void> {
  await db.transaction('rw', db.traces, db.traceChunks, async () => {
    await db.traceChunks.where('[trace_id+chunk]').between([id, 0], [id, Infinity], true, true).delete();
    await db.traces.delete(id);
  });
}

/** Removes traces deleted in an earlier session and imports a crash left half written; returns how many. */
export async function purgeTraces(db: HookwireDb, before: number): Promise<number> {
  const gone = (await db.traces.toArray()).filter((r) => (r.deleted_at !== undefined && r.deleted_at < before) || (r.status === 'importing' && r.updated_at < before));
  for (const r of gone) await removeTraceNow(db, r.id);
  return gone.length;
}

/** A sample of stored events for path completion: the first chunk of each ready trace, newest first. */
export async function sampleTraceEvents(db: HookwireDb, limit: number): Promise<EventSampleRow[]> {
  const out: EventSampleRow[] = [];
  for (const t of await listTraces(db)) {
    if (t.status !== 'ready' || out.length >= limit) continue;
    const row = await db.traceChunks.get([t.id, 0]);
    for (const e of row?.events ?? []) {
      if (out.length >= limit) break;
      out.push(e.meta ? { type: e.type, payload: e.payload, meta: e.meta } : { type: e.type, payload: e.payload });
    }
  }
  return out;
}

/**
 * Writes a growing trace (the live view of a server session): the chunk rows from `fromEvent`'s chunk to the
 * end, and the record's counts, in one transaction, so a reader never sees a count without its events.
 */
export async function writeTraceTail(db: HookwireDb, record: StoredTrace, events: readonly TraceEvent[], fromEvent: number): Promise<StoredTrace> {
  const size = record.chunk_size;
  const rows: TraceChunk[] = [];
  for (let c = Math.floor(fromEvent / size); c * size < events.length; c++) rows.push({ trace_id: record.id, chunk: c, events: events.slice(c * size, (c + 1) * size) });
  const types = new Map<string, number>();
  for (const e of events) types.set(e.type, (types.get(e.type) ?? 0) + 1);
  const next: StoredTrace = { ...record, status: 'ready', event_count: events.length, event_types: [...types].map(([type, count]) => ({ type, count })), updated_at: await changeStamp(db) };
  await db.transaction('rw', db.traces, db.traceChunks, async () => {
    if (rows.length) await db.traceChunks.bulkPut(rows);
    await db.traces.put(next);
  });
  return next;
}

/**
 * Labels step `index` of a stored trace with the decision a person expects (its event's `meta.expect`, the
 * engine's withExpectation) [B7], or removes its label (`null`). The label is stored in the event itself, so
 * the trace carries it: the debugger and a backtest replay it, and the trace as downloaded is a golden test
 * `hookwire test` and `hookwire backtest` read as it stands. One transaction: the chunk and the record's stamp.
 */
export async function writeEventLabel(db: HookwireDb, id: string, index: number, expectation: Expectation | null): Promise<TraceEvent> {
  return db.transaction('rw', db.traces, db.traceChunks, async () => {
    const record = await readTraceRecord(db, id);
    if (!record) throw new Error('the trace is no longer in the library');
    if (!Number.isInteger(index) || index < 0 || index >= record.event_count) throw new Error(`the trace has no step ${index + 1}`);
    const chunk = Math.floor(index / record.chunk_size);
    const row = await db.traceChunks.get([id, chunk]);
    const at = index - chunk * record.chunk_size;
    const event = row?.events[at];
    if (!row || !event) throw new Error(`the stored trace has no chunk ${chunk}: it was deleted or is damaged`);
    const labelled = withExpectation(event, expectation);
    const events = row.events.slice();
    events[at] = labelled;
    await db.traceChunks.put({ ...row, events });
    await db.traces.update(id, { updated_at: await changeStamp(db) });
    return labelled;
  });
}
