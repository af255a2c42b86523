import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';
import type { TraceCoverage } from './coverageOf.ts';
import { createReplayer, DEFAULT_CHECKPOINT_EVERY, type FindOptions, type ReplayerOptions } from './createReplayer.ts';
import type { ReplayActivity } from './replayActivity.ts';
import { hitStops, type CompiledBreakpoint } from './breakpoint.ts';
import type { CompiledStepFilter } from './stepFilter.ts';
import type { AsyncEventSource, ReplayStep, ReplayTimeline, StepQuery } from './types.ts';

export interface AsyncReplayerOptions extends ReplayerOptions {
  /** Chunks of `checkpointEvery` events kept in memory (default 8, at least 4). */
  cachedChunks?: number;
}

/** Progress and cancellation of a long pass; `signal` may be an AbortSignal. */
export interface ProgressOptions {
  onProgress?: (done: number, total: number) => void;
  signal?: { readonly aborted: boolean };
}

/** `Replayer` over an asynchronous store [R9]: the same steps, with events fetched a chunk at a time. */
export interface AsyncReplayer {
  readonly count: number;
  readonly checkpointEvery: number;
  readonly computed: number;
  readonly analyzed: number;
  readonly position: number;
  step(index: number): Promise<ReplayStep>;
  current(): Promise<ReplayStep | null>;
  forward(): Promise<ReplayStep | null>;
  back(): Promise<ReplayStep | null>;
  jump(index: number): Promise<ReplayStep>;
  advance(limit?: number, progress?: ProgressOptions): Promise<number>;
  timeline(progress?: ProgressOptions): Promise<ReplayTimeline>;
  analyze(limit?: number, progress?: ProgressOptions): Promise<number>;
  activity(progress?: ProgressOptions): Promise<ReplayActivity>;
  find(query: StepQuery, options?: FindOptions): Promise<number>;
  stepsWhere(query: StepQuery): Promise<Int32Array>;
  coverage(progress?: ProgressOptions): Promise<TraceCoverage>;
  /** The hits of the breakpoint in chunk `c` (steps `c·K` to `(c+1)·K`), before its hit count [R18]. */
  breakpointChunk(b: CompiledBreakpoint, c: number): Promise<number[]>;
  /** Every step the breakpoint stops at [R18], scanned a chunk at a time. */
  breakpointSteps(b: CompiledBreakpoint, progress?: ProgressOptions): Promise<Int32Array>;
  /** The steps of chunk `c` the timeline filter keeps [R20]: a long filter is searched a chunk at a time. */
  filterChunk(f: CompiledStepFilter, c: number): Promise<number[]>;
  /** As `Replayer.relabel` [R19]: the event's chunk is fetched again from the source when next needed. */
  relabel(index: number): void;
}

/**
 * A replayer whose events live in an asynchronous store (the debugger's IndexedDB). The synchronous
 * replayer does the work; this layer fetches the chunks each request needs first (chunks are aligned with
 * checkpoints, so a jump fetches one or two chunks), keeps a few in an LRU cache, and runs long passes a
 * chunk at a time with progress and cancellation. A cancelled pass keeps what it computed.
 * `const r = createAsyncReplayer(compiled, { count, getRange: (a, b) => db.events.where('i').between(a, b).toArray() })`
 */
export function createAsyncReplayer(compiled: CompiledPipeline, source: AsyncEventSource, options: AsyncReplayerOptions = {}): AsyncReplayer {
  const C = options.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY;
  const capacity = Math.max(4, options.cachedChunks ?? 8);
  const chunks = new Map<number, readonly TraceEvent[]>();
  const loading = new Map<number, Promise<void>>();
  /** Chunks relabelled (by how many times): a fetch begun before is not cached, it may hold the old event. */
  const relabelled = new Map<number, number>();
  const count = source.count;

  const get = (i: number): TraceEvent => {
    const chunk = chunks.get(Math.floor(i / C));
    if (!chunk) throw new Error(`async replay: event ${i} was needed before its chunk was fetched (a bug in createAsyncReplayer)`);
    return chunk[i % C]!;
  };
  const sync = createReplayer(compiled, { count, get }, options);

  const load = (c: number): Promise<void> => {
    const pending = loading.get(c);
    if (pending) return pending;
    const start = c * C;
    const end = Math.min(count, start + C);
    const asOf = relabelled.get(c) ?? 0;
    const p = source.getRange(start, end).then((events) => {
      if (events.length !== end - start) throw new Error(`event source returned ${events.length} events for [${start}, ${end}), expected ${end - start}`);
      if ((relabelled.get(c) ?? 0) !== asOf) return;
      chunks.set(c, events);
      while (chunks.size > capacity) chunks.delete(chunks.keys().next().value!);
    });
    loading.set(c, p);
    return p.finally(() => {
      if (loading.get(c) === p) loading.delete(c);
    });
  };

  /**
   * Fetches the chunks until all are cached at once, then runs `work` in the same synchronous stretch, so
   * no other request's fetch can evict a chunk in between.
   */
  const withChunks = async <T>(wanted: number[], work: () => T): Promise<T> => {
    for (;;) {
      const missing = wanted.filter((c) => !chunks.has(c));
      if (missing.length === 0) break;
      await Promise.all(missing.map(load));
    }
    for (const c of wanted) {
      const events = chunks.get(c)!;
      chunks.delete(c); // LRU: mark as recently used
      chunks.set(c, events);
    }
    return work();
  };

  const checkAbort = (p?: ProgressOptions): void => {
    if (p?.signal?.aborted) {
      const e = new Error('replay pass cancelled');
      e.name = 'AbortError';
      throw e;
    }
  };

  const advance = async (limit = count, p?: ProgressOptions): Promise<number> => {
    const end = Math.min(limit, count);
    while (sync.computed < end) {
      checkAbort(p);
      const c = Math.floor(sync.computed / C);
      await withChunks([c], () => sync.advance(Math.min(end, (c + 1) * C)));
      p?.onProgress?.(sync.computed, end);
    }
    return sync.computed;
  };

  const analyze = async (limit = count, p?: ProgressOptions): Promise<number> => {
    const end = Math.min(limit, count);
    while (sync.analyzed < end) {
      checkAbort(p);
      const c = Math.floor(sync.analyzed / C);
      const chunkEnd = Math.min(end, (c + 1) * C);
      await advance(chunkEnd);
      await withChunks([c], () => sync.analyze(chunkEnd));
      p?.onProgress?.(sync.analyzed, end);
    }
    return sync.analyzed;
  };

  const step = async (i: number): Promise<ReplayStep> => {
    if (!Number.isInteger(i) || i < 0 || i >= count) return sync.step(i); // throws the range error
    await advance(i + 1);
    const d = sync.timelineSoFar().duplicate_of[i]!;
    return withChunks(d >= 0 ? [Math.floor(i / C), Math.floor(d / C)] : [Math.floor(i / C)], () => sync.step(i));
  };

  // Chunks are aligned with checkpoints: each replays from its own checkpoint with only its own events.
  const breakpointChunk = async (b: CompiledBreakpoint, c: number): Promise<number[]> => {
    const start = c * C;
    const end = Math.min(count, start + C);
    if (start >= end) return [];
    b.readsActivity ? await analyze(end) : await advance(end);
    // A breakpoint the timeline and activity decide alone needs none of the chunk's events (a store read saved).
    return b.readsEvent ? withChunks([c], () => sync.breakpointHits(b, start, end)) : sync.breakpointHits(b, start, end);
  };

  const filterChunk = async (f: CompiledStepFilter, c: number): Promise<number[]> => {
    const start = c * C;
    const end = Math.min(count, start + C);
    if (start >= end) return [];
    if (f.readsActivity) await analyze(end);
    else if (f.readsTimeline) await advance(end);
    // A text is looked for in the chunk's events; the timeline alone needs none of them.
    return f.readsEvent ? withChunks([c], () => sync.filterHits(f, start, end)) : sync.filterHits(f, start, end);
  };

  let position = 0;
  const moveTo = async (i: number): Promise<ReplayStep> => {
    const s = await step(i);
    position = i;
    return s;
  };

  return {
    relabel(i) {
      const c = Math.floor(i / C);
      relabelled.set(c, (relabelled.get(c) ?? 0) + 1);
      chunks.delete(c);
      loading.delete(c);
      sync.relabel(i);
    },
    count,
    checkpointEvery: C,
    get computed() {
      return sync.computed;
    },
    get analyzed() {
      return sync.analyzed;
    },
    get position() {
      return position;
    },
    step,
    current: async () => (count === 0 ? null : step(position)),
    forward: async () => (position + 1 < count ? moveTo(position + 1) : null),
    back: async () => (position > 0 ? moveTo(position - 1) : null),
    jump: moveTo,
    advance,
    async timeline(p) {
      await advance(count, p);
      return sync.timeline();
    },
    analyze,
    async activity(p) {
      await analyze(count, p);
      return sync.activity();
    },
    async find(query, o = {}) {
      // Forward, a search runs on the complete timeline (and activity), which the debugger computes once on load;
      // backward it needs only the steps before `from`.
      const from = o.from ?? position;
      const upTo = o.direction === 'backward' ? Math.max(0, Math.min(from, count)) : count;
      if (query.kind === 'fired') await analyze(upTo);
      else await advance(upTo);
      return sync.find(query, { from, ...(o.direction ? { direction: o.direction } : {}) });
    },
    async stepsWhere(query) {
      if (query.kind === 'fired') await analyze();
      else await advance();
      return sync.stepsWhere(query);
    },
    async coverage(p) {
      await analyze(count, p);
      return sync.coverage();
    },
    breakpointChunk,
    filterChunk,
    async breakpointSteps(b, p) {
      const hits: number[] = [];
      for (let c = 0; c * C < count; c++) {
        checkAbort(p);
        hits.push(...(await breakpointChunk(b, c)));
        p?.onProgress?.(Math.min(count, (c + 1) * C), count);
      }
      return hitStops(Int32Array.from(hits), b.hits);
    },
  };
}
