// The span ordering as it was before it was packed into columns (spanOrder.ts at c4cdbbf: an object a span and a
// Map a tree): the oracle of the index-based orderSpanPoints' property test [I5], which must order any spans as it did.

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
export function orderSpanPointsWhole<S extends OrderedSpan>(spans: readonly S[], lastSpan?: S): SpanPoint<S>[] {
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
