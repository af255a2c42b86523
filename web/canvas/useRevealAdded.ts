import { useEffect, useRef, type RefObject } from 'react';
import type { ReactFlowInstance } from '@xyflow/react';
import type { Pipeline } from '../../engine/app.ts';
import { DEFAULT_SIZES } from '../model/autoLayout.ts';
import type { HookFlowEdge, HookFlowNode } from '../model/pipelineToFlow.ts';
import { useApp } from '../store/appStore.ts';
import { revealBoxes } from './revealBoxes.ts';

/** Space kept between an added node and the pane's edge, in screen px: more than a problem badge's 8 px overhang. */
const PAD = 20;

/**
 * Nodes the person adds are wholly in view, with PAD to spare: whatever added them (the palette in flow order,
 * a drop, a paste, Ctrl+D, quick add, the canvas menu). A node dropped or pasted against the pane's edge stuck
 * out of it, its problem badge (top right, outside the card) cut off. The view pans at the same zoom, the least
 * that shows them, measured on the next frame: adding selects the node, which unfolds a folded inspector and
 * narrows the pane (a pan animated from the old width was cut short by useKeepSelectionInView, and a code
 * handler added at 1280×720 stayed below the pane). Added nodes are those new in the pipeline and selected:
 * every way of adding selects what it added; a pipeline opened or replaced is not an addition.
 */
export function useRevealAdded(pane: RefObject<HTMLElement | null>, flow: ReactFlowInstance<HookFlowNode, HookFlowEdge>, doc: Pipeline | null, enabled: boolean): void {
  const known = useRef<ReadonlySet<string> | null>(null);
  useEffect(() => {
    if (!doc) return;
    const before = known.current;
    known.current = new Set(doc.nodes.map((n) => n.id));
    if (!before || !enabled) return;
    const added = doc.nodes.filter((n) => !before.has(n.id));
    const selected = new Set(useApp.getState().selectedNodes);
    if (added.length === 0 || !added.every((n) => selected.has(n.id))) return;
    // Not cancelled by a later render: the pan is for these nodes whatever happens in between.
    requestAnimationFrame(() => {
      const el = pane.current;
      if (!el) return;
      const boxes = added.flatMap((a) => {
        const n = flow.getNode(a.id);
        const size = DEFAULT_SIZES[a.kind];
        return n ? [{ ...n.position, width: n.measured?.width ?? size.width, height: n.measured?.height ?? size.height }] : [];
      });
      const view = revealBoxes(flow.getViewport(), boxes, { width: el.clientWidth, height: el.clientHeight }, PAD);
      if (view) void flow.setViewport(view);
    });
  }, [doc, pane, flow, enabled]);
}
