import type { Pipeline } from '../../engine/app.ts';
import { DEFAULT_SIZES, type Size } from './autoLayout.ts';

type Kind = Pipeline['nodes'][number]['kind'];

/** Left to right, the way a pipeline is read and laid out (autoLayout.ts): events, matchers, handlers. */
const RANK: Readonly<Record<Kind, number>> = { event: 0, matcher: 1, handler: 2 };
const COLUMN_GAP = 90;

/**
 * Where a node of `kind` added by click, Enter or quick-add should aim (its top-left corner), so it lands in
 * flow order: in its kind's column when the pipeline has one (the median left edge of that kind's nodes),
 * else one column right of the nearest kind before it, else one column left of the nearest after it, else at
 * `want`. With one node selected that comes before it in the flow (an event, when a matcher is added), it
 * aims level with that node: the usual next step is to wire the two.
 */
export function flowPlace(
  doc: Pick<Pipeline, 'nodes' | 'layout'>,
  kind: Kind,
  want: { x: number; y: number },
  selected: readonly string[] = [],
  sizes?: ReadonlyMap<string, Size>,
): { x: number; y: number } {
  const at = new Map((doc.layout?.nodes ?? []).map((p) => [p.id, p]));
  const byRank: { x: number; right: number; y: number }[][] = [[], [], []];
  for (const n of doc.nodes) {
    const p = at.get(n.id);
    if (p) byRank[RANK[n.kind]]!.push({ x: p.x, right: p.x + (sizes?.get(n.id) ?? DEFAULT_SIZES[n.kind]).width, y: p.y });
  }
  const r = RANK[kind];
  const width = DEFAULT_SIZES[kind].width;
  let x = want.x;
  const own = byRank[r]!;
  if (own.length > 0) x = median(own.map((b) => b.x));
  else {
    const before = [...byRank.slice(0, r)].reverse().find((c) => c.length > 0);
    const after = byRank.slice(r + 1).find((c) => c.length > 0);
    if (before) x = Math.max(...before.map((b) => b.right)) + COLUMN_GAP;
    else if (after) x = Math.min(...after.map((b) => b.x)) - COLUMN_GAP - width;
  }
  let y = want.y;
  if (selected.length === 1) {
    const node = doc.nodes.find((n) => n.id === selected[0]);
    const p = node && at.get(node.id);
    if (node && p && RANK[node.kind] < r) y = p.y;
  }
  return { x: Math.round(x), y: Math.round(y) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}
