import type { AppStore } from '../store/appStore.ts';

/**
 * Nothing unsaved is lost silently: while the open document has edits that are not stored (a save on its
 * way, a conflict with another tab, a storage error), leaving or reloading the page asks first (the
 * browser's own "Leave site?" prompt).
 */
export function hasUnsaved(s: ReturnType<AppStore['getState']>): boolean {
  if (!s.doc) return false;
  return s.version !== s.savedVersion || s.save.status === 'conflict' || s.save.status === 'error';
}

/**
 * `flush` saves what is pending at once (the autosave waits for typing to pause): it is called when the page
 * is hidden or about to go, so a save that was only waiting for the keys to stop is not what the prompt is about.
 */
export function startUnloadGuard(store: AppStore, target: Pick<Window, 'addEventListener' | 'removeEventListener'>, flush: () => void = () => undefined): () => void {
  const onHide = () => {
    if (hasUnsaved(store.getState())) flush();
  };
  // visibilitychange is fired at the document, not the window.
  const doc = typeof document === 'undefined' ? null : document;
  const onVisibility = () => {
    if (doc?.visibilityState === 'hidden') onHide();
  };
  const onBeforeUnload = (e: BeforeUnloadEvent) => {
    if (!hasUnsaved(store.getState())) return;
    flush();
    e.preventDefault();
    // Older Chromium versions show the prompt only when returnValue is set.
    e.returnValue = '';
  };
  target.addEventListener('beforeunload', onBeforeUnload);
  target.addEventListener('pagehide', onHide);
  doc?.addEventListener('visibilitychange', onVisibility);
  return () => {
    target.removeEventListener('beforeunload', onBeforeUnload);
    target.removeEventListener('pagehide', onHide);
    doc?.removeEventListener('visibilitychange', onVisibility);
  };
}
