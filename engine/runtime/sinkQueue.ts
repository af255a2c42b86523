/**
 * Ordered, non-blocking delivery to one sink [P5]: records are queued during `emit` and handed over on a
 * later turn, one at a time and in order (a sink that returns a promise is awaited before its next
 * record), so a slow log shipper never delays a decision and a file appender never reorders lines.
 */

/** A sink may be synchronous or return a promise; either way the caller of `emit` does not wait for it. */
export type Sink<T> = (record: T) => void | PromiseLike<void>;

/** How a deferred turn is scheduled. Default: a microtask (pure ES, no timers). */
export type Scheduler = (run: () => void) => void;

export const defaultScheduler: Scheduler = (run) => {
  void Promise.resolve().then(run);
};

export interface SinkFailure {
  /** Which sink: 'raw', 'audit', 'async', 'record', … */
  sink: string;
  /** What went wrong: the sink threw or rejected, or the queue was full and the record was dropped. */
  kind: 'failed' | 'dropped';
  error: unknown;
}

export interface SinkQueue<T> {
  push(record: T): void;
  /** Resolves when every record pushed so far has been delivered (or has failed). */
  drained(): Promise<void>;
  readonly pending: number;
  readonly dropped: number;
}

/** Default bound of queued records per sink; past it new records are dropped and reported. */
export const DEFAULT_MAX_PENDING = 10_000;

/**
 * `createSinkQueue('audit', sink, { schedule, onFailure })` → a queue whose `push` returns at once.
 */
export function createSinkQueue<T>(
  name: string,
  sink: Sink<T>,
  options: { schedule?: Scheduler; maxPending?: number; onFailure?: (f: SinkFailure) => void } = {},
): SinkQueue<T> {
  const schedule = options.schedule ?? defaultScheduler;
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
  const queue: T[] = [];
  let running = false;
  let dropped = 0;
  let waiters: (() => void)[] = [];

  const fail = (kind: SinkFailure['kind'], error: unknown) => {
    try {
      options.onFailure?.({ sink: name, kind, error });
    } catch {
      // A failing failure reporter must not break delivery either.
    }
  };

  const settle = () => {
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };

  // Delivers queued records in order; awaits a sink's promise before handing it the next record.
  const pump = async () => {
    while (queue.length > 0) {
      const record = queue.shift() as T;
      try {
        const r = sink(record);
        if (r && typeof (r as PromiseLike<void>).then === 'function') await r;
      } catch (error) {
        fail('failed', error);
      }
    }
    running = false;
    settle();
  };

  return {
    push(record) {
      if (queue.length >= maxPending) {
        dropped++;
        fail('dropped', new Error(`sink "${name}" has ${queue.length} records waiting; record dropped`));
        return;
      }
      queue.push(record);
      if (!running) {
        running = true;
        schedule(() => void pump());
      }
    },
    drained() {
      if (!running && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    get pending() {
      return queue.length;
    },
    get dropped() {
      return dropped;
    },
  };
}
