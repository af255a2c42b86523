import type { AsyncEventSource, TraceEvent } from '../../../engine/app.ts';
import type { HookwireDb } from '../../persistence/db.ts';

/** Where a stored trace's events are: enough to read them (storedTrace.ts). */
export interface TraceRef {
  id: string;
  event_count: number;
  chunk_size: number;
  /**
   * Compare every recorded decision whatever pipeline version made it, as `hookwire replay --check` does [R17]:
   * set for a session recorded by `hookwire serve` (the live view), whose point is to show where the pipeline
   * open here decides otherwise than the server did; the live panel names the pipeline that explains.
   */
  compareAll?: boolean;
}

/** A stored trace's events for the replay worker: ranges for the replayer, chunks for rows and search. */
export interface EventStore extends AsyncEventSource {
  chunk(c: number): Promise<readonly TraceEvent[]>;
  /** Event `index` changed in the database (a label was written): its chunk is read again when next needed. */
  forget(index: number): void;
  /** Visits every chunk in order (`base` is the index of its first event); `keepGoing` returning false stops the scan. */
  scan(visit: (events: readonly TraceEvent[], base: number) => void | Promise<void>, keepGoing?: () => boolean): Promise<void>;
}

/**
 * Reads chunk rows from IndexedDB with a small LRU cache of its own (the replayer keeps its own cache too;
 * this one serves timeline rows and payload search, which read other parts of the trace).
 */
export function createEventStore(db: HookwireDb, trace: TraceRef, cached = 24): EventStore {
  const cache = new Map<number, readonly TraceEvent[]>();
  /** Reads in flight, so the stepper and the rows asking for one chunk at once read it once. */
  const reading = new Map<number, Promise<readonly TraceEvent[]>>();
  /** Chunks forgotten (by how many times): a read begun before is not cached, it may hold the old event. */
  const forgotten = new Map<number, number>();
  const size = trace.chunk_size;
  const chunkCount = Math.ceil(trace.event_count / size);

  const read = async (c: number): Promise<readonly TraceEvent[]> => {
    const hit = cache.get(c);
    if (hit) {
      cache.delete(c);
      cache.set(c, hit);
      return hit;
    }
    const pending = reading.get(c);
    if (pending) return pending;
    const asOf = forgotten.get(c) ?? 0;
    const p = db.traceChunks.get([trace.id, c]).then((row) => {
      if (!row) throw new Error(`the stored trace has no chunk ${c}: it was deleted or is damaged`);
      if ((forgotten.get(c) ?? 0) !== asOf) return row.events;
      cache.set(c, row.events);
      while (cache.size > cached) cache.delete(cache.keys().next().value!);
      return row.events;
    });
    reading.set(c, p);
    return p.finally(() => {
      if (reading.get(c) === p) reading.delete(c);
    });
  };

  return {
    count: trace.event_count,
    chunk: read,
    forget(index) {
      const c = Math.floor(index / size);
      forgotten.set(c, (forgotten.get(c) ?? 0) + 1);
      cache.delete(c);
      reading.delete(c);
    },
    async getRange(start, end) {
      const out: TraceEvent[] = [];
      for (let c = Math.floor(start / size); c * size < end && c < chunkCount; c++) {
        const events = await read(c);
        const base = c * size;
        for (let k = Math.max(0, start - base); k < events.length && base + k < end; k++) out.push(events[k]!);
      }
      return out;
    },
    async scan(visit, keepGoing = () => true) {
      for (let c = 0; c < chunkCount; c++) {
        if (!keepGoing()) return;
        // Straight from the database: a scan must not push the chunks the stepper needs out of the cache.
        const row = cache.get(c) ?? (await db.traceChunks.get([trace.id, c]))?.events;
        if (!row) throw new Error(`the stored trace has no chunk ${c}: it was deleted or is damaged`);
        await visit(row, c * size);
      }
    },
  };
}
