import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReplayTimeline } from '../../../engine/replay/types.ts';
import { nextStop } from '../../../engine/replay/breakpoint.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { demoTrace } from '../../../web/demo/demoTrace.ts';
import { NO_FILTER } from '../../../web/debugger/model/timelineFilter.ts';
import { createPlayback } from '../../../web/debugger/playback.ts';
import { createBreakpointStops } from '../../../web/debugger/breakpointStops.ts';
import { createReplayService, type ReplayService } from '../../../web/debugger/replayService.ts';
import type { CompileOutcome, ReplayHandlers, StepDetail } from '../../../web/debugger/worker/protocol.ts';
import { HookwireDb } from '../../../web/persistence/db.ts';
import { setSetting } from '../../../web/persistence/library.ts';
import { TRACE_SETTINGS } from '../../../web/persistence/startTraceLibrary.ts';
import { storeTrace } from '../../../web/persistence/traceLibrary.ts';
import { createAppStore, type AppStore } from '../../../web/store/appStore.ts';
import { fakeReplayWorkers, gate, type FakeWorkers } from './fakeReplayWorker.ts';

// The replay service (web/debugger/replayService.ts) against a fake worker that speaks the real protocol:
// which requests go out, which answers reach the store, and which are dropped as stale.
let db: HookwireDb;
let store: AppStore;
let workers: FakeWorkers;
let service: ReplayService;
let traceId: string;
/** Step answers the test holds back, by step index. */
let held: Map<number, Promise<void>>;
/** When false, a sent pipeline does not compile. */
let compiles: boolean;
/** "Next breakpoint" answers wait for this when set (the search is running). */
let searching: Promise<void> | null;
let cancelledSearches: number[];
/** Every breakpoint of the fake stops at these steps. */
const STOPS = new Int32Array([1, 4, 9]);

const stepOf = (index: number) => ({ step: { index }, why: [] }) as unknown as StepDetail;
const HANDLERS = [{ id: 'h1', name: 'Block secrets', order: 10, action: 'block', enabled: true }];

const handlers: ReplayHandlers = {
  async open(r) {
    queueMicrotask(() => workers.latest().emit(r.epoch, { kind: 'compiled', outcome: { ok: true, handlers: HANDLERS, warnings: [] } }));
    return { value: null, epoch: r.epoch };
  },
  async pipeline(r) {
    const outcome: CompileOutcome = compiles
      ? { ok: true as const, handlers: HANDLERS, warnings: [] }
      : { ok: false as const, problems: [{ code: 'schema' as const, message: 'does not load', path: [], severity: 'error' as const }] };
    queueMicrotask(() => workers.latest().emit(r.epoch, { kind: 'compiled', outcome }));
    return { value: null, epoch: r.epoch };
  },
  close: async () => ({ value: null, epoch: -1 }),
  rows: async () => ({ value: [], epoch: -1 }),
  async step(r) {
    await held.get(r.index);
    return { value: stepOf(r.index), epoch: store.getState().activeEpoch };
  },
  find: async (r) => ({ value: r.from + 2, epoch: store.getState().activeEpoch }),
  marks: async () => ({ value: { blocked: new Int32Array([2]), divergent: new Int32Array(0), labelled: new Int32Array(0) }, epoch: store.getState().activeEpoch }),
  breakpoints: async (r) => ({ value: r.list.map(({ id }) => ({ id, result: { ok: true as const, stops: STOPS.slice() } })), epoch: store.getState().activeEpoch }),
  async nextBreakpoint(r) {
    await searching;
    const epoch = store.getState().activeEpoch;
    if (cancelledSearches.includes(r.search)) return { value: { cancelled: true as const }, epoch };
    const index = nextStop(STOPS, r.from);
    return { value: { cancelled: false as const, index, ids: index < 0 ? [] : r.list.map((b) => b.id) }, epoch };
  },
  async cancelSearch(r) {
    cancelledSearches.push(r.search);
    return { value: null, epoch: store.getState().activeEpoch };
  },
  async filter(r) {
    await searching;
    const epoch = store.getState().activeEpoch;
    if (cancelledSearches.includes(r.search)) return { value: { cancelled: true as const }, epoch };
    return { value: { cancelled: false as const, visible: new Int32Array([0, 2]) }, epoch };
  },
  compare: async () => ({ value: null, epoch: store.getState().activeEpoch }),
  decisions: async () => ({ value: [], epoch: store.getState().activeEpoch }),
  relabel: async () => ({ value: null, epoch: store.getState().activeEpoch }),
  runNode: async () => {
    throw new Error('these tests never run a node on a step');
  },
};

const s = () => store.getState();
const sent = (kind: string) => workers.all.flatMap((w) => w.received).filter((r) => r.kind === kind);

beforeEach(async () => {
  db = new HookwireDb(`replay-service-${Math.random()}`);
  store = createAppStore();
  workers = fakeReplayWorkers(handlers);
  held = new Map();
  compiles = true;
  searching = null;
  cancelledSearches = [];
  traceId = (await storeTrace(db, demoTrace(), { name: 'Demo', source_format: 'hookwire-trace' })).id;
  await setSetting(db, TRACE_SETTINGS.lastTrace, traceId);
  s().open('p1', demoPipeline(), 1);
  service = createReplayService({ store, db, makeWorker: workers.make, libraryStarted: async () => null, sendDelayMs: 1 });
});

afterEach(async () => {
  service.dispose();
  await db.delete();
});

async function enterDebug(): Promise<void> {
  s().setMode('debug');
  await expect.poll(() => s().detail?.step.index).toBe(0);
}

describe('replay service', () => {
  it('entering Debug mode opens the last trace with the open pipeline and shows its first step', async () => {
    expect(workers.all).toHaveLength(0);
    await enterDebug();
    expect(s().traceId).toBe(traceId);
    const [open] = sent('open');
    expect(open).toMatchObject({ kind: 'open', epoch: 1, trace: { id: traceId }, doc: { name: demoPipeline().name } });
    expect(s().handlers).toEqual(HANDLERS);
    expect(s().stepLoading).toBe(false);
  });

  it('latest answer wins: steps asked while one is in flight collapse to the newest, and only its answer shows', async () => {
    await enterDebug();
    const first = gate();
    held.set(1, first.promise);
    service.goTo(1);
    service.goTo(2);
    service.goTo(3);
    expect(s().position).toBe(3);
    first.open();
    await expect.poll(() => s().detail?.step.index).toBe(3);
    expect(sent('step').map((r) => (r as { index: number }).index)).toEqual([0, 1, 3]);
    expect(s().stepLoading).toBe(false);
  });

  it('an edit in Debug mode is sent as a new pipeline; a pipeline that does not compile keeps the last good session', async () => {
    await enterDebug();
    const epoch = s().activeEpoch;
    compiles = false;
    s().apply([{ type: 'setProps', props: { name: 'Edited' } }], 'rename');
    await expect.poll(() => s().compile?.ok).toBe(false);
    expect(sent('pipeline')).toHaveLength(1);
    expect(s().activeEpoch).toBe(epoch);
    // Anything the old session still says is shown; a later session's words about an older epoch are not.
    workers.latest().emit(epoch, { kind: 'timeline', timeline: { count: 1 } as ReplayTimeline });
    expect(s().timeline?.count).toBe(1);
    compiles = true;
    s().apply([{ type: 'setProps', props: { name: 'Edited again' } }], 'rename');
    await expect.poll(() => s().activeEpoch).toBeGreaterThan(epoch);
    expect(s().timeline).toBeNull();
    workers.latest().emit(epoch, { kind: 'timeline', timeline: { count: 2 } as ReplayTimeline });
    expect(s().timeline).toBeNull();
  });

  it('edits made in Edit mode are not sent until Debug mode shows again', async () => {
    await enterDebug();
    s().setMode('edit');
    s().apply([{ type: 'setProps', props: { name: 'Away' } }], 'rename');
    await new Promise((r) => setTimeout(r, 20));
    expect(sent('pipeline')).toHaveLength(0);
    s().setMode('debug');
    await expect.poll(() => sent('pipeline')).toHaveLength(1);
  });

  it('[R19] a label written asks the worker to read the step again and fetches the open step again: the trace is not opened or replayed again', async () => {
    await enterDebug();
    service.goTo(5);
    await expect.poll(() => s().detail?.step.index).toBe(5);
    const opens = sent('open').length;
    const pipelines = sent('pipeline').length;
    const steps = sent('step').length;
    await service.labelChanged(5);
    expect(sent('relabel')).toEqual([{ kind: 'relabel', index: 5 }]);
    await expect.poll(() => sent('step').length).toBe(steps + 1);
    expect(sent('step').at(-1)).toEqual({ kind: 'step', index: 5 });
    expect([sent('open').length, sent('pipeline').length]).toEqual([opens, pipelines]);
    expect(s().position).toBe(5);
  });

  it('a filter shows the steps of its latest answer; clearing it shows every step', async () => {
    await enterDebug();
    await service.applyFilter({ text: 'x', type: null, decision: null, handler: null });
    expect(Array.from(s().visible ?? [])).toEqual([0, 2]);
    await service.applyFilter({ text: '', type: null, decision: null, handler: null });
    expect(s().visible).toBeNull();
    expect(s().filtering).toBe(false);
  });

  it('a worker that fails says so; restarting starts a new worker and replays the trace again', async () => {
    await enterDebug();
    workers.latest().fail('boom');
    expect(s().failure).toBe('boom');
    service.restartReplay();
    expect(workers.all).toHaveLength(2);
    expect(workers.all[0]!.terminated).toBe(true);
    await expect.poll(() => s().failure).toBeNull();
    await expect.poll(() => workers.latest().received.map((r) => r.kind)).toContain('open');
  });

  it('closing the trace drops answers still on their way', async () => {
    await enterDebug();
    const g = gate();
    held.set(4, g.promise);
    service.goTo(4);
    service.closeTrace();
    g.open();
    await new Promise((r) => setTimeout(r, 10));
    expect(s().traceId).toBeNull();
    expect(s().detail).toBeNull();
  });

  it('playback: "next block" and "run to breakpoint" go where the worker\'s search says', async () => {
    await enterDebug();
    const stops = createBreakpointStops(store, service);
    const playback = createPlayback(store, service, stops);
    // No marks yet (no timeline here): B is the worker's search for the first blocked step after this one [R11][R18].
    expect(await playback.nextBlock()).toBe(1);
    await expect.poll(() => s().position).toBe(1);
    expect(await playback.runToBreakpoint()).toBe(-1);
    const id = s().addBreakpoint({ kind: 'decision', decision: 'blocked' });
    expect(await playback.runToBreakpoint()).toBe(4);
    expect(s().pausedAt).toEqual({ index: 4, label: 'Decision: Blocked (block, terminate, denied ask)' });
    // A disabled breakpoint stops nothing.
    s().toggleBreakpoint(id);
    expect(await playback.runToBreakpoint()).toBe(-1);
    // The marks wait for the timeline (none here): the jumps were the worker's search for the next stop, of the enabled ones.
    expect(sent('nextBreakpoint').map((r) => (r as { list: unknown[] }).list)).toEqual([[{ id: 'blocked', spec: { step: { kind: 'blocked' } } }], [{ id: 'decision:blocked', spec: { step: { kind: 'blocked' } } }]]);
    // Shift+B: the worker's find backward, from the step.
    await playback.nextBlock('backward');
    expect(sent('find').at(-1)).toMatchObject({ queries: [{ kind: 'blocked' }], from: 4, direction: 'backward' });
    stops.dispose();
    playback.dispose();
  });

  it('"next breakpoint" before the marks are in: the worker searches from the step, its progress shows, and Cancel leaves the step as it was', async () => {
    await enterDebug();
    // No marks' answers (no stops service): every "next breakpoint" is the worker's search from the step.
    const stops = { known: () => null, dispose: () => undefined };
    const playback = createPlayback(store, service, stops);
    s().addBreakpoint({ kind: 'decision', decision: 'blocked' });
    service.goTo(2);
    await expect.poll(() => s().detail?.step.index).toBe(2);
    const running = gate();
    searching = running.promise;
    const jump = playback.runToBreakpoint();
    await expect.poll(() => s().search?.from).toBe(2);
    const search = s().search!;
    expect(sent('nextBreakpoint').at(-1)).toEqual({ kind: 'nextBreakpoint', search: search.id, from: 2, list: [{ id: 'decision:blocked', spec: { step: { kind: 'blocked' } } }] });
    // The worker's progress reaches the store (only this search's).
    workers.latest().emit(s().activeEpoch, { kind: 'searchProgress', search: search.id, done: 700, total: 22 });
    workers.latest().emit(s().activeEpoch, { kind: 'searchProgress', search: search.id + 99, done: 900, total: 22 });
    expect(s().search?.done).toBe(700);
    playback.cancelSearch();
    expect(s().search).toBeNull();
    running.open();
    expect(await jump).toBe(-1);
    expect(cancelledSearches).toEqual([search.id]);
    expect(s().position).toBe(2);
    expect(s().pausedAt).toBeNull();
    // Not cancelled: the step the worker names.
    searching = null;
    expect(await playback.runToBreakpoint()).toBe(4);
    expect(s().position).toBe(4);
    // A step chosen while it searches cancels it: the person moved on, the answer is not jumped to.
    const again = gate();
    searching = again.promise;
    const moved = playback.runToBreakpoint();
    await expect.poll(() => s().search?.from).toBe(4);
    const second = s().search!.id;
    service.goTo(5);
    expect(s().search).toBeNull();
    again.open();
    expect(await moved).toBe(-1);
    expect(cancelledSearches).toEqual([search.id, second]);
    expect(s().position).toBe(5);
    playback.dispose();
  });

  it('[R20] a filter searched in the worker shows its progress; Cancel keeps the filter and the steps shown before it', async () => {
    await enterDebug();
    await service.applyFilter({ ...NO_FILTER, type: 'tool.before_call' });
    expect([...s().visible!]).toEqual([0, 2]);
    const before = s().filter;
    const running = gate();
    searching = running.promise;
    const typed = service.applyFilter({ ...before, text: 'sk-proj' });
    const search = s().filterSearch!;
    expect(s().filtering).toBe(true);
    workers.latest().emit(s().activeEpoch, { kind: 'searchProgress', search: search.id, done: 300, total: 22 });
    await expect.poll(() => s().filterSearch?.done).toBe(300);
    // The search for the next breakpoint is another: its progress does not move the filter's.
    expect(s().search).toBeNull();
    service.cancelFilter();
    expect(s().filter).toEqual(before);
    expect(s().filtering).toBe(false);
    expect(s().filterSearch).toBeNull();
    expect([...s().visible!]).toEqual([0, 2]);
    expect(cancelledSearches).toContain(search.id);
    running.open();
    await typed;
    expect(s().filter).toEqual(before);
    // A filter typed while another searches replaces it: the one before is told to stop.
    const held2 = gate();
    searching = held2.promise;
    void service.applyFilter({ ...before, text: 'a' });
    const first = s().filterSearch!.id;
    const second = service.applyFilter({ ...before, text: 'ab' });
    expect(cancelledSearches).toContain(first);
    held2.open();
    searching = null;
    await second;
    expect(s().filter.text).toBe('ab');
    expect(s().filtering).toBe(false);
  });

  it('[R20] a key pressed while a filter is searched moves over its answer; a cancel drops it', async () => {
    await enterDebug();
    expect(s().position).toBe(0);
    const running = gate();
    searching = running.promise;
    const typed = service.applyFilter({ ...NO_FILTER, type: 'tool.before_call' });
    expect(s().filtering).toBe(true);
    // j before the filter's steps are known: not the next step of all (1), but the next the filter keeps.
    service.move('next');
    expect(s().position).toBe(0);
    running.open();
    searching = null;
    await typed;
    expect([...s().visible!]).toEqual([0, 2]);
    expect(s().position).toBe(2);
    // Cancelled, the filter's search takes the moves pressed meanwhile with it.
    const held = gate();
    searching = held.promise;
    const again = service.applyFilter({ ...NO_FILTER, type: 'tool.before_call', text: 'x' });
    service.move('first');
    service.cancelFilter();
    held.open();
    searching = null;
    await again;
    expect(s().position).toBe(2);
  });

  it('play walks on while the worker searches, never past the steps it has looked at, and pauses at the stop it names', async () => {
    await enterDebug();
    const playback = createPlayback(store, service, { known: () => null, dispose: () => undefined });
    s().addBreakpoint({ kind: 'decision', decision: 'blocked' });
    s().setSpeed(25);
    service.goTo(2);
    const running = gate();
    searching = running.promise;
    void playback.play();
    await expect.poll(() => s().search?.byPlay).toBe(true);
    expect(s().search?.from).toBe(2);
    // Nothing looked at past step 2 yet: play waits there.
    await new Promise((r) => setTimeout(r, 150));
    expect(s().position).toBe(2);
    // Step 3 looked at (no stop): play walks to it and waits.
    workers.latest().emit(s().activeEpoch, { kind: 'searchProgress', search: s().search!.id, done: 4, total: 22 });
    await expect.poll(() => s().position).toBe(3);
    await new Promise((r) => setTimeout(r, 150));
    expect(s().position).toBe(3);
    expect(s().playing).toBe(true);
    // The answer (the fake's stops are 1, 4, 9): play pauses on step 4.
    running.open();
    await expect.poll(() => s().pausedAt).toEqual({ index: 4, label: 'Decision: Blocked (block, terminate, denied ask)' });
    expect(s().playing).toBe(false);
    expect(s().position).toBe(4);
    playback.dispose();
  });
});
