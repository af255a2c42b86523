import { useEffect } from 'react';
import type { ReactFlowInstance } from '@xyflow/react';
import { copyNodes, parseClipboard, pasteChange, type ClipboardData } from '../model/clipboard.ts';
import { useApp } from '../store/appStore.ts';
import { DEFAULT_SIZES } from '../model/autoLayout.ts';
import { freeSpot } from '../model/freeSpot.ts';
import { wireOfEdgeId, type HookFlowEdge, type HookFlowNode } from '../model/pipelineToFlow.ts';
import type { Change } from '../model/changes.ts';
import { focusCanvasIfLost } from './focusNodeElement.ts';

/** True when keys belong to a text field or the code editor rather than to the canvas. */
export function typingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  return !!el.closest('input, textarea, select, [contenteditable="true"], .monaco-editor');
}

/** The node or wire of the canvas that `target` (the keyboard focus) is on, if any. */
function focusedOnCanvas(target: EventTarget | null): { kind: 'node' | 'edge'; id: string } | null {
  const el = (target as Element | null)?.closest?.('.react-flow__node, .react-flow__edge');
  const id = el?.getAttribute('data-id');
  if (!el || !id) return null;
  return { kind: el.classList.contains('react-flow__node') ? 'node' : 'edge', id };
}

/**
 * What Delete, Backspace and F2 act on: the node or wire the keyboard focus is on, when the selection does
 * not hold it (Tab moves the focus without selecting, and the selection may be a node elsewhere, even off
 * screen: deleting or renaming that one would change a node the person is not on); else the selection.
 */
export function keyTargets(target: EventTarget | null, selectedNodes: readonly string[], selectedEdges: readonly string[]): { nodes: string[]; edges: string[] } {
  const on = focusedOnCanvas(target);
  if (on?.kind === 'node' && !selectedNodes.includes(on.id)) return { nodes: [on.id], edges: [] };
  if (on?.kind === 'edge' && !selectedEdges.includes(on.id)) return { nodes: [], edges: [on.id] };
  return { nodes: [...selectedNodes], edges: [...selectedEdges] };
}

/** Deletes nodes (with their wires) and wires in one undo step; the focus goes to the canvas if it was on one of them. */
function deleteByKey(nodes: readonly string[], edges: readonly string[]): void {
  const s = useApp.getState();
  const gone = new Set(nodes);
  const wires = edges.map(wireOfEdgeId).filter((w) => !gone.has(w.from) && !gone.has(w.to));
  const changes: Change[] = [];
  if (wires.length) changes.push({ type: 'disconnect', wires });
  if (gone.size) changes.push({ type: 'removeNodes', ids: [...gone] });
  if (changes.length === 0) return;
  s.apply(changes, gone.size ? `Delete ${gone.size} node${gone.size === 1 ? '' : 's'}` : `Delete ${wires.length} wire${wires.length === 1 ? '' : 's'}`);
  focusCanvasIfLost();
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
        // React Flow blurs a wire on Escape (a node keeps its focus): the keyboard stays where it was.
        const wire = (e.target as Element | null)?.closest?.('.react-flow__edge');
        if (wire instanceof SVGElement && document.activeElement !== wire) wire.focus({ preventScroll: true });
        return;
      }
      // F2 renames in place (as in file managers and n8n) the focused node, or the one selected node.
      if (e.key === 'F2' && !readOnly && !typingTarget(e.target)) {
        const s = useApp.getState();
        const { nodes } = keyTargets(e.target, s.selectedNodes, s.selectedEdges);
        if (nodes.length === 1) {
          e.preventDefault();
          if (!s.selectedNodes.includes(nodes[0]!)) s.select(nodes);
          s.startRename(nodes[0]!);
        }
        return;
      }
      // Delete and Backspace are ours, not React Flow's (which deletes the selection wherever the focus is).
      if ((e.key === 'Delete' || e.key === 'Backspace') && !readOnly && !e.ctrlKey && !e.metaKey && !e.altKey
        && !typingTarget(e.target) && !(e.target as Element | null)?.closest?.('.nokey, .ctx-menu') && !document.querySelector('dialog:modal')) {
        const s = useApp.getState();
        const { nodes, edges } = keyTargets(e.target, s.selectedNodes, s.selectedEdges);
        if (nodes.length + edges.length === 0) return;
        e.preventDefault();
        deleteByKey(nodes, edges);
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
      // Copy, cut and duplicate take the focused node too, as Delete and F2 do.
      if (key === 'c' || key === 'x' || key === 'd') {
        const { nodes } = keyTargets(e.target, s.selectedNodes, s.selectedEdges);
        if (nodes.length === 1 && !s.selectedNodes.includes(nodes[0]!)) s.select(nodes);
      }
      if (key === 'c' && copySelection() > 0) e.preventDefault();
      else if (key === 'x' && copySelection() > 0) {
        e.preventDefault();
        s.apply([{ type: 'removeNodes', ids: useApp.getState().selectedNodes }], 'Cut');
        focusCanvasIfLost();
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
