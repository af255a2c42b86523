import type { Pipeline, StepQuery } from '../../engine/app.ts';
import type { HookwireDb } from '../persistence/db.ts';
import { setSetting } from '../persistence/library.ts';
import { TRACE_SETTINGS, traceToOpen } from '../persistence/startTraceLibrary.ts';
import { readTraceRecord } from '../persistence/traceLibrary.ts';
import { listVersions } from '../persistence/versionHistory.ts';
import { latestWins } from '../services/latestWins.ts';
import type { AppStore, Pinned } from '../store/appStore.ts';
import { moveTo, type Move } from './model/stepNavigation.ts';
import { isFiltering, type TimelineFilter } from './model/timelineFilter.ts';
import { createReplayClient, RestartedError, type MakeWorker, type ReplayClient } from './replayClient.ts';
import { createRowCache, type RowCache } from './rowCache.ts';
import type { SessionEvent } from './worker/protocol.ts';

/**
 * The debugger's effects: which trace is open, the pipeline sent to the replay worker (every edit re-runs
 * the replay), the step asked for, filters, searches and the compare. The store holds what to show; the
 * worker holds the engine; this service joins them. Created once by web/startApp.ts; the worker starts
 * the first time Debug mode shows, and edits are followed while it shows.
 */
export interface ReplayService {
  client: ReplayClient;
  rows: RowCache;
  openTrace(id: string): Promise<void>;
  /**
   * Step `index` of the open trace was relabelled in the library: the worker reads the event again and the
   * rows and the open step are fetched again. Nothing is replayed: a label never changes a decision [R19].
   */
  labelChanged(index: number): Promise<void>;
  closeTrace(): void;
  goTo(index: number): void;
  move(m: Move): void;
  /** Jumps to the next (or previous) step any of the queries match; resolves to it (-1: none). */
  findAndGo(queries: StepQuery[], direction?: 'forward' | 'backward'): Promise<number>;
  /**
   * Shows the steps the filter keeps [R20]: the worker searches a chunk at a time (its progress in the store's
   * `filterSearch`); the timeline shows the last filter's steps until the answer.
   */
  applyFilter(filter: TimelineFilter): Promise<void>;
  /** Stops the filter's search (Cancel, Escape): the filter and the steps shown are the ones before it. */
  cancelFilter(): void;
  /** A new id for a search the person waits for (ids name searches to the worker, whoever starts them). */
  newSearchId(): number;
  /** Pins the open pipeline as it is now: later edits are compared with it over the trace. */
  pinVersion(): void;
  /** Compares with a given version (one from the pipeline's history) instead of the one pinned by hand. */
  compareWith(version: Pinned): void;
  unpin(): void;
  runCompare(): Promise<void>;
  /** Stops whatever the replay worker is doing (a new worker starts) and replays the open trace afresh. */
  restartReplay(): void;
  dispose(): void;
}

export interface ReplayDeps {
  store: AppStore;
  db: HookwireDb;
  makeWorker: MakeWorker;
  /** Settles when the trace library has started (the demo trace is stored on first run). */
  libraryStarted: () => Promise<unknown>;
  /** How long the document must rest before an edit goes to the worker. */
  sendDelayMs?: number;
}

/** A worker busy this long on one request is shown as busy; an edit then restarts it. */
const BUSY_MS = 1500;
const RESTART_MS = 2000;
/** Saved versions offered to the worker when the open document does not load (each is compiled until one loads). */
const FALLBACK_VERSIONS = 8;

export function createReplayService({ store, db, makeWorker, libraryStarted, sendDelayMs = 120 }: ReplayDeps): ReplayService {
  const s = () => store.getState();
  let epoch = 0;
  /** The epoch the open trace was opened at: anything said about an earlier one is about another trace. */
  let openedAt = 0;
  /** The document last sent to the worker, so an unchanged pipeline is not sent again. */
  let sentDoc: Pipeline | null | undefined;
  let docTimer: ReturnType<typeof setTimeout> | undefined;
  let busyTimer: ReturnType<typeof setInterval> | undefined;
  let opening = false;
  /** The documents sent, by epoch, until the worker says how they loaded. */
  const sent = new Map<number, Pipeline | null>();
  /** The last document the worker loaded, and whose it is: replayed when a later one does not load. */
  let lastGood: { pipelineId: string | null; doc: Pipeline } | null = null;

  const fail = (e: unknown) => {
    if (e instanceof RestartedError) return;
    s().replayFailed(e instanceof Error ? e.message : String(e));
  };

  const onEvent = (eventEpoch: number, event: SessionEvent) => {
    const st = s();
    if (eventEpoch !== -1 && eventEpoch < openedAt) return;
    if (event.kind === 'failed') {
      if (eventEpoch === -1 || eventEpoch === st.activeEpoch) st.replayFailed(event.message);
      return;
    }
    if (event.kind === 'compiled') {
      const doc = sent.get(eventEpoch);
      for (const e of sent.keys()) if (e < eventEpoch) sent.delete(e);
      if (eventEpoch < st.activeEpoch) return;
      if (!event.outcome.ok) {
        st.compileFailed(event.outcome);
        return;
      }
      if (!event.outcome.fallback && doc) lastGood = { pipelineId: st.pipelineId, doc };
      st.sessionStarted(eventEpoch, event.outcome);
      if ((st.trace?.event_count ?? 0) > 0) requestStep(s().position);
      else st.noStep();
      if (isFiltering(s().filter)) void applyFilter(s().filter);
      if (s().pinned) void runCompare();
      return;
    }
    if (eventEpoch !== st.activeEpoch) return;
    switch (event.kind) {
      case 'progress':
        if (event.phase === 'compare') st.compareStarted();
        else st.replayProgressed(event);
        break;
      case 'timeline':
        st.timelineArrived(event.timeline);
        rows.refresh();
        requestMarks();
        break;
      case 'coverage':
        st.coverageArrived(event.coverage);
        break;
      case 'searchProgress':
        st.searchProgressed(event.search, event.done, event.total);
        st.filterSearchProgressed(event.search, event.done, event.total);
        break;
      case 'compare':
        st.compareArrived(event.diff, event.problems);
        break;
    }
  };

  const client = createReplayClient(makeWorker, onEvent);
  const rows = createRowCache(client);

  // Holding an arrow key asks for many steps: while one is in flight only the latest is asked next.
  const stepAnswer = latestWins((index: number) => {
    // Marks for e2e/measure/debuggerPerf.ts: how much of a step is the worker's, how much the page's.
    performance.mark('hookwire:step-request');
    return client.request({ kind: 'step', index }).finally(() => performance.measure('hookwire:step-worker', 'hookwire:step-request'));
  });
  const filterAnswer = latestWins(({ filter, search }: { filter: TimelineFilter; search: number }) => client.request({ kind: 'filter', filter, search }));
  let searchIds = 0;
  const newSearchId = () => ++searchIds;

  /** Blocked, divergent and labelled steps for the scrubber, once the timeline is there. */
  function requestMarks(): void {
    const epochAsked = s().activeEpoch;
    if (epochAsked < 0 || !s().timeline) return;
    client.request({ kind: 'marks' }).then((a) => {
      if (a.epoch === s().activeEpoch) s().marksArrived(a.value);
    }, fail);
  }

  function requestStep(index: number): void {
    s().stepRequested();
    if (s().activeEpoch < 0) return;
    stepAnswer(index).then((a) => {
      const st = s();
      if (a.current && a.value.epoch === st.activeEpoch && st.position === index) st.stepAnswered(a.value.value);
    }, fail);
  }

  async function openTrace(id: string, keep?: { at: number; filter: TimelineFilter }): Promise<void> {
    const record = await readTraceRecord(db, id);
    if (!record) return;
    // Counted by e2e/debugger-labels.spec.ts: writing a label must not open (and so replay) the trace again.
    performance.mark('hookwire:trace-open');
    // Read before the epoch moves: an edit sent meanwhile must not overtake this trace's open.
    const saved = await savedVersions();
    void setSetting(db, TRACE_SETTINGS.lastTrace, id).catch(() => undefined);
    epoch++;
    openedAt = epoch;
    rows.reset(id);
    stepAnswer.invalidate();
    filterAnswer.invalidate();
    movesWaiting = [];
    s().traceOpened(record);
    if (keep) {
      s().stepChosen(Math.min(keep.at, Math.max(0, record.event_count - 1)));
      s().filterChanged(keep.filter);
    }
    const doc = s().doc;
    sentDoc = doc;
    sent.set(epoch, doc);
    const trace = { id: record.id, event_count: record.event_count, chunk_size: record.chunk_size, compareAll: record.header.source.kind === 'hookwire-serve' };
    const fallbacks = loadedVersions(doc, saved);
    await client.request({ kind: 'open', epoch, trace, doc, fallbacks }).catch(fail);
  }

  /**
   * What the worker replays instead of `doc` when it does not load and no session is left to keep: this
   * page's last loaded version, the editor's newest that loads, then the pipeline's saved history (newest first).
   */
  function loadedVersions(doc: Pipeline | null, saved: readonly Pipeline[] = []): Pipeline[] {
    const st = s();
    const out: Pipeline[] = [];
    const add = (d: Pipeline | null | undefined) => {
      if (d && d !== doc && !out.includes(d)) out.push(d);
    };
    if (lastGood?.pipelineId === st.pipelineId) add(lastGood.doc);
    add(st.loadedDoc);
    saved.forEach(add);
    return out;
  }

  async function savedVersions(): Promise<Pipeline[]> {
    const id = s().pipelineId;
    if (!id) return [];
    const versions = await listVersions(db, id).catch(() => []);
    return versions.slice(0, FALLBACK_VERSIONS).map((v) => v.doc as Pipeline);
  }

  /** Sends the open pipeline to the worker when it changed (an edit, another pipeline opened). */
  function sendPipeline(): void {
    const doc = s().doc;
    const traceId = s().traceId;
    if (!traceId || doc === sentDoc) return;
    sentDoc = doc;
    // A worker busy for seconds (code that runs to its time limit on every event) is replaced, not waited for.
    const since = client.busySince();
    if (since !== null && performance.now() - since > RESTART_MS) {
      client.restart();
      void openTrace(traceId);
      return;
    }
    epoch++;
    sent.set(epoch, doc);
    // Only a worker without a session (nothing loaded yet) needs the earlier versions.
    const fallbacks = s().activeEpoch < 0 ? loadedVersions(doc) : [];
    void client.request({ kind: 'pipeline', epoch, doc, fallbacks }).catch(fail);
  }

  function goTo(index: number): void {
    const count = s().trace?.event_count ?? 0;
    if (count === 0) return;
    const i = Math.max(0, Math.min(count - 1, index));
    s().stepChosen(i);
    requestStep(i);
  }

  async function findAndGo(queries: StepQuery[], direction: 'forward' | 'backward' = 'forward'): Promise<number> {
    const st = s();
    if (!st.trace || st.activeEpoch < 0) return -1;
    try {
      const { value, epoch: e } = await client.request({ kind: 'find', queries, from: st.position, direction });
      if (e === s().activeEpoch && value >= 0) goTo(value);
      return value;
    } catch (err) {
      fail(err);
      return -1;
    }
  }

  /** Tells the worker to stop the filter's search, if one runs (the store is left as it is). */
  function stopFilterSearch(): void {
    const running = s().filterSearch;
    if (running) void client.request({ kind: 'cancelSearch', search: running.id }).catch(() => undefined);
  }

  /**
   * Moves (j, k, Home, End) pressed while a filter's steps are being found: made over its answer, in order, so a
   * key pressed just after choosing a filter goes to a step the filter keeps. A cancelled or failed search drops
   * them (the person stays where they were).
   */
  let movesWaiting: Move[] = [];
  function makeMovesWaiting(): void {
    const moves = movesWaiting;
    movesWaiting = [];
    for (const m of moves) makeMove(m);
  }
  /** One move, over the steps shown now. */
  function makeMove(m: Move): void {
    const st = s();
    goTo(moveTo(st.position, st.trace?.event_count ?? 0, st.visible, m));
  }

  async function applyFilter(filter: TimelineFilter): Promise<void> {
    // The search before is stopped: calls run one at a time, and this one replaces it.
    stopFilterSearch();
    s().filterChanged(filter);
    if (!isFiltering(filter)) {
      filterAnswer.invalidate();
      makeMovesWaiting();
      return;
    }
    const search = newSearchId();
    s().filterSearchStarted({ id: search, done: 0, total: s().trace?.event_count ?? 0 });
    try {
      const a = await filterAnswer({ filter, search });
      if (!a.current || s().filterSearch?.id !== search) return;
      const answer = a.value.value;
      if (answer.cancelled) {
        movesWaiting = [];
        s().filterCancelled();
      } else {
        s().filterAnswered(answer.visible);
        makeMovesWaiting();
      }
    } catch (e) {
      if (s().filterSearch?.id === search) {
        movesWaiting = [];
        s().filterFailed();
      }
      fail(e);
    }
  }

  function cancelFilter(): void {
    if (!s().filterSearch) return;
    movesWaiting = [];
    stopFilterSearch();
    filterAnswer.invalidate();
    s().filterCancelled();
  }

  async function runCompare(): Promise<void> {
    const pinned = s().pinned;
    if (!pinned || s().activeEpoch < 0) return;
    s().compareStarted();
    await client.request({ kind: 'compare', pinned: pinned.doc }).catch(fail);
  }

  /** Debug mode shows: open the last trace (or the newest) the first time, send the pipeline if it changed. */
  async function attach(): Promise<void> {
    busyTimer = setInterval(() => {
      const since = client.busySince();
      s().setBusy(since !== null && performance.now() - since > BUSY_MS);
    }, 500);
    if (s().traceId) {
      sendPipeline();
      return;
    }
    if (opening) return;
    opening = true;
    try {
      await libraryStarted().catch(() => undefined);
      const target = await traceToOpen(db);
      if (target && !s().traceId) await openTrace(target.id);
    } finally {
      opening = false;
    }
  }

  const detach = () => {
    clearInterval(busyTimer);
    busyTimer = undefined;
  };

  const unsubscribe = store.subscribe((st, prev) => {
    if (st.mode !== prev.mode) {
      if (st.mode === 'debug') void attach().catch(fail);
      else detach();
    }
    if (st.mode === 'debug' && st.doc !== prev.doc) {
      clearTimeout(docTimer);
      docTimer = setTimeout(sendPipeline, sendDelayMs);
    }
  });
  if (s().mode === 'debug') void attach().catch(fail);

  return {
    client,
    rows,
    openTrace: (id) => openTrace(id),
    async labelChanged(index) {
      const id = s().traceId;
      await client.request({ kind: 'relabel', index }).catch(fail);
      if (s().traceId !== id) return;
      rows.refresh();
      requestStep(s().position);
      // The scrubber's label marks and the breakpoints' stops (a condition may read meta.expect) are asked again.
      requestMarks();
      s().breakpointStopsArrived(null);
    },
    closeTrace() {
      epoch++;
      openedAt = epoch;
      stepAnswer.invalidate();
      filterAnswer.invalidate();
      movesWaiting = [];
      s().traceClosed();
      void client.request({ kind: 'close' }).catch(fail);
    },
    goTo,
    move(m) {
      if (s().filtering) movesWaiting.push(m);
      else makeMove(m);
    },
    findAndGo,
    applyFilter,
    cancelFilter,
    newSearchId,
    pinVersion() {
      const doc = s().doc;
      if (!doc) return;
      s().versionPinned({ doc, name: doc.name, at: Date.now() });
      void runCompare();
    },
    compareWith(version) {
      s().versionPinned(version);
      void runCompare();
    },
    unpin() {
      s().pinCleared();
      void client.request({ kind: 'compare', pinned: null }).catch(fail);
    },
    runCompare,
    restartReplay() {
      const id = s().traceId;
      client.restart();
      s().setBusy(false);
      if (id) void openTrace(id);
    },
    dispose() {
      unsubscribe();
      detach();
      clearTimeout(docTimer);
      client.dispose();
    },
  };
}
