/**
 * Lists of an exact length that a reused result hands out event after event without V8 making them anew.
 * Cutting a JS array (`length = n`) to less than about half its capacity frees the rest of its backing store
 * ("trims" it: `2 * n + 16 <= capacity`, V8's elements.cc `SetLengthImpl`), and the next longer event grows
 * it again, which allocates: through 1000 broad handlers, whose events audit 20 to 300 handlers each, that was
 * ~800 bytes per event. So a list is kept per length class, made once with the class's capacity C, and only
 * ever given lengths n with `2 * n + 16 > C` and `n <= C`: neither trimmed nor grown. Classes: C = 17
 * (lengths 1-17), then C' = 2C + 17 (18-51, 52-119, 120-255, …).
 */
const CAPACITY: readonly number[] = (() => {
  const out: number[] = [];
  for (let c = 17; c <= 1 << 16; c = 2 * c + 17) out.push(c);
  return out;
})();

const EMPTY: never[] = Object.freeze([]) as unknown as never[];

/**
 * `from[0 … n)` in the list of `classes` (by length class, made on first use) cut to length n; the shared
 * empty list for 0 (a cut to 0 would drop the backing store), a fresh copy past the last class.
 * `exactCopy(classes, work, 3)` is `work.slice(0, 3)` without a new array after the first call of its class.
 */
export function exactCopy<T>(classes: T[][], from: readonly T[], n: number): T[] {
  if (n === 0) return EMPTY;
  let k = 0;
  while (k < CAPACITY.length && CAPACITY[k]! < n) k++;
  if (k === CAPACITY.length) return from.slice(0, n);
  let out = classes[k];
  if (out === undefined) classes[k] = out = new Array<T>(CAPACITY[k]!);
  for (let i = 0; i < n; i++) out[i] = from[i]!;
  if (out.length !== n) out.length = n; // a call into the runtime: only when the last event's length differs
  return out;
}
