import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compilePipeline, createTraceDiff, type Pipeline, type TraceEvent } from '../../../engine/app.ts';
import { runBacktest } from '../../../web/backtest/backtestRun.ts';
import type { BacktestRequest, BacktestTraceRef, BacktestWorkerMessage } from '../../../web/backtest/backtestProtocol.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { demoTrace } from '../../../web/demo/demoTrace.ts';
import { HookwireDb } from '../../../web/persistence/db.ts';
import { storeTrace } from '../../../web/persistence/traceLibrary.ts';
import type { StoredTrace } from '../../../web/persistence/storedTrace.ts';

// The Backtest view's run over stored traces (fake-indexeddb here; the e2e spec runs it in a real worker).
let db: HookwireDb;
let demo: StoredTrace;
let shifted: StoredTrace;
beforeAll(async () => {
  db = new HookwireDb('backtest-run');
  const trace = demoTrace();
  demo = await storeTrace(db, trace, { name: 'demo', source_format: 'hookwire-trace' });
  // A second session: the same events with other ids, twice over (more than one chunk of 256 is not needed).
  const again: TraceEvent[] = [0, 1].flatMap((k) => trace.events.map((e) => ({ ...e, event_id: `${e.event_id}-${k}` })));
  shifted = await storeTrace(db, { header: { ...trace.header, trace_id: 'other' }, events: again }, { name: 'demo', source_format: 'hookwire-trace' });
});
afterAll(async () => {
  await db.delete();
});

/** The demo with its rm -rf block disabled and a token budget of 100. */
function changed(): Pipeline {
  const doc = demoPipeline();
  return {
    ...doc,
    nodes: doc.nodes.map((n) => (n.id === 'h-block-destructive' && n.kind === 'handler' ? { ...n, enabled: false } : n.id === 'h-token-budget' && n.kind === 'handler' && n.action.type === 'budget' ? { ...n, action: { ...n.action, limit: 100 } } : n)),
  };
}

const ref = (t: StoredTrace): BacktestTraceRef => ({ id: t.id, name: t.name, format: t.source_format, event_count: t.event_count, chunk_size: t.chunk_size });

async function run(request: BacktestRequest): Promise<BacktestWorkerMessage[]> {
  const said: BacktestWorkerMessage[] = [];
  await runBacktest(request, db, (m) => said.push(m));
  return said;
}

describe('the Backtest view\'s run', () => {
  it('[B1][B2] per trace, the differences are the pipeline diff\'s over the same events; trace ids follow the files', async () => {
    const said = await run({ old: { doc: demoPipeline(), name: 'old' }, next: { doc: changed(), name: 'new' }, traces: [ref(demo), ref(shifted)] });
    const done = said.at(-1)!;
    if (done.kind !== 'done') throw new Error(`expected done, got ${JSON.stringify(done)}`);
    expect(done.traceIds).toEqual([demo.id, shifted.id]);
    // Names need not be unique: the ids say which stored trace a row opens.
    expect(done.report.files.map((f) => f.file)).toEqual(['demo', 'demo']);
    const a = compilePipeline(demoPipeline());
    const b = compilePipeline(changed());
    if (!a.ok || !b.ok) throw new Error('the pipelines load');
    for (const [i, events] of [demoTrace().events, [0, 1].flatMap((k) => demoTrace().events.map((e) => ({ ...e, event_id: `${e.event_id}-${k}` })))].entries()) {
      const d = createTraceDiff(a.compiled, b.compiled);
      for (const e of events) d.push(e);
      const r = d.result();
      const f = done.report.files[i]!;
      expect(f.changed).toBe(r.changed_count);
      expect(f.differences.map((x) => [x.step - 1, x.changes, x.a, x.b])).toEqual(r.changed.map((x) => [x.index, x.changes, x.before, x.after]));
    }
    expect(done.report.total.lifted_blocks).toBe(3);
    expect(done.report.total.new_blocks).toBeGreaterThan(0);
    expect(said.filter((m) => m.kind === 'progress').at(-1)).toEqual({ kind: 'progress', traces: 2, events: demo.event_count * 3, totalTraces: 2, totalEvents: demo.event_count * 3 });
  });

  it('[B1] a stored trace that cannot be read is skipped with the reason; a pipeline that does not load fails the run', async () => {
    const gone = { ...ref(demo), id: 'missing', name: 'gone', event_count: 5 };
    const said = await run({ old: { doc: demoPipeline(), name: 'old' }, next: { doc: changed(), name: 'new' }, traces: [gone, ref(demo)] });
    const done = said.at(-1)!;
    if (done.kind !== 'done') throw new Error('expected done');
    expect(done.report.skipped).toEqual([{ file: 'gone', reason: expect.stringContaining('no chunk 0') }]);
    expect(done.traceIds).toEqual([demo.id]);
    const broken = { ...demoPipeline(), nodes: [...demoPipeline().nodes, { id: 'x', kind: 'matcher' as const, when: { 'payload.a': { regex: '(' } } }] };
    expect(await run({ old: { doc: demoPipeline(), name: 'old' }, next: { doc: broken as Pipeline, name: 'broken' }, traces: [ref(demo)] })).toEqual([
      { kind: 'failed', message: expect.stringMatching(/^“broken” does not load: /) },
    ]);
  });
});
