import { memo, useRef } from 'react';
import type { PipelineNode, Problem } from '../../engine/app.ts';
import { useApp } from '../store/appStore.ts';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { HookFlowNode } from '../model/pipelineToFlow.ts';
import { ACTION_LABELS, handlerFlags } from '../model/describeAction.ts';
import { Icon, kindColor } from '../ui/Icon.tsx';
import { focusNodeElement } from './focusNodeElement.ts';
import { RunCard } from './RunCard.tsx';
import { BreakpointDot } from './BreakpointDot.tsx';
import { nodeName } from '../model/nodeName.ts';

/**
 * The three node looks of the canvas. They render `data` from `pipelineToFlow` and nothing else; text
 * from the document is rendered as text (React escapes it), never as HTML.
 */
function ProblemBadge({ problems }: { problems: readonly Problem[] }) {
  if (problems.length === 0) return null;
  const errors = problems.filter((p) => p.severity === 'error').length;
  const title = problems.map((p) => `${p.severity === 'error' ? 'Error' : 'Warning'}: ${p.message}`).join('\n');
  return (
    <span className={`problem-badge${errors ? '' : ' warning'}`} title={title} data-testid="node-problem-badge" aria-label={title}>
      {problems.length}
    </span>
  );
}

/**
 * What this node loses on the agent marked from "Export for agent": the engine's loss report lines, shown as
 * text on the node (two lines; all of them in the tooltip and to screen readers).
 */
function AgentMarks({ marks }: { marks: readonly string[] | undefined }) {
  if (!marks || marks.length === 0) return null;
  const all = marks.join('\n');
  return (
    <div className="agent-mark" title={all} aria-label={`Lost on the agent: ${marks.join('; ')}`} data-testid="node-agent-mark">
      <Icon name="warning" size={11} /> {marks.length > 1 ? `${marks[0]} (+${marks.length - 1} more)` : marks[0]}
    </div>
  );
}

/** A node's own name: an event's and a matcher's `label`, a handler's `name`. */
function nameOf(node: PipelineNode): string {
  return node.kind === 'handler' ? node.name : (node.label ?? '');
}

function renamed(node: PipelineNode, name: string): PipelineNode {
  if (node.kind === 'handler') return { ...node, name };
  const { label: _old, ...rest } = node;
  return name ? { ...rest, label: name } : rest;
}

/**
 * The in-place rename box (double-click or F2): Enter or leaving the box commits through the typed
 * `updateNode` change (so undo takes it back), Escape cancels.
 */
function RenameBox({ node }: { node: PipelineNode }) {
  const done = useRef(false);
  // `refocus`: Enter and Escape give the focus back to the node (for the keyboard); leaving the box by
  // clicking elsewhere leaves it where the click put it.
  const finish = (commit: boolean, text: string, refocus: boolean) => {
    if (done.current) return;
    done.current = true;
    const s = useApp.getState();
    s.endRename();
    if (refocus) focusNodeElement(node.id);
    const name = text.trim();
    // A handler needs a name; an empty label on an event or matcher removes it.
    if (commit && name !== nameOf(node) && (name || node.kind !== 'handler')) {
      s.apply([{ type: 'updateNode', node: renamed(node, name) }], 'Rename node');
    }
  };
  return (
    <input className="input rename-input nodrag nopan nokey" defaultValue={nameOf(node)} aria-label="Node name" data-testid="node-rename" autoFocus
      onFocus={(e) => e.currentTarget.select()}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') finish(true, e.currentTarget.value, true);
        else if (e.key === 'Escape') finish(false, e.currentTarget.value, true);
      }}
      onBlur={(e) => finish(true, e.currentTarget.value, false)} />
  );
}

const useRenaming = (id: string) => useApp((s) => s.renaming === id);

function classes(kind: string, selected: boolean, problems: readonly Problem[], extra = ''): string {
  const hasError = problems.some((p) => p.severity === 'error');
  const hasWarning = problems.some((p) => p.severity === 'warning');
  return ['hw-node', kind, selected && 'selected', hasError && 'has-error', hasWarning && 'has-warning', extra].filter(Boolean).join(' ');
}

export const EventNodeView = memo(function EventNodeView({ data, selected }: NodeProps<HookFlowNode>) {
  const node = data.node;
  const renaming = useRenaming(node.id);
  if (node.kind !== 'event') return null;
  return (
    <div className={classes('event', selected, data.problems)} data-testid={`node-${node.id}`} data-kind="event">
      <div className="head">
        <span className="kind-icon"><Icon name="event" size={12} /></span>
        {renaming ? <RenameBox node={node} /> : <span className="kind-label">{node.label ?? 'Event'}</span>}
        <span className="spacer" />
        <span className={`badge ${data.mode ?? 'sync'}`}>{data.mode ?? 'sync'}</span>
      </div>
      <div className="title mono" title={node.pattern}>{node.pattern === '*' ? '* (every event)' : node.pattern}</div>
      <AgentMarks marks={data.marks} />
      <Handle type="source" position={Position.Right} />
      <ProblemBadge problems={data.problems} />
      <RunCard id={node.id} />
    </div>
  );
});

export const MatcherNodeView = memo(function MatcherNodeView({ data, selected }: NodeProps<HookFlowNode>) {
  const node = data.node;
  const renaming = useRenaming(node.id);
  if (node.kind !== 'matcher') return null;
  return (
    <div className={classes('matcher', selected, data.problems)} data-testid={`node-${node.id}`} data-kind="matcher">
      <Handle type="target" position={Position.Left} />
      <div className="head">
        <span className="kind-icon"><Icon name={node.code ? 'code' : 'matcher'} size={12} /></span>
        <span className="kind-label">Matcher</span>
      </div>
      {renaming ? <RenameBox node={node} /> : <div className="title" title={node.label ?? node.id}>{node.label ?? node.id}</div>}
      <div className="summary" data-testid="matcher-summary" title={data.summary}>{data.summary}</div>
      <BreakpointDot id={node.id} name={nodeName(node)} />
      <AgentMarks marks={data.marks} />
      <Handle type="source" position={Position.Right} />
      <ProblemBadge problems={data.problems} />
      <RunCard id={node.id} />
    </div>
  );
});

export const HandlerNodeView = memo(function HandlerNodeView({ data, selected }: NodeProps<HookFlowNode>) {
  const node = data.node;
  const renaming = useRenaming(node.id);
  if (node.kind !== 'handler') return null;
  const kind = node.action.type;
  const flags = handlerFlags(node);
  return (
    <div
      className={classes('handler', selected, data.problems, node.enabled ? '' : 'disabled')}
      style={{ ['--kind' as string]: kindColor(kind) }}
      data-testid={`node-${node.id}`}
      data-kind="handler"
      data-action={kind}
    >
      <Handle type="target" position={Position.Left} />
      <div className="head">
        <span className="kind-icon"><Icon name={kind} size={12} /></span>
        <span className="kind-label">{ACTION_LABELS[kind]}</span>
        <span className="spacer" />
        <span className="order" title="Order: lower runs first">#{node.order}</span>
      </div>
      {renaming ? <RenameBox node={node} /> : <div className="title" title={node.name}>{node.name}</div>}
      <div className="summary" title={data.summary}>{data.summary}</div>
      {flags.length > 0 && (
        <div className="flags">
          {flags.map((f) => <span key={f} className="badge">{f}</span>)}
        </div>
      )}
      <AgentMarks marks={data.marks} />
      <ProblemBadge problems={data.problems} />
      <BreakpointDot id={node.id} name={nodeName(node)} />
      <RunCard id={node.id} />
    </div>
  );
});

/** Module scope, so React Flow never sees a new object (it warns and re-mounts otherwise). */
export const NODE_TYPES = { event: EventNodeView, matcher: MatcherNodeView, handler: HandlerNodeView };
