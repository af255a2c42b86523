import type { Pipeline, PipelineNode, Wire } from '../../engine/app.ts';
import type { Change, NodePosition } from './changes.ts';
import { freeId } from './nodeFactory.ts';

/** What copy puts on the clipboard: plain JSON, so it can travel between tabs as text. */
export interface ClipboardData {
  format: 'hookwire.clipboard';
  nodes: PipelineNode[];
  /** Wires between copied nodes only. */
  wires: Wire[];
  positions: NodePosition[];
}

export const CLIPBOARD_FORMAT = 'hookwire.clipboard';

/** The selected nodes with the wires among them and their positions. */
export function copyNodes(doc: Pipeline, ids: readonly string[]): ClipboardData {
  const set = new Set(ids);
  return {
    format: CLIPBOARD_FORMAT,
    nodes: doc.nodes.filter((n) => set.has(n.id)),
    wires: doc.wires.filter((w) => set.has(w.from) && set.has(w.to)),
    positions: (doc.layout?.nodes ?? []).filter((p) => set.has(p.id)),
  };
}

/** Reads clipboard text back; null for anything that is not our clipboard format. */
export function parseClipboard(text: string): ClipboardData | null {
  try {
    const data = JSON.parse(text) as Partial<ClipboardData>;
    if (data?.format !== CLIPBOARD_FORMAT || !Array.isArray(data.nodes) || !Array.isArray(data.wires)) return null;
    return { format: CLIPBOARD_FORMAT, nodes: data.nodes, wires: data.wires, positions: Array.isArray(data.positions) ? data.positions : [] };
  } catch {
    return null;
  }
}

/**
 * The change that pastes clipboard nodes into a document: fresh ids, handler names marked as copies,
 * positions shifted by `offset`, and the wires among them. Returns the new ids for selection.
 */
export function pasteChange(doc: Pipeline, clip: ClipboardData, offset: { x: number; y: number }): { change: Change; ids: string[] } {
  const taken = new Set(doc.nodes.map((n) => n.id));
  const rename = new Map<string, string>();
  const nodes = clip.nodes.map((node): PipelineNode => {
    const id = freeId(node.id.replace(/-\d+$/, ''), taken);
    taken.add(id);
    rename.set(node.id, id);
    return node.kind === 'handler' ? { ...node, id, name: `${node.name} (copy)` } : { ...node, id };
  });
  const at = new Map(clip.positions.map((p) => [p.id, p]));
  const positions = clip.nodes.map((n, i) => {
    const p = at.get(n.id) ?? { x: i * 40, y: i * 40 };
    return { value: { id: rename.get(n.id) as string, x: p.x + offset.x, y: p.y + offset.y } };
  });
  const wires = clip.wires
    .filter((w) => rename.has(w.from) && rename.has(w.to))
    .map((w) => ({ value: { from: rename.get(w.from) as string, to: rename.get(w.to) as string } }));
  return { change: { type: 'addNodes', nodes: nodes.map((value) => ({ value })), wires, positions }, ids: nodes.map((n) => n.id) };
}
