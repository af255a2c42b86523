import { useEffect, useRef } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { documentForEditor } from '../../model/editorDocument.ts';
import { listVersions, type PipelineVersion } from '../../persistence/versionHistory.ts';
import { versionTime } from '../../library/HistoryPanel.tsx';
import { useServices } from '../../services/AppServices.tsx';
import { useApp } from '../../store/appStore.ts';
import { OUTCOME_LABEL, stepNumber } from '../model/labels.ts';
import { DebugIcon } from '../ui/DebugIcon.tsx';

const MAX_ROWS = 500;

/** Any earlier version from the pipeline's automatic history, as the version to compare with. */
function VersionPicker({ label }: { label: string }) {
  const { replay, workspace } = useServices();
  const id = useApp((s) => s.pipelineId);
  const versions = useLiveQuery(() => (id ? listVersions(workspace.db, id) : Promise.resolve([] as PipelineVersion[])), [workspace.db, id]);
  const earlier = (versions ?? []).slice(1);
  if (earlier.length === 0) return null;
  return (
    <label className="dbg-compare-pick">
      <span>{label}</span>
      <select className="input" value="" data-testid="compare-version" aria-label="Compare with an earlier version"
        onChange={(e) => {
          const v = earlier.find((x) => String(x.seq) === e.target.value);
          const opened = v ? documentForEditor(v.doc) : null;
          if (!v || !opened?.ok) return;
          replay.compareWith({ doc: opened.doc, name: v.label ?? `${v.name} at ${new Date(v.at).toLocaleTimeString('en-GB')}`, at: v.at });
        }}>
        <option value="">Choose a version…</option>
        {earlier.map((v) => <option key={v.seq} value={v.seq}>{versionTime(v)}{v.label ? ` · ${v.label}` : ''} — {v.summary}</option>)}
      </select>
    </label>
  );
}

/**
 * Pin a version of the pipeline (or pick any earlier one from its history), edit it, and see over the whole
 * trace which events now decide differently (the engine's pipeline diff [R12]: outcome, reason, deciding handler, final payload or added context).
 */
export function ComparePanel() {
  const pinned = useApp((s) => s.pinned);
  const diff = useApp((s) => s.diff);
  const running = useApp((s) => s.diffRunning);
  const problems = useApp((s) => s.diffProblems);
  const position = useApp((s) => s.position);
  const focus = useApp((s) => s.compareFocus);
  const { replay } = useServices();
  const panel = useRef<HTMLDivElement>(null);
  // A backtest row opened here: once the comparison is in, its step's row (or, not listed, the panel) takes the keyboard.
  useEffect(() => {
    if (focus === null || !diff || !panel.current) return;
    (panel.current.querySelector<HTMLElement>(`[data-testid="compare-row"][data-index="${focus}"]`) ?? panel.current).focus();
    useApp.getState().focusCompareRow(null);
  }, [focus, diff]);
  const open = (index: number) => {
    replay.goTo(index);
    useApp.getState().showBottomTab('timeline');
  };
  if (!pinned) {
    return (
      <div className="dbg-panel dbg-compare-empty" data-testid="compare-panel" role="region" aria-label="Compare" tabIndex={0}>
        <p>Pin the pipeline as it is now, then edit it (in Edit mode, or the <strong>Edit node</strong> tab on the right): every event whose decision, reason, deciding handler, final payload or added context changes is listed here.</p>
        <button className="btn primary" onClick={replay.pinVersion} data-testid="pin-version"><DebugIcon name="pin" size={13} /> Pin this version</button>
        <VersionPicker label="or compare with an earlier version:" />
      </div>
    );
  }
  return (
    <div className="dbg-panel" data-testid="compare-panel" role="region" aria-label="Compare" tabIndex={0} ref={panel}>
      <div className="row dbg-compare-head">
        <DebugIcon name="pin" size={13} />
        <span className="grow">Comparing with “{pinned.name}” pinned at {new Date(pinned.at).toLocaleTimeString()}</span>
        <button className="btn" onClick={replay.pinVersion} title="Pin the pipeline as it is now">Re-pin</button>
        <button className="btn" onClick={replay.unpin} data-testid="unpin">Unpin</button>
      </div>
      <VersionPicker label="Compare with another version:" />
      {problems.length > 0 && <div className="inline-problem">The pinned version no longer loads: {problems[0]!.message}</div>}
      {running && !diff && <div className="empty">Comparing…</div>}
      {diff && (
        <>
          <ul className="dbg-compare-summary" data-testid="compare-summary">
            {diff.summary.map((s, i) => <li key={i}>{s}.</li>)}
          </ul>
          {diff.changed.length > 0 && (
            <div className="dbg-table-wrap">
              <table className="dbg-table" data-testid="compare-table">
                <thead><tr><th>#</th><th>Event</th><th>Pinned</th><th>Now</th><th>Reason now</th><th>Changed</th></tr></thead>
                <tbody>
                  {diff.changed.slice(0, MAX_ROWS).map((c) => (
                    <tr key={c.index} tabIndex={0} aria-label={`Go to step ${stepNumber(c.index)}`} onClick={() => open(c.index)}
                      onKeyDown={(e) => {
                        // As a backtest row: Enter or Space goes to its step (the rows were mouse-only). The keyboard stays
                        // on the row, in Compare, so the next difference is a Tab away (a click shows the timeline).
                        if (e.key !== 'Enter' && e.key !== ' ') return;
                        e.preventDefault();
                        replay.goTo(c.index);
                      }}
                      data-testid="compare-row" data-index={c.index} aria-current={c.index === position}>
                      <td className="num">{stepNumber(c.index)}</td>
                      <td className="mono">{c.type}</td>
                      <td><span className={`dec dec-${c.before.outcome}`}>{OUTCOME_LABEL[c.before.outcome]}</span></td>
                      <td><span className={`dec dec-${c.after.outcome}`}>{OUTCOME_LABEL[c.after.outcome]}</span></td>
                      <td className="reason" title={c.after.reason}>{c.after.reason || '—'}</td>
                      <td>{c.changes.join(', ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {diff.changed_count > MAX_ROWS && <p className="hint">Showing {MAX_ROWS} of {diff.changed_count.toLocaleString('en')} changed events.</p>}
            </div>
          )}
        </>
      )}
    </div>
  );
}
