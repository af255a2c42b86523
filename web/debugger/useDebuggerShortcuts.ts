import { useEffect } from 'react';
import { useApp } from '../store/appStore.ts';
import { useServices } from '../services/AppServices.tsx';

/** The debugger's keys (shown in the buttons' titles). Keys typed into a field or with Ctrl/⌘/Alt are left alone. */
export const DEBUGGER_KEYS: readonly { keys: string; what: string }[] = [
  { keys: '→ / ↓ / J', what: 'next step' },
  { keys: '← / ↑ / K', what: 'previous step' },
  { keys: 'Home / End', what: 'first / last step' },
  { keys: 'Space', what: 'play / pause' },
  { keys: 'B / Shift+B', what: 'next / previous block' },
  { keys: 'D / Shift+D', what: 'next / previous divergence' },
  { keys: 'C', what: 'jump to the next breakpoint' },
  { keys: 'Esc', what: 'pause' },
  { keys: 'Ctrl/⌘+Z, Ctrl/⌘+Shift+Z', what: 'undo / redo an edit' },
];

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !!el.closest('.monaco-editor');
}

export function useDebuggerShortcuts(): void {
  const { replay, playback } = useServices();
  useEffect(() => {
    const { move } = replay;
    const { nextBlock, nextDivergence, pause, runToBreakpoint, togglePlay } = playback;
    const onKey = (e: KeyboardEvent) => {
      // Edits made in the Edit node tab undo as in the editor (the canvas is read-only here, so it does not).
      const z = e.key.toLowerCase();
      if ((e.ctrlKey || e.metaKey) && !e.altKey && (z === 'z' || z === 'y') && !(e.target as HTMLElement | null)?.closest?.('.monaco-editor')) {
        e.preventDefault();
        if (z === 'y' || e.shiftKey) useApp.getState().redo();
        else useApp.getState().undo();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || document.querySelector('dialog:modal')) return;
      const k = e.key;
      let handled = true;
      if (k === 'ArrowRight' || k === 'ArrowDown' || k === 'j' || k === 'J') move('next');
      else if (k === 'ArrowLeft' || k === 'ArrowUp' || k === 'k' || k === 'K') move('prev');
      else if (k === 'Home') move('first');
      else if (k === 'End') move('last');
      else if (k === ' ') togglePlay();
      else if (k === 'b' || k === 'B') void nextBlock(e.shiftKey ? 'backward' : 'forward');
      else if (k === 'd' || k === 'D') void nextDivergence(e.shiftKey ? 'backward' : 'forward');
      else if (k === 'c' || k === 'C') void runToBreakpoint();
      else if (k === 'Escape') pause();
      else handled = false;
      if (!handled) return;
      e.preventDefault();
      // A button clicked earlier keeps the focus and would show its focus ring at every key: let it go.
      if ((document.activeElement as HTMLElement | null)?.tagName === 'BUTTON') (document.activeElement as HTMLElement).blur();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      pause();
    };
  }, [replay, playback]);
}
