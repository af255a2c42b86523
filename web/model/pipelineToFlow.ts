import type { Edge, Node } from '@xyflow/react';
import type { Pipeline, PipelineNode, Wire } from '../../engine/model/pipelineSchema.ts';
import type { Problem } from '../../engine/model/problem.ts';
import { describeMatcher } from '../../engine/model/describeCondition.ts';
import { describeAction } from './describeAction.ts';
import { eventModes, patternMode, type PatternMode } from '../../engine/model/eventModes.ts';

/**
 * The pure mapping from a pipeline document to React Flow nodes and edges (STYLE habit 6), and back from a
 * React Flow edge id to the wire it stands for. The canvas is a view: nothing here changes the document.
 */
export interface FlowNodeData extends Record<string, unknown> {
  node: PipelineNode;
  /** Matcher: its condition in one line; handler: what it does; event: its mode. */
  summary: string;
  mode?: PatternMode;
  problems: readonly Problem[];
}

export type FlowNodeKind = PipelineNode['kind'];
export type HookFlowNode = Node<FlowNodeData, FlowNodeKind>;
export type HookFlowEdge = Edge<{ wire: Wire }>;

export interface FlowView {
  selectedNodes: ReadonlySet<string>;
  selectedEdges: ReadonlySet<string>;
  problems: readonly Problem[];
  /** Sizes React Flow measured; handed back so it does not measure again (controlled flow). */
  measured?: ReadonlyMap<string, { width: number; height: number }>;
  /** Positions of nodes being dragged, shown before the move is committed as one change. */
  dragging?: ReadonlyMap<string, { x: number; y: number }>;
  /** Extra CSS classes per node id / edge id, e.g. the debugger's highlight of the path an event took. */
  nodeClasses?: ReadonlyMap<string, string>;
  edgeClasses?: ReadonlyMap<string, string>;
}

export const EMPTY_VIEW: FlowView = { selectedNodes: new Set(), selectedEdges: new Set(), problems: [] };

/** Edge ids encode the wire exactly (any characters in node ids are safe). */
export function edgeId(wire: Wire): string {
  return JSON.stringify([wire.from, wire.to]);
}

export function wireOfEdgeId(id: string): Wire {
  const [from, to] = JSON.parse(id) as [string, string];
  return { from, to };
}

function summarize(node: PipelineNode, mode: PatternMode | undefined): string {
  if (node.kind === 'matcher') return describeMatcher(node, 90);
  if (node.kind === 'handler') return describeAction(node.action);
  return mode ?? 'sync';
}

function problemsByNode(problems: readonly Problem[]): Map<string, Problem[]> {
  const map = new Map<string, Problem[]>();
  for (const p of problems) {
    if (p.node_id === undefined) continue;
    const list = map.get(p.node_id);
    if (list) list.push(p);
    else map.set(p.node_id, [p]);
  }
  return map;
}

const NO_PROBLEMS: readonly Problem[] = [];

/** Maps a document to React Flow nodes and edges. Nodes without a position are placed at the origin. */
export function pipelineToFlow(doc: Pipeline, view: FlowView = EMPTY_VIEW): { nodes: HookFlowNode[]; edges: HookFlowEdge[] } {
  const positions = new Map((doc.layout?.nodes ?? []).map((p) => [p.id, p]));
  const known = eventModes(doc);
  const byNode = problemsByNode(view.problems);
  const nodes = doc.nodes.map((node): HookFlowNode => {
    const p = view.dragging?.get(node.id) ?? positions.get(node.id);
    const mode = node.kind === 'event' ? patternMode(node.pattern, known) : undefined;
    const measured = view.measured?.get(node.id);
    return {
      id: node.id,
      type: node.kind,
      position: { x: p?.x ?? 0, y: p?.y ?? 0 },
      ...(measured ? { measured } : {}),
      ...(view.nodeClasses?.has(node.id) ? { className: view.nodeClasses.get(node.id) } : {}),
      selected: view.selectedNodes.has(node.id),
      data: { node, summary: summarize(node, mode), ...(mode ? { mode } : {}), problems: byNode.get(node.id) ?? NO_PROBLEMS },
    };
  });
  const edges = doc.wires.map((wire): HookFlowEdge => {
    const id = edgeId(wire);
    const className = view.edgeClasses?.get(id);
    return { id, source: wire.from, target: wire.to, selected: view.selectedEdges.has(id), data: { wire }, ...(className ? { className } : {}) };
  });
  return { nodes, edges };
}

function sameProblems(a: readonly Problem[], b: readonly Problem[]): boolean {
  return a.length === b.length && a.every((p, i) => p.code === b[i]?.code && p.message === b[i]?.message);
}

function sameNode(a: HookFlowNode, b: HookFlowNode): boolean {
  return (
    a.data.node === b.data.node &&
    a.position.x === b.position.x &&
    a.position.y === b.position.y &&
    a.selected === b.selected &&
    a.className === b.className &&
    a.measured?.width === b.measured?.width &&
    a.measured?.height === b.measured?.height &&
    a.data.mode === b.data.mode &&
    sameProblems(a.data.problems, b.data.problems)
  );
}

/**
 * `pipelineToFlow` that hands back the previous object for every node and edge that did not change, so
 * React Flow re-renders only what an edit touched (a 300-node canvas stays smooth while typing).
 */
export function createFlowMapper(): (doc: Pipeline, view: FlowView) => { nodes: HookFlowNode[]; edges: HookFlowEdge[] } {
  let lastNodes = new Map<string, HookFlowNode>();
  let lastEdges = new Map<string, HookFlowEdge>();
  return (doc, view) => {
    const fresh = pipelineToFlow(doc, view);
    const nodes = fresh.nodes.map((n) => {
      const old = lastNodes.get(n.id);
      return old && sameNode(old, n) ? old : n;
    });
    const edges = fresh.edges.map((e) => {
      const old = lastEdges.get(e.id);
      return old && old.selected === e.selected && old.className === e.className ? old : e;
    });
    lastNodes = new Map(nodes.map((n) => [n.id, n]));
    lastEdges = new Map(edges.map((e) => [e.id, e]));
    return { nodes, edges };
  };
}
