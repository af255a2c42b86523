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

export function startUnloadGuard(store: AppStore, target: Pick<Window, 'addEventListener' | 'removeEventListener'>): () => void {
  const onBeforeUnload = (e: BeforeUnloadEvent) => {
    if (!hasUnsaved(store.getState())) return;
    e.preventDefault();
    // Older Chromium versions show the prompt only when returnValue is set.
    e.returnValue = '';
  };
  target.addEventListener('beforeunload', onBeforeUnload);
  return () => target.removeEventListener('beforeunload', onBeforeUnload);
}
