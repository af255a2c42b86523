import { readExpectation, type CompiledPipeline, type JsonObject, type ReplayTimeline, timelineStep, createAsyncReplayer, type AsyncReplayer, createTraceDiff, type StepQuery, whyNotFired, decisionRow, type DecisionRow, flowStepVerdicts, compileBreakpoint, hitStops, nextStop, stopFinder, type BreakpointSpec, type CompiledBreakpoint, type StopFinder, compileStepFilter, type CompiledStepFilter } from '../../../engine/app.ts';
import { filterQueries, type TimelineFilter } from '../model/timelineFilter.ts';
import type { EventStore } from './eventStore.ts';
import { createExclusive, yieldToMessages } from './exclusive.ts';
import type { BreakpointResult, FilterAnswer, NextStop, ScrubMarks, SessionEvent, StepDetail } from './protocol.ts';

/**
 * One replay of one stored trace through one compiled pipeline, inside the replay worker. It runs the
 * engine's checkpointed replayer [R9]: the fast pass (timeline) and the explain pass (activity, coverage)
 * in the background, in slices short enough that step requests are answered between them. Every answer
 * is the engine's; this file schedules and packages.
 */
export interface ReplaySession {
  readonly epoch: number;
  readonly compiled: CompiledPipeline;
  stop(): void;
  step(index: number): Promise<StepDetail>;
  find(queries: StepQuery[], from: number, direction: 'forward' | 'backward'): Promise<number>;
  /** Where each breakpoint stops [R18] (the engine's search; remembered per breakpoint for this session). */
  breakpoint(spec: BreakpointSpec): Promise<BreakpointResult>;
  /**
   * The first step after `from` where any of `list` stops [R18] (the engine's `stopFinder` per breakpoint), a
   * chunk at a time ahead of the background work, answered as soon as it is known; `cancelled()` is asked between
   * chunks, and how far it has looked is posted as `searchProgress` of `search`.
   */
  nextStop(list: readonly { id: string; spec: BreakpointSpec }[], from: number, search: number, cancelled: () => boolean): Promise<NextStop>;
  /** Blocked, divergent and labelled steps, for the scrubber (once the timeline is there). */
  marks(): Promise<ScrubMarks>;
  /**
   * The steps the filter keeps [R20] (the engine's, a chunk at a time ahead of the background work; null: every
   * step); `cancelled()` is asked between chunks, and how far it has looked is posted as `searchProgress` of `search`.
   */
  filter(filter: TimelineFilter, search: number, cancelled: () => boolean): Promise<FilterAnswer>;
  compare(pinned: CompiledPipeline | null): Promise<void>;
  decisions(): Promise<DecisionRow[]>;
  /**
   * For steps `start`..`end`: the payload the pipeline made of the event where the engine's timeline says it
   * rewrote it (a change of value), else null; null for all while the timeline is not yet computed.
   */
  rewritten(start: number, end: number): Promise<(JsonObject | null)[] | null>;
  /** Event `index` was relabelled: its copies are dropped, nothing is replayed (labels are not dispatched [R19]). */
  relabel(index: number): void;
}

/** A slice of a background pass aims at this many ms, so a step request waits at most about that long. */
const SLICE_MS = 30;
const PROGRESS_EVERY_MS = 100;

/**
 * `version`: the replayed pipeline's version [R17] (`pipelineVersion` below); a decision another version recorded
 * is then not flagged divergent, and its step says which versions they are — the engine's rule, as the CLI's.
 */
export function createReplaySession(compiled: CompiledPipeline, store: EventStore, epoch: number, post: (e: SessionEvent) => void, version: string | null = null): ReplaySession {
  const replayer: AsyncReplayer = createAsyncReplayer(compiled, store, { cachedChunks: 16, pipelineVersion: version });
  const ex = createExclusive();
  const count = store.count;
  let live = true;
  let compareGen = 0;
  /** Filters searched to the end (by what they ask), so one asked again answers at once. */
  const filterCache = new Map<string, Int32Array>();
  const breakpointCache = new Map<string, Promise<BreakpointResult>>();
  /** Finished searches (by spec), so "next breakpoint" answers from them at once. */
  const breakpointDone = new Map<string, BreakpointResult>();
  /** Each breakpoint's hits per chunk (by spec), shared by the background search and "next breakpoint". */
  const chunkHits = new Map<string, Map<number, number[]>>();
  /** Bumped when an event is relabelled: hits computed before are not kept. */
  let generation = 0;
  /** A search the person waits for holds the background work (passes, the marks' searches) back until it ends. */
  let waited = 0;
  let quietWaiters: (() => void)[] = [];
  const quiet = (): Promise<void> | null => (waited === 0 ? null : new Promise((r) => quietWaiters.push(r)));
  let marks: Promise<ScrubMarks> | null = null;
  const timelineDone = deferred();
  const analysisDone = deferred();
  let timeline: ReplayTimeline | null = null;

  /** Runs `work(limit)` to `count` in time-boxed slices, reporting progress; false when stopped. */
  const pass = async (phase: 'timeline' | 'analysis', done: () => number, work: (limit: number) => Promise<number>): Promise<boolean> => {
    let perEvent = 0.05;
    let lastReport = 0;
    while (done() < count) {
      await quiet();
      if (!live) return false;
      const from = done();
      const slice = Math.max(1, Math.min(8192, Math.round(SLICE_MS / perEvent)));
      const t0 = performance.now();
      await ex.run(() => work(from + slice));
      perEvent = Math.max(0.001, (performance.now() - t0) / Math.max(1, done() - from));
      if (performance.now() - lastReport > PROGRESS_EVERY_MS) {
        lastReport = performance.now();
        post({ kind: 'progress', phase, done: done(), total: count });
      }
      await yieldToMessages();
    }
    return live;
  };

  const run = async (): Promise<void> => {
    if (!(await pass('timeline', () => replayer.computed, (n) => replayer.advance(n)))) return;
    timeline = await ex.run(() => replayer.timeline());
    post({ kind: 'timeline', timeline });
    timelineDone.resolve();
    if (!(await pass('analysis', () => replayer.analyzed, (n) => replayer.analyze(n)))) return;
    post({ kind: 'coverage', coverage: await ex.run(() => replayer.coverage()) });
    analysisDone.resolve();
  };
  void run().catch((e: unknown) => live && post({ kind: 'failed', message: errorText(e) }));

  const stepsWhere = (q: StepQuery) => ex.run(() => replayer.stepsWhere(q));

  /** A chunk of the trace at a time, so a step asked for meanwhile is answered between chunks. */
  const searchBreakpoint = async (spec: BreakpointSpec): Promise<BreakpointResult> => {
    const compiledBp = compileBreakpoint(compiled, spec);
    if (!compiledBp.ok) return { ok: false, problems: compiledBp.problems };
    const b = compiledBp.breakpoint;
    await (b.readsActivity ? analysisDone.promise : timelineDone.promise);
    const hits: number[] = [];
    const key = JSON.stringify(spec);
    const asOf = generation;
    for (let c = 0; c * replayer.checkpointEvery < count; c++) {
      await quiet();
      if (!live) throw new Error('the replay session was replaced');
      hits.push(...(await hitsIn(key, b, c, false)));
      if (c % 16 === 15) await yieldToMessages();
    }
    const result = { ok: true as const, stops: hitStops(Int32Array.from(hits), b.hits) };
    if (asOf === generation) breakpointDone.set(key, result);
    return result;
  };

  /** The breakpoint's hits in chunk `c` (steps c·K to (c+1)·K), the engine's, computed once per session. */
  const hitsIn = async (key: string, b: CompiledBreakpoint, c: number, urgent: boolean): Promise<number[]> => {
    let byChunk = chunkHits.get(key);
    const known = byChunk?.get(c);
    if (known) return known;
    const asOf = generation;
    const hits = await ex.run(() => replayer.breakpointChunk(b, c), urgent);
    if (asOf !== generation) return hits;
    byChunk = chunkHits.get(key);
    if (!byChunk) {
      byChunk = new Map();
      chunkHits.set(key, byChunk);
      if (chunkHits.size > 32) chunkHits.delete(chunkHits.keys().next().value!);
    }
    byChunk.set(c, hits);
    return hits;
  };

  /**
   * Brings the fast pass (and the explain pass, when needed) to `end` ahead of the background, a few chunks per
   * task, so other requests and a cancel get in between; the replay's progress note moves meanwhile.
   */
  let caughtUpReport = 0;
  const catchUp = async (end: number, activity: boolean, cancelled: () => boolean, upTo = end): Promise<boolean> => {
    const K = replayer.checkpointEvery;
    const done = () => (activity ? replayer.analyzed : replayer.computed);
    const goal = Math.max(end, upTo);
    while (done() < Math.min(end, count)) {
      if (cancelled() || !live) return false;
      const to = Math.min(goal, done() + 8 * K);
      await ex.run(() => (activity ? replayer.analyze(to) : replayer.advance(to)), true);
      if (performance.now() - caughtUpReport > PROGRESS_EVERY_MS && done() < count) {
        caughtUpReport = performance.now();
        post({ kind: 'progress', phase: activity ? 'analysis' : 'timeline', done: done(), total: count });
      }
      await yieldToMessages();
    }
    return true;
  };

  /**
   * How far a search at chunk `c` (begun at `first`) brings the passes when it must: a chunk at first, then a few
   * more each time up to 8 (2,048 steps), so a stop near the step costs one chunk and a long search is not a
   * yield (and a clamped timer) per chunk. Measured on 100,000 events: one chunk per catch-up made B 1.5 s slower
   * than waiting for the whole timeline.
   */
  const ahead = (c: number, first: number): number => Math.min(count, (c + Math.min(8, c - first + 1)) * replayer.checkpointEvery);

  const nextStopIn = async (list: readonly { id: string; spec: BreakpointSpec }[], from: number, cancelled: () => boolean, progress: (done: number) => void): Promise<NextStop> => {
    const K = replayer.checkpointEvery;
    type Entry = { id: string; key: string; b: CompiledBreakpoint; finder: StopFinder; answer: number | undefined };
    const entries: Entry[] = [];
    for (const { id, spec } of list) {
      const r = compileBreakpoint(compiled, spec);
      // One that cannot be searched stops nowhere; its problems show in the list (the marks' search).
      if (!r.ok) continue;
      const key = JSON.stringify(spec);
      const finder = stopFinder(r.breakpoint.hits, from);
      const done = breakpointDone.get(key);
      entries.push({ id, key, b: r.breakpoint, finder, answer: done?.ok ? nextStop(done.stops, from) : undefined });
    }
    const best = () => entries.reduce((m, e) => (e.answer !== undefined && e.answer >= 0 && (m < 0 || e.answer < m) ? e.answer : m), -1);
    const open = () => entries.filter((e) => e.answer === undefined);
    const starts = open().map((e) => e.finder.start);
    let lastYield = performance.now();
    const first = Math.floor(Math.min(count, ...starts) / K);
    for (let c = first; open().length > 0 && c * K < count; c++) {
      const found = best();
      if (found >= 0 && found < c * K) break;
      const end = Math.min(count, (c + 1) * K);
      if (!(await catchUp(end, open().some((e) => e.b.readsActivity), cancelled, ahead(c, first)))) return { cancelled: true };
      for (const e of open()) {
        if (e.finder.start >= end) continue;
        if (cancelled() || !live) return { cancelled: true };
        e.answer = e.finder.push(await hitsIn(e.key, e.b, c, true));
      }
      // Every step before `end` (or before the stop found) has been looked at: play may walk that far.
      const stop = best();
      progress(Math.max(from + 1, stop >= 0 && stop < end ? stop : end));
      if (performance.now() - lastYield > SLICE_MS) {
        lastYield = performance.now();
        await yieldToMessages();
      }
    }
    const index = best();
    return { cancelled: false, index, ids: index < 0 ? [] : entries.filter((e) => e.answer === index).map((e) => e.id) };
  };

  /** The filter's steps, a chunk at a time from the first, each chunk the engine's answer. */
  const filterIn = async (f: CompiledStepFilter, cancelled: () => boolean, progress: (done: number) => void): Promise<FilterAnswer> => {
    const K = replayer.checkpointEvery;
    const found: number[] = [];
    let lastYield = performance.now();
    for (let c = 0; c * K < count; c++) {
      const end = Math.min(count, (c + 1) * K);
      if (f.readsTimeline && !(await catchUp(end, f.readsActivity, cancelled, ahead(c, 0)))) return { cancelled: true };
      if (cancelled() || !live) return { cancelled: true };
      found.push(...(await ex.run(() => replayer.filterChunk(f, c), true)));
      progress(end);
      if (performance.now() - lastYield > SLICE_MS) {
        lastYield = performance.now();
        await yieldToMessages();
      }
    }
    return { cancelled: false, visible: Int32Array.from(found) };
  };

  /** Runs a search the person waits for: the background work waits meanwhile; progress goes out as `searchProgress`. */
  const waitedFor = async <T>(search: number, work: (progress: (done: number) => void) => Promise<T>): Promise<T> => {
    // The first chunk is always reported (the page learns the search has begun), then every PROGRESS_EVERY_MS.
    let last = -Infinity;
    const progress = (done: number) => {
      if (performance.now() - last < PROGRESS_EVERY_MS) return;
      last = performance.now();
      post({ kind: 'searchProgress', search, done, total: count });
    };
    waited++;
    try {
      return await work(progress);
    } finally {
      if (--waited === 0) {
        const wake = quietWaiters;
        quietWaiters = [];
        for (const w of wake) w();
      }
    }
  };

  return {
    relabel(index) {
      replayer.relabel(index);
      // A breakpoint's condition may read the event's meta as recorded, label included.
      filterCache.clear();
      breakpointCache.clear();
      breakpointDone.clear();
      chunkHits.clear();
      generation++;
      // The scrubber's labelled steps are read from the events again.
      marks = null;
    },
    epoch,
    compiled,
    stop() {
      live = false;
      compareGen++;
    },
    // A step far ahead of the fast pass (End, the scrubber) replays up to it a few chunks per task: a step asked
    // for meanwhile (Home) is not held up behind the whole way there.
    step: async (index) => {
      await catchUp(index + 1, false, () => false);
      return ex.run(async () => {
        const step = await replayer.step(index);
        const why = compiled.handlers.map((h) => whyNotFired(compiled, h.id, step));
        return { step, why, flows: flowStepVerdicts(compiled, step) };
      }, true);
    },
    async find(queries, from, direction) {
      if (queries.length === 0) return -1;
      // Backward, the steps before `from` are all it reads (the replay has passed them to show the step): no wait.
      const deep = queries.some((q) => q.kind === 'fired');
      if (direction === 'forward') await (deep ? analysisDone.promise : timelineDone.promise);
      else await catchUp(from, deep, () => false);
      const hits = await ex.run(() => Promise.all(queries.map((q) => replayer.find(q, { from, direction }))), true);
      const found = hits.filter((h) => h >= 0);
      return found.length === 0 ? -1 : direction === 'forward' ? Math.min(...found) : Math.max(...found);
    },
    marks() {
      marks ??= (async () => {
        await timelineDone.promise;
        const labelled: number[] = [];
        // A label is the event's own `meta.expect` [B7], read as the timeline rows read it.
        await store.scan((events, base) => {
          for (let k = 0; k < events.length; k++) if (readExpectation(events[k]!).kind !== 'none') labelled.push(base + k);
        }, () => live);
        return { blocked: await stepsWhere({ kind: 'blocked' }), divergent: await stepsWhere({ kind: 'divergent' }), labelled: Int32Array.from(labelled) };
      })();
      marks.catch(() => {
        marks = null;
      });
      return marks;
    },
    nextStop(list, from, search, cancelled) {
      return waitedFor(search, (progress) => nextStopIn(list, from, cancelled, progress));
    },
    breakpoint(spec) {
      const key = JSON.stringify(spec);
      let answer = breakpointCache.get(key);
      if (!answer) {
        answer = searchBreakpoint(spec);
        breakpointCache.set(key, answer);
        answer.catch(() => breakpointCache.delete(key));
        if (breakpointCache.size > 32) breakpointCache.delete(breakpointCache.keys().next().value!);
      }
      return answer;
    },
    async filter(filter, search, cancelled) {
      const f = compileStepFilter({ queries: filterQueries(filter), text: filter.text });
      if (!f) return { cancelled: false, visible: null };
      const key = JSON.stringify([f.queries, f.needle]);
      const known = filterCache.get(key);
      if (known) return { cancelled: false, visible: known.slice() };
      const asOf = generation;
      const answer = await waitedFor(search, (progress) => filterIn(f, cancelled, progress));
      if (!answer.cancelled && answer.visible && asOf === generation) {
        filterCache.set(key, answer.visible.slice());
        if (filterCache.size > 8) filterCache.delete(filterCache.keys().next().value!);
      }
      return answer;
    },
    async compare(pinned) {
      const gen = ++compareGen;
      if (!pinned) return;
      const diff = createTraceDiff(pinned, compiled, { maxChanged: 5000 });
      let last = 0;
      await store.scan(async (events, base) => {
        for (const e of events) diff.push(e);
        if (performance.now() - last > PROGRESS_EVERY_MS) {
          last = performance.now();
          post({ kind: 'progress', phase: 'compare', done: base + events.length, total: count });
          await yieldToMessages();
        }
      }, () => live && gen === compareGen);
      if (live && gen === compareGen) post({ kind: 'compare', diff: diff.result(), problems: [] });
    },
    async rewritten(start, end) {
      const t = timeline;
      if (!t) return null;
      const out: (JsonObject | null)[] = [];
      for (let i = start; i < Math.min(end, count); i++) {
        out.push(timelineStep(t, i)?.payload_changed ? (await ex.run(() => replayer.step(i), true)).payload_after : null);
      }
      return out;
    },
    decisions: () =>
      ex.run(async () => {
        const rows: DecisionRow[] = [];
        for (let i = 0; i < count; i++) rows.push(decisionRow(await replayer.step(i)));
        return rows;
      }),
  };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
