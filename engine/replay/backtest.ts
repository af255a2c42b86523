// A backtest replays one pipeline change over many traces [B1]-[B5]. Which events differ, and how, is the
// pipeline diff's answer (createTraceDiff [R12]), never a second comparison: this file only sorts each
// difference into a category, counts, and reads what the new pipeline leaves unguarded or never uses
// (backtestCoverage.ts). Results are plain data that merge, so files can be replayed in parallel.
import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import type { Decision } from '../model/decision.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';
import type { ReplayStep } from './types.ts';
import { createCoverageProbe, type FileCoverage } from './backtestCoverage.ts';
import { createTraceDiff, type DiffChange, type DiffSide, type EventDiff } from './diffPipelines.ts';
import { checkExpectation, readExpectation, type Expectation } from './expectation.ts';

/** What kind of difference an event is [B2], in the order reports list them. */
export type BacktestCategory = 'new_block' | 'lifted_block' | 'new_ask' | 'changed_rewrite' | 'other';
export const BACKTEST_CATEGORIES: readonly BacktestCategory[] = ['new_block', 'lifted_block', 'new_ask', 'changed_rewrite', 'other'];

/** One differing event, as `hookwire diff --json` gives it plus where it is and its category. */
export interface BacktestDifference {
  event_id: string;
  type: string;
  /** The event's place in its trace, from 1 (the debugger's step number). */
  step: number;
  category: BacktestCategory;
  changes: DiffChange[];
  a: DiffSide;
  b: DiffSide;
}

/** Differing events by category [B2]; `changed` is all of them. */
export interface BacktestCounts {
  changed: number;
  new_blocks: number;
  lifted_blocks: number;
  changed_rewrites: number;
  new_asks: number;
  other: number;
}

/** A labelled step [B7] whose expected decision the new pipeline does not meet. */
export interface ViolatedLabel {
  event_id: string;
  type: string;
  step: number;
  /** The label (`meta.expect`), or null when it does not read (then `failures` says why). */
  expected: Expectation | null;
  /** What the new pipeline's step does not meet, one line each. */
  failures: string[];
  /** The old pipeline did not meet it either. */
  violated_before: boolean;
}

/** What one trace gave. */
export interface BacktestFileResult extends BacktestCounts {
  events: number;
  /** Steps labelled with an expected decision (`meta.expect`) [B7]. */
  labels: number;
  /** The labels the new pipeline violates, in trace order (complete up to MAX_VIOLATED_LABELS). */
  violated_labels: ViolatedLabel[];
  /** The differing events, in trace order (the first `maxDifferences`, or `keepPerCategory` of each category, when capped; the counts are complete). */
  differences: BacktestDifference[];
  coverage: FileCoverage;
}

export interface FileBacktestOptions {
  /** Keep at most this many differences in the result (default all). */
  maxDifferences?: number;
  /**
   * Keep at most this many differences of each category (default all): what a report shows of a file whose
   * every event differs, in memory that does not grow with the file [B6].
   */
  keepPerCategory?: number;
  /** Sees each difference as it is found (a CLI streams them instead of keeping them). */
  onDifference?: (d: BacktestDifference) => void;
}

export interface FileBacktest {
  push(event: TraceEvent): BacktestDifference | null;
  result(): BacktestFileResult;
}

/** Violated labels kept per file (labels are set by people, so this is a guard, not a working limit). */
export const MAX_VIOLATED_LABELS = 1000;

const BLOCKS: ReadonlySet<Decision> = new Set<Decision>(['block_action', 'terminate']);

/**
 * The category of a difference [B2]: a new block (the decision BLOCK_ACTION or TERMINATE in the new version and
 * neither in the old), a lifted block (the reverse), a new ask, a changed rewrite (final payloads differ), else other.
 * `backtestCategory({changes: ['outcome'], before: {decision: 'continue'}, after: {decision: 'terminate'}})` → 'new_block'
 */
export function backtestCategory(d: { changes: readonly DiffChange[]; before: { decision: Decision }; after: { decision: Decision } }): BacktestCategory {
  // The decision, not the outcome: a step after the run ended answers TERMINATE [R4], so it is still blocked.
  const was = BLOCKS.has(d.before.decision);
  const is = BLOCKS.has(d.after.decision);
  if (is && !was) return 'new_block';
  if (was && !is) return 'lifted_block';
  if (d.after.decision === 'ask' && d.before.decision !== 'ask') return 'new_ask';
  if (d.changes.includes('payload')) return 'changed_rewrite';
  return 'other';
}

/** Zero counts. */
export function emptyCounts(): BacktestCounts {
  return { changed: 0, new_blocks: 0, lifted_blocks: 0, changed_rewrites: 0, new_asks: 0, other: 0 };
}

const COUNT_OF: Record<BacktestCategory, Exclude<keyof BacktestCounts, 'changed'>> = {
  new_block: 'new_blocks',
  lifted_block: 'lifted_blocks',
  new_ask: 'new_asks',
  changed_rewrite: 'changed_rewrites',
  other: 'other',
};

/** Counts one difference of `category` into `counts`. */
export function countDifference(counts: BacktestCounts, category: BacktestCategory): void {
  counts.changed++;
  counts[COUNT_OF[category]]++;
}

/** Adds `from` into `into`. */
export function addCounts(into: BacktestCounts, from: BacktestCounts): void {
  into.changed += from.changed;
  into.new_blocks += from.new_blocks;
  into.lifted_blocks += from.lifted_blocks;
  into.changed_rewrites += from.changed_rewrites;
  into.new_asks += from.new_asks;
  into.other += from.other;
}

/** A pipeline diff's event difference as a backtest difference. */
export function toBacktestDifference(e: EventDiff): BacktestDifference {
  return { event_id: e.event_id, type: e.type, step: e.index + 1, category: backtestCategory(e), changes: e.changes, a: e.before, b: e.after };
}

/**
 * Backtests one trace, fed an event at a time: both pipelines replayed by the pipeline diff [R12][B1], each
 * difference categorised [B2], the new pipeline's coverage probed [B4].
 * `const f = createFileBacktest(old, next); for (const e of events) f.push(e); f.result().new_blocks`
 */
export function createFileBacktest(before: CompiledPipeline, after: CompiledPipeline, options: FileBacktestOptions = {}): FileBacktest {
  const probe = createCoverageProbe(after);
  let labels = 0;
  const violated: ViolatedLabel[] = [];
  // A label is checked on both steps of its event, as the diff sees them [B7].
  const checkLabel = (x: ReplayStep, y: ReplayStep) => {
    const read = readExpectation(y.event);
    if (read.kind === 'none') return;
    labels++;
    const failures = read.kind === 'ok' ? checkExpectation(read.expectation, y) : [read.message];
    if (failures.length === 0 || violated.length >= MAX_VIOLATED_LABELS) return;
    const before = read.kind === 'ok' ? checkExpectation(read.expectation, x).length > 0 : true;
    violated.push({ event_id: y.event.event_id, type: y.event.type, step: y.index + 1, expected: read.kind === 'ok' ? read.expectation : null, failures, violated_before: before });
  };
  // The diff keeps no list here: differences are kept (up to the cap) in backtest form only.
  const diff = createTraceDiff(before, after, {
    maxChanged: 0,
    observe: (x, y) => {
      probe.observe(y);
      checkLabel(x, y);
    },
  });
  const max = options.maxDifferences ?? Infinity;
  const perCategory = options.keepPerCategory ?? Infinity;
  const counts = emptyCounts();
  const kept: BacktestDifference[] = [];
  const keptOf = new Map<BacktestCategory, number>();
  return {
    push(event) {
      const e = diff.push(event);
      if (!e) return null;
      const d = toBacktestDifference(e);
      countDifference(counts, d.category);
      const ofCategory = keptOf.get(d.category) ?? 0;
      if (kept.length < max && ofCategory < perCategory) {
        kept.push(d);
        keptOf.set(d.category, ofCategory + 1);
      }
      options.onDifference?.(d);
      return d;
    },
    result() {
      const r = diff.result();
      // One implementation of "differs": the diff's own count must be ours [B1].
      if (r.changed_count !== counts.changed) throw new Error(`backtest: counted ${counts.changed} differences, the diff ${r.changed_count}`);
      return { events: r.events, ...counts, labels, violated_labels: violated, differences: kept, coverage: probe.result() };
    },
  };
}
