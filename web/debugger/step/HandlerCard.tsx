import { useState, type ReactElement } from 'react';
import type { HandlerExplain, WhyNotFired } from '../../../engine/app.ts';
import { useApp } from '../../store/appStore.ts';
import { OUTCOME_LONG, STATUS_LABEL, valueLine } from '../model/labels.ts';
import { changeRows } from '../model/payloadChanges.ts';
import { DebugIcon } from '../ui/DebugIcon.tsx';
import { breakpointId } from '../model/breakpoints.ts';
import { ConditionView } from './ConditionView.tsx';

/** Statuses whose details are worth opening by default. */
const OPEN: ReadonlySet<HandlerExplain['status']> = new Set(['fired', 'not_matched', 'error']);

/** One handler's part in the event [X1]-[X4]: status, the paths and clauses tried, the result, the changes. */
export function HandlerCard({ h, decided, why }: { h: HandlerExplain; decided: boolean; why: WhyNotFired | undefined }) {
  const [open, setOpen] = useState(OPEN.has(h.status));
  const quiet = h.status === 'wrong_event_type' || h.status === 'disabled';
  return (
    <div className={`dbg-handler hs-${h.status}${decided ? ' decided' : ''}${quiet ? ' quiet' : ''}`} data-testid="handler-card" data-handler={h.handler_id} data-status={h.status}>
      <button className="dbg-handler-head" onClick={() => setOpen(!open)} aria-expanded={open}>
        <span className={`st st-${h.status}`} data-testid="handler-status">{STATUS_LABEL[h.status]}</span>
        <span className="name">{h.name}</span>
        {decided && <span className="badge decided">decided</span>}
        {h.shadow && <span className="badge">shadow</span>}
        <span className="grow" />
        <span className="order mono">#{h.order}</span>
      </button>
      {open && (
        <div className="dbg-handler-body">
          {why && !why.fired && <p className="dbg-handler-why" data-testid="handler-why">{why.sentence}</p>}
          <Result h={h} />
          {h.paths.filter((p) => p.type_matched).map((p, i) => (
            <div key={i} className={`dbg-path ${p.pass ? 'pass' : 'fail'}`}>
              <div className="dbg-path-head">
                <span className="mono">{p.pattern}</span>
                {p.matchers.length === 0 ? <span className="dbg-muted"> · no matcher on this path</span> : null}
                <span className="grow" />
                <span className={p.pass ? 'ok' : 'no'}>{p.pass ? 'path passes' : 'path fails'}</span>
              </div>
              {p.matchers.map((m) => (
                <div key={m.matcher_id} className={`dbg-matcher ${m.pass ? 'pass' : 'fail'}`} data-testid="matcher-explain" data-matcher={m.matcher_id}>
                  <div className="row">
                    <DebugIcon name={m.pass ? 'check' : 'cross'} size={12} strokeWidth={2} />
                    <span className="label">Matcher “{m.label}”</span>
                    {m.cached && <span className="dbg-muted"> (evaluated once, reused)</span>}
                    <span className="grow" />
                    <button className="btn ghost dbg-mini" onClick={() => { useApp.getState().select([m.matcher_id]); }} title="Select this matcher on the canvas">select</button>
                  </div>
                  <ConditionView c={m.condition} />
                </div>
              ))}
            </div>
          ))}
          <div className="row dbg-handler-actions">
            <BreakOnHandler id={h.handler_id} />
            <button className="btn ghost dbg-mini" onClick={() => useApp.getState().select([h.handler_id])}>Show on canvas</button>
          </div>
        </div>
      )}
    </div>
  );
}

function Result({ h }: { h: HandlerExplain }) {
  const lines: ReactElement[] = [];
  if (h.status === 'fired') {
    lines.push(
      <p key="d" className="dbg-result" data-testid="handler-result">
        Returned <span className={`dec dec-${h.decision}`}>{OUTCOME_LONG[h.decision]}</span>
        {h.reason ? <> · <span className="dbg-reason-inline">{h.reason}</span></> : null}
        {h.ignored === 'shadow' && <span className="dbg-muted"> (shadow mode: reported, not enforced)</span>}
        {h.ignored === 'async' && <span className="dbg-muted"> (async event: observed, not enforced)</span>}
        {h.duration_ms > 0 && <span className="dbg-muted"> · {h.duration_ms.toFixed(2)} ms</span>}
      </p>,
    );
  }
  if (h.status === 'fired' && h.context !== undefined) {
    lines.push(
      <p key="c" className="dbg-result" data-testid="handler-context">
        Added context for the model{h.ignored === 'shadow' ? ' (shadow: not applied)' : ''}: <span className="dbg-context-inline">{h.context}</span>
      </p>,
    );
  }
  if (h.status === 'not_reached') lines.push(<p key="n" className="dbg-muted">An earlier handler ended the chain.</p>);
  if (h.status === 'breaker_open') lines.push(<p key="b" className="dbg-muted">Circuit breaker open until {new Date(h.breaker_open_until).toISOString()}.</p>);
  if (h.status === 'error') {
    lines.push(
      <div key="e" className="inline-problem" data-testid="handler-error">
        <span className="grow">{h.error.kind}: {h.error.message}{h.error.line !== undefined ? ` (line ${h.error.line}${h.error.column !== undefined ? `:${h.error.column}` : ''})` : ''}</span>
        <span className="code">policy: {h.error.policy}</span>
      </div>,
    );
  }
  if (h.status === 'fired' && h.patch && h.patch.length > 0) {
    const paths = changeRows(h.patch, {}).map((r) => `${r.path} (${r.kind})`);
    lines.push(<p key="p" className="dbg-result">Rewrote <span className="mono">{paths.join(', ')}</span>: see Payload below.</p>);
  }
  if (h.status === 'fired' && h.state_changes && h.state_changes.length > 0) {
    lines.push(
      <ul key="s" className="dbg-state-changes">
        {h.state_changes.map((c) => <li key={c.key}><span className="mono">state.{c.key}</span>: <span className="mono">{valueLine(c.before, 60)}</span> → <span className="mono">{valueLine(c.after, 60)}</span></li>)}
      </ul>,
    );
  }
  if ((h.status === 'fired' || h.status === 'error') && h.logs && h.logs.length > 0) lines.push(<pre key="l" className="dbg-pre small">{h.logs.join('\n')}</pre>);
  return <>{lines}</>;
}

/** "Break when it fires", pressed while the handler has a breakpoint: pressing again removes it. */
function BreakOnHandler({ id }: { id: string }) {
  const bp = breakpointId({ kind: 'handler', handler_id: id });
  const on = useApp((s) => s.breakpoints.some((b) => b.id === bp));
  const toggle = () => {
    const s = useApp.getState();
    if (s.breakpoints.some((b) => b.id === bp)) s.removeBreakpoint(bp);
    else s.addBreakpoint({ kind: 'handler', handler_id: id });
  };
  return (
    <button className={`btn ghost dbg-mini${on ? ' on' : ''}`} aria-pressed={on} onClick={toggle} data-testid="break-on-handler">
      <DebugIcon name="breakpoint" size={11} /> {on ? 'Breaks when it fires' : 'Break when it fires'}
    </button>
  );
}
