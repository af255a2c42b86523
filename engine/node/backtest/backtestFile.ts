// One file of a backtest, in the main thread or a worker: import it (any format the engine's one import
// pipeline accepts [I1]), streaming its events through both pipelines as they are read [B1]. Its differences
// are kept (up to a bound per category) or written to a file as they are found [B6].
import { rmSync } from 'node:fs';
import type { CompiledPipeline } from '../../compile/compilePipeline.ts';
import type { IdIndexFactory, RecordStore } from '../../model/idIndex.ts';
import { createFileBacktest, type BacktestFileResult } from '../../replay/backtest.ts';
import { importTraceFile } from '../readTraceFile.ts';
import { createDifferenceWriter } from './differenceFile.ts';
import type { StoreCache } from '../storeSessions.ts';

/** A file's outcome: backtested (with what the import dropped), or skipped with the reason. */
export type FileOutcome =
  | { kind: 'done'; file: string; format: string; problems: string[]; result: BacktestFileResult; differencesFile?: string }
  | { kind: 'skipped'; file: string; reason: string };

export interface BacktestFileOptions {
  /** Where the trace reader keeps the ids it has seen [T6] (the CLI spills them to a file). */
  ids?: IdIndexFactory;
  /** Where an importer keeps the records it holds to the end of a document (SWE-agent's; the CLI's spill file). */
  spool?: RecordStore;
  /** Called after each chunk read with the events replayed so far (progress). */
  onProgress?: (events: number) => void;
  /** Keep at most this many differences of each category in the result (default all) [B6]. */
  keepPerCategory?: number;
  /** Write every difference to a file in this folder (the outcome's `differencesFile`) [B6]; `tag` names the thread. */
  spill?: { folder: string; tag: string };
  /** Keeps an SQLite store open between its sessions (see engine/node/storeSessions.ts). */
  stores?: StoreCache;
}

/** Backtests one file; never throws for a file that is not a trace (it is skipped with the reason). */
export async function backtestFile(before: CompiledPipeline, after: CompiledPipeline, file: string, options: BacktestFileOptions = {}): Promise<FileOutcome> {
  const writer = options.spill ? createDifferenceWriter(options.spill.folder, options.spill.tag) : null;
  const f = createFileBacktest(before, after, {
    ...(options.keepPerCategory !== undefined ? { keepPerCategory: options.keepPerCategory } : {}),
    ...(writer ? { onDifference: writer.write } : {}),
  });
  let events = 0;
  let outcome;
  let differencesFile: string | undefined;
  try {
    outcome = await importTraceFile(file, {
      onEvent: (e) => {
        f.push(e);
        events++;
      },
      ...(options.ids ? { ids: options.ids } : {}),
      ...(options.spool ? { spool: options.spool } : {}),
      ...(options.stores ? { stores: options.stores } : {}),
      ...(options.onProgress ? { afterChunk: async () => options.onProgress!(events) } : {}),
    });
  } finally {
    differencesFile = writer?.close();
    if (!outcome && differencesFile) rmSync(differencesFile, { force: true });
  }
  if (!outcome.trace || !outcome.format) {
    if (differencesFile) rmSync(differencesFile, { force: true });
    const errors = outcome.problems.filter((p) => p.severity === 'error' || !outcome.trace);
    const reason = errors.map((p) => p.message).join('; ') || 'nothing could be read';
    return { kind: 'skipped', file, reason };
  }
  const problems = outcome.problems.map((p) => `${p.severity}: ${p.message}`);
  return { kind: 'done', file, format: outcome.format, problems, result: f.result(), ...(differencesFile ? { differencesFile } : {}) };
}
