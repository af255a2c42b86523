import { useEffect } from 'react';
import { useReactFlow, type ReactFlowInstance } from '@xyflow/react';
import { autoLayout, type Size } from '../model/autoLayout.ts';
import type { HookFlowEdge, HookFlowNode } from '../model/pipelineToFlow.ts';
import { useApp, selectCanRedo, selectCanUndo, selectSelectedNodes } from '../store/appStore.ts';
import { Icon } from '../ui/Icon.tsx';
import { AgentMarksChip } from './agentMarks.tsx';
import { FindNode } from './FindNode.tsx';
import { typingTarget } from './useCanvasShortcuts.ts';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const MOD = isMac ? '⌘' : 'Ctrl+';

/** The fit used by the Fit button and on opening a pipeline that fits at a readable zoom. */
export const FIT_OPTIONS = { padding: 0.12, duration: 250, maxZoom: 1.1 } as const;

/** The view around the selected nodes, at most at the zoom Fit allows (so one node is not blown up). */
function zoomToSelection(flow: ReactFlowInstance<HookFlowNode, HookFlowEdge>): void {
  const s = useApp.getState();
  if (s.selectedNodes.length === 0) {
    s.toast({ tone: 'info', message: 'Zoom to selection: select a node first (a click, or Find).' });
    return;
  }
  void flow.fitView({ ...FIT_OPTIONS, nodes: s.selectedNodes.map((id) => ({ id })) });
}

/**
 * Shift+1 fits the whole pipeline, Shift+2 the selection (Figma's keys), outside fields, the code editor and
 * dialogs. `code`, not `key`: Shift+1 types '!' on a US keyboard and another character elsewhere.
 */
function useZoomKeys(flow: ReactFlowInstance<HookFlowNode, HookFlowEdge>): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.shiftKey || e.ctrlKey || e.metaKey || e.altKey || typingTarget(e.target) || document.querySelector('dialog:modal')) return;
      if (e.code === 'Digit1') void flow.fitView(FIT_OPTIONS);
      else if (e.code === 'Digit2') zoomToSelection(flow);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [flow]);
}

/**
 * Zoom in, zoom out, fit, zoom to the selection and find a node: in a bar beside the canvas (never floating
 * over it, where they would cover nodes). The editor's canvas bar and the debugger's step bar both carry them.
 */
export function ZoomButtons() {
  const flow = useReactFlow<HookFlowNode, HookFlowEdge>();
  const selected = useApp(selectSelectedNodes).length > 0;
  useZoomKeys(flow);
  return (
    <span className="zoom-buttons" role="group" aria-label="Zoom">
      <FindNode />
      <button className="btn ghost icon" onClick={() => void flow.zoomOut({ duration: 150 })} title="Zoom out" aria-label="Zoom out" data-testid="zoom-out"><Icon name="zoomOut" /></button>
      <button className="btn ghost icon" onClick={() => void flow.zoomIn({ duration: 150 })} title="Zoom in" aria-label="Zoom in" data-testid="zoom-in"><Icon name="zoomIn" /></button>
      <button className="btn ghost icon" onClick={() => zoomToSelection(flow)} disabled={!selected} title="Zoom to the selected nodes (Shift+2)" aria-label="Zoom to selection" data-testid="zoom-selection"><Icon name="focusSelection" /></button>
      <button className="btn ghost" onClick={() => void flow.fitView(FIT_OPTIONS)} title="Fit the whole pipeline in view (Shift+1)" data-testid="fit-view">
        <Icon name="fit" /> Fit
      </button>
    </span>
  );
}

/** Undo, redo, auto-layout and zoom, in a bar above the canvas. */
export function CanvasToolbar({ measured }: { measured: ReadonlyMap<string, Size> }) {
  const canUndo = useApp(selectCanUndo);
  const canRedo = useApp(selectCanRedo);
  const undo = useApp((s) => s.undo);
  const redo = useApp((s) => s.redo);
  const flow = useReactFlow();

  const layout = () => {
    const s = useApp.getState();
    if (!s.doc || s.doc.nodes.length === 0) return;
    s.apply([{ type: 'moveNodes', positions: autoLayout(s.doc, measured) }], 'Auto-layout');
    window.setTimeout(() => void flow.fitView(FIT_OPTIONS), 30);
  };

  return (
    <div className="canvas-toolbar" role="toolbar" aria-label="Canvas">
      <button className="btn ghost icon" onClick={undo} disabled={!canUndo} title={`Undo (${MOD}Z)`} aria-label="Undo" data-testid="undo">
        <Icon name="undo" />
      </button>
      <button className="btn ghost icon" onClick={redo} disabled={!canRedo} title={`Redo (${MOD}Shift+Z)`} aria-label="Redo" data-testid="redo">
        <Icon name="redo" />
      </button>
      <span className="sep" />
      <button className="btn ghost" onClick={layout} title="Arrange the graph left to right" data-testid="auto-layout">
        <Icon name="layout" /> Auto-layout
      </button>
      <span className="grow" />
      <AgentMarksChip />
      <ZoomButtons />
    </div>
  );
}
