import { useEffect, useState } from 'react';
import { formatPath } from '../../engine/app.ts';
import { typingTarget } from '../canvas/useCanvasShortcuts.ts';
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

/**
 * The toasts, in a polite live region (a screen reader reads each as it comes). Escape dismisses them, as
 * the other things that float over the page, unless it has a job where it is pressed: a field (clears or
 * cancels), an open dialog or menu (closes it). The canvas's and the debugger's own Escape (deselect, pause)
 * still happen.
 */
export function Toasts() {
  const toasts = useApp(selectToasts);
  const dismiss = useApp((s) => s.dismissToast);
  const showing = toasts.length > 0;
  useEffect(() => {
    if (!showing) return;
    const onKey = (e: KeyboardEvent) => {
      // The target, not the page: a menu that Escape closes is gone from the page by the time this runs.
      const inside = (e.target as Element | null)?.closest?.('dialog, .ctx-menu');
      if (e.key !== 'Escape' || typingTarget(e.target) || inside || document.querySelector('dialog:modal')) return;
      useApp.getState().dismissToasts();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [showing]);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <ToastView key={t.id} id={t.id} tone={t.tone} message={t.message} actionLabel={t.actionLabel} action={t.action} dismiss={dismiss} />
      ))}
    </div>
  );
}

/**
 * One toast. It goes by itself after a while (longer with an action to take), but never while the pointer is on
 * it or the keyboard is in it (WCAG 2.2.1: a person reading it or reaching for its button keeps it); it
 * starts its time again when they leave.
 */
function ToastView({ id, tone, message, actionLabel, action, dismiss }: { id: number; tone: string; message: string; actionLabel?: string | undefined; action?: (() => void) | undefined; dismiss: (id: number) => void }) {
  const [pointer, setPointer] = useState(false);
  const [focus, setFocus] = useState(false);
  const held = pointer || focus;
  useEffect(() => {
    if (held) return;
    const timer = window.setTimeout(() => dismiss(id), action ? 9000 : 5000);
    return () => window.clearTimeout(timer);
  }, [held, id, action, dismiss]);
  return (
    <div className={`toast ${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid="toast" data-held={held || undefined}
      onPointerEnter={() => setPointer(true)} onPointerLeave={() => setPointer(false)}
      onFocus={() => setFocus(true)} onBlur={(e) => { if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocus(false); }}>
      <span className="grow">{message}</span>
      {action && actionLabel && <button className="btn" onClick={() => { action(); dismiss(id); }} data-testid="toast-action">{actionLabel}</button>}
      <button className="btn ghost" style={{ color: '#aab3c2' }} onClick={() => dismiss(id)} aria-label="Dismiss" title="Dismiss (Escape)">✕</button>
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
