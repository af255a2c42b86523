import { emptyPipeline, type BacktestReport, type Pipeline } from '../../engine/app.ts';
import type { HookwireDb } from '../persistence/db.ts';
import { loadDebugSession, saveDebugSession } from '../persistence/debugSession.ts';
import { listTraces } from '../persistence/traceLibrary.ts';
import { listVersions, type PipelineVersion } from '../persistence/versionHistory.ts';
import { documentForEditor } from '../model/editorDocument.ts';
import type { ReplayService } from '../debugger/replayService.ts';
import type { AppStore } from '../store/appStore.ts';
import type { BacktestRequest, BacktestWorkerMessage } from './backtestProtocol.ts';

/** The page's side of a backtest worker (tests pass a fake). */
export interface BacktestWorkerLike {
  postMessage(request: BacktestRequest): void;
  onmessage: ((e: MessageEvent<BacktestWorkerMessage>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
  terminate(): void;
}
export type MakeBacktestWorker = () => BacktestWorkerLike;

export const makeBacktestWorker: MakeBacktestWorker = () =>
  new Worker(new URL('./backtestWorker.ts', import.meta.url), { type: 'module', name: 'hookwire-backtest' }) as unknown as BacktestWorkerLike;

/**
 * The Backtest view's effects [B1]-[B4]: runs the open pipeline against one of its earlier versions over the
 * traces picked from the library, in a worker of its own (cancel terminates it, so nothing keeps running),
 * and opens a differing step in the debugger with Compare pinned to the old version.
 */
export interface BacktestService {
  /** Runs the open pipeline (new) against `old` over the picked traces: a version, or 'none' (no pipeline) [B1]. */
  run(old: PipelineVersion | 'none'): Promise<void>;
  cancel(): void;
  /** Opens the debugger at `step` (1-based) of a stored trace, comparing with the old version of the last run. */
  openStep(traceId: string, step: number): Promise<void>;
  dispose(): void;
}

/** The report's name for the empty baseline (the CLI's `hookwire backtest none new …`) [B1]. */
export const NO_PIPELINE = 'no pipeline';

export function createBacktestService(store: AppStore, db: HookwireDb, replay: ReplayService, makeWorker: MakeBacktestWorker = makeBacktestWorker): BacktestService {
  const s = () => store.getState();
  let worker: BacktestWorkerLike | null = null;
  /** The old version of the last run: what a drill-down pins. */
  let lastOld: { doc: Pipeline; name: string; at: number } | null = null;

  const stop = () => {
    worker?.terminate();
    worker = null;
  };

  return {
    async run(oldVersion) {
      stop();
      const doc = s().doc;
      const opened = oldVersion === 'none' ? { ok: true as const, doc: emptyPipeline(NO_PIPELINE) } : documentForEditor(oldVersion.doc);
      if (!doc || !opened.ok) {
        s().backtestEnded({ status: 'failed', message: !doc ? 'No pipeline is open.' : 'That version of the pipeline cannot be read.' });
        return;
      }
      const picked = new Set(s().backtestTraces);
      const traces = (await listTraces(db)).filter((t) => picked.has(t.id) && t.status === 'ready');
      if (traces.length === 0) {
        s().backtestEnded({ status: 'failed', message: 'Pick at least one trace.' });
        return;
      }
      const oldName = oldVersion === 'none' ? NO_PIPELINE : oldVersion.label ?? (oldVersion.exported_at !== undefined
        ? `${oldVersion.name} as exported at ${new Date(oldVersion.exported_at).toLocaleTimeString('en-GB')}`
        : `${oldVersion.name} at ${new Date(oldVersion.at).toLocaleTimeString('en-GB')}`);
      lastOld = { doc: opened.doc, name: oldName, at: oldVersion === 'none' ? Date.now() : oldVersion.at };
      const request: BacktestRequest = {
        old: { doc: opened.doc, name: oldName },
        next: { doc, name: `${doc.name} (current)` },
        traces: traces.map((t) => ({ id: t.id, name: t.name, format: t.source_format, event_count: t.event_count, chunk_size: t.chunk_size })),
      };
      const w = makeWorker();
      worker = w;
      s().backtestStarted();
      w.onmessage = (e) => {
        if (worker !== w) return;
        const m = e.data;
        if (m.kind === 'progress') s().backtestProgressed(m);
        else {
          stop();
          if (m.kind === 'done') s().backtestDone(m.report, m.traceIds, oldVersion === 'none' ? 'none' : oldVersion.seq ?? -1);
          else s().backtestEnded({ status: 'failed', message: m.message });
        }
      };
      w.onerror = (e) => {
        if (worker !== w) return;
        stop();
        s().backtestEnded({ status: 'failed', message: `The backtest worker failed: ${e.message || 'no message'}` });
      };
      w.postMessage(request);
    },
    cancel() {
      if (!worker) return;
      stop();
      s().backtestEnded({ status: 'cancelled' });
    },
    async openStep(traceId, step) {
      const pipelineId = s().pipelineId;
      if (!lastOld || !pipelineId) return;
      const pinned = lastOld;
      if (s().traceId === traceId) replay.compareWith(pinned);
      else {
        // Stored first, so the trace's own session, restored as it opens, is the one pinned to the old version.
        const stored = await loadDebugSession(db, traceId, pipelineId);
        await saveDebugSession(db, traceId, pipelineId, { breakpoints: stored.ok ? stored.session.breakpoints : [], pinned });
        await replay.openTrace(traceId);
      }
      s().setMode('debug');
      // The keyboard that opened the row lands on the same step's row in Compare (it was left on the page's body).
      s().focusCompareRow(step - 1);
      replay.goTo(step - 1);
    },
    dispose: stop,
  };
}

/** The versions a run can compare with: the pipeline's history, newest first, without the one equal to `doc`. */
export async function earlierVersions(db: HookwireDb, pipelineId: string, doc: Pipeline | null): Promise<PipelineVersion[]> {
  const all = await listVersions(db, pipelineId);
  const now = JSON.stringify(doc);
  return all.filter((v) => JSON.stringify(v.doc) !== now);
}

/** Downloads a report the person saves (markdown for a pull request, or the self-contained HTML page). */
export function reportFileName(report: BacktestReport, kind: 'md' | 'html'): string {
  const safe = report.new.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'pipeline';
  return `backtest-${safe}.${kind}`;
}
