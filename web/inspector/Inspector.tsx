import { type PipelineNode, formatPath } from '../../engine/app.ts';
import { ACTION_LABELS } from '../model/describeAction.ts';
import { useApp, selectInspected, selectProblems, selectSelectedNodes } from '../store/appStore.ts';
import { Icon, kindColor } from '../ui/Icon.tsx';
import { duplicateSelection } from '../canvas/useCanvasShortcuts.ts';
import { focusCanvasIfLost } from '../canvas/focusNodeElement.ts';
import { EventForm } from './EventForm.tsx';
import { HandlerForm } from './HandlerForm.tsx';
import { MatcherForm } from './MatcherForm.tsx';
import { PathDatalist } from './PathInput.tsx';
import { PipelineForm } from './PipelineForm.tsx';
import { RunNodePanel } from './RunNodePanel.tsx';
import { panelChosen, showPanelForNow } from '../shell/sidePanel.ts';
import { useEffect } from 'react';
import { WiresField } from './WiresField.tsx';

function header(node: PipelineNode) {
  if (node.kind === 'event') return { icon: 'event' as const, color: kindColor('event'), title: node.label ?? 'Event', kind: 'Event' };
  if (node.kind === 'matcher') return { icon: 'matcher' as const, color: kindColor('matcher'), title: node.label ?? node.id, kind: 'Matcher' };
  return { icon: node.action.type, color: kindColor(node.action.type), title: node.name || '(unnamed)', kind: `${ACTION_LABELS[node.action.type]} handler` };
}

/** The node's own problems from the engine, shown above its form [V2]. */
function NodeProblems({ id }: { id: string }) {
  const problems = useApp(selectProblems).filter((p) => p.node_id === id);
  if (problems.length === 0) return null;
  return (
    <div className="inspector-problems" data-testid="inspector-problems">
      {problems.map((p, i) => (
        <div key={i} className={`inline-problem ${p.severity}`}>
          <span className="grow">{p.message}</span>
          <span className="code" title={formatPath(p.path)}>{p.code}</span>
        </div>
      ))}
    </div>
  );
}

/** Right-hand panel: the selected node's form, the pipeline's settings when nothing is selected. */
export function Inspector() {
  const node = useApp(selectInspected);
  const selected = useApp(selectSelectedNodes);
  const apply = useApp((s) => s.apply);
  // The Edit mode's inspector starts folded in a narrow window (sidePanel.ts): selecting a node unfolds it,
  // unless the person folded it themselves.
  useEffect(() => {
    if (selected.length > 0 && useApp.getState().mode === 'edit' && !panelChosen('edit', 'right')) showPanelForNow('edit', 'right');
  }, [selected]);

  if (selected.length > 1) {
    return (
      <div className="inspector" data-testid="inspector">
        <div className="inspector-head"><h2>{selected.length} nodes selected</h2></div>
        <div className="row">
          <button className="btn" onClick={duplicateSelection}><Icon name="copy" /> Duplicate</button>
          <button className="btn danger" onClick={() => apply([{ type: 'removeNodes', ids: selected }], `Delete ${selected.length} nodes`)}>
            <Icon name="trash" /> Delete
          </button>
        </div>
        <p className="hint" style={{ color: 'var(--faint)', marginTop: 12 }}>Shift-drag selects an area; Ctrl/⌘-click adds to the selection.</p>
      </div>
    );
  }
  if (!node) return <div className="inspector" data-testid="inspector"><PipelineForm /><PathDatalist /></div>;

  const h = header(node);
  return (
    <div className="inspector" data-testid="inspector" data-node-id={node.id}>
      <div className="inspector-head">
        <span className="kind-icon" style={{ background: h.color }}><Icon name={h.icon} size={14} /></span>
        <div style={{ minWidth: 0, flex: 1 }}>
          <h2 title={h.title}>{h.title}</h2>
          <div className="sub">{h.kind} · {node.id}</div>
        </div>
        <button className="btn ghost icon" title="Delete node (Del)" aria-label="Delete node" data-testid="inspector-delete"
          onClick={() => { apply([{ type: 'removeNodes', ids: [node.id] }], 'Delete node'); focusCanvasIfLost(); }}>
          <Icon name="trash" />
        </button>
      </div>
      <NodeProblems id={node.id} />
      <RunNodePanel nodeId={node.id} />
      {node.kind === 'event' && <EventForm node={node} />}
      {node.kind === 'matcher' && <MatcherForm node={node} />}
      {node.kind === 'handler' && <HandlerForm node={node} />}
      <WiresField node={node} />
      <PathDatalist />
    </div>
  );
}
