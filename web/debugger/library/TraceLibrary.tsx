import { memo, useMemo, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { recordingAgent, TRACE_FORMAT_LABELS } from '../../../engine/app.ts';
import { listTraces } from '../../persistence/traceLibrary.ts';
import type { StoredTrace } from '../../persistence/storedTrace.ts';
import { useServices } from '../../services/AppServices.tsx';
import { useApp } from '../../store/appStore.ts';
import { DebugIcon } from '../ui/DebugIcon.tsx';
import { ImportProgressList } from './ImportProgressList.tsx';
import { LivePanel } from './LivePanel.tsx';
import { SessionPlacesDialog } from './SessionPlacesDialog.tsx';
import { timeAgo } from '../../ui/timeAgo.ts';
import { traceSource } from './traceSource.ts';
import { useVirtualRows } from '../../ui/useVirtualRows.ts';

/** The trace library: import (picker or drop), open, rename, delete with undo. */
export function TraceLibrary() {
  const { db, traces: commands } = useServices();
  const traces = useLiveQuery(() => listTraces(db), [db]);
  const current = useApp((s) => s.traceId);
  const input = useRef<HTMLInputElement>(null);
  const [places, setPlaces] = useState(false);
  return (
    <>
      <div className="dbg-side-head">
        <span className="title">Traces</span>
        <button className="btn primary" onClick={() => input.current?.click()} data-testid="trace-import"><DebugIcon name="upload" size={13} /> Import trace</button>
        <input ref={input} type="file" hidden multiple data-testid="trace-file"
          accept=".jsonl,.json,.traj,.hwtrace,.md,application/json,application/x-ndjson"
          onChange={(e) => {
            commands.importFiles([...(e.target.files ?? [])]);
            e.target.value = '';
          }} />
      </div>
      <p className="dbg-side-hint">Drop a file anywhere. Hookwire traces; Claude Code, Codex, Gemini CLI, Qwen Code, Copilot CLI, Cline, Roo Code, OpenCode, goose, aider and SpecStory (Cursor) sessions; OpenTelemetry spans, SWE-agent, mini-swe-agent and OpenHands runs are recognised by their content. <button type="button" className="btn link" onClick={() => setPlaces(true)} data-testid="session-places-open">Where are my sessions?</button></p>
      {places && <SessionPlacesDialog onClose={() => setPlaces(false)} />}
      <LivePanel />
      <ImportProgressList />
      <TraceRows traces={traces} current={current} />
    </>
  );
}

/** A library row's height before it is drawn and measured (name, then its details; a badge line makes it taller). */
const ROW_ESTIMATE = 58;

/** The library's rows, drawn where it is scrolled to (web/ui/useVirtualRows.ts); `data-count` says how many it holds. */
function TraceRows({ traces, current }: { traces: StoredTrace[] | undefined; current: string | null }) {
  const scroller = useRef<HTMLDivElement>(null);
  const keys = useMemo(() => (traces ?? []).map((t) => t.id), [traces]);
  const { v, focusProps } = useVirtualRows(keys, scroller, ROW_ESTIMATE);
  return (
    <div ref={scroller} className="side-scroll" data-testid="trace-library" data-count={traces?.length} {...focusProps}>
      {traces === undefined ? null : traces.length === 0 ? (
        <div className="empty">No traces yet.</div>
      ) : (
        <div className="virtual-rows" style={{ height: v.getTotalSize() }}>
          {v.getVirtualItems().map((item) => {
            const t = traces[item.index]!;
            return (
              <div key={item.key} data-index={item.index} ref={v.measureElement} className="virtual-row" style={{ transform: `translateY(${item.start}px)` }}>
                <TraceRow trace={t} current={t.id === current} />
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}

/** A row is not drawn again as the list scrolls, only when its record (a new one at each change of the library) or whether it is open changes. */
const TraceRow = memo(TraceItem);

function TraceItem({ trace: t, current }: { trace: StoredTrace; current: boolean }) {
  const [renaming, setRenaming] = useState(false);
  const warnings = t.problems.length;
  // A recording of an agent's hooks names the agent (the engine reads its header) [AG7].
  const source = traceSource(t.source_format, recordingAgent(t.header.source));
  const pending = t.status === 'pending';
  const { replay, traces } = useServices();
  const open = () => {
    if (pending) useApp.getState().showImportResult({ status: 'partial', traceId: t.id, format: t.source_format, name: t.name, events: t.event_count, problems: t.problems, notes: t.notes, fileName: t.file_name ?? t.name });
    else if (!current) void replay.openTrace(t.id);
  };
  return (
    <div className="lib-item lib-rows" aria-current={current} data-testid="trace-item" data-name={t.name}
      title={`${t.name}\n${TRACE_FORMAT_LABELS[t.source_format]}${t.file_name ? `\nfrom ${t.file_name}` : ''}`}
      onClick={open}>
      <div className="lib-head">
        {renaming ? (
          <RenameInput initial={t.name} onDone={(name) => {
            setRenaming(false);
            if (name && name !== t.name) void traces.renameTrace(t.id, name);
          }} />
        ) : (
          // The keyboard's way in: a click on it bubbles to the row, which opens the trace.
          <button type="button" className="title lib-open" aria-current={current}>{t.name}</button>
        )}
      </div>
      <div className="actions">
        <button className="btn ghost icon" title="Rename" aria-label={`Rename ${t.name}`} data-testid="trace-rename"
          onClick={(e) => { e.stopPropagation(); setRenaming(true); }}><DebugIcon name="pencil" size={13} /></button>
        <button className="btn ghost icon" title="Download (trace v1 JSONL)" aria-label={`Download ${t.name}`} data-testid="trace-download"
          onClick={(e) => {
            e.stopPropagation();
            void traces.traceFile(t.id).then((file) => {
              if (!file) return;
              const url = URL.createObjectURL(file.blob);
              const a = document.createElement('a');
              a.href = url;
              a.download = file.name;
              a.click();
              window.setTimeout(() => URL.revokeObjectURL(url), 1000);
            });
          }}><DebugIcon name="download" size={13} /></button>
        <button className="btn ghost icon" title="Delete" aria-label={`Delete ${t.name}`} data-testid="trace-delete"
          onClick={(e) => { e.stopPropagation(); void traces.deleteTrace(t.id, t.name); }}><DebugIcon name="trash" size={13} /></button>
      </div>
      {/* Under the name and its buttons, across the whole row: the details fit on one line. */}
      <div className="lib-body">
        {/* One line whatever the panel's width: the agent first, the format gives way (cut with "…"; the row's title has it whole). */}
        <div className="meta one-line">
          <span>{t.event_count.toLocaleString('en')} events · </span>
          <span className="cut">{source.agent !== null && <span data-testid="trace-agent">{source.agent}</span>}{source.agent !== null && source.format !== null ? ` (${source.format})` : source.format}</span>
          <span> · {timeAgo(t.updated_at)}</span>
        </div>
        {(t.demo || warnings > 0 || pending) && (
          <div className="dbg-item-badges">
            {t.demo && <span className="badge sync">demo</span>}
            {pending && <span className="badge error">review import</span>}
            {!pending && warnings > 0 && <span className="badge warning" title={t.problems.slice(0, 5).map((p) => p.message).join('\n')}>{warnings} note{warnings === 1 ? '' : 's'}</span>}
          </div>
        )}
      </div>
    </div>
  );
}

function RenameInput({ initial, onDone }: { initial: string; onDone: (name: string | null) => void }) {
  const [name, setName] = useState(initial);
  return (
    <input className="input" autoFocus value={name} data-testid="trace-rename-input" aria-label="Trace name"
      onChange={(e) => setName(e.target.value)} onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') onDone(name.trim() || null);
        if (e.key === 'Escape') onDone(null);
      }}
      onBlur={() => onDone(name.trim() || null)} />
  );
}
