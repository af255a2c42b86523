import { useCallback } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { PaletteItem } from '../model/nodeFactory.ts';
import { addPaletteItem } from './addPaletteItem.ts';
import { revealBoxes } from './revealBoxes.ts';

/** Space kept between the added node and the pane's edge, in screen px. */
const PAD = 20;

/**
 * Adds a palette item in flow order (a click or Enter on the palette, quick-add): aimed at the middle of the
 * view, placed by addPaletteItem at its kind's column; when that spot is not wholly on screen (a full canvas at
 * zoom 1), the view pans to it at the same zoom. Whether it is on screen is measured on the next frame, against
 * the pane as it is then: adding selects the node, which unfolds a folded inspector and narrows the pane (a code
 * handler's the most). The pan is immediate: an animated one was cut short by the pan that keeps the selection
 * in view as the pane narrows (useKeepSelectionInView reads the viewport half-way), and a code handler added at
 * 1280×720 stayed below the pane. Returns the new node's id.
 */
export function useAddInFlow(): (item: PaletteItem) => string | null {
  const flow = useReactFlow();
  return useCallback((item: PaletteItem) => {
    const pane = (): DOMRect | undefined => document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
    const box = pane();
    const center = box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : { x: 400, y: 300 };
    const sizes = new Map(flow.getNodes().flatMap((n) => (n.measured?.width && n.measured.height ? [[n.id, { width: n.measured.width, height: n.measured.height }] as const] : [])));
    const id = addPaletteItem(item, flow.screenToFlowPosition(center), 'flow', sizes);
    if (id) {
      requestAnimationFrame(() => {
        const n = flow.getNode(id);
        const now = pane();
        if (!n || !now) return;
        const node = { ...n.position, width: n.measured?.width ?? 240, height: n.measured?.height ?? 90 };
        const view = revealBoxes(flow.getViewport(), [node], now, PAD);
        if (view) void flow.setViewport(view);
      });
    }
    return id;
  }, [flow]);
}
