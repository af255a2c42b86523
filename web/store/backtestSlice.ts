import type { StateCreator } from 'zustand';
import type { BacktestReport } from '../../engine/app.ts';
import type { AppState } from './appStore.ts';

/**
 * The Backtest view's slice of the app store: the traces picked, the run in flight (with its progress) and
 * its result. The run itself (the worker, cancel) is web/backtest/backtestService.ts.
 */
export interface BacktestProgress {
  traces: number;
  events: number;
  totalTraces: number;
  totalEvents: number;
}

export type BacktestRun =
  | { status: 'idle' }
  | { status: 'running'; progress: BacktestProgress | null }
  | { status: 'done'; report: BacktestReport; traceIds: string[]; oldSeq: BacktestOld; at: number }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string };

/** What the current pipeline is compared with: a history version (its seq), or no pipeline at all [B1]. */
export type BacktestOld = number | 'none';

export interface BacktestData {
  /**
   * Ids of the library traces picked for the next run, in library order. Until the person picks, every trace of
   * the library (a backtest asks what a change does to the sessions on hand; none picked offered no run at all).
   */
  backtestTraces: string[];
  /** Whether the person has picked (a check box, All shown, None): then the library's new traces are not added. */
  backtestTracesChosen: boolean;
  /** What the current pipeline is compared with; null: the last export, else the newest version that differs, else none. */
  backtestOldSeq: BacktestOld | null;
  backtest: BacktestRun;
}

export interface BacktestActions {
  /** The person's pick. */
  setBacktestTraces(ids: string[]): void;
  /** The library's traces as they are now, picked while the person has not picked (else nothing changes). */
  defaultBacktestTraces(ids: string[]): void;
  setBacktestOld(old: BacktestOld | null): void;
  backtestStarted(): void;
  backtestProgressed(progress: BacktestProgress): void;
  backtestDone(report: BacktestReport, traceIds: string[], oldSeq: BacktestOld): void;
  backtestEnded(run: Extract<BacktestRun, { status: 'cancelled' | 'failed' }>): void;
}

export type BacktestSlice = BacktestData & BacktestActions;

export const createBacktestSlice: StateCreator<AppState, [], [], BacktestSlice> = (set, get) => ({
  backtestTraces: [],
  backtestTracesChosen: false,
  backtestOldSeq: null,
  backtest: { status: 'idle' },
  setBacktestTraces: (backtestTraces) => set({ backtestTraces, backtestTracesChosen: true }),
  defaultBacktestTraces: (ids) => {
    const now = get().backtestTraces;
    if (!get().backtestTracesChosen && (ids.length !== now.length || ids.some((id, i) => id !== now[i]))) set({ backtestTraces: ids });
  },
  setBacktestOld: (backtestOldSeq) => set({ backtestOldSeq }),
  backtestStarted: () => set({ backtest: { status: 'running', progress: null } }),
  backtestProgressed: (progress) => {
    if (get().backtest.status === 'running') set({ backtest: { status: 'running', progress } });
  },
  backtestDone: (report, traceIds, oldSeq) => set({ backtest: { status: 'done', report, traceIds, oldSeq, at: Date.now() } }),
  backtestEnded: (backtest) => set({ backtest }),
});

export const selectBacktest = (s: AppState) => s.backtest;
