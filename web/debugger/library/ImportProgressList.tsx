import { useApp } from '../../store/appStore.ts';
import { useServices } from '../../services/AppServices.tsx';

const PHASE: Record<string, string> = { reading: 'Reading', converting: 'Converting', storing: 'Storing' };

function mb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * Imports in progress: a bar per file running, with what is happening and a Cancel that leaves nothing behind;
 * over several files, one bar for them all (how many are over, how many wait) and a Cancel for every one.
 */
export function ImportProgressList() {
  const imports = useApp((s) => s.imports);
  const batch = useApp((s) => s.importBatch);
  const { traces } = useServices();
  if (imports.length === 0 && !batch) return null;
  const waiting = batch ? batch.total - batch.done - imports.length : 0;
  return (
    <div className="dbg-imports">
      {batch && batch.total > 1 && (
        <div className="dbg-import" data-testid="import-batch">
          <div className="row">
            <span className="name grow" role="status" data-testid="import-batch-status">
              Importing {batch.total} files: {batch.done} done{waiting > 0 ? `, ${waiting} waiting` : ''}
            </span>
            <button className="btn ghost" onClick={() => traces.cancelAllImports()} data-testid="import-cancel-all">Cancel all</button>
          </div>
          <div className="bar" role="progressbar" aria-valuemin={0} aria-valuemax={batch.total} aria-valuenow={batch.done} aria-label={`Importing ${batch.total} files`}>
            <span style={{ width: `${Math.round((batch.done / batch.total) * 100)}%` }} />
          </div>
        </div>
      )}
      {imports.map((v) => {
        const p = v.progress;
        const fraction = p ? (p.phase === 'converting' ? null : p.total > 0 ? p.done / p.total : 0) : 0;
        return (
          <div key={v.id} className="dbg-import" data-testid="import-progress">
            <div className="row">
              <span className="name grow" title={v.fileName}>{v.fileName}</span>
              <button className="btn ghost" onClick={() => traces.cancelImport(v.id)} data-testid="import-cancel">Cancel</button>
            </div>
            <div className={`bar${fraction === null ? ' indeterminate' : ''}`} role="progressbar" aria-valuemin={0} aria-valuemax={100}
              aria-valuenow={fraction === null ? undefined : Math.round(fraction * 100)} aria-label={`Importing ${v.fileName}`}>
              <span style={{ width: `${Math.round((fraction ?? 0.35) * 100)}%` }} />
            </div>
            <div className="meta">
              {p ? `${PHASE[p.phase]} · ${p.events.toLocaleString('en')} events${p.phase === 'reading' ? ` · ${mb(p.done)} of ${mb(p.total)}` : ''}` : `Starting · ${mb(v.size)}`}
            </div>
          </div>
        );
      })}
    </div>
  );
}
