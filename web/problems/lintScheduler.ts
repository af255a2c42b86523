import type { AppStore } from '../store/appStore.ts';

/**
 * Typing leaves the open document's load on the page for later (store/documentSlice.ts `apply` with a
 * coalesce key): a key costs its edit, not a validation of the whole pipeline. This runs that load once
 * the keys pause for LINT_IDLE_MS, so the Problems panel, the node badges and the inspector catch up
 * within a moment of the last key. Anything that needs the problems of the very latest version sooner
 * (the code check, a save of problems) calls the store's `lint()` itself.
 */
export const LINT_IDLE_MS = 150;

/** Starts following the open document; returns the function that stops. */
export function startLintScheduler(store: AppStore, idleMs = LINT_IDLE_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.doc === prev.doc || s.lintedDoc === s.doc) return;
    clearTimeout(timer);
    timer = setTimeout(() => store.getState().lint(), idleMs);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}
