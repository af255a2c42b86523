import { useLayoutEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { BACKTEST_CATEGORIES, backtestHeadline, CATEGORY_LABELS, type BacktestDifference, type BacktestFileEntry } from '../../engine/app.ts';
import { useServices } from '../services/AppServices.tsx';
import { useApp, selectBacktest } from '../store/appStore.ts';
import { OUTCOME_LABEL } from '../debugger/model/labels.ts';
import { KEEP_PER_CATEGORY } from './backtestProtocol.ts';

/** Rows shown per trace before "more" (the report keeps KEEP_PER_CATEGORY of each category). */
const ROWS_PER_TRACE = 100;

/** The run: progress while it goes, then every differing event by trace and category. */
export function BacktestResults() {
  const run = useApp(selectBacktest);
  const picked = useApp((s) => s.backtestTraces.length);
  const { backtest } = useServices();
  if (run.status === 'idle') {
    // What is left to do: the traces are picked by default, so most often only the run.
    return (
      <div className="bt-main">
        <div className="bt-center" data-testid="backtest-idle">
          {picked === 0
            ? 'Pick the traces to run over (on the left), then run the backtest.'
            : `${picked} trace${picked === 1 ? '' : 's'} picked: Run backtest replays ${picked === 1 ? 'it' : 'them'} through the version chosen on the left and the current pipeline.`}
        </div>
      </div>
    );
  }
  if (run.status === 'running') {
    const p = run.progress;
    return (
      <div className="bt-main">
        <div className="bt-center" data-testid="backtest-progress" role="status">
          <div>{p ? `Trace ${Math.min(p.traces + 1, p.totalTraces)} of ${p.totalTraces} · ${p.events.toLocaleString('en')} of ${p.totalEvents.toLocaleString('en')} events` : 'Starting…'}</div>
          <progress max={p?.totalEvents || 1} value={p?.events ?? 0} aria-label="Backtest progress" />
        </div>
      </div>
    );
  }
  if (run.status === 'cancelled') return <div className="bt-main"><div className="bt-center" data-testid="backtest-cancelled">Cancelled: nothing is running. Run it again when you are ready.</div></div>;
  if (run.status === 'failed') return <div className="bt-main"><div className="bt-center inline-problem" role="alert" data-testid="backtest-failed">{run.message}</div></div>;
  const r = run.report;
  const t = r.total;
  const differing = r.files.map((f, i) => ({ f, traceId: run.traceIds[i]! })).filter(({ f }) => f.changed > 0);
  return (
    <div className="bt-main" data-testid="backtest-results">
      <div className="bt-head">
        <h2 data-testid="backtest-headline">{backtestHeadline(r)}</h2>
        <p className="bt-sub">{r.old} → {r.new}</p>
        <table className="bt-totals" data-testid="backtest-totals">
          <thead><tr><th>New blocks</th><th>Lifted blocks</th><th>New asks</th><th>Changed rewrites</th><th>Other</th><th>Events</th><th>Traces</th></tr></thead>
          <tbody><tr>
            <td className="new_block">{t.new_blocks}</td><td className="lifted_block">{t.lifted_blocks}</td><td className="new_ask">{t.new_asks}</td>
            <td>{t.changed_rewrites}</td><td>{t.other}</td><td>{t.events.toLocaleString('en')}</td><td>{t.files}</td>
          </tr></tbody>
        </table>
      </div>
      {t.labels_violated > 0 && (
        <section className="bt-group bt-labels" data-testid="backtest-violated-labels" aria-label="Violated labels">
          <h3><span className="name">Violated labels</span><span className="meta">{t.labels_violated} of {t.labels} labelled steps</span></h3>
          <table className="dbg-table">
            <thead><tr><th>Trace</th><th>Step</th><th>Expected</th><th>Now</th><th>Note</th></tr></thead>
            <tbody>
              {r.files.flatMap((f, i) => f.violated_labels.map((v) => (
                <tr key={`${i}:${v.step}`} tabIndex={0} data-testid="backtest-label-row" data-step={v.step}
                  onClick={() => void backtest.openStep(run.traceIds[i]!, v.step)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') void backtest.openStep(run.traceIds[i]!, v.step);
                  }}>
                  <td>{f.file}</td><td className="num">{v.step}</td><td>{v.expected?.decision ?? 'unreadable label'}</td>
                  <td className="reason" title={v.failures.join('\n')}>{v.failures.join('; ')}</td><td>{v.expected?.note ?? ''}</td>
                </tr>
              )))}
            </tbody>
          </table>
        </section>
      )}
      <div className="bt-groups">
        {differing.length === 0 && <div className="bt-center">No event decides differently in these traces.</div>}
        {differing.length > 0 && <DifferingGroups differing={differing} />}
        {r.files.length > differing.length && <p className="dbg-side-hint">{r.files.length - differing.length} of {r.files.length} traces decide the same under both versions.</p>}
      </div>
    </div>
  );
}

/** Trace groups drawn beyond those in view, above and below: Tab from a group's last row finds the next one drawn. */
const OVERSCAN = 2;

/**
 * The differing traces, drawn only where the results are scrolled to (@tanstack/react-virtual, as the
 * timeline): a backtest over 200 sessions lists up to ROWS_PER_TRACE rows for each, 20,000 table rows drawn at
 * once. Each group is measured once drawn; its height is estimated from its rows until then. The results
 * pane (.bt-main) scrolls; the groups start below the totals, which is the list's scroll margin.
 */
function DifferingGroups({ differing }: { differing: readonly { f: BacktestFileEntry; traceId: string }[] }) {
  const list = useRef<HTMLDivElement>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const top = list.current?.offsetTop ?? 0;
    if (top !== margin) setMargin(top);
  });
  const v = useVirtualizer({
    count: differing.length,
    getScrollElement: () => list.current?.closest<HTMLElement>('.bt-main') ?? null,
    estimateSize: (i) => 80 + 29 * Math.min(differing[i]!.f.differences.length, ROWS_PER_TRACE),
    getItemKey: (i) => differing[i]!.traceId,
    overscan: OVERSCAN,
    scrollMargin: margin,
  });
  return (
    <div ref={list} className="bt-group-list" style={{ height: v.getTotalSize(), position: 'relative' }} data-testid="backtest-group-list" data-count={differing.length}>
      {v.getVirtualItems().map((item) => {
        const { f, traceId } = differing[item.index]!;
        return (
          <div key={item.key} data-index={item.index} ref={v.measureElement} className="bt-group-slot" style={{ transform: `translateY(${item.start - margin}px)` }}>
            <TraceGroup entry={f} traceId={traceId} />
          </div>
        );
      })}
    </div>
  );
}

function TraceGroup({ entry: f, traceId }: { entry: BacktestFileEntry; traceId: string }) {
  const { backtest } = useServices();
  const rows: BacktestDifference[] = BACKTEST_CATEGORIES.flatMap((c) => f.differences.filter((d) => d.category === c));
  const counts = BACKTEST_CATEGORIES.map((c) => [c, countOf(f, c)] as const).filter(([, n]) => n > 0);
  return (
    <section className="bt-group" data-testid="backtest-trace-group" data-name={f.file} aria-label={f.file}>
      <h3><span className="name">{f.file}</span>
        {counts.map(([c, n]) => <span key={c} className={`bt-cat ${c}`}>{n} {CATEGORY_LABELS[c]}{n === 1 ? '' : 's'}</span>)}
        <span className="meta">{f.changed.toLocaleString('en')} of {f.events.toLocaleString('en')} events differ</span>
      </h3>
      <table className="dbg-table">
        <thead><tr><th>Step</th><th>Category</th><th>Event</th><th>Old</th><th>Current</th><th>Reason now</th></tr></thead>
        <tbody>
          {rows.slice(0, ROWS_PER_TRACE).map((d) => (
            <tr key={d.step} tabIndex={0} data-testid="backtest-row" data-step={d.step} data-category={d.category}
              aria-label={`Open step ${d.step} of ${f.file} in the debugger`}
              onClick={() => void backtest.openStep(traceId, d.step)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  void backtest.openStep(traceId, d.step);
                }
              }}>
              <td className="num">{d.step.toLocaleString('en')}</td>
              <td><span className={`bt-cat ${d.category}`}>{CATEGORY_LABELS[d.category]}</span></td>
              <td className="mono">{d.type}</td>
              <td><span className={`dec dec-${d.a.outcome}`}>{OUTCOME_LABEL[d.a.outcome]}</span></td>
              <td><span className={`dec dec-${d.b.outcome}`}>{OUTCOME_LABEL[d.b.outcome]}</span></td>
              <td className="reason" title={d.b.reason}>{d.b.reason || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {f.changed > Math.min(rows.length, ROWS_PER_TRACE) && (
        <p className="hint">Showing {Math.min(rows.length, ROWS_PER_TRACE)} of {f.changed.toLocaleString('en')} differing events (at most {KEEP_PER_CATEGORY} of each category are kept).</p>
      )}
    </section>
  );
}

function countOf(f: BacktestFileEntry, c: (typeof BACKTEST_CATEGORIES)[number]): number {
  return c === 'new_block' ? f.new_blocks : c === 'lifted_block' ? f.lifted_blocks : c === 'new_ask' ? f.new_asks : c === 'changed_rewrite' ? f.changed_rewrites : f.other;
}
