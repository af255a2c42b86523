/**
 * Orthogonal wire routing around nodes, so a wire never passes under a node it is not part of (a wire
 * drawn under a matcher would make the matcher seem to feed the handler behind it).
 *
 * Every wire leaves its source on the right, enters its target on the left, and in between runs on a
 * sparse orthogonal grid built from the sides of the nodes grown by `MARGIN` (the lanes a wire may use).
 * A* on that grid, with a cost per bend, finds the shortest route with few bends that crosses no grown
 * box; the grid is first built from the nodes near the wire and, when that finds nothing, from all nodes.
 *
 * Why not a library: libavoid-js (the usual orthogonal connector router) took 7.7 s to route 300 nodes and
 * several minutes for a layered 300-node pipeline with fan-out, measured in Node 20; elkjs routes only
 * the positions it chooses itself, and the editor keeps the positions the user gave.
 */
export type Point = { x: number; y: number };
export type Box = { x: number; y: number; width: number; height: number };
export type RouteWire = { id: string; from: string; to: string };

/** Distance a wire keeps from every node it passes. */
export const MARGIN = 12;
/** Length of the straight piece out of a source handle and into a target handle. */
const STUB = MARGIN + 8;
/** Cost of one bend, in pixels of length. */
const BEND = 40;
/** How far past the endpoints the first, local search looks for a way around. */
const NEAR = 360;

type Rect = { x0: number; y0: number; x1: number; y1: number };

const grow = (b: Box, m: number): Rect => ({ x0: b.x - m, y0: b.y - m, x1: b.x + b.width + m, y1: b.y + b.height + m });

/**
 * The distinct values, ascending. Exactly distinct: merging near-equal ones (a rect's side half a pixel from
 * the midpoint between the endpoints) lost that side from the grid, and `search` then found no cell of the
 * rect to block, so a wire could run straight through the node.
 */
function sortedUnique(values: number[]): number[] {
  values.sort((a, b) => a - b);
  const out: number[] = [];
  for (const v of values) if (out.length === 0 || v !== out[out.length - 1]) out.push(v);
  return out;
}

/** Index of the first value >= v (values sorted). */
function lowerBound(values: readonly number[], v: number): number {
  let lo = 0, hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A min-heap of numbers keyed by a cost array. */
class Heap {
  private items: number[] = [];
  constructor(private readonly cost: Float64Array) {}
  get size() { return this.items.length; }
  push(v: number) {
    const a = this.items;
    a.push(v);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.cost[a[p]!]! <= this.cost[v]!) break;
      a[i] = a[p]!;
      i = p;
    }
    a[i] = v;
  }
  pop(): number {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        let mv = last;
        if (l < a.length && this.cost[a[l]!]! < this.cost[mv]!) { m = l; mv = a[l]!; }
        if (r < a.length && this.cost[a[r]!]! < this.cost[mv]!) { m = r; mv = a[r]!; }
        if (m === i) break;
        a[i] = a[m]!;
        i = m;
      }
      a[i] = last;
    }
    return top;
  }
}

/**
 * The bends of a route from `s` to `g` (both outside every rect) that enters no rect's inside, or null.
 * The route may run along a rect's border: the rects are the nodes grown by MARGIN.
 */
function search(s: Point, g: Point, rects: readonly Rect[], bounds: Rect): Point[] | null {
  const xs = sortedUnique([s.x, g.x, (s.x + g.x) / 2, bounds.x0, bounds.x1, ...rects.flatMap((r) => [r.x0, r.x1])].filter((x) => x >= bounds.x0 && x <= bounds.x1));
  const ys = sortedUnique([s.y, g.y, (s.y + g.y) / 2, bounds.y0, bounds.y1, ...rects.flatMap((r) => [r.y0, r.y1])].filter((y) => y >= bounds.y0 && y <= bounds.y1));
  const nx = xs.length, ny = ys.length;
  // blockedPoint: strictly inside a rect; blockedH/V: the segment to the next grid point passes through one.
  const blockedPoint = new Uint8Array(nx * ny);
  const blockedH = new Uint8Array(nx * ny);
  const blockedV = new Uint8Array(nx * ny);
  for (const r of rects) {
    const i0 = lowerBound(xs, r.x0), i1 = lowerBound(xs, r.x1);
    const j0 = lowerBound(ys, r.y0), j1 = lowerBound(ys, r.y1);
    for (let i = i0; i < nx && xs[i]! <= r.x1; i++) {
      for (let j = j0; j < ny && ys[j]! <= r.y1; j++) {
        const inX = xs[i]! > r.x0 && xs[i]! < r.x1;
        const inY = ys[j]! > r.y0 && ys[j]! < r.y1;
        const k = i * ny + j;
        if (inX && inY) blockedPoint[k] = 1;
        // Horizontal segment i→i+1 at row j lies inside when the row is strictly inside and the span within.
        if (inY && i < i1) blockedH[k] = 1;
        if (inX && j < j1) blockedV[k] = 1;
      }
    }
  }
  const si = lowerBound(xs, s.x), sj = lowerBound(ys, s.y);
  const gi = lowerBound(xs, g.x), gj = lowerBound(ys, g.y);
  if (blockedPoint[si * ny + sj] || blockedPoint[gi * ny + gj]) return null;
  // States: grid point × direction of travel (0 horizontal, 1 vertical).
  const n = nx * ny * 2;
  const cost = new Float64Array(n).fill(Infinity);
  const prio = new Float64Array(n);
  const prev = new Int32Array(n).fill(-1);
  const done = new Uint8Array(n);
  const heap = new Heap(prio);
  const h = (i: number, j: number) => Math.abs(xs[i]! - g.x) + Math.abs(ys[j]! - g.y);
  const start = (si * ny + sj) * 2;
  cost[start] = 0;
  prio[start] = h(si, sj);
  heap.push(start);
  const goal = (gi * ny + gj) * 2;
  while (heap.size) {
    const st = heap.pop();
    if (done[st]) continue;
    done[st] = 1;
    if (st === goal) break;
    const p = st >> 1, dir = st & 1;
    const i = Math.floor(p / ny), j = p % ny;
    const relax = (ni: number, nj: number, ndir: number, len: number) => {
      const ns = (ni * ny + nj) * 2 + ndir;
      if (done[ns]) return;
      const c = cost[st]! + len + (ndir !== dir ? BEND : 0);
      if (c < cost[ns]!) {
        cost[ns] = c;
        prev[ns] = st;
        prio[ns] = c + h(ni, nj);
        heap.push(ns);
      }
    };
    if (i + 1 < nx && !blockedH[p] && !blockedPoint[p + ny]) relax(i + 1, j, 0, xs[i + 1]! - xs[i]!);
    if (i > 0 && !blockedH[p - ny] && !blockedPoint[p - ny]) relax(i - 1, j, 0, xs[i]! - xs[i - 1]!);
    if (j + 1 < ny && !blockedV[p] && !blockedPoint[p + 1]) relax(i, j + 1, 1, ys[j + 1]! - ys[j]!);
    if (j > 0 && !blockedV[p - 1] && !blockedPoint[p - 1]) relax(i, j - 1, 1, ys[j]! - ys[j - 1]!);
  }
  if (!done[goal]) return null;
  const points: Point[] = [];
  for (let st = goal; st !== -1; st = prev[st]!) {
    const p = st >> 1;
    points.push({ x: xs[Math.floor(p / ny)]!, y: ys[p % ny]! });
  }
  return points.reverse();
}

/** Drops repeated points and points in the middle of a straight run. */
export function simplify(points: readonly Point[]): Point[] {
  const out: Point[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && Math.abs(last.x - p.x) < 0.01 && Math.abs(last.y - p.y) < 0.01) continue;
    const before = out[out.length - 2];
    if (before && last && ((Math.abs(before.x - last.x) < 0.01 && Math.abs(last.x - p.x) < 0.01) || (Math.abs(before.y - last.y) < 0.01 && Math.abs(last.y - p.y) < 0.01))) out[out.length - 1] = p;
    else out.push(p);
  }
  return out;
}

const intersects = (a: Rect, b: Rect) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/**
 * One wire's route: source handle (right middle of `from`) to target handle (left middle of `to`), around
 * every box in `obstacles` (but one lying on the source's or target's handle) and around its own two nodes
 * (a wire back to a node on the left goes round its source and its target, not under them), keeping MARGIN
 * from them where there is room. Null when there is no way around (nodes packed too tight to pass between).
 */
export function routeWire(from: Box, to: Box, obstacles: readonly Box[]): Point[] | null {
  const S = { x: from.x + from.width, y: from.y + from.height / 2 };
  const T = { x: to.x, y: to.y + to.height / 2 };
  const s = { x: S.x + STUB, y: S.y };
  const g = { x: T.x - STUB, y: T.y };
  // A node close to an endpoint keeps a smaller margin there (the wire still passes beside it); one lying
  // on an endpoint (nodes dropped onto each other) cannot be avoided: route around the rest.
  const gap = (p: Point, b: Box) => Math.max(b.x - p.x, p.x - (b.x + b.width), b.y - p.y, p.y - (b.y + b.height));
  const rects = [from, to, ...obstacles].flatMap((b) => {
    const d = Math.min(gap(s, b), gap(g, b));
    if (d <= 0) return [];
    return [grow(b, Math.min(MARGIN, d - 0.5))];
  });
  const span: Rect = { x0: Math.min(s.x, g.x), y0: Math.min(s.y, g.y), x1: Math.max(s.x, g.x), y1: Math.max(s.y, g.y) };
  const near: Rect = { x0: span.x0 - NEAR, y0: span.y0 - NEAR, x1: span.x1 + NEAR, y1: span.y1 + NEAR };
  const local = rects.filter((r) => intersects(r, near));
  let path = search(s, g, local, near);
  if (!path && local.length < rects.length) {
    const all = rects.reduce((a, r) => ({ x0: Math.min(a.x0, r.x0), y0: Math.min(a.y0, r.y0), x1: Math.max(a.x1, r.x1), y1: Math.max(a.y1, r.y1) }), near);
    path = search(s, g, rects, { x0: all.x0 - MARGIN, y0: all.y0 - MARGIN, x1: all.x1 + MARGIN, y1: all.y1 + MARGIN });
  }
  return path ? simplify([S, ...path, T]) : null;
}

/**
 * Routes for all wires whose two nodes have a box. A wire's route avoids every box but its own two.
 * Wires with no way around are left out (the caller draws them the plain way).
 */
export function routeWires(boxes: ReadonlyMap<string, Box>, wires: readonly RouteWire[]): Map<string, Point[]> {
  const routes = new Map<string, Point[]>();
  const all = [...boxes.entries()];
  for (const w of wires) {
    const a = boxes.get(w.from), b = boxes.get(w.to);
    if (!a || !b) continue;
    const others = all.filter(([id]) => id !== w.from && id !== w.to).map(([, box]) => box);
    const r = routeWire(a, b, others);
    if (r) routes.set(w.id, r);
  }
  return routes;
}

/** Whether the segment p→q passes through the inside of box `b` grown by `m` (Liang–Barsky clipping). */
export function segmentCrossesBox(p: Point, q: Point, b: Box, m = 0): boolean {
  const x0 = b.x - m, x1 = b.x + b.width + m, y0 = b.y - m, y1 = b.y + b.height + m;
  const dx = q.x - p.x, dy = q.y - p.y;
  let t0 = 0, t1 = 1;
  for (const [pk, qk] of [[-dx, p.x - x0], [dx, x1 - p.x], [-dy, p.y - y0], [dy, y1 - p.y]] as const) {
    if (pk === 0) {
      if (qk <= 0) return false;
      continue;
    }
    const r = qk / pk;
    if (pk < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 >= t1) return false;
  }
  return true;
}

/** An SVG path through the points, with the corners rounded by up to `radius`. */
export function roundedPath(points: readonly Point[], radius = 8): string {
  if (points.length === 0) return '';
  let d = `M ${points[0]!.x} ${points[0]!.y}`;
  for (let k = 1; k < points.length; k++) {
    const p = points[k]!;
    const prev = points[k - 1]!;
    const next = points[k + 1];
    if (!next) {
      d += ` L ${p.x} ${p.y}`;
      break;
    }
    const r = Math.min(radius, Math.hypot(p.x - prev.x, p.y - prev.y) / 2, Math.hypot(next.x - p.x, next.y - p.y) / 2);
    const a = towards(p, prev, r), b = towards(p, next, r);
    d += ` L ${a.x} ${a.y} Q ${p.x} ${p.y} ${b.x} ${b.y}`;
  }
  return d;
}

function towards(from: Point, to: Point, dist: number): Point {
  const len = Math.hypot(to.x - from.x, to.y - from.y) || 1;
  return { x: from.x + ((to.x - from.x) / len) * dist, y: from.y + ((to.y - from.y) / len) * dist };
}
