import { useEffect, type RefObject } from 'react';
import type { ReactFlowInstance } from '@xyflow/react';
import { nodeBoxes, type HookFlowEdge, type HookFlowNode } from '../model/pipelineToFlow.ts';
import { useApp } from '../store/appStore.ts';
import { shiftInto } from './revealBoxes.ts';

/** Space kept between a selected node and the pane's edge, in screen px. */
const PAD = 20;

/**
 * The selection stays in sight when the canvas pane narrows. Selecting a node unfolds a folded inspector
 * (sidePanel.ts), and the pane loses its right-hand part: without this, a node clicked in the right-hand
 * column of the demo at 1440×900 would vanish under the inspector that opened to show it. The view pans
 * (same zoom) just enough that the selected nodes' right edge is in the pane, never past their left edge.
 */
export function useKeepSelectionInView(pane: RefObject<HTMLElement | null>, flow: ReactFlowInstance<HookFlowNode, HookFlowEdge>): void {
  useEffect(() => {
    const el = pane.current;
    if (!el) return;
    let last = el.clientWidth;
    const observer = new ResizeObserver(() => {
      const width = el.clientWidth;
      const narrower = width < last;
      last = width;
      const selected = new Set(useApp.getState().selectedNodes);
      if (!narrower || selected.size === 0) return;
      const boxes = [...nodeBoxes(flow.getNodes()).entries()].filter(([id]) => selected.has(id)).map(([, b]) => b);
      if (boxes.length === 0) return;
      const { x, y, zoom } = flow.getViewport();
      const left = Math.min(...boxes.map((b) => b.x * zoom + x));
      const right = Math.max(...boxes.map((b) => (b.x + b.width) * zoom + x));
      // Only ever leftwards: the pane lost its right-hand part.
      const dx = shiftInto(left, right, width, PAD);
      if (dx < 0) void flow.setViewport({ x: x + dx, y, zoom }, { duration: 200 });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [pane, flow]);
}
