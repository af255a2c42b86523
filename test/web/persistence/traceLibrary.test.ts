import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HookwireDb } from '../../../web/persistence/db.ts';
import { demoTrace, DEMO_TRACE_NAME } from '../../../web/demo/demoTrace.ts';
import { getSetting, setSetting } from '../../../web/persistence/library.ts';
import { startTraceLibrary, TRACE_SETTINGS, traceToOpen } from '../../../web/persistence/startTraceLibrary.ts';
import { checkStoredTrace, TRACE_CHUNK } from '../../../web/persistence/storedTrace.ts';
import {
  beginTrace, deleteTrace, listTraces, purgeTraces, readEventRange, readTraceRecord, removeTraceNow, renameTrace, restoreTrace,
  sampleTraceEvents, storeTrace, writeEventLabel,
} from '../../../web/persistence/traceLibrary.ts';
import { sampleStoredEvents } from '../../../web/persistence/traceSamples.ts';
import type { Trace } from '../../../engine/trace/traceTypes.ts';

let db: HookwireDb;
let n = 0;
beforeEach(() => {
  db = new HookwireDb(`trace-test-${n++}`);
});
afterEach(async () => {
  await db.delete();
});

/** A trace of `count` events (more than one chunk). */
function longTrace(count: number): Trace {
  const base = demoTrace();
  const events = Array.from({ length: count }, (_, i) => ({ ...base.events[i % base.events.length]!, event_id: `e${i}` }));
  return { header: base.header, events };
}

describe('trace library (IndexedDB through Dexie, chunked events)', () => {
  it('stores a trace in chunks and reads any range back in order', async () => {
    const trace = longTrace(TRACE_CHUNK * 3 + 17);
    const record = await storeTrace(db, trace, { name: 'long', source_format: 'hookwire-trace' });
    expect(record.status).toBe('ready');
    expect(record.event_count).toBe(trace.events.length);
    expect(await db.traceChunks.count()).toBe(4);
    const range = await readEventRange(db, record, TRACE_CHUNK - 2, TRACE_CHUNK * 2 + 3);
    expect(range.map((e) => e.event_id)).toEqual(trace.events.slice(TRACE_CHUNK - 2, TRACE_CHUNK * 2 + 3).map((e) => e.event_id));
    expect((await readEventRange(db, record, 0, 1e9)).length).toBe(trace.events.length);
    expect(record.event_types.reduce((s, t) => s + t.count, 0)).toBe(trace.events.length);
  });

  it('lists, renames, deletes with undo, and purges a deleted trace with its chunks on a later start', async () => {
    const a = await storeTrace(db, demoTrace(), { name: 'A', source_format: 'hookwire-trace' });
    const b = await storeTrace(db, demoTrace(), { name: 'B', source_format: 'hookwire-trace' });
    expect((await listTraces(db)).map((t) => t.name)).toEqual(['B', 'A']);
    await renameTrace(db, a.id, 'Renamed');
    expect((await listTraces(db))[0]!.name).toBe('Renamed');
    await deleteTrace(db, b.id);
    expect((await listTraces(db)).map((t) => t.id)).toEqual([a.id]);
    await restoreTrace(db, b.id);
    expect(await listTraces(db)).toHaveLength(2);
    await deleteTrace(db, b.id);
    expect(await purgeTraces(db, Date.now() + 1)).toBe(1);
    expect(await readTraceRecord(db, b.id)).toBeNull();
    expect(await db.traceChunks.where('[trace_id+chunk]').between([b.id, 0], [b.id, Infinity]).count()).toBe(0);
    expect(await db.traceChunks.where('[trace_id+chunk]').between([a.id, 0], [a.id, Infinity]).count()).toBe(1);
  });

  it('keeps "most recently changed first" exact when changes land in the same millisecond', async () => {
    // A frozen clock: every change below happens "at once", as a rename right after an import can.
    const clock = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    try {
      const a = await storeTrace(db, demoTrace(), { name: 'a', source_format: 'hookwire-trace' });
      const b = await storeTrace(db, demoTrace(), { name: 'b', source_format: 'hookwire-trace' });
      expect((await listTraces(db)).map((t) => t.name)).toEqual(['b', 'a']);
      await renameTrace(db, a.id, 'a2');
      expect((await listTraces(db)).map((t) => t.name)).toEqual(['a2', 'b']);
      await renameTrace(db, b.id, 'b2');
      expect((await listTraces(db)).map((t) => t.name)).toEqual(['b2', 'a2']);
    } finally {
      clock.mockRestore();
    }
  });

  it('removes a trace and every chunk at once (cancelled or discarded import)', async () => {
    const t = await storeTrace(db, longTrace(TRACE_CHUNK * 2), { name: 'x', source_format: 'hookwire-trace' });
    await removeTraceNow(db, t.id);
    expect(await db.traces.count()).toBe(0);
    expect(await db.traceChunks.count()).toBe(0);
  });

  it('refuses a record saved by a newer app, and one that is not a trace record', () => {
    expect(checkStoredTrace({ id: 'x', format: 'hookwire.stored-trace', store_version: 99 })).toMatchObject({ ok: false, message: expect.stringContaining('newer Hookwire') });
    expect(checkStoredTrace({ id: 'x' }).ok).toBe(false);
    expect(checkStoredTrace(null).ok).toBe(false);
  });

  it('stores the demo trace on first start only, and path completion samples stored events', async () => {
    const id = await startTraceLibrary(db).started;
    expect(id).not.toBeNull();
    expect(await getSetting(db, TRACE_SETTINGS.lastTrace)).toBe(id);
    expect(await startTraceLibrary(db).started).toBeNull();
    const list = await listTraces(db);
    expect(list.map((t) => t.name)).toEqual([DEMO_TRACE_NAME]);
    expect(list[0]!.demo).toBe(true);
    const sample = await sampleTraceEvents(db, 5);
    expect(sample.map((e) => e.type)).toEqual(['agent.start', 'input.received', 'prompt.built', 'model.before_call', 'model.after_call']);
    // The registered sampler feeds the editor's completion (web/persistence/traceSamples.ts).
    expect((await sampleStoredEvents(100)).some((e) => e.type === 'input.received' && JSON.stringify(e.payload).includes('user_input'))).toBe(true);
  });

  it('the trace to use when none is open: the last one shown if it is ready, else the newest ready one, else none', async () => {
    expect(await traceToOpen(db)).toBeNull();
    const a = await storeTrace(db, demoTrace(), { name: 'A', source_format: 'hookwire-trace' });
    const b = await storeTrace(db, demoTrace(), { name: 'B', source_format: 'hookwire-trace' });
    expect((await traceToOpen(db))?.id).toBe(b.id);
    await setSetting(db, TRACE_SETTINGS.lastTrace, a.id);
    expect((await traceToOpen(db))?.id).toBe(a.id);
    // A newer import still under way is never picked; nor is the last one shown once it is deleted.
    const importing = await beginTrace(db, { name: 'C', header: demoTrace().header, source_format: 'hookwire-trace' });
    await setSetting(db, TRACE_SETTINGS.lastTrace, importing.id);
    expect((await traceToOpen(db))?.id).toBe(b.id);
    await setSetting(db, TRACE_SETTINGS.lastTrace, a.id);
    await deleteTrace(db, a.id);
    expect((await traceToOpen(db))?.id).toBe(b.id);
  });

  it('keeps the demo trace deleted after the user deletes it (seeded once)', async () => {
    const id = (await startTraceLibrary(db).started)!;
    await deleteTrace(db, id);
    await purgeTraces(db, Date.now() + 1);
    await startTraceLibrary(db).started;
    expect(await listTraces(db)).toEqual([]);
  });

  it('[B7] a label is written into its event (meta.expect) in the stored chunk, the rest of the event kept, and removed again', async () => {
    const trace = longTrace(TRACE_CHUNK + 5);
    const record = await storeTrace(db, trace, { name: 'labelled', source_format: 'hookwire-trace' });
    const index = TRACE_CHUNK + 2;
    const before = (await readEventRange(db, record, index, index + 1))[0]!;
    await writeEventLabel(db, record.id, index, { decision: 'block_action', note: 'never push on red' });
    const after = (await readEventRange(db, record, index, index + 1))[0]!;
    expect(after.meta?.expect).toEqual({ decision: 'block_action', note: 'never push on red' });
    expect({ ...after, meta: undefined }).toEqual({ ...before, meta: undefined });
    // Neighbours are untouched; the record's stamp moved, so it lists first.
    expect((await readEventRange(db, record, index - 1, index))[0]).toEqual(trace.events[index - 1]);
    expect((await readTraceRecord(db, record.id))!.updated_at).toBeGreaterThan(record.updated_at);
    await writeEventLabel(db, record.id, index, null);
    expect((await readEventRange(db, record, index, index + 1))[0]).toEqual(before);
  });

  it('[B7] a label that does not read, or a step the trace does not have, is refused and nothing is written', async () => {
    const record = await storeTrace(db, demoTrace(), { name: 'demo', source_format: 'hookwire-trace' });
    const chunks = await db.traceChunks.toArray();
    await expect(writeEventLabel(db, record.id, 0, { decision: 'blocked' } as never)).rejects.toThrow(/not a label/);
    await expect(writeEventLabel(db, record.id, record.event_count, { decision: 'continue' })).rejects.toThrow(/no step/);
    await expect(writeEventLabel(db, 'nope', 0, { decision: 'continue' })).rejects.toThrow(/no longer in the library/);
    expect(await db.traceChunks.toArray()).toEqual(chunks);
  });
});
