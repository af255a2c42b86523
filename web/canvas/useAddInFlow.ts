import { useCallback } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { PaletteItem } from '../model/nodeFactory.ts';
import { addPaletteItem } from './addPaletteItem.ts';

/**
 * Adds a palette item in flow order (a click or Enter on the palette, quick-add): aimed at the middle of the
 * view, placed by addPaletteItem at its kind's column; when that spot is off screen (a full canvas at zoom 1),
 * the view pans to it at the same zoom. Returns the new node's id.
 */
export function useAddInFlow(): (item: PaletteItem) => string | null {
  const flow = useReactFlow();
  return useCallback((item: PaletteItem) => {
    const box = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
    const center = box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : { x: 400, y: 300 };
    const sizes = new Map(flow.getNodes().flatMap((n) => (n.measured?.width && n.measured.height ? [[n.id, { width: n.measured.width, height: n.measured.height }] as const] : [])));
    const id = addPaletteItem(item, flow.screenToFlowPosition(center), 'flow', sizes);
    if (id && box) {
      requestAnimationFrame(() => {
        const n = flow.getNode(id);
        if (!n) return;
        const w = n.measured?.width ?? 240, h = n.measured?.height ?? 90;
        const tl = flow.flowToScreenPosition(n.position), br = flow.flowToScreenPosition({ x: n.position.x + w, y: n.position.y + h });
        if (tl.x < box.left || tl.y < box.top || br.x > box.right || br.y > box.bottom) void flow.setCenter(n.position.x + w / 2, n.position.y + h / 2, { zoom: flow.getZoom(), duration: 200 });
      });
    }
    return id;
  }, [flow]);
}
