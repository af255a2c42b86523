import type { Viewport } from '@xyflow/react';

/** A node's box in flow coordinates. */
export interface FlowBox { x: number; y: number; width: number; height: number }

/**
 * The viewport, at the same zoom, moved the least so that `boxes` (flow coordinates) lie inside a pane of
 * `pane` size with `pad` screen px to spare on every side; null when they already do. When they do not fit,
 * their top-left corner is the part kept in view (never moved past the near edge).
 * Example: revealBoxes({x: 0, y: 0, zoom: 1}, [{x: 0, y: 700, width: 200, height: 100}], {width: 800, height: 600}, 20)
 * → {x: 0, y: -220, zoom: 1}.
 */
export function revealBoxes(view: Viewport, boxes: readonly FlowBox[], pane: { width: number; height: number }, pad: number): Viewport | null {
  if (boxes.length === 0) return null;
  const { zoom } = view;
  const left = Math.min(...boxes.map((b) => b.x)) * zoom + view.x;
  const right = Math.max(...boxes.map((b) => b.x + b.width)) * zoom + view.x;
  const top = Math.min(...boxes.map((b) => b.y)) * zoom + view.y;
  const bottom = Math.max(...boxes.map((b) => b.y + b.height)) * zoom + view.y;
  const dx = shiftInto(left, right, pane.width, pad);
  const dy = shiftInto(top, bottom, pane.height, pad);
  return dx === 0 && dy === 0 ? null : { x: view.x + dx, y: view.y + dy, zoom };
}

/**
 * Along one axis, the least shift (screen px) that brings a span [lo, hi] inside [pad, size - pad]; when it does not
 * fit, its near end is the part kept (never moved past `pad`). 0 when it is inside already.
 */
export function shiftInto(lo: number, hi: number, size: number, pad: number): number {
  const far = Math.min(0, size - pad - hi);
  return lo + far < pad ? pad - lo : far;
}
