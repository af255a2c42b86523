import { formatPath } from '../../engine/app.ts';
import { useServices } from '../services/AppServices.tsx';
import { useApp, selectOpenError, selectSave, selectToasts } from '../store/appStore.ts';

/** Save failures and two-tab conflicts, shown over the canvas until resolved (never swallowed). */
export function SaveBanner() {
  const save = useApp(selectSave);
  const { retrySave, keepMine, loadTheirs, saveMineAsCopy } = useServices().workspace;
  if (save.status === 'error') {
    return (
      <div className="banner error" role="alert" data-testid="storage-error">
        <div className="text"><strong>Changes are not being saved</strong>{save.message}</div>
        <button className="btn" onClick={() => void retrySave()} data-testid="retry-save">Retry</button>
      </div>
    );
  }
  if (save.status === 'conflict') {
    const text = save.by === 'missing'
      ? 'This pipeline was deleted in another tab. Your edits here are not saved.'
      : `Another tab saved this pipeline (revision ${save.theirRevision}) after this tab loaded it. Your edits here are not saved yet; choose which version to keep.`;
    return (
      <div className="banner conflict" role="alert" data-testid="conflict-banner">
        <div className="text"><strong>Edited in two places</strong>{text}</div>
        {save.by === 'other-tab' && <button className="btn" onClick={() => void loadTheirs()} data-testid="conflict-load-theirs">Load theirs</button>}
        {save.by === 'other-tab' && <button className="btn" onClick={() => void keepMine()} data-testid="conflict-keep-mine">Keep mine</button>}
        <button className="btn primary" onClick={() => void saveMineAsCopy()} data-testid="conflict-save-copy">Save mine as a copy</button>
      </div>
    );
  }
  return null;
}

export function Toasts() {
  const toasts = useApp(selectToasts);
  const dismiss = useApp((s) => s.dismissToast);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <ToastView key={t.id} id={t.id} tone={t.tone} message={t.message} actionLabel={t.actionLabel} action={t.action} dismiss={dismiss} />
      ))}
    </div>
  );
}

function ToastView({ id, tone, message, actionLabel, action, dismiss }: { id: number; tone: string; message: string; actionLabel?: string | undefined; action?: (() => void) | undefined; dismiss: (id: number) => void }) {
  return (
    <div className={`toast ${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid="toast" ref={(el) => {
      if (el && !el.dataset.timer) el.dataset.timer = String(window.setTimeout(() => dismiss(id), action ? 9000 : 5000));
    }}>
      <span className="grow">{message}</span>
      {action && actionLabel && <button className="btn" onClick={() => { action(); dismiss(id); }} data-testid="toast-action">{actionLabel}</button>}
      <button className="btn ghost" style={{ color: '#aab3c2' }} onClick={() => dismiss(id)} aria-label="Dismiss">✕</button>
    </div>
  );
}

/** A stored pipeline the editor cannot open: why, with the engine's problems. Nothing stored is changed. */
export function OpenErrorNote() {
  const error = useApp(selectOpenError);
  if (!error) return null;
  return (
    <div className="center-note" data-testid="open-error">
      <div className="box">
        <h2>“{error.name}” cannot be opened</h2>
        <p>{error.message} It is kept in the library unchanged.</p>
        <ul className="problem-list">
          {error.problems.map((p, i) => (
            <li key={i} className={p.severity}>{p.message}<span className="path">{p.code} · {formatPath(p.path)}</span></li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** Nothing open (every pipeline deleted): say so and offer a way on. */
export function NoPipelineNote({ onNew, onDemo }: { onNew: () => void; onDemo: () => void }) {
  return (
    <div className="center-note" data-testid="no-pipeline">
      <div className="box">
        <h2>No pipeline open</h2>
        <p>Create a pipeline, add a fresh copy of the demo, or import a file.</p>
        <div className="row">
          <button className="btn primary" onClick={onNew}>New pipeline</button>
          <button className="btn" onClick={onDemo}>Open the demo</button>
        </div>
      </div>
    </div>
  );
}
