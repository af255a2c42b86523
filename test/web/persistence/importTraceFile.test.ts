import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookwireDb } from '../../../web/persistence/db.ts';
import { demoTrace, demoTraceJsonl } from '../../../web/demo/demoTrace.ts';
import { importTraceFile, type ImportProgress } from '../../../web/persistence/importTraceFile.ts';
import { keepPendingTrace, listTraces, readEventRange, readTraceRecord } from '../../../web/persistence/traceLibrary.ts';
import { traceToJsonl } from '../../../engine/trace/traceToJsonl.ts';

import { FIXTURES_DIR as FIXTURES, HAVE_FIXTURES } from '../../shared/fixtures.ts';
import { formatFiles, readFormat } from '../../shared/formatFixtures.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { writeWorkload } from '../../bench/formatWorkloads.ts';

let db: HookwireDb;
let n = 0;
beforeEach(() => {
  db = new HookwireDb(`import-test-${n++}`);
});
afterEach(async () => {
  await db.delete();
});

const file = (text: string | Uint8Array<ArrayBuffer>, name: string) => new File([text], name);

describe('importing a trace file into the library', () => {
  it('streams a trace v1 file into chunks, reporting progress', async () => {
    const base = demoTrace();
    const events = Array.from({ length: 3000 }, (_, i) => ({ ...base.events[i % base.events.length]!, event_id: `e${i}` }));
    const text = traceToJsonl({ header: base.header, events });
    const progress: ImportProgress[] = [];
    const r = await importTraceFile(db, file(text, 'big.jsonl'), { id: 'big', onProgress: (p) => progress.push(p) });
    expect(r).toMatchObject({ status: 'ok', traceId: 'big', format: 'hookwire-trace', events: 3000, problems: [] });
    expect(r.name).toBe(base.header.title);
    const record = (await readTraceRecord(db, 'big'))!;
    expect(record.status).toBe('ready');
    expect(record.file_size).toBe(new TextEncoder().encode(text).length);
    const back = await readEventRange(db, record, 0, 3000);
    expect(back.map((e) => e.event_id)).toEqual(events.map((e) => e.event_id));
    expect(back[8]!.payload).toEqual(events[8]!.payload);
    expect(progress.at(-1)).toMatchObject({ phase: 'reading', done: record.file_size, total: record.file_size });
  });

  it('reports malformed lines with their line numbers, keeps the good events pending until the user keeps them', async () => {
    const lines = demoTraceJsonl().split('\n');
    lines[3] = '{"event_id": "broken", "type": ';
    lines[6] = '{"event_id":"x","type":"tool.before_call","ts":"yesterday","payload":{}}';
    const r = await importTraceFile(db, file(lines.join('\n'), 'broken.jsonl'), { id: 't' });
    expect(r.status).toBe('partial');
    expect(r.problems.filter((p) => p.severity === 'error').map((p) => [p.line, p.code])).toEqual([[4, 'not_json'], [7, 'schema']]);
    expect(r.problems[0]!.message).toMatch(/^line 4: /);
    expect(r.events).toBe(demoTrace().events.length - 2);
    expect((await readTraceRecord(db, 't'))!.status).toBe('pending');
    await keepPendingTrace(db, 't');
    expect((await listTraces(db)).map((t) => [t.id, t.status])).toEqual([['t', 'ready']]);
  });

  it('[I1] a file whose records are all held to its end (spans) past the app\'s limit is refused once its format is known, with the way on, and nothing stored', async () => {
    const lines: string[] = [];
    writeWorkload('otel-spans-jsonl', 400, (t) => void lines.push(t));
    const text = lines.join('');
    let pulled = 0;
    const whole = file(text, 'spans.jsonl');
    // Counts what the import pulls from the file: it stops soon after the first 64 KB, where the format is known.
    const bytes = new TextEncoder().encode(text);
    const stream = () => new ReadableStream<Uint8Array>({
      pull(ctl) {
        if (pulled >= bytes.length) return ctl.close();
        ctl.enqueue(bytes.subarray(pulled, pulled + 16_384));
        pulled += 16_384;
      },
    }, { highWaterMark: 0 });
    const counted = { name: whole.name, size: whole.size, slice: (a?: number, b?: number) => whole.slice(a, b), stream };
    const r = await importTraceFile(db, counted, { id: 's', maxHeldBytes: 100_000 });
    expect(text.length).toBeGreaterThan(300_000);
    expect(r).toMatchObject({ status: 'failed', traceId: null, format: 'otel-spans-jsonl', events: 0 });
    expect(r.problems).toEqual([expect.objectContaining({ code: 'too_large', fatal: true, severity: 'error' })]);
    expect(r.problems[0]!.message).toContain('past the 0.1 MB the app holds');
    expect(r.notes).toEqual([expect.stringContaining('npx hookwire import "spans.jsonl" -o "spans.hwtrace.jsonl"')]);
    expect(pulled).toBeLessThan(text.length);
    expect(await listTraces(db)).toEqual([]);
    // Within the limit it imports, as the engine does.
    const ok = await importTraceFile(db, file(text, 'spans.jsonl'), { id: 's2', maxHeldBytes: text.length });
    expect(ok).toMatchObject({ status: 'ok', events: importTrace(text, { fileName: 'spans.jsonl' }).trace!.events.length });
  });

  it('[I1] a document read whole past the app\'s limit says so, with the way on; a Cursor composer of that size streams', async () => {
    // A composer on one line within the first 64 KB is read whole (its first line is a whole JSON value).
    const bubbles = Array.from({ length: 400 }, (_, i) => ({ type: 1, bubbleId: `u${i}`, text: `prompt ${i}` }));
    const oneLine = JSON.stringify({ composerId: 'c0', conversation: bubbles });
    const r = await importTraceFile(db, file(oneLine, 'one-line.json'), { id: 'c', maxDocumentChars: 10_000 });
    expect(r).toMatchObject({ status: 'failed', traceId: null, format: 'cursor', events: 0 });
    expect(r.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'too_large', fatal: true })]);
    expect(r.notes).toEqual([expect.stringContaining('npx hookwire import "one-line.json"')]);
    const conversation = Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? { type: 1, bubbleId: `u${i}`, text: `prompt ${i}` } : { type: 2, bubbleId: `a${i}`, text: `answer ${i}` }));
    const composer = JSON.stringify({ composerId: 'c1', name: null, createdAt: null, unifiedMode: null, forceMode: null, modelConfig: null, subagentComposerIds: null, subComposerIds: null, conversation }, null, 1);
    expect(composer.length).toBeGreaterThan(100_000);
    const c = await importTraceFile(db, file(composer, 'composer.json'), { id: 'cc', maxDocumentChars: 100_000 });
    expect(c).toMatchObject({ status: 'ok', format: 'cursor', events: importTrace(composer, { fileName: 'composer.json' }).trace!.events.length });
  });

  it('refuses binary data and unknown formats and stores nothing', async () => {
    const bin = await importTraceFile(db, file(new Uint8Array([0, 1, 2, 0, 255, 0, 3]), 'x.bin'), { id: 'b' });
    expect(bin).toMatchObject({ status: 'failed', traceId: null });
    expect(bin.problems[0]!.code).toBe('binary');
    const unknown = await importTraceFile(db, file('{"hello": "world"}\n', 'x.json'), { id: 'u' });
    expect(unknown.problems[0]!.code).toBe('unknown_format');
    const badHeader = await importTraceFile(db, file('{"format":"hookwire.trace","version":99}\n', 'x.jsonl'), { id: 'h' });
    expect(badHeader.status).toBe('failed');
    expect(await db.traces.count()).toBe(0);
    expect(await db.traceChunks.count()).toBe(0);
  });

  it('[I1] the browser path is the engine pipeline: every new format stores what importTrace reads, in order', async () => {
    for (const name of formatFiles()) {
      const text = readFormat(name);
      const expected = importTrace(text, { fileName: name });
      const r = await importTraceFile(db, file(text, name), { id: name });
      // A fixture with a record the importer cannot read (a torn last line) is a partial import in both paths.
      const status = expected.problems.some((p) => p.severity === 'error') ? 'partial' : 'ok';
      expect(r).toMatchObject({ status, format: expected.format, events: expected.trace!.events.length, problems: expected.problems });
      const back = await readEventRange(db, (await readTraceRecord(db, name))!, 0, r.events);
      expect(back).toEqual(expected.trace!.events);
    }
  });

  it('[I1] reading stops at the first binary verdict: the rest of a large binary file is never read', async () => {
    const size = 8 * 1024 * 1024; // zeros: binary from the first byte
    let pulled = 0;
    const zeros = (): ReadableStream<Uint8Array> =>
      new ReadableStream<Uint8Array>({
        pull(ctl) {
          if (pulled >= size) return ctl.close();
          pulled += 65536;
          ctl.enqueue(new Uint8Array(65536));
        },
      }, { highWaterMark: 0 });
    const counting = { name: 'zeros.bin', size, slice: () => new Blob([]), stream: zeros };
    const r = await importTraceFile(db, counting, { id: 'z' });
    expect(r.problems[0]!.code).toBe('binary');
    expect(pulled).toBeLessThan(size / 4);
    expect(await db.traceChunks.count()).toBe(0);
  });

  it('a cancel between pieces leaves nothing behind', async () => {
    const base = demoTrace();
    const events = Array.from({ length: 20000 }, (_, i) => ({ ...base.events[i % base.events.length]!, event_id: `e${i}` }));
    const signal = { aborted: false };
    const run = importTraceFile(db, file(traceToJsonl({ header: base.header, events }), 'c.jsonl'), {
      id: 'c',
      signal,
      onProgress: (p) => {
        if (p.events > 5000) signal.aborted = true;
      },
    });
    await expect(run).rejects.toThrow('import cancelled');
    expect(await db.traces.count()).toBe(0);
    expect(await db.traceChunks.count()).toBe(0);
  });

  it.skipIf(!HAVE_FIXTURES)('recognises a real Claude Code transcript by content (any file name) and notes what the importer did', async () => {
    const text = readFileSync(join(FIXTURES, 'claude-code/spotter_short.jsonl'), 'utf8');
    const r = await importTraceFile(db, file(text, 'no-extension'), { id: 'cc' });
    expect(r.status).toBe('ok');
    expect(r.format).toBe('claude-code');
    expect(r.events).toBeGreaterThan(5);
    expect(r.notes[0]).toMatch(/Claude Code session transcript/);
    const events = await readEventRange(db, (await readTraceRecord(db, 'cc'))!, 0, r.events);
    expect(events[0]!.type).toBe('agent.start');
    expect(events.some((e) => e.type === 'tool.before_call')).toBe(true);
  });
});
