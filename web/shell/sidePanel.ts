import { useCallback, useEffect, useSyncExternalStore } from 'react';

/**
 * Whether a workbench's folding panels are open: the left panel (palette and library in Edit, the trace library
 * in Debug), the right panel (the inspector in Edit, the step in Debug) and the debugger's bottom panel
 * (timeline and its tabs). The person's choice is kept per mode in localStorage. With none yet, each panel of
 * Edit starts folded when the window has no room for it beside the demo at zoom 1 (issue 34: "a first view that
 * does not fit"): see `startsOpen`. Ctrl/⌘ B toggles the left panel, Ctrl/⌘ Alt B the right one and Ctrl/⌘ J
 * the bottom one: the keys VS Code gives its primary side bar, secondary side bar and panel.
 */
/** Widths app.css gives the left panel, the inspector and a folded panel's rail (`.workbench`). */
const LEFT_W = 256, INSPECTOR_W = 372, RAIL_W = 36;
/** The canvas width the demo opens in whole at zoom 1: its 1090 px graph and openingView's 20 px each side. */
const DEMO_W = 1130;
/** Narrower than this, the left panel starts folded (in both modes): at 1280×720 the canvas gets the width. */
export const WIDE_ENOUGH = LEFT_W + RAIL_W + DEMO_W;
/** Narrower than this, Edit's inspector starts folded too: at 1440×900 the palette and the whole demo show. */
export const ROOM_FOR_INSPECTOR = LEFT_W + INSPECTOR_W + DEMO_W;

export type Fold = 'left' | 'right' | 'bottom';
/** Each fold's chord: Ctrl/⌘, Alt or not, and a letter. */
export const FOLD_KEY: Record<Fold, { letter: string; alt: boolean }> = { left: { letter: 'b', alt: false }, right: { letter: 'b', alt: true }, bottom: { letter: 'j', alt: false } };
const ON_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
/** How the key reads in a title: "Ctrl B", "Ctrl Alt B" or "⌘ ⌥ B". */
export const foldShortcut = (fold: Fold): string =>
  [ON_MAC ? '⌘' : 'Ctrl', ...(FOLD_KEY[fold].alt ? [ON_MAC ? '⌥' : 'Alt'] : []), FOLD_KEY[fold].letter.toUpperCase()].join(' ');
/** The chord for `aria-keyshortcuts`. */
export const foldAriaKeys = (fold: Fold): string => `Control+${FOLD_KEY[fold].alt ? 'Alt+' : ''}${FOLD_KEY[fold].letter.toUpperCase()}`;

/** The event is the fold's chord. Alt changes `key` on a Mac (⌥B is "∫"), so the physical key counts too. */
function isFoldKey(e: KeyboardEvent, fold: Fold): boolean {
  const { letter, alt } = FOLD_KEY[fold];
  if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey !== alt) return false;
  return e.key.toLowerCase() === letter || e.code === `Key${letter.toUpperCase()}`;
}

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
  return startsOpen(mode, fold);
}

/**
 * With no choice made: the left panel starts folded narrower than WIDE_ENOUGH, Edit's inspector narrower than
 * ROOM_FOR_INSPECTOR (it unfolds when a node is selected, see `showPanelForNow`), so at 1280×720, 1440×900 and
 * 1920×1080 the whole demo opens at zoom 1 or more. The debugger's step panel and the bottom panels start open.
 */
function startsOpen(mode: string, fold: Fold): boolean {
  if (fold === 'bottom') return true;
  if (fold === 'right') return mode !== 'edit' || window.innerWidth >= ROOM_FOR_INSPECTOR;
  return window.innerWidth >= WIDE_ENOUGH;
}

/** The person chose this panel's state (here or in an earlier visit). */
export function panelChosen(mode: string, fold: Fold): boolean {
  if (memory.has(storageKey(mode, fold))) return true;
  try {
    return localStorage.getItem(storageKey(mode, fold)) !== null;
  } catch {
    return false;
  }
}

/**
 * Opens a panel for this page without making it the person's choice: a reload starts from the default again.
 * For the inspector folded by default, when a node is selected.
 */
export function showPanelForNow(mode: string, fold: Fold): void {
  memory.set(storageKey(mode, fold), true);
  for (const l of listeners) l();
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
      if (!isFoldKey(e, fold)) return;
      if (document.querySelector('dialog:modal') || (e.target as HTMLElement | null)?.closest?.('.monaco-editor')) return;
      e.preventDefault();
      setPanelOpen(mode, fold, !read(mode, fold));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mode, fold]);
  return [open, set];
}
