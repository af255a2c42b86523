import { useEffect } from 'react';
import type { ReactFlowInstance } from '@xyflow/react';
import { copyNodes, parseClipboard, pasteChange, type ClipboardData } from '../model/clipboard.ts';
import { useApp } from '../store/appStore.ts';
import { DEFAULT_SIZES } from '../model/autoLayout.ts';
import { freeSpot } from '../model/freeSpot.ts';
import type { HookFlowEdge, HookFlowNode } from '../model/pipelineToFlow.ts';

/** True when keys belong to a text field or the code editor rather than to the canvas. */
export function typingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  return !!el.closest('input, textarea, select, [contenteditable="true"], .monaco-editor');
}

let clipboard: ClipboardData | null = null;
let pasteCount = 0;

/**
 * How far to shift copies of `data` so they land on free space (no node, no wire under them): the free
 * spot nearest `want` for the box around the copied nodes.
 */
function freeOffset(data: ClipboardData, want: { x: number; y: number }): { x: number; y: number } {
  const doc = useApp.getState().doc;
  if (!doc || data.positions.length === 0) return want;
  const kind = new Map(data.nodes.map((n) => [n.id, n.kind]));
  const boxes = data.positions.map((p) => ({ ...p, ...DEFAULT_SIZES[kind.get(p.id) ?? 'handler'] }));
  const x0 = Math.min(...boxes.map((b) => b.x)), y0 = Math.min(...boxes.map((b) => b.y));
  const size = { width: Math.max(...boxes.map((b) => b.x + b.width)) - x0, height: Math.max(...boxes.map((b) => b.y + b.height)) - y0 };
  const spot = freeSpot(doc, { x: x0 + want.x, y: y0 + want.y }, size);
  return { x: spot.x - x0, y: spot.y - y0 };
}

function paste(data: ClipboardData): void {
  const s = useApp.getState();
  if (!s.doc || data.nodes.length === 0) return;
  pasteCount += 1;
  const { change, ids } = pasteChange(s.doc, data, freeOffset(data, { x: 40 * pasteCount, y: 40 * pasteCount }));
  s.apply([change], `Paste ${ids.length} node${ids.length === 1 ? '' : 's'}`);
  s.select(ids);
}

/** Copies the selected nodes (and the wires among them); returns how many. */
export function copySelection(): number {
  const s = useApp.getState();
  if (!s.doc || s.selectedNodes.length === 0) return 0;
  clipboard = copyNodes(s.doc, s.selectedNodes);
  pasteCount = 0;
  // Also on the system clipboard, so it can be pasted in another tab; refused permission is fine.
  void navigator.clipboard?.writeText(JSON.stringify(clipboard)).catch(() => undefined);
  return clipboard.nodes.length;
}

/** Nodes copied in another tab come through the system clipboard (the browser may ask for permission). */
async function readSystemClipboard(): Promise<void> {
  try {
    const data = parseClipboard(await navigator.clipboard.readText());
    if (data) paste(data);
  } catch {
    /* permission refused or nothing readable: nothing to paste */
  }
}

export function pasteClipboard(): void {
  if (clipboard) paste(clipboard);
}

/** Duplicates the selection next to itself, on free space. */
export function duplicateSelection(): void {
  const s = useApp.getState();
  if (!s.doc || s.selectedNodes.length === 0) return;
  const data = copyNodes(s.doc, s.selectedNodes);
  const { change, ids } = pasteChange(s.doc, data, freeOffset(data, { x: 40, y: 40 }));
  s.apply([change], `Duplicate ${ids.length} node${ids.length === 1 ? '' : 's'}`);
  s.select(ids);
}

/**
 * Editor shortcuts as people expect them: Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z or Ctrl+Y redo, Ctrl/⌘+C/V copy and
 * paste nodes, Ctrl/⌘+D duplicate, Ctrl/⌘+A select all. Undo and redo work in form fields too (they undo
 * the field's edits); the code editor keeps its own.
 */
export function useCanvasShortcuts(flow: ReactFlowInstance<HookFlowNode, HookFlowEdge>, readOnly: boolean): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !typingTarget(e.target) && !document.querySelector('dialog:modal')) {
        useApp.getState().select([]);
        return;
      }
      // F2 renames the one selected node in place (as in file managers and n8n).
      if (e.key === 'F2' && !readOnly && !typingTarget(e.target)) {
        const s = useApp.getState();
        if (s.selectedNodes.length === 1) {
          e.preventDefault();
          s.startRename(s.selectedNodes[0]!);
        }
        return;
      }
      const mod = e.ctrlKey || e.metaKey;
      if (!mod || e.altKey || readOnly) return;
      const key = e.key.toLowerCase();
      const inMonaco = !!(e.target as HTMLElement | null)?.closest?.('.monaco-editor');
      const s = useApp.getState();
      if ((key === 'z' || key === 'y') && !inMonaco) {
        e.preventDefault();
        if (key === 'y' || e.shiftKey) s.redo();
        else s.undo();
        return;
      }
      if (typingTarget(e.target)) return;
      if (key === 'c' && copySelection() > 0) e.preventDefault();
      else if (key === 'x' && copySelection() > 0) {
        e.preventDefault();
        s.apply([{ type: 'removeNodes', ids: s.selectedNodes }], 'Cut');
      } else if (key === 'v') {
        e.preventDefault();
        if (clipboard) pasteClipboard();
        else void readSystemClipboard();
      } else if (key === 'd') {
        e.preventDefault();
        duplicateSelection();
      } else if (key === 'a') {
        e.preventDefault();
        s.select(s.doc?.nodes.map((n) => n.id) ?? []);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [flow, readOnly]);
}
