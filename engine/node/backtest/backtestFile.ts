// One file of a backtest, in the main thread or a worker: import it (any format the engine's one import
// pipeline accepts [I1]), streaming its events through both pipelines as they are read [B1].
import type { CompiledPipeline } from '../../compile/compilePipeline.ts';
import type { IdIndexFactory } from '../../model/idIndex.ts';
import { createFileBacktest, type BacktestFileResult } from '../../replay/backtest.ts';
import { importTraceFile } from '../readTraceFile.ts';

/** A file's outcome: backtested (with what the import dropped), or skipped with the reason. */
export type FileOutcome =
  | { kind: 'done'; file: string; format: string; problems: string[]; result: BacktestFileResult }
  | { kind: 'skipped'; file: string; reason: string };

export interface BacktestFileOptions {
  ids?: IdIndexFactory;
  /** Called after each chunk read with the events replayed so far (progress). */
  onProgress?: (events: number) => void;
}

/** Backtests one file; never throws for a file that is not a trace (it is skipped with the reason). */
export async function backtestFile(before: CompiledPipeline, after: CompiledPipeline, file: string, options: BacktestFileOptions = {}): Promise<FileOutcome> {
  const f = createFileBacktest(before, after, options.ids ? { ids: options.ids } : {});
  let events = 0;
  const outcome = await importTraceFile(file, {
    onEvent: (e) => {
      f.push(e);
      events++;
    },
    ...(options.ids ? { ids: options.ids } : {}),
    ...(options.onProgress ? { afterChunk: async () => options.onProgress!(events) } : {}),
  });
  const errors = outcome.problems.filter((p) => p.severity === 'error' || !outcome.trace);
  if (!outcome.trace || !outcome.format) {
    const reason = errors.map((p) => p.message).join('; ') || 'nothing could be read';
    return { kind: 'skipped', file, reason };
  }
  return { kind: 'done', file, format: outcome.format, problems: outcome.problems.map((p) => `${p.severity}: ${p.message}`), result: f.result() };
}
