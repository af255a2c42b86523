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

/** The window's bookkeeping alone [E5]: which ids are kept, each in a slot of its own, for values the caller keeps. */
export interface RepeatSlots {
  /** The slot (0 to the limit − 1) of `id`'s dispatch, if that dispatch is among the latest in the window; else -1. */
  slotOf(id: string): number;
  /**
   * Remembers a dispatched event as the newest and returns its slot: the id's own when it is kept, else a free one
   * or the one the oldest id leaves. The caller writes the event's value there (over what the slot held).
   */
  add(id: string): number;
  readonly size: number;
}

/**
 * The one implementation of the window [E5]: a Map of the kept ids to their slots, and their order (oldest first) in
 * a ring, so the oldest leaves in one step. (The Map's own insertion order found the oldest key by iterating past
 * the entries deleted before it: 67-80 ms of CPU per 100k adds against 8 ms for the ring, a microbenchmark.) An id
 * added again while kept moves to the newest place and keeps its slot: its old place is taken out of the ring (a
 * walk of the ring, and rare: a replay adds only ids it did not find). Slots let a caller keep its values in
 * columns (one array per field) instead of an object per event, which a long replay would make and promote.
 * `const w = createRepeatSlots(); const s = w.add(e.event_id); decisions[s] = result.decision`
 */
export function createRepeatSlots(limit: number = REPEAT_WINDOW): RepeatSlots {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`the repeat window must be a positive integer, got ${String(limit)}`);
  const kept = new Map<string, number>();
  // The kept ids, oldest first: ring[(oldest + k) % limit] for k < kept.size. Grows up to `limit`, then wraps.
  const ring: string[] = [];
  let oldest = 0;
  const at = (k: number) => (oldest + k) % limit;
  return {
    slotOf: (id) => kept.get(id) ?? -1,
    add(id) {
      const own = kept.get(id);
      if (own !== undefined) {
        // Take the id out of its place: the ids after it move one place towards the oldest.
        const n = kept.size;
        let k = 0;
        while (ring[at(k)] !== id) k++;
        for (; k < n - 1; k++) ring[at(k)] = ring[at(k + 1)]!;
        ring[at(n - 1)] = id;
        return own;
      }
      let slot: number;
      if (kept.size === limit) {
        const leaving = ring[oldest]!;
        slot = kept.get(leaving)!;
        kept.delete(leaving);
        ring[oldest] = id;
        oldest = (oldest + 1) % limit;
      } else {
        slot = kept.size;
        if (ring.length < limit) ring.push(id);
        else ring[at(kept.size)] = id;
      }
      kept.set(id, slot);
      return slot;
    },
    get size() {
      return kept.size;
    },
  };
}

/**
 * The window with a value per kept id (a slot each, `createRepeatSlots`).
 * `const w = createRepeatWindow<number>(); if (w.get(e.event_id) === undefined) w.add(e.event_id, i)`
 */
export function createRepeatWindow<V>(limit: number = REPEAT_WINDOW): RepeatWindow<V> {
  const slots = createRepeatSlots(limit);
  const values: V[] = [];
  return {
    get(id) {
      const s = slots.slotOf(id);
      return s < 0 ? undefined : values[s];
    },
    add(id, value) {
      values[slots.add(id)] = value;
    },
    get size() {
      return slots.size;
    },
  };
}
