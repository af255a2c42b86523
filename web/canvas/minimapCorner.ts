import type { PanelPosition } from '@xyflow/react';

/** A box on screen, in px from the pane's top-left corner. */
export interface ScreenBox { x0: number; y0: number; x1: number; y1: number }

/** The minimap's corners, in the order it prefers them (the bottom right, as React Flow's default). */
const CORNERS = ['bottom-right', 'bottom-left', 'top-right', 'top-left'] as const satisfies readonly PanelPosition[];
export type MinimapCorner = (typeof CORNERS)[number];

/**
 * Where the minimap goes, or null for nowhere: it shows only while some node is out of view (with the whole
 * graph on screen it has nothing to tell), and only in a corner where it covers no node that is on screen,
 * the first such corner of `CORNERS`. A minimap over a node hid what it was there to help find.
 * Example: minimapCorner([{x0: 700, y0: 500, x1: 790, y1: 590}, {x0: -50, y0: 0, x1: 20, y1: 40}],
 * {width: 800, height: 600}, {width: 168, height: 112, margin: 15}) → 'bottom-left'.
 */
export function minimapCorner(nodes: readonly ScreenBox[], pane: { width: number; height: number }, map: { width: number; height: number; margin: number }): MinimapCorner | null {
  const overflows = nodes.some((n) => n.x0 < 0 || n.y0 < 0 || n.x1 > pane.width || n.y1 > pane.height);
  if (!overflows) return null;
  const free = (corner: MinimapCorner): boolean => {
    const x0 = corner.endsWith('left') ? map.margin : pane.width - map.margin - map.width;
    const y0 = corner.startsWith('top') ? map.margin : pane.height - map.margin - map.height;
    const x1 = x0 + map.width, y1 = y0 + map.height;
    return !nodes.some((n) => n.x0 < x1 && n.x1 > x0 && n.y0 < y1 && n.y1 > y0);
  };
  return CORNERS.find(free) ?? null;
}
