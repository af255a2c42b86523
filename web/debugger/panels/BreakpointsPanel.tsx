import { useEffect, useRef, useState } from 'react';
import type { Pipeline } from '../../../engine/app.ts';
import { useApp, selectBreakpoints } from '../../store/appStore.ts';
import { breakpointLabel, HANDLER_TRIGGER_LABEL, isEnabled, nodeNamer, type Breakpoint, type BreakpointSpec, type HandlerTrigger } from '../model/breakpoints.ts';
import { DECISION_FILTERS, type DecisionFilter } from '../model/timelineFilter.ts';
import { nodeName } from '../../model/nodeName.ts';
import { useServices } from '../../services/AppServices.tsx';
import { DebugIcon } from '../ui/DebugIcon.tsx';
import { BreakpointEditor } from './BreakpointEditor.tsx';

type Kind = Breakpoint['kind'];

const KINDS: { value: Kind; label: string }[] = [
  { value: 'decision', label: 'the decision is' },
  { value: 'handler', label: 'a handler' },
  { value: 'matcher', label: 'a matcher matches' },
  { value: 'event_type', label: 'the event type is' },
  { value: 'condition', label: 'a condition holds' },
];

/** The list's id in the page: Shift+F9 brings the focus here (useDebuggerShortcuts.ts). */
export const BREAKPOINT_LIST_ID = 'dbg-breakpoints';

/**
 * Breakpoints: on a decision, a handler (fires, blocks, rewrites), a matcher, an event type or a condition
 * alone, each with an optional condition and hit count. Each can be enabled, edited and removed by keyboard;
 * where it stops, or why it cannot be searched, is the engine's answer [R18].
 */
export function BreakpointsPanel() {
  const breakpoints = useApp(selectBreakpoints);
  const doc = useApp((s) => s.doc);
  const [editing, setEditing] = useState<string | null>(null);
  const { playback } = useServices();
  const name = nodeNamer(doc);
  return (
    <div className="dbg-panel" data-testid="breakpoints-panel" role="region" aria-label="Breakpoints" tabIndex={-1} id={BREAKPOINT_LIST_ID}>
      <AddBreakpoint doc={doc} onAdded={(id) => setEditing(id)} />
      {breakpoints.length === 0 ? (
        <div className="empty">No breakpoints. Play runs to the end of the trace. F9 adds one on the selected node.</div>
      ) : (
        <>
          <ul className="dbg-bp-list" aria-label="Breakpoints">
            {breakpoints.map((b) => (
              <BreakpointItem key={b.id} b={b} label={breakpointLabel(b, name)} editing={editing === b.id} onEdit={(on) => setEditing(on ? b.id : null)} />
            ))}
          </ul>
          <div className="row" style={{ padding: '4px 14px' }}>
            <button className="btn" onClick={() => { useApp.getState().showBottomTab('timeline'); void playback.play(); }} data-testid="bp-play"><DebugIcon name="play" size={12} /> Play to the next one</button>
            <button className="btn" onClick={() => { useApp.getState().showBottomTab('timeline'); void playback.runToBreakpoint(); }}><DebugIcon name="run" size={12} /> Jump to the next one</button>
          </div>
        </>
      )}
    </div>
  );
}

function AddBreakpoint({ doc, onAdded }: { doc: Pipeline | null; onAdded: (id: string) => void }) {
  const types = useApp((s) => s.trace?.event_types ?? []);
  const [kind, setKind] = useState<Kind>('decision');
  const [value, setValue] = useState('');
  const [on, setOn] = useState<HandlerTrigger>('fires');
  const nodes = doc?.nodes ?? [];
  const options: { value: string; label: string }[] =
    kind === 'decision' ? DECISION_FILTERS.map((d) => ({ value: d.value, label: d.label }))
      : kind === 'handler' ? nodes.filter((n) => n.kind === 'handler').map((n) => ({ value: n.id, label: nodeName(n) }))
        : kind === 'matcher' ? nodes.filter((n) => n.kind === 'matcher').map((n) => ({ value: n.id, label: nodeName(n) }))
          : kind === 'event_type' ? types.map((t) => ({ value: t.type, label: t.type }))
            : [];
  const chosen = options.some((o) => o.value === value) ? value : options[0]?.value ?? '';
  const add = () => {
    let spec: BreakpointSpec;
    if (kind === 'condition') spec = { kind };
    else if (!chosen) return;
    else if (kind === 'decision') spec = { kind, decision: chosen as DecisionFilter };
    else if (kind === 'handler') spec = { kind, handler_id: chosen, ...(on !== 'fires' ? { on } : {}) };
    else if (kind === 'matcher') spec = { kind, matcher_id: chosen };
    else spec = { kind, type: chosen };
    const id = useApp.getState().addBreakpoint(spec);
    // A condition alone is nothing until it has its condition: its editor opens at once.
    if (kind === 'condition') onAdded(id);
  };
  return (
    <div className="row dbg-bp-add">
      <span className="field-label">Stop when</span>
      <select className="select" style={{ width: 150 }} value={kind} aria-label="Breakpoint kind" data-testid="bp-kind" onChange={(e) => setKind(e.target.value as Kind)}>
        {KINDS.map((k) => <option key={k.value} value={k.value}>{k.label}</option>)}
      </select>
      {kind !== 'condition' && (
        <select className="select grow" value={chosen} aria-label="Breakpoint value" data-testid="bp-value" onChange={(e) => setValue(e.target.value)}>
          {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      )}
      {kind === 'handler' && (
        <select className="select" style={{ width: 150 }} value={on} aria-label="When the handler" data-testid="bp-on" onChange={(e) => setOn(e.target.value as HandlerTrigger)}>
          {(Object.keys(HANDLER_TRIGGER_LABEL) as HandlerTrigger[]).map((t) => <option key={t} value={t}>{HANDLER_TRIGGER_LABEL[t]}</option>)}
        </select>
      )}
      {kind === 'condition' && <span className="grow dbg-muted">over the event and the state before it</span>}
      <button className="btn primary" onClick={add} data-testid="bp-add" disabled={kind !== 'condition' && !chosen}><DebugIcon name="breakpoint" size={12} filled /> Add breakpoint</button>
    </div>
  );
}

/** One breakpoint: Space on its box enables or disables it, Enter on Edit edits it, Delete removes it. */
function BreakpointItem({ b, label, editing, onEdit }: { b: Breakpoint; label: string; editing: boolean; onEdit: (on: boolean) => void }) {
  const result = useApp((s) => s.breakpointStops?.byId.get(b.id));
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(editing);
  // Closing the editor gives the focus back to the row's Edit button.
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  const enabled = isEnabled(b);
  const stops = result?.ok ? result.stops.length : null;
  return (
    <li data-testid="breakpoint" data-id={b.id} data-enabled={enabled} className={enabled ? '' : 'off'}
      onKeyDown={(e) => {
        if ((e.key === 'Delete' || e.key === 'Backspace') && !(e.target as HTMLElement).closest('input:not([type="checkbox"]), select, textarea')) {
          e.preventDefault();
          useApp.getState().removeBreakpoint(b.id);
        }
      }}>
      <div className="dbg-bp-row">
        <input type="checkbox" checked={enabled} onChange={() => useApp.getState().toggleBreakpoint(b.id)} aria-label={`Enabled: ${label}`} data-testid="bp-enabled" />
        <span className="dot" aria-hidden="true" />
        <span className="grow" data-testid="bp-label">{label}</span>
        {stops !== null && <span className="dbg-muted" data-testid="bp-stops">{stops === 0 ? 'never stops' : `stops ${stops.toLocaleString('en')}×`}</span>}
        <button ref={editButton} className="btn ghost dbg-mini" aria-expanded={editing} aria-label={`Edit breakpoint ${label}`} onClick={() => onEdit(!editing)} data-testid="bp-edit">Edit</button>
        <button className="btn ghost icon" title="Remove (Delete)" aria-label={`Remove breakpoint ${label}`} onClick={() => useApp.getState().removeBreakpoint(b.id)} data-testid="bp-remove"><DebugIcon name="close" size={12} /></button>
      </div>
      {result && !result.ok && (
        <div className="dbg-bp-problem" data-testid="bp-problem">Not searched: {result.problems.map((p) => p.message).join('; ')}</div>
      )}
      {editing && <BreakpointEditor b={b} onDone={() => onEdit(false)} />}
    </li>
  );
}
