/**
 * [E5][R5] How many of a trace's latest dispatched events a repeated event id is answered from. A repeat is a
 * re-delivery (an agent or a client retrying a call it got no answer to), which comes within a few events;
 * keeping every id with its result made one long `serve` session grow by ~580 bytes an event without end
 * (#33). An id whose dispatch has left the window is dispatched again as a new event — the session,
 * every replay and `serve` rebuilding a session from its recording apply the same window, so they answer
 * alike — and a trace reader still warns about every repeated id of a file [T6].
 */
export const REPEAT_WINDOW = 1024;

/** The dispatched events a trace still answers repeats from: the latest `REPEAT_WINDOW`, by event id. */
export interface RepeatWindow<V> {
  /** What was kept for `id`'s dispatch, if that dispatch is among the latest in the window. */
  get(id: string): V | undefined;
  /** Remembers a dispatched event as the newest (replacing what an id had); the oldest leaves once the window is full. */
  add(id: string, value: V): void;
  readonly size: number;
}

/**
 * The one implementation of the window [E5]: a Map in insertion order, so the oldest dispatch is its first key.
 * `const w = createRepeatWindow<number>(); if (w.get(e.event_id) === undefined) w.add(e.event_id, i)`
 */
export function createRepeatWindow<V>(limit: number = REPEAT_WINDOW): RepeatWindow<V> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`the repeat window must be a positive integer, got ${String(limit)}`);
  const kept = new Map<string, V>();
  return {
    get: (id) => kept.get(id),
    add(id, value) {
      kept.delete(id);
      kept.set(id, value);
      if (kept.size > limit) kept.delete(kept.keys().next().value!);
    },
    get size() {
      return kept.size;
    },
  };
}
