import { DEFAULT_SIZES, type Size } from '../model/autoLayout.ts';
import { flowPlace } from '../model/flowPlace.ts';
import { freeSpot } from '../model/freeSpot.ts';
import { createNode, type PaletteItem } from '../model/nodeFactory.ts';
import { useApp } from '../store/appStore.ts';

/** The drag-and-drop type of palette items. */
export const PALETTE_MIME = 'application/x-hookwire-node';

/** Where an added node goes: `at` the point (a drop), the free spot `near` it (the canvas menu's "Add node here"), or in `flow` order (a click or Enter on the palette). */
export type Placement = 'at' | 'near' | 'flow';

/**
 * Adds a palette item and selects it: centred on `at` where it was dropped; `near` it at the nearest free
 * spot; or in `flow` order (its kind's column, level with a selected node before it: flowPlace.ts) at the
 * free spot nearest that, so nodes added one after another never stack. `sizes` are the nodes' measured
 * sizes, so the wires avoided are the ones on screen.
 */
export function addPaletteItem(item: PaletteItem, at: { x: number; y: number }, placement: Placement = 'at', sizes?: ReadonlyMap<string, Size>): string | null {
  const s = useApp.getState();
  if (!s.doc) return null;
  const node = createNode(item, s.doc);
  const size = DEFAULT_SIZES[node.kind];
  const want = { x: at.x - size.width / 2, y: at.y - size.height / 2 };
  const spot =
    placement === 'flow' ? freeSpot(s.doc, flowPlace(s.doc, node.kind, want, s.selectedNodes, sizes), size, sizes, { column: true })
    : placement === 'near' ? freeSpot(s.doc, want, size, sizes)
    : want;
  const position = { id: node.id, x: Math.round(spot.x), y: Math.round(spot.y) };
  s.apply([{ type: 'addNodes', nodes: [{ value: node }], wires: [], positions: [{ value: position }] }], `Add ${node.kind}`);
  s.select([node.id]);
  return node.id;
}
