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
  /** Ids of the library traces picked for the next run, in library order. */
  backtestTraces: string[];
  /** What the current pipeline is compared with; null: the last export, else the newest version that differs, else none. */
  backtestOldSeq: BacktestOld | null;
  backtest: BacktestRun;
}

export interface BacktestActions {
  setBacktestTraces(ids: string[]): void;
  setBacktestOld(old: BacktestOld | null): void;
  backtestStarted(): void;
  backtestProgressed(progress: BacktestProgress): void;
  backtestDone(report: BacktestReport, traceIds: string[], oldSeq: BacktestOld): void;
  backtestEnded(run: Extract<BacktestRun, { status: 'cancelled' | 'failed' }>): void;
}

export type BacktestSlice = BacktestData & BacktestActions;

export const createBacktestSlice: StateCreator<AppState, [], [], BacktestSlice> = (set, get) => ({
  backtestTraces: [],
  backtestOldSeq: null,
  backtest: { status: 'idle' },
  setBacktestTraces: (backtestTraces) => set({ backtestTraces }),
  setBacktestOld: (backtestOldSeq) => set({ backtestOldSeq }),
  backtestStarted: () => set({ backtest: { status: 'running', progress: null } }),
  backtestProgressed: (progress) => {
    if (get().backtest.status === 'running') set({ backtest: { status: 'running', progress } });
  },
  backtestDone: (report, traceIds, oldSeq) => set({ backtest: { status: 'done', report, traceIds, oldSeq, at: Date.now() } }),
  backtestEnded: (backtest) => set({ backtest }),
});

export const selectBacktest = (s: AppState) => s.backtest;
