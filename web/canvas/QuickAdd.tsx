import { useEffect, useRef, useState } from 'react';
import { ComboboxPicker } from '../ui/ComboboxPicker.tsx';
import { Icon, kindColor } from '../ui/Icon.tsx';
import { focusNodeElement } from './focusNodeElement.ts';
import { searchPalette, type PaletteEntry } from './paletteCatalog.ts';
import { useAddInFlow } from './useAddInFlow.ts';

/** Ctrl/⌘ K: the key command palettes use (VS Code's quick open is Ctrl+P; Slack, Linear, GitHub use Ctrl+K). */
export const QUICK_ADD_KEYS = 'Ctrl/⌘+K';

/**
 * Quick-add: Ctrl/⌘ K in the editor opens a search over everything the palette adds; typing filters it
 * (paletteCatalog.searchPalette), the arrows pick, Enter adds the pick in flow order (as Enter on the palette
 * does: its kind's column, level with a selected node before it) and puts the keyboard on the new node, so F2
 * renames it at once. Escape closes without adding. Not inside the code editor (Monaco's own Ctrl+K chords).
 */
export function QuickAdd() {
  const [open, setOpen] = useState(false);
  const added = useRef<string | null>(null);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'k') return;
      if (document.querySelector('dialog:modal') || (e.target as HTMLElement | null)?.closest?.('.monaco-editor')) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // Once the dialog is gone (and has given the focus back), the keyboard goes to the node it added.
  useEffect(() => {
    if (open || !added.current) return;
    focusNodeElement(added.current);
    added.current = null;
  }, [open]);
  if (!open) return null;
  return <QuickAddDialog onClose={(id) => {
    added.current = id;
    setOpen(false);
  }} />;
}

function QuickAddDialog({ onClose }: { onClose: (added: string | null) => void }) {
  const addInFlow = useAddInFlow();
  const all = searchPalette('').length;
  return (
    <ComboboxPicker<PaletteEntry> title="Add a node" testId="quick-add"
      placeholder="Type a node: block, matcher, tool.before_call…" fieldLabel="Node to add" listLabel="Nodes"
      search={searchPalette} optionKey={(entry) => entry.key} optionData={(entry) => ({ 'data-key': entry.key })}
      renderOption={(entry) => (
        <>
          <span className="chip" style={{ background: entry.item.kind === 'handler' ? kindColor(entry.item.action) : kindColor(entry.item.kind) }}>
            <Icon name={entry.item.kind === 'handler' ? entry.item.action : entry.item.kind} size={12} />
          </span>
          <span className={`label${entry.mono ? ' mono' : ''}`}>{entry.label}</span>
          <span className="hint">{entry.hint}</span>
          <span className="group">{entry.group.replace(/s$/, '')}</span>
        </>
      )}
      status={(text, matches) => matches === 0 ? `No node matches “${text.trim()}”.` : `${matches} of ${all} · ↑ ↓ to pick, Enter adds it in flow order, Esc closes`}
      onPick={(entry) => onClose(addInFlow(entry.item))}
      onClose={() => onClose(null)} />
  );
}
