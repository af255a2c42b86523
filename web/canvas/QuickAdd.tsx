import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
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
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const found = useMemo(() => searchPalette(text), [text]);
  const listId = useId();
  const list = useRef<HTMLUListElement>(null);
  const field = useRef<HTMLInputElement>(null);
  // After showModal (the Dialog's layout effect), which would focus the first control (its × button).
  useEffect(() => field.current?.focus(), []);
  const at = Math.min(active, found.length - 1);
  const optionId = (i: number) => `${listId}-${i}`;

  useEffect(() => {
    list.current?.querySelector(`[id="${CSS.escape(optionId(at))}"]`)?.scrollIntoView({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [at]);

  const add = (entry: PaletteEntry | undefined) => {
    if (!entry) return;
    onClose(addInFlow(entry.item));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const last = found.length - 1;
    if (e.key === 'ArrowDown') setActive(at >= last ? 0 : at + 1);
    else if (e.key === 'ArrowUp') setActive(at <= 0 ? last : at - 1);
    else if (e.key === 'PageDown') setActive(Math.min(last, at + 8));
    else if (e.key === 'PageUp') setActive(Math.max(0, at - 8));
    else if (e.key === 'Enter') add(found[at]);
    else return;
    e.preventDefault();
  };

  return (
    <Dialog title="Add a node" onClose={() => onClose(null)} testId="quick-add">
      <div className="quick-add">
        <input ref={field} className="input" value={text} data-testid="quick-add-input" placeholder="Type a node: block, matcher, tool.before_call…"
          role="combobox" aria-expanded="true" aria-controls={listId} aria-autocomplete="list" aria-label="Node to add"
          aria-activedescendant={found.length > 0 ? optionId(at) : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown} />
        <ul className="quick-add-list" id={listId} role="listbox" aria-label="Nodes" ref={list} data-testid="quick-add-list">
          {found.map((entry, i) => (
            <li key={entry.key} id={optionId(i)} role="option" aria-selected={i === at} className={i === at ? 'active' : ''}
              data-testid="quick-add-option" data-key={entry.key}
              onMouseMove={() => i !== at && setActive(i)} onMouseDown={(e) => e.preventDefault()} onClick={() => add(entry)}>
              <span className="chip" style={{ background: entry.item.kind === 'handler' ? kindColor(entry.item.action) : kindColor(entry.item.kind) }}>
                <Icon name={entry.item.kind === 'handler' ? entry.item.action : entry.item.kind} size={12} />
              </span>
              <span className={`label${entry.mono ? ' mono' : ''}`}>{entry.label}</span>
              <span className="hint">{entry.hint}</span>
              <span className="group">{entry.group.replace(/s$/, '')}</span>
            </li>
          ))}
        </ul>
        <p className="hint quick-add-foot" role="status" data-testid="quick-add-status">
          {found.length === 0 ? `No node matches “${text.trim()}”.` : `${found.length} of ${searchPalette('').length} · ↑ ↓ to pick, Enter adds it in flow order, Esc closes`}
        </p>
      </div>
    </Dialog>
  );
}
