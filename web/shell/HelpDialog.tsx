import { useEffect, useState } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { typingTarget } from '../canvas/useCanvasShortcuts.ts';
import { CANVAS_VIEW_KEYS, DEBUGGER_KEYS } from '../debugger/useDebuggerShortcuts.ts';
import { useApp, selectMode } from '../store/appStore.ts';

/** The editor's keys (web/canvas/useCanvasShortcuts.ts, the palette, Problems, the code editor). */
export const EDITOR_KEYS: readonly { keys: string; what: string }[] = [
  { keys: 'Ctrl/⌘+K', what: 'quick-add: type a node\'s name, Enter adds it in flow order' },
  { keys: 'Enter (on a palette item)', what: 'add it in flow order, after the selected node (Connect in the inspector wires it)' },
  { keys: 'Ctrl/⌘+Z, Ctrl/⌘+Shift+Z', what: 'undo / redo' },
  { keys: 'Ctrl/⌘+C / X / V / D', what: 'copy / cut / paste / duplicate nodes' },
  { keys: 'Ctrl/⌘+A', what: 'select every node' },
  { keys: 'Tab (on the canvas)', what: 'each node, then each wire (Enter selects a wire, Shift+F10 opens its menu)' },
  { keys: 'Delete / Backspace', what: 'delete the selected nodes or wire' },
  { keys: 'F2', what: 'rename the selected node' },
  { keys: 'Ctrl/⌘+Enter', what: 'run the selected node alone on the selected step or the typed event (the result shows beside it)' },
  { keys: 'Esc', what: 'clear the selection' },
  ...CANVAS_VIEW_KEYS,
  { keys: 'Ctrl/⌘+B, Ctrl/⌘+Alt+B', what: 'fold or unfold the left panel / the right panel (the inspector); each mode keeps its choice' },
  { keys: 'Ctrl/⌘+Shift+M', what: 'go to the Problems list (Enter goes to the node, or the line)' },
  { keys: 'Ctrl/⌘+Shift+E', what: 'code editor full screen' },
  { keys: '?', what: 'this help' },
];

function KeyTable({ keys, testId }: { keys: readonly { keys: string; what: string }[]; testId: string }) {
  return (
    <table className="help-keys" data-testid={testId}>
      <tbody>
        {keys.map((k) => <tr key={k.keys}><td><span className="kbd">{k.keys}</span></td><td>{k.what}</td></tr>)}
      </tbody>
    </table>
  );
}

/**
 * `?` (typed outside a field, as in GitHub, Gmail and VS Code's keyboard reference) opens the keys of the
 * mode in view first, then the other mode's; the top bar's "?" button opens it too.
 */
export function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const mode = useApp(selectMode);
  if (!open) return null;
  const editor = <section key="edit"><h3>Editor</h3><KeyTable keys={EDITOR_KEYS} testId="help-editor-keys" /></section>;
  const debug = <section key="debug"><h3>Debugger</h3><KeyTable keys={[...DEBUGGER_KEYS, { keys: '?', what: 'this help' }]} testId="help-debugger-keys" /></section>;
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} testId="help-dialog">
      <div className="help-body">{mode === 'edit' ? [editor, debug] : [debug, editor]}</div>
    </Dialog>
  );
}

/** Opens the help on `?` typed outside a field and outside any dialog. */
export function useHelpKey(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || typingTarget(e.target)) return;
      if (document.querySelector('dialog:modal')) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return [open, setOpen];
}
