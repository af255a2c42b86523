/** What the ordering needs of a span: its id, its parent's id, its times and its place in the file. */
export interface OrderedSpan {
  hex: string;
  parent: string | null;
  /** Microseconds since the epoch (exact for ISO times with up to six fraction digits). */
  start: number;
  end: number;
  index: number;
}

export interface SpanPoint<S extends OrderedSpan> {
  s: S;
  end: boolean;
  /** The time this point is placed at, in microseconds. */
  t: number;
}

/**
 * Orders span starts and ends by time [I5], ties broken by the span tree walked depth first (children by
 * start, then end, then file order): a span starts before it ends even with zero length, a parent starts
 * before and ends after its children, and a span that ends at the instant its sibling starts comes first.
 * This holds when times are cut to milliseconds (many ties). `lastSpan`'s end (the root agent span) goes
 * after every other point, at the latest time seen, so `agent.end` is last. Iterative: no recursion depth.
 */
export function orderSpanPoints<S extends OrderedSpan>(spans: readonly S[], lastSpan?: S): SpanPoint<S>[] {
  const byId = new Map<string, S>();
  for (const s of spans) if (!byId.has(s.hex)) byId.set(s.hex, s);
  const children = new Map<S | null, S[]>();
  for (const s of spans) {
    const p = s.parent !== null ? byId.get(s.parent) : undefined;
    const key = p && p !== s ? p : null;
    const list = children.get(key);
    if (list) list.push(s);
    else children.set(key, [s]);
  }
  const bySpanOrder = (a: S, b: S) => a.start - b.start || a.end - b.end || a.index - b.index;
  for (const list of children.values()) list.sort(bySpanOrder);
  const pos = new Map<S, { enter: number; exit: number }>();
  let n = 0;
  const walk = (root: S) => {
    const stack: { s: S; next: number }[] = [{ s: root, next: 0 }];
    pos.set(root, { enter: n++, exit: -1 });
    while (stack.length) {
      const top = stack[stack.length - 1] as { s: S; next: number };
      const kids = children.get(top.s) ?? [];
      const kid = kids[top.next++];
      if (kid === undefined) {
        (pos.get(top.s) as { exit: number }).exit = n++;
        stack.pop();
      } else if (!pos.has(kid)) {
        pos.set(kid, { enter: n++, exit: -1 });
        stack.push({ s: kid, next: 0 });
      }
    }
  };
  for (const r of children.get(null) ?? []) walk(r);
  // Spans caught in a parent cycle are not reached from a root: walk them in file order.
  for (const s of [...spans].sort(bySpanOrder)) if (!pos.has(s)) walk(s);
  let latest = -Infinity;
  for (const s of spans) latest = Math.max(latest, s.end, s.start);
  const points: (SpanPoint<S> & { k: number })[] = [];
  for (const s of spans) {
    const p = pos.get(s) as { enter: number; exit: number };
    points.push({ s, end: false, t: s.start, k: p.enter });
    const last = s === lastSpan;
    points.push({ s, end: true, t: last ? latest : s.end, k: last ? Infinity : p.exit });
  }
  points.sort((a, b) => a.t - b.t || a.k - b.k);
  return points;
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
