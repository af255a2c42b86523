import type { PipelineNode, Wire } from './pipelineTypes.ts';

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

/**
 * The nodes of one cycle, if the graph has any (first found, in wire order). Depth-first with an explicit
 * stack: a chain of 20k matchers is a valid pipeline and must not overflow the call stack.
 */
export function findCycle(graph: PipelineGraph): string[] | null {
  const color = new Map<string, 0 | 1 | 2>();
  for (const root of graph.nodes.keys()) {
    if ((color.get(root) ?? 0) !== 0) continue;
    // Each frame: a node on the current path and how many of its outgoing wires were tried.
    const path: string[] = [root];
    const tried: number[] = [0];
    color.set(root, 1);
    while (path.length > 0) {
      const id = path[path.length - 1]!;
      const out = graph.outgoing.get(id) ?? [];
      const k = tried[tried.length - 1]!;
      if (k >= out.length) {
        color.set(id, 2);
        path.pop();
        tried.pop();
        continue;
      }
      tried[tried.length - 1] = k + 1;
      const next = out[k]!;
      const c = color.get(next) ?? 0;
      if (c === 1) return [...path.slice(path.indexOf(next)), next];
      if (c === 0) {
        color.set(next, 1);
        path.push(next);
        tried.push(0);
      }
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
  // Walked backwards from the handler with an explicit stack (long chains must not overflow); each entry
  // is a node and the chain from it to the handler.
  const stack: [string, string[]][] = [[handlerId, []]];
  while (stack.length > 0 && out.length < limit) {
    const [id, suffix] = stack.pop()!;
    const node = graph.nodes.get(id);
    if (!node) continue;
    const chain = [id, ...suffix];
    if (node.kind === 'event') {
      out.push(chain);
      continue;
    }
    const prev = graph.incoming.get(id) ?? [];
    for (let i = prev.length - 1; i >= 0; i--) stack.push([prev[i]!, chain]);
  }
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

/** Every node from which some handler can be reached: one walk back from all handlers, linear in the graph. */
export function leadingToHandlers(graph: PipelineGraph): Set<string> {
  const seen = new Set<string>();
  const stack: string[] = [];
  for (const [id, node] of graph.nodes) if (node.kind === 'handler') stack.push(id);
  while (stack.length > 0) {
    for (const prev of graph.incoming.get(stack.pop()!) ?? []) {
      if (!seen.has(prev)) {
        seen.add(prev);
        stack.push(prev);
      }
    }
  }
  return seen;
}
