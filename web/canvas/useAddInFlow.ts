import { useCallback } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { PaletteItem } from '../model/nodeFactory.ts';
import { addPaletteItem } from './addPaletteItem.ts';

/**
 * Adds a palette item in flow order (a click or Enter on the palette, quick-add): aimed at the middle of the
 * view, placed by addPaletteItem at its kind's column. When that spot is not wholly on screen (a full canvas at
 * zoom 1) the view pans to it, as for every added node (useRevealAdded). Returns the new node's id.
 */
export function useAddInFlow(): (item: PaletteItem) => string | null {
  const flow = useReactFlow();
  return useCallback((item: PaletteItem) => {
    const box = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
    const center = box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : { x: 400, y: 300 };
    const sizes = new Map(flow.getNodes().flatMap((n) => (n.measured?.width && n.measured.height ? [[n.id, { width: n.measured.width, height: n.measured.height }] as const] : [])));
    return addPaletteItem(item, flow.screenToFlowPosition(center), 'flow', sizes);
  }, [flow]);
}
