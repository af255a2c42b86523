import { useReactFlow } from '@xyflow/react';
import { autoLayout, type Size } from '../model/autoLayout.ts';
import { useApp, selectCanRedo, selectCanUndo } from '../store/appStore.ts';
import { Icon } from '../ui/Icon.tsx';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const MOD = isMac ? '⌘' : 'Ctrl+';

/** Undo, redo, auto-layout and fit, floating over the canvas. */
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
    window.setTimeout(() => void flow.fitView({ padding: 0.15, duration: 250, maxZoom: 1.1 }), 30);
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
      <button className="btn ghost" onClick={() => void flow.fitView({ padding: 0.15, duration: 250, maxZoom: 1.1 })} title="Fit the whole pipeline in view" data-testid="fit-view">
        <Icon name="fit" /> Fit
      </button>
    </div>
  );
}
