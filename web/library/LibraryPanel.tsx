import { useEffect, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { demoPipeline } from '../demo/demoPipeline.ts';
import { flowExamples } from '../demo/flowExamples.ts';
import { NewPipelineDialog } from './NewPipelineDialog.tsx';
import { listPipelines, uniquePipelineName } from '../persistence/library.ts';
import { useServices } from '../services/AppServices.tsx';
import { useApp, selectPipelineId } from '../store/appStore.ts';
import { Icon } from '../ui/Icon.tsx';
import { timeAgo } from '../ui/timeAgo.ts';

/** `byKey`: ended by Enter or Escape, so the keyboard goes back to the row (a blur leaves the focus where it went). */
function RenameInput({ initial, onDone }: { initial: string; onDone: (name: string | null, byKey: boolean) => void }) {
  const [name, setName] = useState(initial);
  return (
    <input className="input" autoFocus value={name} data-testid="rename-input" aria-label="Pipeline name"
      onChange={(e) => setName(e.target.value)} onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onDone(name.trim() || null, true);
        if (e.key === 'Escape') onDone(null, true);
      }}
      onBlur={() => onDone(name.trim() || null, false)} />
  );
}

/** The library of stored pipelines: open, create, rename, duplicate, delete (with undo). */
export function LibraryPanel() {
  const { workspace } = useServices();
  const { db, duplicatePipeline, newPipeline, openPipeline, removePipeline, renamePipeline } = workspace;
  const entries = useLiveQuery(() => listPipelines(db), [db]);
  const current = useApp(selectPipelineId);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [naming, setNaming] = useState(false);
  // Where the keyboard goes once a row's rename ends or a row is deleted (the control it was on is gone).
  const [refocus, setRefocus] = useState<{ id: string | null } | null>(null);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!refocus) return;
    const row = refocus.id === null ? null : list.current?.querySelector<HTMLElement>(`[data-id="${CSS.escape(refocus.id)}"] .lib-open`);
    (row ?? document.querySelector<HTMLElement>('[data-testid="library-new"]'))?.focus();
    setRefocus(null);
  }, [refocus, renaming, entries]);
  const remove = async (id: string): Promise<void> => {
    const at = entries?.findIndex((x) => x.id === id) ?? -1;
    const next = entries?.[at + 1] ?? entries?.[at - 1];
    await removePipeline(id);
    setRefocus({ id: next && next.id !== id ? next.id : null });
  };
  return (
    <>
      {naming && <NewPipelineDialog onClose={() => setNaming(false)} />}
      <div className="lib-toolbar">
        <button className="btn primary" onClick={() => setNaming(true)} data-testid="library-new"><Icon name="plus" size={12} /> New pipeline</button>
        <button className="btn" onClick={() => void (async () => {
          const doc = demoPipeline();
          await newPipeline({ ...doc, name: await uniquePipelineName(db, doc.name) });
        })()} title="Add a fresh copy of the demo pipeline" data-testid="library-demo">Demo</button>
        <select className="input" value="" aria-label="Add a flow rule example" data-testid="library-flow-examples" title="Add a flow rule example (docs/flow-rules.md)"
          onChange={(e) => {
            const doc = flowExamples().find((d) => d.name === e.target.value);
            if (doc) void (async () => newPipeline({ ...doc, name: await uniquePipelineName(db, doc.name) }))();
          }}>
          <option value="">Flow examples…</option>
          {flowExamples().map((d) => <option key={d.name} value={d.name}>{d.name.replace(/^Flow: /, '')}</option>)}
        </select>
      </div>
      <div className="side-scroll" data-testid="library" ref={list}>
        {entries === undefined ? null : entries.length === 0 ? (
          <div className="empty">No pipelines yet.</div>
        ) : (
          entries.map((e) => (
            <div key={e.id} className="lib-item" aria-current={e.id === current} data-testid="library-item" data-name={e.name} data-id={e.id}
              onClick={() => e.id !== current && void openPipeline(e.id)}>
              <div style={{ minWidth: 0 }}>
                {renaming === e.id ? (
                  <RenameInput initial={e.name} onDone={(name, byKey) => {
                    setRenaming(null);
                    if (byKey) setRefocus({ id: e.id });
                    if (name && name !== e.name) void renamePipeline(e.id, name);
                  }} />
                ) : (
                  // The keyboard's way in: a click on it bubbles to the row, which opens the entry.
                  <button type="button" className="title lib-open" title={e.name} aria-current={e.id === current}>{e.name}</button>
                )}
                <div className="meta">{timeAgo(e.updated_at)}</div>
              </div>
              <div className="actions">
                <button className="btn ghost icon" title="Rename" aria-label={`Rename ${e.name}`} data-testid="library-rename"
                  onClick={(ev) => { ev.stopPropagation(); setRenaming(e.id); }}><Icon name="pencil" size={13} /></button>
                <button className="btn ghost icon" title="Duplicate" aria-label={`Duplicate ${e.name}`} data-testid="library-duplicate"
                  onClick={(ev) => { ev.stopPropagation(); void duplicatePipeline(e.id); }}><Icon name="copy" size={13} /></button>
                <button className="btn ghost icon" title="Delete" aria-label={`Delete ${e.name}`} data-testid="library-delete"
                  onClick={(ev) => { ev.stopPropagation(); void remove(e.id); }}><Icon name="trash" size={13} /></button>
              </div>
            </div>
          ))
        )}
      </div>
    </>
  );
}
