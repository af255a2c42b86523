import type { Pipeline } from '../../engine/model/pipelineSchema.ts';
import type { StepQuery } from '../../engine/replay/types.ts';
import { appDb, type HookwireDb } from '../persistence/db.ts';
import { getSetting, setSetting } from '../persistence/library.ts';
import { TRACE_SETTINGS, traceLibraryStarted } from '../persistence/startTraceLibrary.ts';
import { listTraces, readTraceRecord } from '../persistence/traceLibrary.ts';
import { useEditor } from '../store/editorStore.ts';
import { useDebugger } from './debuggerStore.ts';
import { moveTo, type Move } from './model/stepNavigation.ts';
import { isFiltering, NO_FILTER, type TimelineFilter } from './model/timelineFilter.ts';
import { createReplayClient, RestartedError, type ReplayClient } from './replayClient.ts';
import { resetRows } from './rowCache.ts';
import type { SessionEvent } from './worker/protocol.ts';

/**
 * The debugger's effects: which trace is open, the pipeline sent to the replay worker (every edit re-runs
 * the replay), the step asked for, filters, searches and the compare. The store holds what to show; the
 * worker holds the engine; this module joins them.
 */
let client: ReplayClient | null = null;
let db: HookwireDb;
let epoch = 0;
/** The epoch the open trace was opened at: anything said about an earlier one is about another trace. */
let openedAt = 0;
/** The document last sent to the worker, so an unchanged pipeline is not sent again. */
let sentDoc: Pipeline | null | undefined;
let attached = 0;
let unsubscribe: (() => void) | null = null;
let docTimer: ReturnType<typeof setTimeout> | undefined;

const store = () => useDebugger.getState();
const set = (patch: Parameters<ReturnType<typeof store>['set']>[0]) => store().set(patch);

export function replayClient(): ReplayClient {
  client ??= createReplayClient(onEvent);
  return client;
}

function fail(e: unknown): void {
  if (e instanceof RestartedError) return;
  set({ failure: e instanceof Error ? e.message : String(e) });
}

function onEvent(eventEpoch: number, event: SessionEvent): void {
  const s = store();
  if (eventEpoch !== -1 && eventEpoch < openedAt) return;
  if (event.kind === 'failed') {
    if (eventEpoch === -1 || eventEpoch === s.activeEpoch) set({ failure: event.message });
    return;
  }
  if (event.kind === 'compiled') {
    if (eventEpoch < s.activeEpoch) return;
    if (!event.outcome.ok) {
      set({ compile: event.outcome });
      return;
    }
    s.resetReplay({ activeEpoch: eventEpoch, compile: event.outcome, handlers: event.outcome.handlers, detail: s.detail, failure: null });
    if ((s.trace?.event_count ?? 0) > 0) requestStep(store().position);
    else set({ stepLoading: false });
    if (isFiltering(store().filter)) void applyFilter(store().filter);
    if (store().pinned) void runCompare();
    return;
  }
  if (eventEpoch !== s.activeEpoch) return;
  switch (event.kind) {
    case 'progress':
      if (event.phase === 'compare') set({ diffRunning: true });
      else set({ progress: event });
      break;
    case 'timeline':
      set({ timeline: event.timeline });
      break;
    case 'coverage':
      set({ coverage: event.coverage, progress: null });
      break;
    case 'compare':
      set({ diff: event.diff, diffProblems: event.problems, diffRunning: false });
      break;
  }
}

/** Opens a stored trace and replays it with the open pipeline. */
export async function openTrace(id: string): Promise<void> {
  const record = await readTraceRecord(db, id);
  if (!record) return;
  void setSetting(db, TRACE_SETTINGS.lastTrace, id).catch(() => undefined);
  epoch++;
  openedAt = epoch;
  resetRows(id);
  store().resetReplay({
    traceId: id, trace: record, position: 0, detail: null, activeEpoch: -1, compile: null, handlers: [], filter: NO_FILTER,
    visible: null, failure: null, stepLoading: true,
  });
  const doc = useEditor.getState().doc;
  sentDoc = doc;
  const ref = { id: record.id, event_count: record.event_count, chunk_size: record.chunk_size };
  await replayClient().request({ kind: 'open', epoch, trace: ref, doc }).catch(fail);
}

/** Sends the open pipeline to the worker when it changed (an edit, another pipeline opened). */
function sendPipeline(): void {
  const doc = useEditor.getState().doc;
  if (!store().traceId || doc === sentDoc) return;
  sentDoc = doc;
  const c = replayClient();
  // A worker busy for seconds (code that runs to its time limit on every event) is replaced, not waited for.
  const since = c.busySince();
  if (since !== null && performance.now() - since > 2000) {
    c.restart();
    void openTrace(store().traceId!);
    return;
  }
  epoch++;
  void c.request({ kind: 'pipeline', epoch, doc }).catch(fail);
}

let stepBusy = false;
let wanted: number | null = null;

/** Asks for step `index`; while one is in flight only the latest request is kept (holding a key stays smooth). */
export function requestStep(index: number): void {
  wanted = index;
  if (!store().stepLoading) set({ stepLoading: true });
  if (stepBusy) return;
  stepBusy = true;
  void (async () => {
    try {
      while (wanted !== null) {
        const i = wanted;
        wanted = null;
        if (store().activeEpoch < 0) break;
        try {
          // Marks for e2e/measure/debuggerPerf.ts: how much of a step is the worker's, how much the page's.
          performance.mark('hookwire:step-request');
          const answer = await replayClient().request({ kind: 'step', index: i });
          performance.measure('hookwire:step-worker', 'hookwire:step-request');
          const s = store();
          if (answer.epoch === s.activeEpoch && s.position === i && wanted === null) set({ detail: answer.value, stepLoading: false });
        } catch (e) {
          fail(e);
        }
      }
    } finally {
      stepBusy = false;
    }
  })();
}

export function goTo(index: number): void {
  const s = store();
  const count = s.trace?.event_count ?? 0;
  if (count === 0) return;
  const i = Math.max(0, Math.min(count - 1, index));
  set({ position: i, pausedAt: s.pausedAt?.index === i ? s.pausedAt : null });
  requestStep(i);
}

export function move(m: Move): void {
  const s = store();
  goTo(moveTo(s.position, s.trace?.event_count ?? 0, s.visible, m));
}

/** Jumps to the next (or previous) step any of the queries match, from the current position. */
export async function findAndGo(queries: StepQuery[], direction: 'forward' | 'backward' = 'forward'): Promise<number> {
  const s = store();
  if (!s.trace || s.activeEpoch < 0) return -1;
  try {
    const { value, epoch: e } = await replayClient().request({ kind: 'find', queries, from: s.position, direction });
    if (e === store().activeEpoch && value >= 0) goTo(value);
    return value;
  } catch (err) {
    fail(err);
    return -1;
  }
}

let filterGen = 0;

export async function applyFilter(filter: TimelineFilter): Promise<void> {
  const gen = ++filterGen;
  set({ filter, filtering: isFiltering(filter) });
  if (!isFiltering(filter)) {
    set({ visible: null, filtering: false });
    return;
  }
  try {
    const { value } = await replayClient().request({ kind: 'filter', filter });
    if (gen === filterGen) set({ visible: value, filtering: false });
  } catch (e) {
    if (gen === filterGen) set({ filtering: false });
    fail(e);
  }
}

/** Pins the open pipeline as it is now: later edits are compared with it over the trace. */
export function pinVersion(): void {
  const doc = useEditor.getState().doc;
  if (!doc) return;
  set({ pinned: { doc, name: doc.name, at: Date.now() }, diff: null });
  void runCompare();
}

export function unpin(): void {
  set({ pinned: null, diff: null, diffProblems: [], diffRunning: false });
  void replayClient().request({ kind: 'compare', pinned: null }).catch(fail);
}

export async function runCompare(): Promise<void> {
  const pinned = store().pinned;
  if (!pinned || store().activeEpoch < 0) return;
  set({ diffRunning: true });
  await replayClient().request({ kind: 'compare', pinned: pinned.doc }).catch(fail);
}

/**
 * Called when the debugger mounts: opens the last trace (or the newest) the first time, sends the pipeline
 * if it changed while the debugger was away, and follows edits from then on. Returns the detach function.
 */
export function attachDebugger(database: HookwireDb = appDb()): () => void {
  db = database;
  attached++;
  unsubscribe ??= useEditor.subscribe((s, prev) => {
    if (attached === 0 || s.doc === prev.doc) return;
    clearTimeout(docTimer);
    docTimer = setTimeout(sendPipeline, 120);
  });
  void (async () => {
    if (store().traceId) {
      sendPipeline();
      return;
    }
    await traceLibraryStarted().catch(() => undefined);
    const last = await getSetting<string>(db, TRACE_SETTINGS.lastTrace);
    const list = await listTraces(db);
    const target = list.find((t) => t.id === last && t.status === 'ready') ?? list.find((t) => t.status === 'ready');
    if (target && !store().traceId) await openTrace(target.id);
  })().catch(fail);
  const busyTimer = setInterval(() => {
    const since = client?.busySince() ?? null;
    const busy = since !== null && performance.now() - since > 1500;
    if (busy !== store().busy) set({ busy });
  }, 500);
  return () => {
    attached--;
    clearInterval(busyTimer);
  };
}

/** Stops whatever the replay worker is doing (a new worker starts) and replays the open trace afresh. */
export function restartReplay(): void {
  const id = store().traceId;
  replayClient().restart();
  set({ busy: false });
  if (id) void openTrace(id);
}

/** Closes the open trace (it was deleted). */
export function closeTrace(): void {
  epoch++;
  openedAt = epoch;
  store().resetReplay({ traceId: null, trace: null, activeEpoch: -1, compile: null, handlers: [], position: 0, detail: null, stepLoading: false });
  void replayClient().request({ kind: 'close' }).catch(fail);
}

export function debuggerDb(): HookwireDb {
  return db ?? appDb();
}
