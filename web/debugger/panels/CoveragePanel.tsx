import { useApp } from '../../store/appStore.ts';

/** Coverage of the pipeline on this trace [R13]: which handlers fired, which never did, which event types no handler listens to. */
export function CoveragePanel() {
  const coverage = useApp((s) => s.coverage);
  const progress = useApp((s) => s.progress);
  if (!coverage) return <div className="empty">{progress ? 'Explaining every step…' : 'Coverage appears when the replay has explained every step.'}</div>;
  const never = new Set(coverage.never_fired);
  const select = (id: string) => {
    useApp.getState().select([id]);
    useApp.getState().showRightTab('step');
  };
  return (
    <div className="dbg-panel dbg-coverage" data-testid="coverage-panel" role="region" aria-label="Coverage" tabIndex={0}>
      <p className="dbg-coverage-summary">
        <strong>{coverage.fired.length} of {coverage.handlers.length}</strong> handlers ran on this trace ({coverage.dispatched.toLocaleString('en')} events dispatched
        {coverage.duplicates ? `, ${coverage.duplicates} repeated` : ''}{coverage.not_reached ? `, ${coverage.not_reached} after the run ended` : ''}).
        {coverage.never_fired.length > 0 && ' Select a handler that never fired to ask why on the current step.'}
      </p>
      <div className="dbg-coverage-cols">
        <table className="dbg-table">
          <thead><tr><th>Handler</th><th>Fired</th><th>Decided</th><th>Errors</th><th>Not matched</th></tr></thead>
          <tbody>
            {coverage.handlers.map((h) => (
              <tr key={h.handler_id} className={never.has(h.handler_id) ? 'never' : ''} onClick={() => select(h.handler_id)} data-testid="coverage-handler" data-never={never.has(h.handler_id)}>
                <td>{h.name}{never.has(h.handler_id) && <span className="badge warning" style={{ marginLeft: 6 }}>never fired</span>}</td>
                <td className="num">{h.fired}</td>
                <td className="num">{h.decided}</td>
                <td className="num">{h.errors}</td>
                <td className="num">{h.statuses.not_matched}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="dbg-table">
          <thead><tr><th>Event type</th><th>Events</th><th>Handlers</th></tr></thead>
          <tbody>
            {coverage.event_types.map((t) => (
              <tr key={t.type} className={t.live_handlers === 0 ? 'never' : ''} data-testid="coverage-type">
                <td className="mono">{t.type}</td>
                <td className="num">{t.events}</td>
                <td className="num">{t.live_handlers === 0 ? <span className="badge warning">none</span> : t.live_handlers}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
