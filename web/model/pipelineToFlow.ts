import type { Edge, Node } from '@xyflow/react';
import { type Pipeline, type PipelineNode, type Wire, type Problem, describeMatcher, eventModes, patternMode, type PatternMode } from '../../engine/app.ts';
import { describeAction } from './describeAction.ts';
import { DEFAULT_SIZES } from './autoLayout.ts';
import { routeWires, type Box, type Point } from './routeWires.ts';
import { nodeAriaLabel, nodeName } from './nodeName.ts';

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
  /** What the pipeline loses at this node on the agent marked from "Export for agent" (the engine's loss report lines). */
  marks?: readonly string[];
}

export type FlowNodeKind = PipelineNode['kind'];
export type HookFlowNode = Node<FlowNodeData, FlowNodeKind>;
export type HookFlowEdge = Edge<{ wire: Wire; /** The route around other nodes; none when there is no way around. */ points?: readonly Point[] }, 'routed'>;

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
  /** Loss report lines per node id (the engine's `lossReport` for the agent marked on the canvas). */
  marks?: ReadonlyMap<string, readonly string[]>;
  /** Wires out of the page's Tab order (still focusable): the editor reaches them after the nodes (useWireTabOrder). */
  wiresAfterNodes?: boolean;
}

/** A wire's own attributes when it is out of the Tab order (React Flow spreads them after its own tabIndex). */
const WIRE_AFTER_NODES = { tabIndex: -1 } as const;

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

/** The box of every node on the canvas: its position and its measured size (a default one before that). */
export function nodeBoxes(nodes: readonly HookFlowNode[]): Map<string, Box> {
  return new Map(nodes.map((n) => [n.id, { ...n.position, ...(n.measured?.width && n.measured.height ? { width: n.measured.width, height: n.measured.height } : DEFAULT_SIZES[n.type ?? 'handler']) }]));
}

type Routes = ReadonlyMap<string, readonly Point[]>;

/**
 * Maps a document to React Flow nodes and edges, each edge routed around the nodes it is not part of.
 * Nodes without a position are placed at the origin. `reuse` hands in routes to keep instead of routing
 * again (the mapper keeps the routes of wires away from a node being dragged).
 */
export function pipelineToFlow(doc: Pipeline, view: FlowView = EMPTY_VIEW, reuse?: (id: string) => readonly Point[] | undefined): { nodes: HookFlowNode[]; edges: HookFlowEdge[] } {
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
      ariaLabel: nodeAriaLabel(node, view.nodeClasses?.get(node.id)),
      selected: view.selectedNodes.has(node.id),
      data: { node, summary: summarize(node, mode), ...(mode ? { mode } : {}), problems: byNode.get(node.id) ?? NO_PROBLEMS, ...(view.marks?.has(node.id) ? { marks: view.marks.get(node.id)! } : {}) },
    };
  });
  const boxes = nodeBoxes(nodes);
  const wires = doc.wires.map((w) => ({ id: edgeId(w), from: w.from, to: w.to }));
  const kept = new Map<string, readonly Point[]>();
  if (reuse) for (const w of wires) {
    const r = reuse(w.id);
    if (r) kept.set(w.id, r);
  }
  const routes: Routes = new Map([...kept, ...routeWires(boxes, wires.filter((w) => !kept.has(w.id)))]);
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const named = (id: string) => {
    const n = byId.get(id);
    return n ? nodeName(n) : id;
  };
  const edges = doc.wires.map((wire, k): HookFlowEdge => {
    const id = wires[k]!.id;
    const className = view.edgeClasses?.get(id);
    const points = routes.get(id);
    const ariaLabel = `Wire from ${named(wire.from)} to ${named(wire.to)}`;
    return {
      id, type: 'routed', source: wire.from, target: wire.to, ariaLabel, selected: view.selectedEdges.has(id), data: { wire, ...(points ? { points } : {}) },
      ...(className ? { className } : {}), ...(view.wiresAfterNodes ? { domAttributes: WIRE_AFTER_NODES } : {}),
    };
  });
  return { nodes, edges };
}

function sameProblems(a: readonly Problem[], b: readonly Problem[]): boolean {
  return a.length === b.length && a.every((p, i) => p.code === b[i]?.code && p.message === b[i]?.message);
}

function samePoints(a: readonly Point[] | undefined, b: readonly Point[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((p, i) => p.x === b[i]!.x && p.y === b[i]!.y);
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
    sameProblems(a.data.problems, b.data.problems) &&
    (a.data.marks ?? []).join('\n') === (b.data.marks ?? []).join('\n')
  );
}

/**
 * `pipelineToFlow` that hands back the previous object for every node and edge that did not change, so
 * React Flow re-renders only what an edit touched (a 300-node canvas stays smooth while typing).
 */
export function createFlowMapper(): (doc: Pipeline, view: FlowView) => { nodes: HookFlowNode[]; edges: HookFlowEdge[] } {
  let lastNodes = new Map<string, HookFlowNode>();
  let lastEdges = new Map<string, HookFlowEdge>();
  let lastGeometry: readonly unknown[] | null = null;
  return (doc, view) => {
    // While nodes are dragged only the wires of the dragged nodes are routed again (a 300-node canvas
    // takes ~50 ms to route whole); the drop routes everything.
    // An edit that moved nothing (a rename, a selection) keeps every route.
    const moving = view.dragging;
    const geometry = [doc.layout, doc.wires, doc.nodes.length, view.measured, view.dragging] as const;
    const still = lastGeometry !== null && geometry.every((g, i) => g === lastGeometry![i]);
    lastGeometry = geometry;
    const reuse = still
      ? (id: string) => lastEdges.get(id)?.data?.points
      : moving
        ? (id: string) => {
            const e = lastEdges.get(id);
            return e && !moving.has(e.source) && !moving.has(e.target) ? e.data?.points : undefined;
          }
        : undefined;
    const fresh = pipelineToFlow(doc, view, reuse);
    const nodes = fresh.nodes.map((n) => {
      const old = lastNodes.get(n.id);
      return old && sameNode(old, n) ? old : n;
    });
    const edges = fresh.edges.map((e) => {
      const old = lastEdges.get(e.id);
      return old && old.selected === e.selected && old.className === e.className && old.ariaLabel === e.ariaLabel && old.domAttributes === e.domAttributes && samePoints(old.data?.points, e.data?.points) ? old : e;
    });
    lastNodes = new Map(nodes.map((n) => [n.id, n]));
    lastEdges = new Map(edges.map((e) => [e.id, e]));
    return { nodes, edges };
  };
}
