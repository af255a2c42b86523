// The backtest's document [B3]: what `hookwire backtest --json` prints, what the markdown and HTML reports and
// the app's Backtest view render. Plain data with a format name and version (engine/schema/backtest.v1.schema.json).
import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import { addCounts, BACKTEST_CATEGORIES, emptyCounts, type BacktestCounts, type BacktestDifference, type BacktestFileResult, type ViolatedLabel } from './backtest.ts';
import { createCorpusCoverage, type CorpusCoverage } from './backtestCoverage.ts';

export const BACKTEST_FORMAT = 'hookwire.backtest';
export const BACKTEST_VERSION = 1;

/** One backtested file. */
export interface BacktestFileEntry extends BacktestCounts {
  /** As walked from the argument. */
  file: string;
  /** The format it was imported as. */
  format: string;
  events: number;
  /** What the import dropped or warned about (a partial import is backtested over what was read). */
  problems: string[];
  /** Steps labelled with an expected decision [B7]. */
  labels: number;
  violated_labels: ViolatedLabel[];
  differences: BacktestDifference[];
}

/** A file that could not be imported, and why [B1]. */
export interface BacktestSkipped {
  file: string;
  reason: string;
}

export interface BacktestTotal extends BacktestCounts {
  files: number;
  events: number;
  skipped: number;
  labels: number;
  labels_violated: number;
}

export interface BacktestReport extends CorpusCoverage {
  format: typeof BACKTEST_FORMAT;
  version: typeof BACKTEST_VERSION;
  /** The two pipelines as named by the caller (file paths in the CLI). */
  old: string;
  new: string;
  files: BacktestFileEntry[];
  skipped: BacktestSkipped[];
  total: BacktestTotal;
}

/** The document without its file list: what is known only at the end. */
export type BacktestTail = Omit<BacktestReport, 'files'>;

export interface BacktestCorpus {
  /** Adds a backtested file; returns its entry (differences as given, which may be a capped list). */
  add(file: string, format: string, problems: string[], result: BacktestFileResult): BacktestFileEntry;
  skip(file: string, reason: string): void;
  /** Totals, skipped files and coverage so far. */
  tail(): BacktestTail;
}

/**
 * Gathers files into a report [B3]; the entries themselves are the caller's to keep or stream.
 * `const c = createBacktestCorpus(next, 'old.json', 'new.json'); c.add(...); ({...c.tail(), files})`
 */
export function createBacktestCorpus(after: CompiledPipeline, oldName: string, newName: string): BacktestCorpus {
  const coverage = createCorpusCoverage(after);
  const total: BacktestTotal = { files: 0, events: 0, skipped: 0, labels: 0, labels_violated: 0, ...emptyCounts() };
  const skipped: BacktestSkipped[] = [];
  return {
    add(file, format, problems, r) {
      total.files++;
      total.events += r.events;
      total.labels += r.labels;
      total.labels_violated += r.violated_labels.length;
      addCounts(total, r);
      coverage.add(r.coverage);
      const { coverage: _c, events, differences, labels, violated_labels, ...counts } = r;
      return { file, format, events, problems, ...counts, labels, violated_labels, differences };
    },
    skip(file, reason) {
      total.skipped++;
      skipped.push({ file, reason });
    },
    tail() {
      return { format: BACKTEST_FORMAT, version: BACKTEST_VERSION, old: oldName, new: newName, skipped: [...skipped], total: { ...total }, ...coverage.result() };
    },
  };
}

/** A difference with the file it is in. */
export interface LocatedDifference extends BacktestDifference {
  file: string;
}

/**
 * The `limit` differences a person should see first: new blocks, then lifted blocks, new asks, changed
 * rewrites, other; in file and step order within a category.
 */
export function topDifferences(files: readonly BacktestFileEntry[], limit: number): LocatedDifference[] {
  const out: LocatedDifference[] = [];
  for (const category of BACKTEST_CATEGORIES) {
    for (const f of files) {
      for (const d of f.differences) {
        if (out.length >= limit) return out;
        if (d.category === category) out.push({ ...d, file: f.file });
      }
    }
  }
  return out;
}
