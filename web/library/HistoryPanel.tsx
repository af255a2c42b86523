import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { listVersions, nameVersion, type PipelineVersion } from '../persistence/versionHistory.ts';
import { useServices } from '../services/AppServices.tsx';
import { useApp, selectPipelineId } from '../store/appStore.ts';
import { Icon } from '../ui/Icon.tsx';
import { timeAgo } from '../ui/timeAgo.ts';

/** When a version was saved, for people: "14:03:12 · 5 min ago", the full date in the title. */
export function versionTime(v: Pick<PipelineVersion, 'at'>): string {
  return `${new Date(v.at).toLocaleTimeString('en-GB')} · ${timeAgo(v.at)}`;
}

function NameInput({ initial, onDone }: { initial: string; onDone: (name: string | null) => void }) {
  const [name, setName] = useState(initial);
  return (
    <input className="input" autoFocus value={name} data-testid="version-name-input" aria-label="Version name" placeholder="e.g. before the refactor"
      onChange={(e) => setName(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onDone(name);
        if (e.key === 'Escape') onDone(null);
      }}
      onBlur={() => onDone(name)} />
  );
}

/**
 * The open pipeline's automatic version history (newest first): when, what changed, restore (undoable),
 * and a name that keeps a version for good. Compare against any of them from the debugger's Compare tab.
 */
export function HistoryPanel() {
  const { workspace } = useServices();
  const id = useApp(selectPipelineId);
  const versions = useLiveQuery(() => (id ? listVersions(workspace.db, id) : Promise.resolve([])), [workspace.db, id]);
  const [naming, setNaming] = useState<number | null>(null);
  if (!id) return <div className="empty">No pipeline is open.</div>;
  return (
    <div className="side-scroll" data-testid="history">
      <p className="hint history-hint">Every save is kept here (saves within a minute are one version; the last 50, and every named one).</p>
      {versions === undefined ? null : (
        <ol className="history-list" aria-label="Versions">
          {versions.map((v, i) => (
            <li key={v.seq} className="history-item" data-testid="history-item" data-seq={v.seq} aria-current={i === 0 ? 'true' : undefined}>
              <div className="history-main">
                <div className="history-when" title={new Date(v.at).toString()}>
                  {versionTime(v)}{i === 0 && <span className="badge">current</span>}
                  {v.exported_at !== undefined && <span className="badge" data-testid="history-exported" title={`Exported at ${new Date(v.exported_at).toLocaleTimeString('en-GB')}`}>exported</span>}
                </div>
                {naming === v.seq ? (
                  <NameInput initial={v.label ?? ''} onDone={(name) => {
                    setNaming(null);
                    if (name !== null) void nameVersion(workspace.db, v.seq!, name);
                  }} />
                ) : v.label ? <div className="history-label" data-testid="history-label">{v.label}</div> : null}
                <div className="history-summary" data-testid="history-summary">{v.summary}</div>
              </div>
              <div className="history-actions">
                <button className="btn ghost small" data-testid="history-name" aria-label={`Name the version of ${versionTime(v)}`} title="Name it (named versions are kept)"
                  onClick={() => setNaming(v.seq!)}><Icon name="pencil" size={12} /></button>
                {i > 0 && (
                  <button className="btn small" data-testid="history-restore" aria-label={`Restore the version of ${versionTime(v)}`}
                    onClick={() => void workspace.restoreVersion(v)}>Restore</button>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
