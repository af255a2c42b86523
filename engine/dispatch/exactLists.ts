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
 * entries to the next class's list; at the end `cut` sets the length, which then lies in the class's range.
 */
const CAPACITY: readonly number[] = (() => {
  const out: number[] = [];
  for (let c = 17; c <= 1 << 16; c = 2 * c + 17) out.push(c);
  return out;
})();

/** The list of class `k` of `classes` (made on first use); past the last class, a new list to grow as it will. */
export function classList<T>(classes: T[][], k: number): T[] {
  if (k >= CAPACITY.length) return [];
  let list = classes[k];
  if (list === undefined) classes[k] = list = new Array<T>(CAPACITY[k]!);
  return list;
}

/** How many entries the list of class `k` takes before it must move up (unbounded past the last class). */
export function roomOf(k: number): number {
  return k < CAPACITY.length ? CAPACITY[k]! : Number.MAX_SAFE_INTEGER;
}

/** The list of class `k + 1`, holding the `n` entries of the full list of class `k`. */
export function moveUp<T>(classes: T[][], k: number, full: readonly T[], n: number): T[] {
  const list = classList(classes, k + 1);
  for (let i = 0; i < n; i++) list[i] = full[i]!;
  return list;
}

/** `list` with length `n` (a call into the runtime, so only when the last event left another length). */
export function cut<T>(list: T[], n: number): T[] {
  if (list.length !== n) list.length = n;
  return list;
}
