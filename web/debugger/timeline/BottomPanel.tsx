import { useServices } from '../../services/AppServices.tsx';
import { useApp, selectProgress, type BottomTab } from '../../store/appStore.ts';
import { BreakpointsPanel } from '../panels/BreakpointsPanel.tsx';
import { ComparePanel } from '../panels/ComparePanel.tsx';
import { CoveragePanel } from '../panels/CoveragePanel.tsx';
import { Timeline } from './Timeline.tsx';
import { TimelineControls } from './TimelineControls.tsx';
import { Tab, TabList } from '../../ui/Tabs.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { foldShortcut, usePanel } from '../../shell/sidePanel.ts';

const PHASE: Record<string, string> = { timeline: 'Replaying', analysis: 'Explaining', compare: 'Comparing' };

/**
 * Under the canvas: the timeline with its controls, and the breakpoints, compare and coverage tabs. It folds to
 * its tab row (its button, or Ctrl/⌘ J) so a short window gives the canvas the height; the debugger's keys still
 * step while it is folded, and choosing a tab unfolds it.
 */
export function BottomPanel() {
  const [open, setOpen] = usePanel('debug', 'bottom');
  const tab = useApp((s) => s.bottomTab);
  const trace = useApp((s) => s.trace);
  const breakpoints = useApp((s) => s.breakpoints.length);
  const changed = useApp((s) => s.diff?.changed_count ?? null);
  const neverFired = useApp((s) => s.coverage?.never_fired.length ?? null);
  const setTab = (t: BottomTab) => {
    useApp.getState().showBottomTab(t);
    if (!open) setOpen(true);
  };
  const tabButton = (t: BottomTab, label: string, count?: number | null, tone = '') => (
    <Tab selected={tab === t} onSelect={() => setTab(t)} testId={`tab-${t}`}>
      {label}{count !== undefined && count !== null && count > 0 && <span className={`dbg-count ${tone}`}>{count}</span>}
    </Tab>
  );
  return (
    <section className={`dbg-bottom${open ? '' : ' folded'}`} aria-label="Replay" data-folded={open ? undefined : 'true'}>
      {/* The progress note beside the tabs, not in their tablist: a tablist holds only tabs (ARIA). */}
      <div className="tabs dbg-tabs">
        <TabList className="tab-strip" label="Replay views">
          {tabButton('timeline', 'Timeline')}
          {tabButton('breakpoints', 'Breakpoints', breakpoints)}
          {tabButton('compare', 'Compare', changed, 'warn')}
          {tabButton('coverage', 'Coverage', neverFired, 'muted')}
        </TabList>
        <span className="grow" />
        <ProgressNote />
        <button type="button" className="btn ghost icon dbg-fold" data-testid="bottom-toggle" aria-expanded={open} aria-keyshortcuts="Control+J"
          aria-label={open ? 'Fold the replay panel' : 'Unfold the replay panel'} title={`${open ? 'Fold' : 'Unfold'} the replay panel: a taller canvas (${foldShortcut('bottom')})`}
          onClick={() => setOpen(!open)}><Icon name={open ? 'fold' : 'unfold'} size={14} /></button>
      </div>
      {!open ? null : !trace ? (
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
  const p = useApp(selectProgress);
  const busy = useApp((s) => s.busy);
  const { replay } = useServices();
  if (!p && !busy) return null;
  const pct = p && p.total > 0 ? Math.floor((p.done / p.total) * 100) : 0;
  return (
    <span className="dbg-progress" data-testid="replay-progress" role="status">
      {p && <span className="bar"><span style={{ width: `${pct}%` }} /></span>}
      {p ? `${PHASE[p.phase]} ${pct}% · ${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')}` : 'Working…'}
      {busy && <button className="btn ghost dbg-mini" onClick={replay.restartReplay} title="Stop the replay worker and start it again" data-testid="replay-stop">Stop</button>}
    </span>
  );
}
