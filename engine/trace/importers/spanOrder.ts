/**
 * What the ordering needs of the spans, by their place in the file (0 … count - 1): times, and the place of each
 * span's parent. Columns, not an object a span: a 200 MB span file holds hundreds of thousands of spans to its end.
 */
export interface OrderedSpans {
  readonly count: number;
  /** Microseconds since the epoch (exact for ISO times with up to six fraction digits). */
  start(i: number): number;
  end(i: number): number;
  /** The place of the first span whose id is span i's parent id; -1 when it has none, or no span has that id. */
  parentOf(i: number): number;
}

/**
 * Orders span starts and ends by time [I5], ties broken by the span tree walked depth first (children by
 * start, then end, then file order): a span starts before it ends even with zero length, a parent starts
 * before and ends after its children, and a span that ends at the instant its sibling starts comes first.
 * This holds when times are cut to milliseconds (many ties). `last`'s end (the root agent span) goes
 * after every other point, at the latest time seen, so `agent.end` is last. Iterative: no recursion depth.
 * Returns the points as `2 * span + (end ? 1 : 0)`, each placed at its span's start or end (`last`'s end at latestTime).
 *
 * @example orderSpanPoints(spans) // → Uint32Array [0, 2, 3, 1]: span 0 starts, span 1 starts and ends, span 0 ends
 */
export function orderSpanPoints(spans: OrderedSpans, last = -1): Uint32Array {
  const n = spans.count;
  const bySpanOrder = (a: number, b: number) => spans.start(a) - spans.start(b) || spans.end(a) - spans.end(b) || a - b;
  const kids = childLists(spans);
  const enter = new Int32Array(n).fill(-1);
  const exit = new Int32Array(n);
  let k = 0;
  // The stack of the walk: a span and the place of its next child in `kids.list`.
  const stack = new Int32Array(n);
  const next = new Int32Array(n);
  const walk = (root: number): void => {
    let depth = 0;
    stack[0] = root;
    next[0] = kids.from[root]!;
    enter[root] = k++;
    while (depth >= 0) {
      const top = stack[depth]!;
      const at = next[depth]!;
      if (at === kids.from[top + 1]) {
        exit[top] = k++;
        depth--;
        continue;
      }
      next[depth] = at + 1;
      const kid = kids.list[at]!;
      if (enter[kid] !== -1) continue;
      enter[kid] = k++;
      depth++;
      stack[depth] = kid;
      next[depth] = kids.from[kid]!;
    }
  };
  for (let at = kids.from[n]!; at < kids.from[n + 1]!; at++) walk(kids.list[at]!);
  // Spans caught in a parent cycle are not reached from a root: walk them in span order.
  if (k < 2 * n) for (const s of Uint32Array.from({ length: n }, (_, i) => i).sort(bySpanOrder)) if (enter[s] === -1) walk(s);
  const latest = latestTime(spans);
  const t = new Float64Array(2 * n);
  const key = new Int32Array(2 * n);
  const points = new Uint32Array(2 * n);
  for (let s = 0; s < n; s++) {
    t[2 * s] = spans.start(s);
    key[2 * s] = enter[s]!;
    t[2 * s + 1] = s === last ? latest : spans.end(s);
    key[2 * s + 1] = s === last ? 2 * n : exit[s]!;
    points[2 * s] = 2 * s;
    points[2 * s + 1] = 2 * s + 1;
  }
  return points.sort((a, b) => t[a]! - t[b]! || key[a]! - key[b]!);
}

/** The latest start or end of any span (-Infinity for none). */
export function latestTime(spans: OrderedSpans): number {
  let latest = -Infinity;
  for (let s = 0; s < spans.count; s++) latest = Math.max(latest, spans.end(s), spans.start(s));
  return latest;
}

/**
 * Each span's children, in span order, as one list: span p's are `list[from[p]]` … `list[from[p + 1] - 1]`, and
 * the roots (no parent, an unknown one, or itself) are those of p = count.
 */
function childLists(spans: OrderedSpans): { from: Int32Array; list: Int32Array } {
  const n = spans.count;
  const parent = new Int32Array(n);
  const from = new Int32Array(n + 2);
  for (let s = 0; s < n; s++) {
    const p = spans.parentOf(s);
    parent[s] = p >= 0 && p !== s ? p : n;
    from[parent[s]! + 1]!++;
  }
  for (let p = 0; p <= n; p++) from[p + 1]! += from[p]!;
  const fill = from.slice(0, n + 1);
  const list = new Int32Array(n);
  for (let s = 0; s < n; s++) list[fill[parent[s]!]!++] = s;
  const bySpanOrder = (a: number, b: number) => spans.start(a) - spans.start(b) || spans.end(a) - spans.end(b) || a - b;
  for (let p = 0; p <= n; p++) if (from[p + 1]! - from[p]! > 1) list.subarray(from[p], from[p + 1]).sort(bySpanOrder);
  return { from, list };
}

/**
 * A span time in microseconds since the epoch: an ISO string (fraction digits kept to the microsecond,
 * not cut at milliseconds as Date.parse does), a decimal string of nanoseconds (OTLP), or a number of
 * seconds, milliseconds, microseconds or nanoseconds (told apart by size). 0 when unreadable.
 */
export function spanMicros(v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v > 1e17 ? Math.floor(v / 1e3) : v > 1e14 ? v : v > 1e11 ? v * 1e3 : v * 1e6;
  if (typeof v !== 'string') return 0;
  if (/^\d{1,30}$/.test(v)) return v.length > 17 ? Number(BigInt(v) / 1000n) : spanMicros(Number(v));
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?$/i.exec(v.trim());
  if (!m) return 0;
  const ms = Date.parse(`${m[1]}${m[3] ?? 'Z'}`);
  if (!Number.isFinite(ms)) return 0;
  const frac = ((m[2] ?? '') + '000000').slice(0, 6);
  return ms * 1000 + Number(frac);
}
