import type { PipelineNode, Wire } from './pipelineSchema.ts';

/** The wiring of a pipeline as adjacency maps (Maps, so user-named ids are just names [V8]). */
export interface PipelineGraph {
  nodes: Map<string, PipelineNode>;
  /** Document index of every node: the tie rule of [H1]. */
  index: Map<string, number>;
  incoming: Map<string, string[]>;
  outgoing: Map<string, string[]>;
}

/** Builds adjacency maps; wires to missing nodes are left out (validation reports them). */
export function buildGraph(pipeline: { readonly nodes: readonly PipelineNode[]; readonly wires: readonly Wire[] }): PipelineGraph {
  const nodes = new Map<string, PipelineNode>();
  const index = new Map<string, number>();
  pipeline.nodes.forEach((n, i) => {
    if (!nodes.has(n.id)) {
      nodes.set(n.id, n);
      index.set(n.id, i);
    }
  });
  const incoming = new Map<string, string[]>();
  const outgoing = new Map<string, string[]>();
  for (const id of nodes.keys()) {
    incoming.set(id, []);
    outgoing.set(id, []);
  }
  for (const w of pipeline.wires) {
    if (!nodes.has(w.from) || !nodes.has(w.to)) continue;
    outgoing.get(w.from)!.push(w.to);
    incoming.get(w.to)!.push(w.from);
  }
  return { nodes, index, incoming, outgoing };
}

/** The nodes of one cycle, if the graph has any (first found, in wire order). */
export function findCycle(graph: PipelineGraph): string[] | null {
  const color = new Map<string, 0 | 1 | 2>();
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    color.set(id, 1);
    stack.push(id);
    for (const next of graph.outgoing.get(id) ?? []) {
      const c = color.get(next) ?? 0;
      if (c === 1) return [...stack.slice(stack.indexOf(next)), next];
      if (c === 0) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    color.set(id, 2);
    return null;
  };
  for (const id of graph.nodes.keys()) {
    if ((color.get(id) ?? 0) === 0) {
      const found = visit(id);
      if (found) return found;
    }
  }
  return null;
}

/** Wire directions the pipeline allows [V3]: event → matcher|handler, matcher → matcher|handler. */
export function wireAllowed(from: PipelineNode['kind'], to: PipelineNode['kind']): boolean {
  if (from === 'handler' || to === 'event') return false;
  return true;
}

/**
 * Every path from an event node to `handlerId` [M2], as node ids (event first, handler last). The graph
 * must be acyclic. Bounded by `limit` so a pathological graph cannot explode.
 */
export function pathsTo(graph: PipelineGraph, handlerId: string, limit = 256): string[][] {
  const out: string[][] = [];
  const walk = (id: string, suffix: string[]) => {
    if (out.length >= limit) return;
    const node = graph.nodes.get(id);
    if (!node) return;
    const chain = [id, ...suffix];
    if (node.kind === 'event') {
      out.push(chain);
      return;
    }
    for (const prev of graph.incoming.get(id) ?? []) walk(prev, chain);
  };
  walk(handlerId, []);
  // Order paths by the document order of their nodes so explanations are stable.
  return out.sort((a, b) => compareChains(a, b, graph.index));
}

function compareChains(a: string[], b: string[], index: Map<string, number>): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = (index.get(a[i]!) ?? 0) - (index.get(b[i]!) ?? 0);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Whether `goal` can be reached from `start` along wires (a new wire `goal → start` would close a cycle). */
export function reachable(graph: PipelineGraph, start: string, goal: string): boolean {
  const seen = new Set<string>([start]);
  const stack = [start];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === goal) return true;
    for (const n of graph.outgoing.get(id) ?? []) if (!seen.has(n)) (seen.add(n), stack.push(n));
  }
  return false;
}

/** Whether a node leads (through wires) to at least one handler. */
export function leadsToHandler(graph: PipelineGraph, id: string, seen = new Set<string>()): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  for (const next of graph.outgoing.get(id) ?? []) {
    if (graph.nodes.get(next)?.kind === 'handler' || leadsToHandler(graph, next, seen)) return true;
  }
  return false;
}
