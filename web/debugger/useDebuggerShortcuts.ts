import { useEffect } from 'react';
import { useApp } from '../store/appStore.ts';
import { useServices } from '../services/AppServices.tsx';
import { setPanelOpen } from '../shell/sidePanel.ts';
import { toggleNodeBreakpoints } from './nodeBreakpoints.ts';
import { BREAKPOINT_LIST_ID } from './panels/BreakpointsPanel.tsx';

/** Finding and framing nodes on the canvas, the same in both modes (FindNode.tsx, CanvasToolbar.tsx ZoomButtons). */
export const CANVAS_VIEW_KEYS: readonly { keys: string; what: string }[] = [
  { keys: 'Ctrl/⌘+F (on the canvas)', what: 'find a node by name or id: Enter selects it, centres it and puts the keyboard on it' },
  { keys: 'Shift+1 / Shift+2', what: 'fit the whole pipeline / zoom to the selected nodes' },
];

/** The debugger's keys (shown in the buttons' titles). Keys typed into a field or with Ctrl/⌘/Alt are left alone. */
export const DEBUGGER_KEYS: readonly { keys: string; what: string }[] = [
  { keys: '→ / ↓ / J', what: 'next step' },
  { keys: '← / ↑ / K', what: 'previous step' },
  { keys: 'Home / End', what: 'first / last step' },
  { keys: 'Space', what: 'play / pause' },
  { keys: 'B / Shift+B', what: 'next / previous block (a long search shows how far it has looked, with Cancel)' },
  { keys: 'D / Shift+D', what: 'next / previous divergence (a long search shows how far it has looked, with Cancel)' },
  { keys: 'C', what: 'jump to the next breakpoint (a long search shows how far it has looked, with Cancel)' },
  { keys: 'F9', what: 'add / remove the breakpoints of the selected handler or matcher, as its dot on the canvas does (none selected: the handler that decided the step)' },
  { keys: 'Shift+F9', what: 'the breakpoints: Tab to one, Space enables / disables it, Enter on Edit edits what stops, its condition and hit count, Delete removes it' },
  { keys: 'R', what: 'show / hide the recorded payload of a rewritten step on the timeline' },
  { keys: 'Esc', what: 'pause; stop a search for the next breakpoint, block or divergence (the step stays) or the filter\'s search (the filter before it stays)' },
  { keys: 'Ctrl/⌘+Z, Ctrl/⌘+Shift+Z', what: 'undo / redo an edit' },
  ...CANVAS_VIEW_KEYS,
];

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !!el.closest('.monaco-editor');
}

/** Controls that Space and Enter press: on one of them those keys are the control's, not the trace's. */
const PRESSABLE = 'button, summary, a[href], [role="button"], [role="tab"], [role="checkbox"], [role="switch"], [role="radio"], [role="option"], [role^="menuitem"]';

const TAB_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'Home', 'End']);

function pressable(target: EventTarget | null): boolean {
  return !!(target as HTMLElement | null)?.closest?.(PRESSABLE);
}

/**
 * F9: toggles the breakpoints of the selected handler or matcher (none selected: of the handler that decided
 * the current step), as its dot on the canvas does (nodeBreakpoints.ts).
 */
function toggleNodeBreakpoint(): void {
  const st = useApp.getState();
  const selected = st.selectedNodes.length === 1 ? st.doc?.nodes.find((n) => n.id === st.selectedNodes[0]) : undefined;
  const decider = st.detail?.step.decided_by ?? null;
  const node = selected && selected.kind !== 'event' ? selected : decider ? st.doc?.nodes.find((n) => n.id === decider) : undefined;
  if (!node || node.kind === 'event') {
    st.toast({ tone: 'info', message: 'F9 puts a breakpoint on a handler or a matcher: select one on the canvas (this step no handler decided).' });
    return;
  }
  toggleNodeBreakpoints(node.id);
}

/** Shift+F9: the Breakpoints tab, unfolded, with the focus on its first breakpoint (or its Add form). */
function showBreakpoints(): void {
  useApp.getState().showBottomTab('breakpoints');
  setPanelOpen('debug', 'bottom', true);
  requestAnimationFrame(() => {
    const panel = document.getElementById(BREAKPOINT_LIST_ID);
    const target = panel?.querySelector<HTMLElement>('[data-testid="bp-enabled"]') ?? panel?.querySelector<HTMLElement>('select, button') ?? panel;
    target?.focus();
  });
}

export function useDebuggerShortcuts(): void {
  const { replay, playback } = useServices();
  useEffect(() => {
    const { move } = replay;
    const { nextBlock, nextDivergence, pause, runToBreakpoint, togglePlay } = playback;
    // The last element pressed with a pointer: a button focused by a click lets the focus go at a shortcut (its
    // ring would show at every key), one reached with Tab keeps it, so a keyboard user does not lose their place.
    let pointed: EventTarget | null = null;
    const onPointer = (e: PointerEvent) => {
      pointed = e.target;
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Tab') pointed = null;
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
      if ((k === ' ' || k === 'Enter') && pressable(e.target)) return;
      // On a tab strip the arrows, Home and End go from tab to tab (web/ui/tablistKeys.ts). Not a defaultPrevented
      // check: React Flow takes Space (its pan key) with preventDefault on every key event of the window.
      if (TAB_KEYS.has(k) && (e.target as HTMLElement | null)?.closest?.('[role="tablist"]')) return;
      let handled = true;
      if (k === 'ArrowRight' || k === 'ArrowDown' || k === 'j' || k === 'J') move('next');
      else if (k === 'ArrowLeft' || k === 'ArrowUp' || k === 'k' || k === 'K') move('prev');
      else if (k === 'Home') move('first');
      else if (k === 'End') move('last');
      else if (k === ' ') togglePlay();
      else if (k === 'b' || k === 'B') void nextBlock(e.shiftKey ? 'backward' : 'forward');
      else if (k === 'd' || k === 'D') void nextDivergence(e.shiftKey ? 'backward' : 'forward');
      else if (k === 'c' || k === 'C') void runToBreakpoint();
      else if (k === 'F9' && e.shiftKey) showBreakpoints();
      else if (k === 'F9') toggleNodeBreakpoint();
      else if (k === 'r' || k === 'R') useApp.getState().toggleReveal(useApp.getState().position);
      else if (k === 'Escape') {
        pause();
        replay.cancelFilter();
      }
      else handled = false;
      if (!handled) return;
      e.preventDefault();
      const active = document.activeElement as HTMLElement | null;
      if (active?.tagName === 'BUTTON' && pointed instanceof Node && active.contains(pointed)) active.blur();
    };
    window.addEventListener('pointerdown', onPointer, true);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('pointerdown', onPointer, true);
      window.removeEventListener('keydown', onKey);
      pause();
    };
  }, [replay, playback]);
}
