import { useCallback, useEffect, useRef, useState } from 'react';
import { ComboboxPicker } from '../ui/ComboboxPicker.tsx';
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
  const search = useCallback((text: string) => findNodes(doc?.nodes ?? [], text), [doc]);
  const total = doc?.nodes.length ?? 0;
  return (
    <ComboboxPicker<FoundNode> title="Find a node" testId="find-node" className="find-node"
      placeholder="Type a node's name or id" fieldLabel="Node to find" listLabel="Nodes"
      search={search} limit={SHOWN} optionKey={(f) => f.id} optionData={(f) => ({ 'data-id': f.id })}
      renderOption={(f) => (
        <>
          <span className="chip" style={{ background: kindColor(f.look) }}><Icon name={f.look} size={12} /></span>
          <span className="label" title={f.name}>{f.name}</span>
          <span className="hint mono">{f.id}</span>
          <span className="group">{f.kind}</span>
        </>
      )}
      status={(text, matches) => matches === 0 ? `No node matches “${text.trim()}”.`
        : `${matches > SHOWN ? `First ${SHOWN} of ${matches} matches (type more to narrow)` : `${matches} of ${total}`} · ↑ ↓ to pick, Enter goes to it, Esc closes`}
      onPick={(f) => {
        useApp.getState().select([f.id]);
        onClose(f.id);
      }}
      onClose={() => onClose(null)} />
  );
}
