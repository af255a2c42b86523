import type { Viewport } from '@xyflow/react';
import type { HookFlowNode } from '../model/pipelineToFlow.ts';
import { nodeBoxes } from '../model/pipelineToFlow.ts';

/** Space left around the graph when it opens, in screen px. */
const PAD = 20;
/** The least zoom at which the smallest node text (12 px) reads at 12 px or more. */
export const READABLE_ZOOM = 1;
/** Opening never zooms in further than Fit does. */
const MAX_OPEN_ZOOM = 1.1;

/**
 * Where a pipeline opens: the whole graph, centred, when it fits the pane at a readable zoom (at most
 * MAX_OPEN_ZOOM); else zoom 1 with the graph's top-left corner (its first events) in view. Computed here rather
 * than by React Flow's fitView, whose padding is a share of the pane and would zoom a graph that fits at zoom 1
 * out below it.
 */
export function openingView(nodes: readonly HookFlowNode[], pane: { width: number; height: number }): Viewport {
  const boxes = [...nodeBoxes(nodes).values()];
  const x0 = Math.min(...boxes.map((b) => b.x)), y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width)), y1 = Math.max(...boxes.map((b) => b.y + b.height));
  const fits = Math.min((pane.width - 2 * PAD) / (x1 - x0), (pane.height - 2 * PAD) / (y1 - y0));
  if (fits < READABLE_ZOOM) return { x: PAD - x0 * READABLE_ZOOM, y: PAD - y0 * READABLE_ZOOM, zoom: READABLE_ZOOM };
  const zoom = Math.min(fits, MAX_OPEN_ZOOM);
  return { x: (pane.width - (x0 + x1) * zoom) / 2, y: (pane.height - (y0 + y1) * zoom) / 2, zoom };
}
