import { useState } from 'react';
import { useApp, selectBreakpoints, selectHandlers } from '../../store/appStore.ts';
import { breakpointLabel, type Breakpoint } from '../model/breakpoints.ts';
import { DECISION_FILTERS, type DecisionFilter } from '../model/timelineFilter.ts';
import { useServices } from '../../services/AppServices.tsx';
import { DebugIcon } from '../ui/DebugIcon.tsx';

type Kind = Breakpoint['kind'];

/** Breakpoints on an event type, a handler firing or a decision; playback pauses at the first step one matches. */
export function BreakpointsPanel() {
  const breakpoints = useApp(selectBreakpoints);
  const handlers = useApp(selectHandlers);
  const types = useApp((s) => s.trace?.event_types ?? []);
  const [kind, setKind] = useState<Kind>('decision');
  const [value, setValue] = useState('');
  const name = (id: string) => handlers.find((h) => h.id === id)?.name;
  const options: { value: string; label: string }[] =
    kind === 'decision' ? DECISION_FILTERS.map((d) => ({ value: d.value, label: d.label }))
      : kind === 'handler' ? handlers.map((h) => ({ value: h.id, label: h.name }))
        : types.map((t) => ({ value: t.type, label: t.type }));
  const chosen = options.some((o) => o.value === value) ? value : options[0]?.value ?? '';
  const { playback } = useServices();
  const add = () => {
    if (!chosen) return;
    if (kind === 'decision') useApp.getState().addBreakpoint({ kind, decision: chosen as DecisionFilter });
    else if (kind === 'handler') useApp.getState().addBreakpoint({ kind, handler_id: chosen });
    else useApp.getState().addBreakpoint({ kind, type: chosen });
  };
  return (
    <div className="dbg-panel" data-testid="breakpoints-panel" role="region" aria-label="Breakpoints" tabIndex={0}>
      <div className="row dbg-bp-add">
        <span className="field-label">Stop when</span>
        <select className="select" style={{ width: 170 }} value={kind} aria-label="Breakpoint kind" data-testid="bp-kind" onChange={(e) => setKind(e.target.value as Kind)}>
          <option value="decision">the decision is</option>
          <option value="handler">a handler fires</option>
          <option value="event_type">the event type is</option>
        </select>
        <select className="select grow" value={chosen} aria-label="Breakpoint value" data-testid="bp-value" onChange={(e) => setValue(e.target.value)}>
          {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
        <button className="btn primary" onClick={add} data-testid="bp-add" disabled={!chosen}><DebugIcon name="breakpoint" size={12} filled /> Add breakpoint</button>
      </div>
      {breakpoints.length === 0 ? (
        <div className="empty">No breakpoints. Play runs to the end of the trace.</div>
      ) : (
        <>
          <ul className="dbg-bp-list">
            {breakpoints.map((b) => (
              <li key={b.id} data-testid="breakpoint">
                <span className="dot" />
                <span className="grow">{breakpointLabel(b, name)}</span>
                <button className="btn ghost icon" title="Remove" aria-label={`Remove breakpoint ${breakpointLabel(b, name)}`} onClick={() => useApp.getState().removeBreakpoint(b.id)} data-testid="bp-remove"><DebugIcon name="close" size={12} /></button>
              </li>
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
