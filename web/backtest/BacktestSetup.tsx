import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { listTraces } from '../persistence/traceLibrary.ts';
import type { StoredTrace } from '../persistence/storedTrace.ts';
import { useVirtualRows } from '../ui/useVirtualRows.ts';
import { lastExported, listVersions, type PipelineVersion } from '../persistence/versionHistory.ts';
import { versionTime } from '../library/HistoryPanel.tsx';
import { useServices } from '../services/AppServices.tsx';
import { useApp } from '../store/appStore.ts';
import { earlierVersions } from './backtestService.ts';
import { filesOfDrop } from './droppedFiles.ts';
import { ImportProgressList } from '../debugger/library/ImportProgressList.tsx';

/** What to compare (an earlier version against the current pipeline) and over which traces of the library. */
export function BacktestSetup() {
  const { db, backtest, traces: traceCommands } = useServices();
  const pipelineId = useApp((s) => s.pipelineId);
  const doc = useApp((s) => s.doc);
  const picked = useApp((s) => s.backtestTraces);
  const oldSeq = useApp((s) => s.backtestOldSeq);
  const run = useApp((s) => s.backtest);
  const setPicked = useApp((s) => s.setBacktestTraces);
  const setOld = useApp((s) => s.setBacktestOld);
  const [filter, setFilter] = useState('');
  const [dragging, setDragging] = useState(false);
  const all = useLiveQuery(() => listTraces(db), [db]);
  const ready = useMemo(() => (all ?? []).filter((t) => t.status === 'ready'), [all]);
  const versions = useLiveQuery(() => (pipelineId ? earlierVersions(db, pipelineId, doc) : Promise.resolve([] as PipelineVersion[])), [db, pipelineId, doc]);
  // What was last exported (downloaded or copied as a file): by default the current edit is compared with it.
  const exportedLast = useLiveQuery(() => (pipelineId ? listVersions(db, pipelineId).then((all) => lastExported(all) ?? null) : Promise.resolve(null)), [db, pipelineId, doc]);
  const exportIsCurrent = !!exportedLast && !!versions && !versions.some((v) => v.seq === exportedLast.seq);
  // The baseline: the version picked, else the last export, else the newest version, else no pipeline [B1].
  const old = oldSeq === 'none' ? 'none' : versions?.find((v) => v.seq === oldSeq) ?? versions?.find((v) => v.seq === exportedLast?.seq) ?? versions?.[0] ?? (versions ? 'none' : undefined);
  const needle = filter.trim().toLowerCase();
  const shown = useMemo(() => (needle ? ready.filter((t) => t.name.toLowerCase().includes(needle) || t.source_format.includes(needle)) : ready), [ready, needle]);
  const pickedSet = new Set(picked);
  const running = run.status === 'running';

  // Until the person picks, every trace of the library is picked; after, traces deleted from it leave the pick.
  useEffect(() => {
    if (!all) return;
    if (!useApp.getState().backtestTracesChosen) {
      useApp.getState().defaultBacktestTraces(ready.map((t) => t.id));
      return;
    }
    const live = new Set(ready.map((t) => t.id));
    if (picked.some((id) => !live.has(id))) setPicked(picked.filter((id) => live.has(id)));
  }, [all, ready, picked, setPicked]);

  const toggle = (id: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(id);
    else next.delete(id);
    setPicked(ready.filter((t) => next.has(t.id)).map((t) => t.id));
  };
  const hasFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');

  return (
    <div className={`bt-setup${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.relatedTarget === null || !e.currentTarget.contains(e.relatedTarget as Node)) setDragging(false);
      }}
      onDrop={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setDragging(false);
        // A dropped folder is walked: every file in it goes to the library's importer.
        void filesOfDrop(e.dataTransfer).then((files) => traceCommands.importFiles(files));
      }}>
      <div className="dbg-side-head"><span className="title">Backtest</span></div>
      <p className="dbg-side-hint">Replays the traces you pick through an earlier version (or no pipeline) and the current pipeline, and lists every event whose decision, reason, deciding handler, final payload or added context differs.</p>
      <label className="bt-field">
        <span>Compare the current pipeline with</span>
        <select className="input" data-testid="backtest-old" value={old === undefined ? '' : old === 'none' ? 'none' : old.seq} disabled={running || !versions}
          onChange={(e) => setOld(e.target.value === 'none' ? 'none' : Number(e.target.value))}>
          {(versions ?? []).map((v) => <option key={v.seq} value={v.seq}>{v.seq === exportedLast?.seq ? `Last export · ${versionTime({ at: v.exported_at! })}` : versionTime(v)}{v.label ? ` · ${v.label}` : ''} — {v.summary}</option>)}
          <option value="none">No pipeline — as without hooks</option>
        </select>
        {versions && versions.length === 0 && (
          <span className="bt-note" data-testid="backtest-no-version">This pipeline has no earlier version yet (each saved edit records one, History tab in Edit): it is compared with no pipeline, so the run shows what it alone would block, ask or rewrite in these sessions.</span>
        )}
      </label>
      {exportedLast === null && <p className="dbg-side-hint" data-testid="backtest-export-none">Export the pipeline (Export in Edit) to compare the current edit with what you last exported.</p>}
      {exportIsCurrent && <p className="dbg-side-hint" data-testid="backtest-export-current">The current pipeline is what you last exported ({versionTime({ at: exportedLast.exported_at! })}): edit it to see what the edit changes.</p>}
      <div className="bt-traces-head">
        <span className="title">Traces <span className="bt-count" data-testid="backtest-picked-count">{picked.length} of {ready.length}</span></span>
        <button className="btn ghost" disabled={running || shown.length === 0} data-testid="backtest-pick-shown"
          onClick={() => setPicked(ready.filter((t) => pickedSet.has(t.id) || shown.includes(t)).map((t) => t.id))}>All shown</button>
        {/* Not disabled when nothing is picked: pressed by keyboard it would drop the focus to the page's body. */}
        <button className="btn ghost" disabled={running} aria-disabled={picked.length === 0 || undefined} data-testid="backtest-pick-none"
          onClick={() => { if (picked.length > 0) setPicked([]); }}>None</button>
      </div>
      <input className="input bt-filter" type="search" placeholder="Filter traces by name or format" aria-label="Filter traces"
        value={filter} onChange={(e) => setFilter(e.target.value)} data-testid="backtest-trace-filter" />
      {/* Files dropped here (or picked in Debug) import a few at a time; the list fills as each is stored. */}
      <ImportProgressList />
      <TracePicks all={all} ready={ready} shown={shown} picked={pickedSet} disabled={running} toggle={toggle} />
      <p className="dbg-side-hint">Drop trace files or a folder here to import them into the library.</p>
      <div className="bt-actions">
        {running ? (
          <button className="btn" onClick={backtest.cancel} data-testid="backtest-cancel">Cancel</button>
        ) : (
          <button className="btn primary" disabled={!old || picked.length === 0} data-testid="backtest-run"
            onClick={() => old && void backtest.run(old)}>
            {picked.length === 0 ? 'Pick the traces to run over' : `Run backtest over ${picked.length} trace${picked.length === 1 ? '' : 's'}`}
          </button>
        )}
      </div>
    </div>
  );
}

/** A picker row's height before it is drawn and measured. */
const PICK_ESTIMATE = 28;

/** The traces to pick from, drawn where the list is scrolled to (web/ui/useVirtualRows.ts); `data-count` says how many it shows. */
function TracePicks({ all, ready, shown, picked, disabled, toggle }: {
  all: readonly StoredTrace[] | undefined; ready: readonly StoredTrace[]; shown: readonly StoredTrace[]; picked: ReadonlySet<string>; disabled: boolean;
  toggle: (id: string, on: boolean) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const keys = useMemo(() => shown.map((t) => t.id), [shown]);
  const { v, focusProps } = useVirtualRows(keys, scroller, PICK_ESTIMATE);
  return (
    <div ref={scroller} className="side-scroll bt-trace-list" role="group" aria-label="Traces to backtest" data-testid="backtest-traces" data-count={shown.length} {...focusProps}>
      {all === undefined ? null : shown.length === 0 ? (
        <div className="empty">{ready.length === 0 ? 'No traces yet: import some in Debug, or drop files or a folder here.' : 'No trace matches the filter.'}</div>
      ) : (
        <div className="virtual-rows" style={{ height: v.getTotalSize() }}>
          {v.getVirtualItems().map((item) => {
            const t = shown[item.index]!;
            return (
              <div key={item.key} data-index={item.index} ref={v.measureElement} className="virtual-row" style={{ transform: `translateY(${item.start}px)` }}>
                <label className="bt-trace" data-testid="backtest-trace" data-name={t.name}>
                  <input type="checkbox" checked={picked.has(t.id)} disabled={disabled} onChange={(e) => toggle(t.id, e.target.checked)} />
                  <span className="name" title={t.name}>{t.name}</span>
                  <span className="meta">{t.event_count.toLocaleString('en')} events</span>
                </label>
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
