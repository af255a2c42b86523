import { useEffect, useRef, useState } from 'react';
import { useApp, selectBreakpoints } from '../../store/appStore.ts';
import { breakpointLabel, isEnabled, nodeNamer, triggerSpec, type Breakpoint, type TriggerChoice } from '../model/breakpoints.ts';
import { useServices } from '../../services/AppServices.tsx';
import { DebugIcon } from '../ui/DebugIcon.tsx';
import { BreakpointEditor } from './BreakpointEditor.tsx';
import { TriggerFields, useTrigger } from './TriggerFields.tsx';

/** The list's id in the page: Shift+F9 brings the focus here (useDebuggerShortcuts.ts). */
export const BREAKPOINT_LIST_ID = 'dbg-breakpoints';

/**
 * Breakpoints: on a decision, a handler (fires, blocks, rewrites), a matcher, an event type or a condition
 * alone, each with an optional condition and hit count. Each can be enabled, edited (its trigger too) and removed by keyboard;
 * where it stops, or why it cannot be searched, is the engine's answer [R18].
 */
export function BreakpointsPanel() {
  const breakpoints = useApp(selectBreakpoints);
  const doc = useApp((s) => s.doc);
  const [editing, setEditing] = useState<string | null>(null);
  // A breakpoint given a new trigger has a new id (a new row): the focus goes to its Edit button.
  const [refocus, setRefocus] = useState<string | null>(null);
  const { playback } = useServices();
  const name = nodeNamer(doc);
  return (
    <div className="dbg-panel" data-testid="breakpoints-panel" role="region" aria-label="Breakpoints" tabIndex={-1} id={BREAKPOINT_LIST_ID}>
      <AddBreakpoint onAdded={(id) => setEditing(id)} />
      {breakpoints.length === 0 ? (
        <div className="empty">No breakpoints. Play runs to the end of the trace. F9 adds one on the selected node.</div>
      ) : (
        <>
          <ul className="dbg-bp-list" aria-label="Breakpoints">
            {breakpoints.map((b) => (
              <BreakpointItem key={b.id} b={b} label={breakpointLabel(b, name)} editing={editing === b.id} refocus={refocus === b.id}
                onEdit={(on, saved) => {
                  setEditing(on ? b.id : null);
                  if (saved && saved !== b.id) setRefocus(saved);
                }} />
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

function AddBreakpoint({ onAdded }: { onAdded: (id: string) => void }) {
  const [choice, setChoice] = useState<TriggerChoice>({ kind: 'decision', value: '', on: 'fires' });
  const { shown, options } = useTrigger(choice);
  const spec = triggerSpec(shown);
  const add = () => {
    if (!spec) return;
    const id = useApp.getState().addBreakpoint(spec);
    // A condition alone is nothing until it has its condition: its editor opens at once.
    if (spec.kind === 'condition') onAdded(id);
  };
  return (
    <div className="row dbg-bp-add">
      <span className="field-label">Stop when</span>
      <TriggerFields value={shown} options={options} onChange={setChoice} testId="bp" />
      <button className="btn primary" onClick={add} data-testid="bp-add" disabled={!spec}><DebugIcon name="breakpoint" size={12} filled /> Add breakpoint</button>
    </div>
  );
}

/** One breakpoint: Space on its box enables or disables it, Enter on Edit edits it, Delete removes it. */
function BreakpointItem({ b, label, editing, refocus, onEdit }: { b: Breakpoint; label: string; editing: boolean; refocus: boolean; onEdit: (on: boolean, saved?: string) => void }) {
  const result = useApp((s) => s.breakpointStops?.byId.get(b.id));
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(editing);
  // Closing the editor gives the focus back to the row's Edit button.
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  useEffect(() => {
    if (refocus) editButton.current?.focus();
  }, [refocus]);
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
      {editing && <BreakpointEditor b={b} onDone={(saved) => onEdit(false, saved)} />}
    </li>
  );
}
