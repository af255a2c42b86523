import { useCallback, useEffect, useSyncExternalStore } from 'react';

/**
 * Whether a workbench's folding panels are open: the left panel (palette and library in Edit, the trace library
 * in Debug) and the debugger's bottom panel (timeline and its tabs). The person's choice is kept per mode in
 * localStorage. With none yet, the left panel starts closed when the window is narrower than WIDE_ENOUGH, so at
 * 1280×720 the canvas gets the width (issue 34: "a first view that does not fit"); the bottom panel starts open.
 * Ctrl/⌘ B toggles the left panel and Ctrl/⌘ J the bottom one, the keys VS Code gives its side bar and panel.
 */
export const WIDE_ENOUGH = 1400;

export type Fold = 'left' | 'bottom';
export const FOLD_KEY: Record<Fold, string> = { left: 'b', bottom: 'j' };
const ON_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
/** How the key reads in a title: "Ctrl B" or "⌘ B". */
export const foldShortcut = (fold: Fold): string => `${ON_MAC ? '⌘' : 'Ctrl'} ${FOLD_KEY[fold].toUpperCase()}`;

const storageKey = (mode: string, fold: Fold) => `hookwire.panel.${mode}.${fold}`;
const listeners = new Set<() => void>();
/** The choice made on this page, also when storage refuses it. */
const memory = new Map<string, boolean>();

function read(mode: string, fold: Fold): boolean {
  const mem = memory.get(storageKey(mode, fold));
  if (mem !== undefined) return mem;
  try {
    const v = localStorage.getItem(storageKey(mode, fold));
    if (v === 'open') return true;
    if (v === 'closed') return false;
  } catch {
    // Storage refused (private mode): fall through to the default.
  }
  return fold === 'bottom' || window.innerWidth >= WIDE_ENOUGH;
}

export function setPanelOpen(mode: string, fold: Fold, open: boolean): void {
  try {
    localStorage.setItem(storageKey(mode, fold), open ? 'open' : 'closed');
  } catch {
    // Not kept across reloads; this page still follows the choice through `memory`.
  }
  memory.set(storageKey(mode, fold), open);
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};

/** A folding panel's state and its setter; while mounted, its Ctrl/⌘ key toggles it (not over a modal dialog). */
export function usePanel(mode: string, fold: Fold): [boolean, (open: boolean) => void] {
  const open = useSyncExternalStore(subscribe, () => read(mode, fold));
  const set = useCallback((v: boolean) => setPanelOpen(mode, fold, v), [mode, fold]);
  useEffect(() => {
    if (!mode) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== FOLD_KEY[fold]) return;
      if (document.querySelector('dialog:modal') || (e.target as HTMLElement | null)?.closest?.('.monaco-editor')) return;
      e.preventDefault();
      setPanelOpen(mode, fold, !read(mode, fold));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mode, fold]);
  return [open, set];
}
