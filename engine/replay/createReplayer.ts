import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';
import { coverageOf, type TraceCoverage } from './coverageOf.ts';
import { createActivityBuilder, type ReplayActivity } from './replayActivity.ts';
import { toEventSource } from './replaySteps.ts';
import { createTimelineBuilder } from './replayTimeline.ts';
import { createRepeatWindow } from './repeatWindow.ts';
import { createReplayContext, stepEvent, type EarlierResult } from './stepEvent.ts';
import { needsActivity, stepPredicate } from './stepQuery.ts';
import { breakpointHolds, breakpointPrefilter, hitStops, type CompiledBreakpoint } from './breakpoint.ts';
import { stepFilterHits, type CompiledStepFilter } from './stepFilter.ts';
import { OUTCOMES, STEP_FLAG, type EventSource, type ReplayCarry, type ReplayOptions, type ReplayStep, type ReplayTimeline, type StepQuery } from './types.ts';

/**
 * Checkpoint interval: one carry every K events. A carry is a reference to immutable state, so memory is
 * not the limit; K bounds the fast dispatches a jump replays, and for the async replayer it is the chunk
 * fetched from the store. Measured (test/bench/replay.bench.ts, 100k events, 100 handlers): mean jump
 * 0.07 ms at K=16, 0.45 ms at 256, 6.9 ms at 4096 (max 23 ms), all far under the 50 ms goal; 256 keeps a
 * jump near half a millisecond while a 100k-event trace needs only ~400 chunk reads from IndexedDB.
 */
export const DEFAULT_CHECKPOINT_EVERY = 256;

export interface ReplayerOptions extends ReplayOptions {
  /** Keep the carry every K events (default `DEFAULT_CHECKPOINT_EVERY`). */
  checkpointEvery?: number;
  /** Explained steps kept for going back and forth (default 64). */
  cacheSize?: number;
}

export interface FindOptions {
  /** Search starts after this index (before it, backward); default: the cursor position. */
  from?: number;
  direction?: 'forward' | 'backward';
}

/** Random access to a replay [R9]-[R11]: any step, explained, at the cost of at most K fast dispatches. */
export interface Replayer {
  readonly count: number;
  readonly checkpointEvery: number;
  /** Steps the fast pass has computed so far; the timeline is complete when this equals `count`. */
  readonly computed: number;
  /** Steps the explain pass has analysed so far (for `activity`, `coverage` and the `fired` query). */
  readonly analyzed: number;
  /** Step `index` with its explanation; the same as the straight replay's step [R9]. */
  step(index: number): ReplayStep;
  /** The cursor: starts at 0. */
  readonly position: number;
  current(): ReplayStep | null;
  /** Moves the cursor one step on; null (and no move) at the end. */
  forward(): ReplayStep | null;
  /** Moves the cursor one step back; null (and no move) at the start. */
  back(): ReplayStep | null;
  jump(index: number): ReplayStep;
  /** Runs the fast pass up to `limit` steps (default all); returns `computed`. */
  advance(limit?: number): number;
  /** The compact timeline of every step (runs the fast pass to the end once) [R10]. */
  timeline(): ReplayTimeline;
  /** The timeline as far as the fast pass has gone: entries from `computed` on are not filled yet. */
  timelineSoFar(): ReplayTimeline;
  /** Runs the explain pass up to `limit` steps (default all); returns `analyzed`. */
  analyze(limit?: number): number;
  /** Which handlers ran on each step (runs the explain pass to the end once). */
  activity(): ReplayActivity;
  /** The next (or previous) step that matches, or -1 [R11]. */
  find(query: StepQuery, options?: FindOptions): number;
  /** Every step that matches, in order. */
  stepsWhere(query: StepQuery): Int32Array;
  /** Which handlers fired, which never did, which event types had no live handler [R13]. */
  coverage(): TraceCoverage;
  /** The steps in `[start, end)` that are hits of the breakpoint, before its hit count [R18]. */
  breakpointHits(b: CompiledBreakpoint, start?: number, end?: number): number[];
  /** Every step the breakpoint stops at, in order: its hits, then its hit count [R18]. */
  breakpointSteps(b: CompiledBreakpoint): Int32Array;
  /** The steps in `[start, end)` the timeline filter keeps [R20], in order. */
  filterHits(f: CompiledStepFilter, start?: number, end?: number): number[];
  /**
   * Forgets what it holds of event `index` after that event changed in its `meta.expect` only (a label was
   * written): labels are never dispatched [R19], so no decision, state or timeline entry changes and nothing
   * is replayed; the next `step(index)` reads the event again from the source.
   */
  relabel(index: number): void;
}

const SEARCH_CHUNK = 4096;

/** What a repeated ASK's answer is, for the carry of a duplicate read from the timeline [R15]. */
const DENIED_LITE = Object.freeze({ answer: 'deny' as const, by: 'unrecorded' as const });
const ALLOWED_LITE = Object.freeze({ answer: 'allow' as const, by: 'approver' as const });

/**
 * A replayer over an array or an `EventSource`. The fast pass runs lazily as far as a request needs, keeping
 * a checkpoint every K events and filling the timeline; a step is explained only when asked for.
 * `const r = createReplayer(compiled, trace.events); r.jump(r.find({ kind: 'blocked' }, { from: -1 }))`
 */
export function createReplayer(compiled: CompiledPipeline, events: readonly TraceEvent[] | EventSource, options: ReplayerOptions = {}): Replayer {
  const source = toEventSource(events);
  const count = source.count;
  const K = options.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY;
  if (!Number.isInteger(K) || K < 1) throw new RangeError(`checkpointEvery must be a positive integer, got ${String(K)}`);
  const cacheSize = Math.max(1, options.cacheSize ?? 64);
  const ctx = createReplayContext(compiled, options);
  const tl = createTimelineBuilder(compiled, count);
  const t = tl.timeline;
  const checkpoints: ReplayCarry[] = [];
  // [E5][R5] the steps a repeated id is answered from: the latest REPEAT_WINDOW dispatches.
  const seen = createRepeatWindow<number>();
  let frontier = 0;
  let frontierCarry = ctx.initialCarry;
  const act = createActivityBuilder(compiled, count);
  let analyzed = 0;
  let analysisCarry = ctx.initialCarry;
  let rolling: { index: number; carry: ReplayCarry } | null = null;
  const cache = new Map<number, ReplayStep>();
  let position = 0;

  const inRange = (i: number): void => {
    if (!Number.isInteger(i) || i < 0 || i >= count) throw new RangeError(`step ${String(i)} is out of range: the trace has ${count} events (0..${count - 1})`);
  };

  /** A duplicate's earlier result as the timeline knows it: enough for the carry, not for display. */
  const earlierLite = (i: number): EarlierResult | null => {
    const d = t.duplicate_of[i]!;
    if (d < 0) return null;
    const by = t.decided_by[d]!;
    const decision = OUTCOMES[t.outcome[d]!]!;
    if (decision === 'not_reached') throw new Error(`replay: step ${i} repeats step ${d}, which was not dispatched`);
    const mode = (t.flags[d]! & STEP_FLAG.async) !== 0 ? 'async' : 'sync';
    // The carry needs only whether the repeated answer blocks: the timeline's `denied` flag keeps that [R15].
    const approval = decision === 'ask' && mode === 'sync' ? ((t.flags[d]! & STEP_FLAG.denied) !== 0 ? DENIED_LITE : ALLOWED_LITE) : null;
    return { index: d, decision, reason: '', decided_by: by < 0 ? null : t.handler_ids[by]!, payload: null, mode, approval, context: [] };
  };

  /** Computes step `frontier` for the fast pass: checkpoint, duplicate detection, timeline [R9][R10]. */
  const frontierStep = (explain: boolean): ReturnType<typeof stepEvent> => {
    if (frontier % K === 0) checkpoints[frontier / K] = frontierCarry;
    const e = source.get(frontier);
    const first = seen.get(e.event_id);
    // [R5] only a dispatched event answers for its id later (the session records nothing else).
    if (first !== undefined) t.duplicate_of[frontier] = first;
    const out = stepEvent(ctx, frontierCarry, e, frontier, first === undefined ? null : earlierLite(frontier), explain);
    if (first === undefined && !out.step.not_reached) seen.add(e.event_id, frontier);
    tl.record(out.step, out.carry);
    frontierCarry = out.carry;
    frontier++;
    return out;
  };

  const advance = (limit = count): number => {
    const end = Math.min(limit, count);
    while (frontier < end) frontierStep(false);
    return frontier;
  };

  /** The carry before step `i` (i < frontier): from the nearest checkpoint or the last carry used, in fast mode. */
  const carryBefore = (i: number): ReplayCarry => {
    let start = Math.floor(i / K) * K;
    let carry = checkpoints[start / K]!;
    if (rolling && rolling.index <= i && rolling.index > start) {
      start = rolling.index;
      carry = rolling.carry;
    }
    for (let j = start; j < i; j++) carry = stepEvent(ctx, carry, source.get(j), j, earlierLite(j), false).carry;
    return carry;
  };

  const earlierFull = (i: number): EarlierResult | null => {
    const d = t.duplicate_of[i]!;
    if (d < 0) return null;
    const s = stepEvent(ctx, carryBefore(d), source.get(d), d, null, false).step;
    return { index: d, decision: s.decision, reason: s.reason, decided_by: s.decided_by, payload: s.payload_after, mode: s.mode, approval: s.approval, context: s.context };
  };

  const step = (i: number): ReplayStep => {
    inRange(i);
    const hit = cache.get(i);
    if (hit) {
      cache.delete(i); // LRU: re-insert as the newest
      cache.set(i, hit);
      return hit;
    }
    advance(i + 1);
    const carry = carryBefore(i);
    const out = stepEvent(ctx, carry, source.get(i), i, earlierFull(i), true);
    rolling = { index: i + 1, carry: out.carry };
    cache.set(i, out.step);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
    return out.step;
  };

  const analyze = (limit = count): number => {
    const end = Math.min(limit, count);
    while (analyzed < end) {
      const i = analyzed;
      // At the frontier one explained step serves both passes (explain mode reaches the same result [X5]).
      const out = i === frontier ? frontierStep(true) : stepEvent(ctx, analysisCarry, source.get(i), i, earlierLite(i), true);
      act.record(i, out.explanation);
      analysisCarry = out.carry;
      analyzed++;
    }
    return analyzed;
  };

  const find = (query: StepQuery, o: FindOptions = {}): number => {
    const backward = o.direction === 'backward';
    const from = o.from ?? position;
    const deep = needsActivity(query);
    if (backward) {
      const hi = Math.min(from, count) - 1;
      if (hi < 0) return -1;
      deep ? analyze(hi + 1) : advance(hi + 1);
      const test = stepPredicate(t, deep ? act.snapshot() : null, query);
      for (let i = hi; i >= 0; i--) if (test(i)) return i;
      return -1;
    }
    for (let lo = Math.max(0, from + 1); lo < count; lo += SEARCH_CHUNK) {
      const hi = Math.min(count, lo + SEARCH_CHUNK);
      deep ? analyze(hi) : advance(hi);
      const test = stepPredicate(t, deep ? act.snapshot() : null, query);
      for (let i = lo; i < hi; i++) if (test(i)) return i;
    }
    return -1;
  };

  /**
   * [R18] One pass over `[start, end)`: the timeline (and activity) rule steps out first; a breakpoint that
   * needs the state or the stories replays the range from its checkpoint, explaining only the steps left in.
   */
  const breakpointHits = (b: CompiledBreakpoint, start = 0, end = count): number[] => {
    const hi = Math.min(end, count);
    b.readsActivity ? analyze(hi) : advance(hi);
    const pre = breakpointPrefilter(b, t, b.readsActivity ? act.snapshot() : null);
    const carried = b.explains || b.readsState;
    let carry = carried && start < hi ? carryBefore(start) : ctx.initialCarry;
    const out: number[] = [];
    for (let i = Math.max(0, start); i < hi; i++) {
      const passes = pre(i);
      if (!carried) {
        // Without a condition the timeline and activity decided: the event is not read.
        if (passes && (!b.readsEvent || breakpointHolds(b, { event: source.get(i), stateBefore: null, explanation: null }))) out.push(i);
        continue;
      }
      const e = source.get(i);
      const o = stepEvent(ctx, carry, e, i, earlierLite(i), passes && b.explains);
      if (passes && breakpointHolds(b, { event: e, stateBefore: carry.state.vars, explanation: o.explanation })) out.push(i);
      carry = o.carry;
    }
    return out;
  };

  /** [R20] The timeline filter over `[start, end)`: the passes as far as the filter reads them, then the engine's test. */
  const filterHits = (f: CompiledStepFilter, start = 0, end = count): number[] => {
    const hi = Math.min(end, count);
    if (f.readsActivity) analyze(hi);
    else if (f.readsTimeline) advance(hi);
    return stepFilterHits(f, f.readsTimeline ? t : null, f.readsActivity ? act.snapshot() : null, Math.max(0, start), hi, (i) => source.get(i));
  };

  const moveTo = (i: number): ReplayStep => {
    const s = step(i);
    position = i;
    return s;
  };

  return {
    relabel(i) {
      cache.delete(i);
    },
    count,
    checkpointEvery: K,
    get computed() {
      return frontier;
    },
    get analyzed() {
      return analyzed;
    },
    get position() {
      return position;
    },
    step,
    current: () => (count === 0 ? null : step(position)),
    forward: () => (position + 1 < count ? moveTo(position + 1) : null),
    back: () => (position > 0 && count > 0 ? moveTo(position - 1) : null),
    jump: (i) => moveTo(i),
    advance,
    timeline() {
      advance();
      return t;
    },
    timelineSoFar: () => t,
    analyze,
    activity() {
      analyze();
      return act.snapshot();
    },
    find,
    stepsWhere(query) {
      const deep = needsActivity(query);
      deep ? analyze() : advance();
      const test = stepPredicate(t, deep ? act.snapshot() : null, query);
      const out: number[] = [];
      for (let i = 0; i < count; i++) if (test(i)) out.push(i);
      return Int32Array.from(out);
    },
    coverage() {
      analyze();
      return coverageOf(compiled, t, act.snapshot());
    },
    breakpointHits,
    breakpointSteps: (b) => hitStops(Int32Array.from(breakpointHits(b)), b.hits),
    filterHits,
  };
}
