import { createNode, type PaletteItem } from '../model/nodeFactory.ts';
import { useApp } from '../store/appStore.ts';

/** The drag-and-drop type of palette items. */
export const PALETTE_MIME = 'application/x-hookwire-node';

/** Adds a palette item centred at a flow position and selects it. */
export function addPaletteItem(item: PaletteItem, at: { x: number; y: number }): void {
  const s = useApp.getState();
  if (!s.doc) return;
  const node = createNode(item, s.doc);
  const position = { id: node.id, x: Math.round(at.x - 110), y: Math.round(at.y - 30) };
  s.apply([{ type: 'addNodes', nodes: [{ value: node }], wires: [], positions: [{ value: position }] }], `Add ${node.kind}`);
  s.select([node.id]);
}
