import dagre from '@dagrejs/dagre';
import type { Pipeline } from '../../engine/app.ts';
import type { NodePosition } from './changes.ts';

export type Size = { width: number; height: number };

/** Sizes used before React Flow has measured a node; close to the rendered cards. */
export const DEFAULT_SIZES: Readonly<Record<'event' | 'matcher' | 'handler', Size>> = {
  event: { width: 220, height: 64 },
  matcher: { width: 260, height: 84 },
  handler: { width: 260, height: 96 },
};

/**
 * Left-to-right layered layout of the whole graph with dagre: events in the first column, handlers on the right,
 * wires crossing as little as dagre manages. Returns a position (top-left corner) for every node.
 */
export function autoLayout(doc: Pick<Pipeline, 'nodes' | 'wires'>, sizes?: ReadonlyMap<string, Size>): NodePosition[] {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 28, ranksep: 90, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of doc.nodes) {
    const size = sizes?.get(node.id) ?? DEFAULT_SIZES[node.kind];
    g.setNode(node.id, { width: size.width, height: size.height });
  }
  for (const w of doc.wires) if (g.hasNode(w.from) && g.hasNode(w.to)) g.setEdge(w.from, w.to);
  // Every event node in the first column: a hidden root wired to each event with a heavy weight holds
  // them there (dagre has no rank constraints); the root's own column is taken off afterwards.
  const ROOT = '\u0000root';
  const events = doc.nodes.filter((n) => n.kind === 'event');
  if (events.length > 0) {
    g.setNode(ROOT, { width: 1, height: 1 });
    for (const e of events) g.setEdge(ROOT, e.id, { weight: 1000, minlen: 1 });
  }
  dagre.layout(g);
  const placed = doc.nodes.map((node) => {
    const n = g.node(node.id) as { x: number; y: number; width: number; height: number };
    // dagre gives centres; the canvas places nodes by their top-left corner.
    return { id: node.id, x: n.x - n.width / 2, y: n.y - n.height / 2 };
  });
  const x0 = Math.min(...placed.map((p) => p.x)), y0 = Math.min(...placed.map((p) => p.y));
  return placed.map((p) => ({ id: p.id, x: Math.round(p.x - x0), y: Math.round(p.y - y0) }));
}

/**
 * The editor's invariant: `layout.nodes` has exactly one entry per node, in node order. Missing entries are
 * laid out automatically (an imported file without layout is laid out whole); unknown ones are dropped.
 */
export function normalizeLayout(doc: Pipeline): Pipeline {
  const have = new Map((doc.layout?.nodes ?? []).map((p) => [p.id, p]));
  const complete = doc.nodes.every((n) => have.has(n.id)) && have.size === doc.nodes.length;
  if (complete && doc.layout && doc.layout.nodes.length === doc.nodes.length) return doc;
  const missing = doc.nodes.some((n) => !have.has(n.id));
  const auto = missing ? new Map(autoLayout(doc).map((p) => [p.id, p])) : new Map<string, NodePosition>();
  const nodes = doc.nodes.map((n) => have.get(n.id) ?? (auto.get(n.id) as NodePosition));
  return { ...doc, layout: { ...(doc.layout ?? {}), nodes } };
}
