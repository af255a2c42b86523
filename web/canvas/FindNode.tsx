import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { Icon, kindColor } from '../ui/Icon.tsx';
import { useApp, selectDoc } from '../store/appStore.ts';
import { findNodes, type FoundNode } from '../model/findNodes.ts';
import { focusNodeElement } from './focusNodeElement.ts';

/** Ctrl/⌘ F on the canvas, as in Figma and Excalidraw (elsewhere on the page the browser's own find stays). */
export const FIND_NODE_KEYS = 'Ctrl/⌘+F';

/** Rows the list draws at most: a 300-node pipeline shows its best 50, and the count says how many more match. */
const SHOWN = 50;

/** True when Ctrl/⌘ F belongs to the canvas: the focus is on it (a node, a wire, the pane, its zoom bar) or nowhere. */
function onCanvas(): boolean {
  const a = document.activeElement;
  return !a || a === document.body || !!a.closest('.canvas-pane, .zoom-buttons');
}

/**
 * Find a node by name: Ctrl/⌘ F on the canvas (or the Find button beside Fit) opens a search over the
 * pipeline's nodes (findNodes: their names as the canvas shows them, and their ids); the arrows pick, Enter
 * selects the node, centres it at a readable zoom and puts the keyboard on it. In the editor and the
 * debugger alike: a 300-node pipeline fitted on screen has text too small to read.
 */
export function FindNode() {
  const [open, setOpen] = useState(false);
  const chosen = useRef<string | null>(null);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'f') return;
      if (document.querySelector('dialog:modal') || !onCanvas()) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // Once the dialog is gone (and has given the focus back), the keyboard goes to the node found, then the
  // view centres it at a readable zoom (the store's focusNode, as a jump from Problems does).
  useEffect(() => {
    if (open || !chosen.current) return;
    const id = chosen.current;
    focusNodeElement(id, () => useApp.getState().focusNode(id));
    chosen.current = null;
  }, [open]);
  return (
    <>
      <button className="btn ghost" onClick={() => setOpen(true)} title={`Find a node by name (${FIND_NODE_KEYS} on the canvas)`} data-testid="find-node-open">
        <Icon name="search" /> Find
      </button>
      {open && <FindNodeDialog onClose={(id) => {
        chosen.current = id;
        setOpen(false);
      }} />}
    </>
  );
}

function FindNodeDialog({ onClose }: { onClose: (found: string | null) => void }) {
  const doc = useApp(selectDoc);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const found = useMemo(() => findNodes(doc?.nodes ?? [], text), [doc, text]);
  const shown = found.slice(0, SHOWN);
  const listId = useId();
  const list = useRef<HTMLUListElement>(null);
  const field = useRef<HTMLInputElement>(null);
  // After showModal (the Dialog's layout effect), which would focus the first control (its × button).
  useEffect(() => field.current?.focus(), []);
  const at = Math.min(active, shown.length - 1);
  const optionId = (i: number) => `${listId}-${i}`;

  useEffect(() => {
    list.current?.querySelector(`[id="${CSS.escape(optionId(at))}"]`)?.scrollIntoView({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [at]);

  const go = (f: FoundNode | undefined) => {
    if (!f) return;
    useApp.getState().select([f.id]);
    onClose(f.id);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    if (e.key === 'ArrowDown') setActive(at >= last ? 0 : at + 1);
    else if (e.key === 'ArrowUp') setActive(at <= 0 ? last : at - 1);
    else if (e.key === 'PageDown') setActive(Math.min(last, at + 8));
    else if (e.key === 'PageUp') setActive(Math.max(0, at - 8));
    else if (e.key === 'Enter') go(shown[at]);
    else return;
    e.preventDefault();
  };
  const total = doc?.nodes.length ?? 0;

  return (
    <Dialog title="Find a node" onClose={() => onClose(null)} testId="find-node">
      <div className="quick-add find-node">
        <input ref={field} className="input" value={text} data-testid="find-node-input" placeholder="Type a node's name or id"
          role="combobox" aria-expanded="true" aria-controls={listId} aria-autocomplete="list" aria-label="Node to find"
          aria-activedescendant={shown.length > 0 ? optionId(at) : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown} />
        <ul className="quick-add-list" id={listId} role="listbox" aria-label="Nodes" ref={list} data-testid="find-node-list">
          {shown.map((f, i) => (
            <li key={f.id} id={optionId(i)} role="option" aria-selected={i === at} className={i === at ? 'active' : ''}
              data-testid="find-node-option" data-id={f.id}
              onMouseMove={() => i !== at && setActive(i)} onMouseDown={(e) => e.preventDefault()} onClick={() => go(f)}>
              <span className="chip" style={{ background: kindColor(f.look) }}><Icon name={f.look} size={12} /></span>
              <span className="label" title={f.name}>{f.name}</span>
              <span className="hint mono">{f.id}</span>
              <span className="group">{f.kind}</span>
            </li>
          ))}
        </ul>
        <p className="hint quick-add-foot" role="status" data-testid="find-node-status">
          {found.length === 0 ? `No node matches “${text.trim()}”.`
            : `${found.length > SHOWN ? `First ${SHOWN} of ${found.length} matches (type more to narrow)` : `${found.length} of ${total}`} · ↑ ↓ to pick, Enter goes to it, Esc closes`}
        </p>
      </div>
    </Dialog>
  );
}
