import { createBacktestService, type BacktestService, type MakeBacktestWorker } from './backtest/backtestService.ts';
import { createPlayback, type Playback } from './debugger/playback.ts';
import { createBreakpointStops } from './debugger/breakpointStops.ts';
import { startDebugSessionSync } from './debugger/debugSessionSync.ts';
import { createLiveSession, type LiveSession } from './debugger/liveSession.ts';
import type { MakeWorker } from './debugger/replayClient.ts';
import { createReplayService, type ReplayService } from './debugger/replayService.ts';
import { createTraceCommands, type TraceCommands } from './debugger/traceCommands.ts';
import type { HookwireDb } from './persistence/db.ts';
import { startTraceLibrary } from './persistence/startTraceLibrary.ts';
import { createWorkspace, type Workspace } from './persistence/workspace.ts';
import { startCodeCheck, type CheckFn } from './problems/codeCheck.ts';
import { startLintScheduler } from './problems/lintScheduler.ts';
import { startUnloadGuard } from './services/unloadGuard.ts';
import { startUrlSync } from './services/urlSync.ts';
import { createNodeRunner, type NodeRunner } from './services/nodeRunner.ts';
import { useApp, type AppStore } from './store/appStore.ts';

/**
 * The composition root: every effect service of the app, created once, each handed the store and the
 * database instead of importing singletons. Components reach them through `useServices()`
 * (web/services/AppServices.tsx); unit tests call `startApp` with a store of their own and a fake worker.
 */
export interface AppServices {
  store: AppStore;
  db: HookwireDb;
  workspace: Workspace;
  replay: ReplayService;
  playback: Playback;
  traces: TraceCommands;
  /** The live view of a running `hookwire serve`. */
  live: LiveSession;
  /** The Backtest view's runs (a worker of their own) and its drill-down into the debugger. */
  backtest: BacktestService;
  /** The editor's "Run node": one node alone on the selected step or a typed event [X7]. */
  nodeRunner: NodeRunner;
  /** Settles when the workspace and the trace library have started (the first pipeline is open). */
  ready: Promise<void>;
  stop(): void;
}

export interface StartOptions {
  store?: AppStore;
  /** The sandbox worker's code check (tests pass one on a Node sandbox). */
  codeCheck?: CheckFn;
  sendDelayMs?: number;
  /** The backtest worker (tests pass a fake; the default is the real one, made only when a run starts). */
  makeBacktestWorker?: MakeBacktestWorker;
}

export function startApp(db: HookwireDb, makeWorker: MakeWorker, options: StartOptions = {}): AppServices {
  const store = options.store ?? useApp;
  const library = startTraceLibrary(db);
  const librarySettled = library.started.catch(() => null);
  const workspace = createWorkspace(store, db);
  const replay = createReplayService({ store, db, makeWorker, libraryStarted: () => librarySettled, sendDelayMs: options.sendDelayMs });
  // Before the first trace opens, so its breakpoints and pinned version are restored.
  const stopSessionSync = startDebugSessionSync({ store, db, runCompare: () => void replay.runCompare(), unpin: replay.unpin });
  const stopLint = startLintScheduler(store);
  const stopCodeCheck = startCodeCheck(store, options.codeCheck);
  const breakpointStops = createBreakpointStops(store, replay);
  const playback = createPlayback(store, replay, breakpointStops);
  const traces = createTraceCommands(store, db, replay, workspace.newPipeline);
  const stopUnloadGuard = typeof window === 'undefined' ? () => undefined : startUnloadGuard(store, window, () => void workspace.flushSave());
  const live = createLiveSession(store, db, replay, workspace);
  const backtest = createBacktestService(store, db, replay, options.makeBacktestWorker);
  // A step's run is the replay worker's: it has the step's state before it (flow memory included) [X7].
  const nodeRunner = createNodeRunner(store, (index, nodeId, doc) => replay.client.request({ kind: 'runNode', index, nodeId, doc }).then((a) => a.value));
  const ready = Promise.all([workspace.start(), librarySettled]).then(() => undefined);
  // The place (mode, pipeline, trace, step) lives in the URL once the first pipeline is open.
  let stopUrlSync = () => undefined as void;
  let stopped = false;
  if (typeof window !== 'undefined') {
    // A mode chosen while the app starts (Debug clicked before the trace library is up) is kept.
    let modeChosen = false;
    const stopWatch = store.subscribe((s, prev) => {
      if (s.mode !== prev.mode) modeChosen = true;
    });
    void ready.then(() => {
      stopWatch();
      if (!stopped) stopUrlSync = startUrlSync({ store, openPipeline: workspace.openPipeline, openTrace: replay.openTrace, goTo: replay.goTo, window, modeChosen });
    });
  }
  return {
    store, db, workspace, replay, playback, traces, live, backtest, nodeRunner, ready,
    stop() {
      stopped = true;
      stopUrlSync();
      void live.disconnect();
      backtest.dispose();
      playback.pause();
      playback.dispose();
      breakpointStops.dispose();
      stopUnloadGuard();
      stopCodeCheck();
      stopLint();
      stopSessionSync();
      replay.dispose();
      workspace.dispose();
      library.stop();
    },
  };
}
