import type { PipelineNode, Wire } from './pipelineTypes.ts';
import type { Problem } from './problem.ts';

import { buildGraph, reachable, wireAllowed } from './graph.ts';

type Kind = PipelineNode['kind'];

function directionMessage(from: Kind, to: Kind): string {
  if (from === 'handler') return 'A handler is the end of a path: it cannot feed another node.';
  if (to === 'event') return 'Nothing can feed an event node: events come from the agent.';
  return `A ${from} cannot feed a ${to}.`;
}

/**
 * Whether adding `wire` to a pipeline's graph keeps it valid under [V3]: both ends exist, the direction is
 * allowed, the wire is new and closes no cycle. Returns the problem the loader would report, or null.
 * The editor uses it to refuse a wire while it is being drawn.
 * `checkWire({ nodes, wires }, { from: 'h1', to: 'm1' })` → `{ code: 'bad_wire', ... }`.
 */
export function checkWire(graph: { nodes: readonly PipelineNode[]; wires: readonly Wire[] }, wire: Wire): Problem | null {
  const from = graph.nodes.find((n) => n.id === wire.from);
  const to = graph.nodes.find((n) => n.id === wire.to);
  const path = ['wires', graph.wires.length];
  if (!from || !to) {
    const missing = from ? wire.to : wire.from;
    return { code: 'missing_node', severity: 'error', path, message: `No node "${missing}".` };
  }
  if (wire.from === wire.to) return { code: 'cycle', severity: 'error', path, message: 'A node cannot feed itself.', node_id: wire.from };
  if (!wireAllowed(from.kind, to.kind)) {
    return { code: 'bad_wire', severity: 'error', path, message: directionMessage(from.kind, to.kind), node_id: wire.from };
  }
  if (graph.wires.some((w) => w.from === wire.from && w.to === wire.to)) {
    return { code: 'duplicate_wire', severity: 'error', path, message: 'These nodes are already wired.', node_id: wire.from };
  }
  if (reachable(buildGraph(graph), wire.to, wire.from)) {
    return { code: 'cycle', severity: 'error', path, message: 'This wire would close a cycle.', node_id: wire.from };
  }
  return null;
}
