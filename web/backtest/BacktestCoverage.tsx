import { backtestHtml, backtestMarkdown, type BacktestReport } from '../../engine/app.ts';
import { useApp, selectBacktest } from '../store/appStore.ts';
import { reportFileName } from './backtestService.ts';

/** Saves a report as a file (markdown for a pull request, or one self-contained HTML page). */
function save(report: BacktestReport, kind: 'md' | 'html'): void {
  const text = kind === 'md' ? backtestMarkdown(report) : backtestHtml(report);
  const url = URL.createObjectURL(new Blob([text], { type: kind === 'md' ? 'text/markdown' : 'text/html' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = reportFileName(report, kind);
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The run's report to save, and what the current pipeline leaves unguarded or never uses [B4]. */
export function BacktestCoverage() {
  const run = useApp(selectBacktest);
  if (run.status !== 'done') {
    return <div className="bt-side"><p className="dbg-side-hint">After a run: tool calls no handler decided, matchers that never matched, event types nobody sent, and the report to save.</p></div>;
  }
  const r = run.report;
  return (
    <div className="bt-side" data-testid="backtest-coverage">
      <div className="bt-save">
        <button className="btn" onClick={() => save(r, 'md')} data-testid="backtest-save-md">Save report (Markdown)</button>
        <button className="btn" onClick={() => save(r, 'html')} data-testid="backtest-save-html">Save report (HTML)</button>
      </div>
      <h3>Unguarded tool calls</h3>
      {r.unguarded.length === 0 ? <p className="bt-note">Every tool call met a handler.</p> : (
        <table className="dbg-table bt-plain" data-testid="backtest-unguarded">
          <thead><tr><th>Agent</th><th>Tool</th><th>Calls</th><th>Traces</th></tr></thead>
          <tbody>{r.unguarded.slice(0, 50).map((u) => <tr key={`${u.agent}\u0000${u.tool}`}><td>{u.agent}</td><td className="mono">{u.tool}</td><td className="num">{u.count}</td><td className="num">{u.files}</td></tr>)}</tbody>
        </table>
      )}
      <h3>Matchers that never matched</h3>
      {r.never_matched.length === 0 ? <p className="bt-note">Every matcher matched at least once.</p> : (
        <ul className="bt-list" data-testid="backtest-never-matched">{r.never_matched.map((m) => <li key={m.matcher_id}>{m.label} <span className="mono">({m.matcher_id})</span></li>)}</ul>
      )}
      <h3>Event types nobody sent</h3>
      {r.never_sent.length === 0 ? <p className="bt-note">Every event node heard an event.</p> : (
        <ul className="bt-list" data-testid="backtest-never-sent">{r.never_sent.map((e) => <li key={e.event_node_id} className="mono">{e.pattern}</li>)}</ul>
      )}
      {r.skipped.length > 0 && (
        <>
          <h3>Skipped traces</h3>
          <ul className="bt-list" data-testid="backtest-skipped">{r.skipped.map((s, i) => <li key={i}>{s.file}: {s.reason}</li>)}</ul>
        </>
      )}
    </div>
  );
}
