import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BacktestReport } from '../../../engine/app.ts';
import type { BacktestRequest, BacktestWorkerMessage } from '../../../web/backtest/backtestProtocol.ts';
import { createBacktestService, type BacktestWorkerLike } from '../../../web/backtest/backtestService.ts';
import type { ReplayService } from '../../../web/debugger/replayService.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { demoTrace } from '../../../web/demo/demoTrace.ts';
import { HookwireDb } from '../../../web/persistence/db.ts';
import { loadDebugSession } from '../../../web/persistence/debugSession.ts';
import { storeTrace } from '../../../web/persistence/traceLibrary.ts';
import type { PipelineVersion } from '../../../web/persistence/versionHistory.ts';
import { createAppStore } from '../../../web/store/appStore.ts';

// The Backtest view's service: which request goes to the worker, what the store says as it answers, cancel,
// and the drill-down into the debugger. The worker is a stand-in here (backtestRun.test.ts runs the real run,
// the e2e spec the real worker); so is the replay service, whose calls are recorded.
let db: HookwireDb;
const ids: string[] = [];
beforeAll(async () => {
  db = new HookwireDb('backtest-service');
  for (const name of ['a', 'b']) ids.push((await storeTrace(db, demoTrace(), { name, source_format: 'hookwire-trace' })).id);
});
afterAll(async () => {
  await db.delete();
});

class FakeWorker implements BacktestWorkerLike {
  sent: BacktestRequest[] = [];
  terminated = false;
  onmessage: ((e: MessageEvent<BacktestWorkerMessage>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  postMessage(r: BacktestRequest) {
    this.sent.push(r);
  }
  terminate() {
    this.terminated = true;
  }
  say(m: BacktestWorkerMessage) {
    this.onmessage?.({ data: m } as MessageEvent<BacktestWorkerMessage>);
  }
}

function setup() {
  const store = createAppStore();
  store.getState().open('p1', { ...demoPipeline(), name: 'now' }, 1);
  const workers: FakeWorker[] = [];
  const calls: string[] = [];
  const replay = {
    openTrace: async (id: string) => void calls.push(`open ${id}`),
    goTo: (i: number) => void calls.push(`goTo ${i}`),
    compareWith: (v: { name: string }) => void calls.push(`compare ${v.name}`),
  } as unknown as ReplayService;
  const service = createBacktestService(store, db, replay, () => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  });
  return { store, workers, calls, service };
}

const old: PipelineVersion = { seq: 7, pipeline_id: 'p1', doc: demoPipeline(), name: 'Demo', label: 'as shipped', first_at: 1, at: 2, revision: 1, summary: 'First version' };
const report = { files: [], total: { changed: 0 } } as unknown as BacktestReport;

describe('the backtest service', () => {
  it('sends the current pipeline, the old version and the picked traces; progress and the result reach the store; the worker goes', async () => {
    const { store, workers, service } = setup();
    store.getState().setBacktestTraces([ids[1]!]);
    await service.run(old);
    const w = workers[0]!;
    expect(w.sent).toHaveLength(1);
    expect(w.sent[0]!.old).toEqual({ doc: expect.objectContaining({ name: demoPipeline().name }), name: 'as shipped' });
    expect(w.sent[0]!.next.name).toBe('now (current)');
    expect(w.sent[0]!.traces.map((t) => [t.id, t.name])).toEqual([[ids[1], 'b']]);
    expect(store.getState().backtest).toEqual({ status: 'running', progress: null });
    w.say({ kind: 'progress', traces: 0, events: 5, totalTraces: 1, totalEvents: 22 });
    expect(store.getState().backtest).toEqual({ status: 'running', progress: { kind: 'progress', traces: 0, events: 5, totalTraces: 1, totalEvents: 22 } });
    w.say({ kind: 'done', report, traceIds: [ids[1]!] });
    expect(store.getState().backtest).toMatchObject({ status: 'done', report, traceIds: [ids[1]], oldSeq: 7 });
    expect(w.terminated).toBe(true);
  });

  it('[B1] \'none\': the old side is the empty pipeline, named "no pipeline"; the result remembers it', async () => {
    const { store, workers, service } = setup();
    store.getState().setBacktestTraces([ids[0]!]);
    await service.run('none');
    const sent = workers[0]!.sent[0]!;
    expect(sent.old.name).toBe('no pipeline');
    expect(sent.old.doc).toMatchObject({ nodes: [], wires: [], event_types: [] });
    workers[0]!.say({ kind: 'done', report, traceIds: [ids[0]!] });
    expect(store.getState().backtest).toMatchObject({ status: 'done', oldSeq: 'none' });
  });

  it('cancel terminates the worker; what it said after is not heard; a run with no trace picked says so', async () => {
    const { store, workers, service } = setup();
    store.getState().setBacktestTraces(ids);
    await service.run(old);
    service.cancel();
    expect(workers[0]!.terminated).toBe(true);
    expect(store.getState().backtest).toEqual({ status: 'cancelled' });
    workers[0]!.say({ kind: 'done', report, traceIds: [] });
    expect(store.getState().backtest).toEqual({ status: 'cancelled' });
    store.getState().setBacktestTraces([]);
    await service.run(old);
    expect(workers).toHaveLength(1);
    expect(store.getState().backtest).toEqual({ status: 'failed', message: 'Pick at least one trace.' });
  });

  it('a row opens its trace in the debugger at its step, with Compare pinned to the old version (stored with the trace\'s session)', async () => {
    const { store, calls, service } = setup();
    store.getState().setBacktestTraces(ids);
    await service.run(old);
    await service.openStep(ids[0]!, 12);
    const session = await loadDebugSession(db, ids[0]!, 'p1');
    expect(session.ok && session.session.pinned?.name).toBe('as shipped');
    expect(calls).toEqual([`open ${ids[0]}`, 'goTo 11']);
    expect(store.getState()).toMatchObject({ mode: 'debug', bottomTab: 'compare' });
    // The trace already open: the pin changes in place.
    store.setState({ traceId: ids[0]! });
    await service.openStep(ids[0]!, 3);
    expect(calls.slice(2)).toEqual(['compare as shipped', 'goTo 2']);
  });
});
