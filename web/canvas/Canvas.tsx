import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import {
  Background, BackgroundVariant, MiniMap, ReactFlow, useReactFlow, useStore,
  type Connection, type EdgeChange, type NodeChange, type OnConnectEnd, type Viewport,
} from '@xyflow/react';
import { checkWire } from '../../engine/app.ts';
import { createFlowMapper, nodeBoxes, wireOfEdgeId, type HookFlowEdge, type HookFlowNode } from '../model/pipelineToFlow.ts';
import type { PaletteItem } from '../model/nodeFactory.ts';
import { useApp, selectDoc, selectFocusRequest, selectProblems, selectSelectedEdges, selectSelectedNodes } from '../store/appStore.ts';
import { ConnectionLine } from './ConnectionLine.tsx';
import { NODE_TYPES } from './NodeViews.tsx';
import { EDGE_TYPES } from './RoutedEdge.tsx';
import { CanvasToolbar } from './CanvasToolbar.tsx';
import { openingView } from './openingView.ts';
import { QuickAdd, QUICK_ADD_KEYS } from './QuickAdd.tsx';
import { ContextMenu, type MenuItem, type MenuState } from './ContextMenu.tsx';
import { nodeMenu, paneMenu, wireMenu } from './canvasMenu.ts';
import { nodeName } from '../model/nodeName.ts';
import { typingTarget, useCanvasShortcuts } from './useCanvasShortcuts.ts';
import { addPaletteItem, PALETTE_MIME } from './addPaletteItem.ts';
import { useAgentMarks } from './agentMarks.tsx';
import { useRunNodeKey } from './useRunNodeKey.ts';
import { useKeepSelectionInView } from './useKeepSelectionInView.ts';
import { minimapCorner, type ScreenBox } from './minimapCorner.ts';
import { useWireTabOrder } from './useWireTabOrder.ts';
import { useRevealAdded } from './useRevealAdded.ts';

type Size = { width: number; height: number };

const MINIMAP_COLORS: Record<string, string> = { event: '#2f6fde', matcher: '#c27c0e', handler: '#7d8796' };
const minimapColor = (n: HookFlowNode) => MINIMAP_COLORS[n.type ?? 'handler'] ?? '#7d8796';
const DEFAULT_EDGE = { type: 'routed', markerEnd: { type: 'arrowclosed' as const, width: 16, height: 16, color: '#9aa3b2' } };

/** The minimap's size, and React Flow's margin around a panel (in whichever corner it shows). */
const MINIMAP = { width: 168, height: 112, margin: 15 };

/**
 * The minimap, only while some node is out of view and only in a corner where it covers no node on screen
 * (minimapCorner): at 1280×720 with the library open it sat over the demo's Audit log.
 */
function OverflowMiniMap() {
  const corner = useStore((s) => {
    const [tx, ty, z] = s.transform;
    const boxes: ScreenBox[] = [];
    for (const n of s.nodeLookup.values()) {
      const { x, y } = n.internals.positionAbsolute;
      const w = n.measured.width ?? 0, h = n.measured.height ?? 0;
      boxes.push({ x0: x * z + tx, y0: y * z + ty, x1: (x + w) * z + tx, y1: (y + h) * z + ty });
    }
    return minimapCorner(boxes, { width: s.width, height: s.height }, MINIMAP);
  });
  if (!corner) return null;
  return <MiniMap<HookFlowNode> position={corner} pannable zoomable style={{ width: MINIMAP.width, height: MINIMAP.height }} nodeColor={minimapColor} nodeStrokeWidth={0} maskColor="rgba(241,242,245,0.7)" />;
}

/**
 * The nodes the view keeps in sight (the debugger's lit path), and the one that must stay in sight when
 * they do not all fit at the zoom the person chose (the node that decided the step).
 */
/**
 * Nodes the view keeps in sight: all of `ids` when they fit; else `group` when it fits, else `anchor` alone,
 * starting from the top-left of `ids` (where the event is).
 */
export interface CanvasFollow { readonly ids: readonly string[]; readonly anchor?: string; readonly group?: readonly string[] }

/**
 * The pipeline as a React Flow graph. Every edit made here becomes a typed change in the store.
 * `readOnly` and the class maps are for other modes (the debugger highlights the path an event took).
 */
export function Canvas({ readOnly = false, nodeClasses, edgeClasses, follow }: { readOnly?: boolean; nodeClasses?: ReadonlyMap<string, string>; edgeClasses?: ReadonlyMap<string, string>; follow?: CanvasFollow }) {
  const doc = useApp(selectDoc);
  const problems = useApp(selectProblems);
  const selectedNodes = useApp(selectSelectedNodes);
  const selectedEdges = useApp(selectSelectedEdges);
  const focusRequest = useApp(selectFocusRequest);
  const flow = useReactFlow<HookFlowNode, HookFlowEdge>();
  const mapper = useMemo(createFlowMapper, []);
  const [measured, setMeasured] = useState<ReadonlyMap<string, Size>>(new Map());
  const [dragging, setDragging] = useState<ReadonlyMap<string, { x: number; y: number }> | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);

  const marks = useAgentMarks(readOnly);
  const selNodes = useMemo(() => new Set(selectedNodes), [selectedNodes]);
  const selEdges = useMemo(() => new Set(selectedEdges), [selectedEdges]);
  const graph = useMemo(
    () =>
      doc
        ? mapper(doc, {
            selectedNodes: selNodes, selectedEdges: selEdges, problems, measured,
            ...(dragging ? { dragging } : {}), ...(nodeClasses ? { nodeClasses } : {}), ...(edgeClasses ? { edgeClasses } : {}), ...(marks ? { marks } : {}),
            wiresAfterNodes: !readOnly,
          })
        : { nodes: [], edges: [] },
    [doc, mapper, selNodes, selEdges, problems, measured, dragging, nodeClasses, edgeClasses, marks, readOnly],
  );
  const wireTab = useWireTabOrder(wrapper);

  useCanvasShortcuts(flow, readOnly);
  useRunNodeKey(!readOnly);
  useKeepSelectionInView(wrapper, flow);
  useRevealAdded(wrapper, flow, doc, !readOnly);

  // The view a pipeline opens at: the whole graph if it fits at a zoom where node text is readable (>= 12
  // px), else zoom 1 at its top-left corner. An empty pipeline opens at zoom 1 and stays there, so the
  // first node lands where it is dropped (React Flow's fitView would zoom in on it once it appears).
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !wrapper.current || graph.nodes.length === 0) {
      opened.current = true;
      return;
    }
    opened.current = true;
    const { width, height } = wrapper.current.getBoundingClientRect();
    void flow.setViewport(openingView(graph.nodes, { width, height }));
    // Once, on opening (the Canvas is keyed by pipeline).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The debugger's lit path stays in view: when a step lights nodes that are off screen, the view pans
  // (keeping the zoom the person chose) to centre them. When they do not fit, it starts from their
  // top-left corner (where the event is), moved just enough that the anchor's group (a failed matcher and
  // its handler), or when that does not fit the anchor alone (the deciding node, the failed matcher), is in view.
  const followKey = follow ? JSON.stringify([follow.anchor ?? '', follow.group ?? [], follow.ids]) : '';
  // Where the view is heading while a follow pan is under way. Playback at 10 or 25 steps a second moves
  // on before a 200 ms pan ends: the next step is measured against where the view will be, not where
  // the pan is half-way (a half-way view could pass for "in view" while the pan then carries the nodes out).
  const heading = useRef<{ view: Viewport; until: number } | null>(null);
  useEffect(() => {
    const el = wrapper.current;
    if (!followKey || !el) return;
    const [anchorId, group, ids] = JSON.parse(followKey) as [string, string[], string[]];
    const all = nodeBoxes(flow.getNodes());
    const boxes = ids.flatMap((id) => all.get(id) ?? []);
    if (boxes.length === 0) return;
    const now = performance.now();
    const { x: tx, y: ty, zoom } = heading.current && now < heading.current.until ? heading.current.view : flow.getViewport();
    const { width, height } = el.getBoundingClientRect();
    const span = (bs: readonly { x: number; y: number; width: number; height: number }[], horizontal: boolean): [number, number] => [
      Math.min(...bs.map((b) => (horizontal ? b.x : b.y))),
      Math.max(...bs.map((b) => (horizontal ? b.x + b.width : b.y + b.height))),
    ];
    const [x0, x1] = span(boxes, true);
    const [y0, y1] = span(boxes, false);
    const inView = x0 * zoom + tx >= 0 && y0 * zoom + ty >= 0 && x1 * zoom + tx <= width && y1 * zoom + ty <= height;
    if (inView) return;
    const pad = 28;
    const anchor = anchorId ? all.get(anchorId) : undefined;
    const grouped = group.flatMap((id) => all.get(id) ?? []);
    const fits = ([lo, hi]: [number, number], size: number) => (hi - lo) * zoom + 2 * pad <= size;
    const axis = (horizontal: boolean, [lo, hi]: [number, number], size: number): number => {
      if (fits([lo, hi], size)) return size / 2 - ((lo + hi) / 2) * zoom;
      const fromStart = pad - lo * zoom;
      if (!anchor) return fromStart;
      const g = grouped.length > 0 ? span(grouped, horizontal) : null;
      const [klo, khi] = g && fits(g, size) ? g : span([anchor], horizontal);
      // From the start, moved just enough that the far edge is in view, never past the near edge.
      return Math.max(Math.min(fromStart, size - pad - khi * zoom), pad - klo * zoom);
    };
    const x = axis(true, [x0, x1], width);
    const y = axis(false, [y0, y1], height);
    // A pan the person takes over is dropped at once (onMoveStart with an event); a heading also lapses after a second.
    const trip = { view: { x, y, zoom }, until: now + 1000 };
    heading.current = trip;
    void flow.setViewport(trip.view, { duration: 200 }).then(() => {
      if (heading.current === trip) heading.current = null;
    });
  }, [followKey, flow]);

  useEffect(() => {
    if (!focusRequest) return;
    // Centre the node without zooming in further than needed to read it.
    const n = flow.getNode(focusRequest.id);
    if (!n) return;
    const w = n.measured?.width ?? 240;
    const h = n.measured?.height ?? 80;
    void flow.setCenter(n.position.x + w / 2, n.position.y + h / 2, { zoom: Math.max(flow.getZoom(), 0.8), duration: 250 });
  }, [focusRequest, flow]);

  const onNodesChange = useCallback((changes: NodeChange<HookFlowNode>[]) => {
    const s = useApp.getState();
    let selection: Set<string> | null = null;
    let sizes: Map<string, Size> | null = null;
    let drag: Map<string, { x: number; y: number }> | null = null;
    let moved: { id: string; x: number; y: number }[] | null = null;
    for (const c of changes) {
      if (c.type === 'select') {
        selection ??= new Set(s.selectedNodes);
        if (c.selected) selection.add(c.id);
        else selection.delete(c.id);
      } else if (c.type === 'dimensions' && c.dimensions) {
        sizes ??= new Map();
        sizes.set(c.id, c.dimensions);
      } else if (c.type === 'position' && c.position && c.dragging) {
        drag ??= new Map();
        drag.set(c.id, c.position);
      } else if (c.type === 'position' && c.position && !c.dragging) {
        // The end of a drag, or arrow keys on a selected node (React Flow moves it 5 px, Shift: 20 px).
        moved ??= [];
        moved.push({ id: c.id, x: Math.round(c.position.x), y: Math.round(c.position.y) });
      }
    }
    if (moved) {
      const before = new Map((s.doc?.layout?.nodes ?? []).map((p) => [p.id, p]));
      const changed = moved.filter((p) => before.get(p.id)?.x !== p.x || before.get(p.id)?.y !== p.y);
      // Successive moves of the same nodes are one undo step.
      if (changed.length) {
        s.apply([{ type: 'moveNodes', positions: changed }], changed.length === 1 ? 'Move node' : `Move ${changed.length} nodes`, `move:${changed.map((p) => p.id).sort().join(',')}`);
      }
    }
    if (selection) s.select([...selection], useApp.getState().selectedEdges);
    if (sizes) setMeasured((old) => new Map([...old, ...sizes]));
    if (drag) setDragging((old) => new Map([...(old ?? []), ...drag]));
  }, []);

  const onEdgesChange = useCallback((changes: EdgeChange<HookFlowEdge>[]) => {
    const s = useApp.getState();
    let selection: Set<string> | null = null;
    for (const c of changes) {
      if (c.type !== 'select') continue;
      selection ??= new Set(s.selectedEdges);
      if (c.selected) selection.add(c.id);
      else selection.delete(c.id);
    }
    if (selection) s.select(useApp.getState().selectedNodes, [...selection]);
  }, []);

  // The move itself arrives in onNodesChange as the drag's last position change.
  const onNodeDragStop = useCallback(() => setDragging(null), []);

  const isValidConnection = useCallback((c: Connection | HookFlowEdge) => {
    const current = useApp.getState().doc;
    return !!current && checkWire(current, { from: c.source, to: c.target }) === null;
  }, []);

  const onConnect = useCallback((c: Connection) => {
    const s = useApp.getState();
    if (!s.doc) return;
    const wire = { from: c.source, to: c.target };
    const problem = checkWire(s.doc, wire);
    if (problem) s.toast({ tone: 'error', message: `Wire refused: ${problem.message}` });
    else s.apply([{ type: 'connect', wires: [{ value: wire }] }], 'Connect');
  }, []);

  // A wire dropped on a handle that refuses it says why, not just nothing.
  const onConnectEnd: OnConnectEnd = useCallback((_e, state) => {
    const s = useApp.getState();
    if (!s.doc || state.isValid !== false || !state.toNode || !state.fromNode || !state.fromHandle) return;
    const wire = state.fromHandle.type === 'source' ? { from: state.fromNode.id, to: state.toNode.id } : { from: state.toNode.id, to: state.fromNode.id };
    const problem = checkWire(s.doc, wire);
    if (problem) s.toast({ tone: 'error', message: `Wire refused: ${problem.message}` });
  }, []);

  const onDragOver = useCallback((e: DragEvent) => {
    if (!e.dataTransfer.types.includes(PALETTE_MIME)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  }, []);

  const onDrop = useCallback((e: DragEvent) => {
    const raw = e.dataTransfer.getData(PALETTE_MIME);
    if (!raw || readOnly) return;
    e.preventDefault();
    addPaletteItem(JSON.parse(raw) as PaletteItem, flow.screenToFlowPosition({ x: e.clientX, y: e.clientY }));
  }, [flow, readOnly]);

  // The context menu: right-click, or the ContextMenu key / Shift+F10 on a focused node, wire or the pane.
  const [menu, setMenu] = useState<MenuState | null>(null);
  const keyOpenedAt = useRef(0);
  const sizes = useCallback(() => new Map(flow.getNodes().flatMap((n) => (n.measured?.width && n.measured.height ? [[n.id, { width: n.measured.width, height: n.measured.height }] as const] : []))), [flow]);
  const openMenu = useCallback((target: Element | null, at: { x: number; y: number }) => {
    const current = useApp.getState().doc;
    if (!current) return false;
    const nodeEl = target?.closest<HTMLElement>('.react-flow__node');
    const edgeEl = target?.closest<HTMLElement>('.react-flow__edge');
    let items: MenuItem[];
    let label: string;
    let focusBack: HTMLElement | null;
    if (nodeEl?.dataset.id) {
      const n = current.nodes.find((x) => x.id === nodeEl.dataset.id);
      if (!n) return false;
      items = nodeMenu(n.id, readOnly);
      label = `${n.kind} ${nodeName(n)}`;
      focusBack = nodeEl;
    } else if (edgeEl) {
      const id = edgeEl.getAttribute('data-id') ?? '';
      items = wireMenu(wireOfEdgeId(id), readOnly);
      label = 'Wire';
      focusBack = edgeEl as unknown as HTMLElement;
    } else {
      items = paneMenu(flow.screenToFlowPosition(at), readOnly, sizes);
      label = 'Canvas';
      focusBack = wrapper.current;
    }
    if (items.length === 0) return false;
    setMenu({ x: at.x, y: at.y, label, items, returnFocus: focusBack });
    return true;
  }, [flow, readOnly, sizes]);
  const onContextMenu = useCallback((e: React.MouseEvent) => {
    // The key already opened it (Chrome also sends a contextmenu event for the ContextMenu key).
    if (performance.now() - keyOpenedAt.current < 600) {
      e.preventDefault();
      return;
    }
    if (openMenu(e.target as Element, { x: e.clientX, y: e.clientY })) e.preventDefault();
  }, [openMenu]);
  const onMenuKey = useCallback((e: React.KeyboardEvent) => {
    if (!(e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) || typingTarget(e.target)) return;
    const target = document.activeElement;
    const r = (target?.closest('.react-flow__node, .react-flow__edge') ?? wrapper.current)?.getBoundingClientRect();
    const inPane = !target?.closest('.react-flow__node, .react-flow__edge');
    const at = r ? (inPane ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : { x: r.left + 8, y: r.bottom + 4 }) : { x: 0, y: 0 };
    if (openMenu(target, at)) {
      e.preventDefault();
      keyOpenedAt.current = performance.now();
    }
  }, [openMenu]);
  const menuRef = useRef(menu);
  menuRef.current = menu;
  const closeMenu = useCallback((restore: boolean) => {
    const m = menuRef.current;
    setMenu(null);
    if (!restore || !m) return;
    // After the chosen action has rendered: back to where the focus was (the canvas if that node is gone),
    // unless the action moved it on purpose (Rename focuses its box).
    requestAnimationFrame(() => {
      const a = document.activeElement;
      if (a && a !== document.body && !a.closest('.ctx-menu')) return;
      const back = m.returnFocus && document.contains(m.returnFocus) ? m.returnFocus : wrapper.current;
      back?.focus();
    });
  }, []);

  if (!doc) return null;
  return (
    <div className={`canvas${readOnly ? ' read-only' : ''}`}>
      {!readOnly && <CanvasToolbar measured={measured} />}
      <div className="canvas-pane" ref={wrapper} data-testid="canvas" onDragOver={onDragOver} onDrop={onDrop}
        tabIndex={0} role="region" aria-label={readOnly ? 'Pipeline canvas (read-only)' : 'Pipeline canvas: Shift+F10 opens the menu'}
        onContextMenu={onContextMenu} onKeyDown={(e) => { onMenuKey(e); wireTab.onKeyDown(e); }}>
      <ReactFlow<HookFlowNode, HookFlowEdge>
        nodes={graph.nodes}
        edges={graph.edges}
        nodeTypes={NODE_TYPES}
        edgeTypes={EDGE_TYPES}
        defaultEdgeOptions={DEFAULT_EDGE}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onNodeDragStop={onNodeDragStop}
        onNodeDoubleClick={readOnly ? undefined : (_e, n) => useApp.getState().startRename(n.id)}
        onConnect={onConnect}
        onConnectEnd={onConnectEnd}
        onMoveStart={(e) => { if (e) heading.current = null; }}
        isValidConnection={isValidConnection}
        connectionLineComponent={ConnectionLine}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        // In the debugger a wire has nothing to do (no menu, no delete): nine dead Tab stops between the canvas and its nodes.
        // In Edit the wires come after the nodes (useWireTabOrder).
        edgesFocusable={!readOnly}
        // Delete and Backspace act on the focused node or wire, else the selection (useCanvasShortcuts).
        deleteKeyCode={null}
        multiSelectionKeyCode={['Meta', 'Control', 'Shift']}
        selectionKeyCode="Shift"
        minZoom={0.1}
        maxZoom={2}
        proOptions={{ hideAttribution: true }}
      >
        <Background variant={BackgroundVariant.Dots} gap={18} size={1.2} color="#c8ccd4" />
        <OverflowMiniMap />
      </ReactFlow>
      {/* In Edit, Tab reaches the wires after the nodes, through this stop (useWireTabOrder). */}
      {!readOnly && graph.edges.length > 0 && (
        <span className="wire-tab-stop" tabIndex={0} ref={wireTab.stopRef} onFocus={wireTab.onStopFocus} data-testid="wire-tab-stop" />
      )}
      {doc.nodes.length === 0 && (
        <div className="drop-hint" data-testid="empty-canvas">
          <div className="box"><strong>This pipeline is empty</strong>Drag events, matchers and handlers from the palette (or press {QUICK_ADD_KEYS} and type one), then wire them.</div>
        </div>
      )}
      </div>
      {menu && <ContextMenu menu={menu} onClose={closeMenu} />}
      {!readOnly && <QuickAdd />}
    </div>
  );
}

