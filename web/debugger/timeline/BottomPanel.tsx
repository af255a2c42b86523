import { restartReplay } from '../debuggerController.ts';
import { useDebugger, selectProgress, type BottomTab } from '../debuggerStore.ts';
import { BreakpointsPanel } from '../panels/BreakpointsPanel.tsx';
import { ComparePanel } from '../panels/ComparePanel.tsx';
import { CoveragePanel } from '../panels/CoveragePanel.tsx';
import { Timeline } from './Timeline.tsx';
import { TimelineControls } from './TimelineControls.tsx';

const PHASE: Record<string, string> = { timeline: 'Replaying', analysis: 'Explaining', compare: 'Comparing' };

/** Under the canvas: the timeline with its controls, and the breakpoints, compare and coverage tabs. */
export function BottomPanel() {
  const tab = useDebugger((s) => s.bottomTab);
  const trace = useDebugger((s) => s.trace);
  const breakpoints = useDebugger((s) => s.breakpoints.length);
  const changed = useDebugger((s) => s.diff?.changed_count ?? null);
  const neverFired = useDebugger((s) => s.coverage?.never_fired.length ?? null);
  const setTab = (t: BottomTab) => useDebugger.getState().set({ bottomTab: t });
  const tabButton = (t: BottomTab, label: string, count?: number | null, tone = '') => (
    <button role="tab" aria-selected={tab === t} onClick={() => setTab(t)} data-testid={`tab-${t}`}>
      {label}{count !== undefined && count !== null && count > 0 && <span className={`dbg-count ${tone}`}>{count}</span>}
    </button>
  );
  return (
    <section className="dbg-bottom" aria-label="Replay">
      <div className="tabs dbg-tabs" role="tablist">
        {tabButton('timeline', 'Timeline')}
        {tabButton('breakpoints', 'Breakpoints', breakpoints)}
        {tabButton('compare', 'Compare', changed, 'warn')}
        {tabButton('coverage', 'Coverage', neverFired, 'muted')}
        <span className="grow" />
        <ProgressNote />
      </div>
      {!trace ? (
        <div className="empty">Open a trace to replay it.</div>
      ) : tab === 'timeline' ? (
        <>
          <TimelineControls />
          <Timeline />
        </>
      ) : tab === 'breakpoints' ? (
        <BreakpointsPanel />
      ) : tab === 'compare' ? (
        <ComparePanel />
      ) : (
        <CoveragePanel />
      )}
    </section>
  );
}

function ProgressNote() {
  const p = useDebugger(selectProgress);
  const busy = useDebugger((s) => s.busy);
  if (!p && !busy) return null;
  const pct = p && p.total > 0 ? Math.floor((p.done / p.total) * 100) : 0;
  return (
    <span className="dbg-progress" data-testid="replay-progress" role="status">
      {p && <span className="bar"><span style={{ width: `${pct}%` }} /></span>}
      {p ? `${PHASE[p.phase]} ${pct}% · ${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')}` : 'Working…'}
      {busy && <button className="btn ghost dbg-mini" onClick={restartReplay} title="Stop the replay worker and start it again" data-testid="replay-stop">Stop</button>}
    </span>
  );
}
