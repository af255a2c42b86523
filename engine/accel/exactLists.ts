/**
 * Lists of an exact length that a reused result hands out event after event without V8 making them anew.
 * Cutting a JS array (`length = n`) to less than about half its capacity frees the rest of its backing store
 * ("trims" it: `2 * n + 16 <= capacity`, V8's elements.cc `SetLengthImpl`), and the next longer event grows
 * it again, which allocates: through 1000 broad handlers, whose events audit 20 to 300 handlers each, that was
 * ~800 bytes per event. So a list is kept per length class, made once with the class's capacity C, and only
 * ever given lengths n with `2 * n + 16 > C` and `n <= C`: neither trimmed nor grown. Classes: C = 17
 * (lengths 1-17), then C' = 2C + 17 (18-51, 52-119, 120-255, …).
 *
 * A chain fills the list of class 0 from the start; when the list is full (`roomOf`), `moveUp` carries its
 * entries to the next class's list; at the end `finish` gives the list of the event's length: one kept at
 * that very length for up to `SMALL` entries (most events: no call into the runtime to set a length), else
 * the class's list cut to it.
 */

/** Lists of one kind of entry: by length class, and one per length up to `SMALL`. */
export interface ExactLists<T> {
  classes: T[][];
  small: T[][];
}

export function exactLists<T>(): ExactLists<T> {
  return { classes: [], small: [] };
}

const SMALL = 8;
const CAPACITY: readonly number[] = (() => {
  const out: number[] = [];
  for (let c = 17; c <= 1 << 16; c = 2 * c + 17) out.push(c);
  return out;
})();

/** The list of class `k` (made on first use); past the last class, a new list to grow as it will. */
export function classList<T>(lists: ExactLists<T>, k: number): T[] {
  if (k >= CAPACITY.length) return [];
  let list = lists.classes[k];
  if (list === undefined) lists.classes[k] = list = new Array<T>(CAPACITY[k]!);
  return list;
}

/** How many entries the list of class `k` takes before it must move up (unbounded past the last class). */
export function roomOf(k: number): number {
  return k < CAPACITY.length ? CAPACITY[k]! : Number.MAX_SAFE_INTEGER;
}

/** The list of class `k + 1`, holding the `n` entries of the full list of class `k`. */
export function moveUp<T>(lists: ExactLists<T>, k: number, full: readonly T[], n: number): T[] {
  const list = classList(lists, k + 1);
  for (let i = 0; i < n; i++) list[i] = full[i]!;
  return list;
}

/** The first `n` (at least 1) entries of `list` (a class's list) as a list of length `n`. */
export function finish<T>(lists: ExactLists<T>, list: T[], n: number): T[] {
  if (n <= SMALL) {
    let out = lists.small[n];
    if (out === undefined) lists.small[n] = out = new Array<T>(n);
    for (let i = 0; i < n; i++) out[i] = list[i]!;
    return out;
  }
  if (list.length !== n) list.length = n; // a call into the runtime: only when the last event left another length
  return list;
}
