import type { BacktestReport, Pipeline } from '../../engine/app.ts';

/** A stored trace as the backtest worker reads it (persistence/storedTrace.ts). */
export interface BacktestTraceRef {
  id: string;
  name: string;
  format: string;
  event_count: number;
  chunk_size: number;
}

/** The page asks the backtest worker for one run; a new run needs a new worker (cancel terminates it). */
export interface BacktestRequest {
  old: { doc: Pipeline; name: string };
  next: { doc: Pipeline; name: string };
  traces: BacktestTraceRef[];
}

/** What a report keeps of each category per trace (the counts are complete) [B6]. */
export const KEEP_PER_CATEGORY = 200;

export type BacktestWorkerMessage =
  | { kind: 'progress'; traces: number; events: number; totalTraces: number; totalEvents: number }
  /** `traceIds[i]` is the stored trace of `report.files[i]` (names need not be unique). */
  | { kind: 'done'; report: BacktestReport; traceIds: string[] }
  /** A pipeline that does not load, or a worker failure: nothing was backtested. */
  | { kind: 'failed'; message: string };
