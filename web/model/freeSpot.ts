import type { Pipeline } from '../../engine/app.ts';
import { DEFAULT_SIZES, type Size } from './autoLayout.ts';
import { routeWires, segmentCrossesBox } from './routeWires.ts';

/**
 * Where a node added by click (or by keyboard from the palette) goes: the top-left corner nearest `want`
 * where a box of `size` overlaps no node and crosses no wire (wires taken along the routes the canvas draws,
 * web/model/routeWires.ts), so a new node never stacks on another or seems to sit on a wire it is not part
 * of, and no wire has to make way for it. Searched on rings of a grid around `want`; the first free spot wins, `want` itself if nothing is free.
 * `column`: first down and up the column at `want.x` (nearest first), so a node placed in flow order
 * (flowPlace.ts) keeps its column when there is room in it.
 */
type Box = { x: number; y: number; width: number; height: number };

const GAP = 24;
const STEP_X = 140;
const STEP_Y = 60;
const RINGS = 12;
const COLUMN_STEPS = 40;

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width + GAP && b.x < a.x + a.width + GAP && a.y < b.y + b.height + GAP && b.y < a.y + a.height + GAP;
}

export function freeSpot(doc: Pick<Pipeline, 'nodes' | 'wires' | 'layout'>, want: { x: number; y: number }, size: Size, sizes?: ReadonlyMap<string, Size>, options: { column?: boolean } = {}): { x: number; y: number } {
  const at = new Map((doc.layout?.nodes ?? []).map((p) => [p.id, p]));
  const boxes = new Map<string, Box>();
  for (const n of doc.nodes) {
    const p = at.get(n.id);
    if (p) boxes.set(n.id, { x: p.x, y: p.y, ...(sizes?.get(n.id) ?? DEFAULT_SIZES[n.kind]) });
  }
  const routes = routeWires(boxes, doc.wires.map((w, i) => ({ id: String(i), ...w })));
  const segments = [...routes.values()].flatMap((pts) => pts.slice(1).map((q, k) => [pts[k]!, q] as const));
  const free = (x: number, y: number) => {
    const box = { x, y, ...size };
    for (const b of boxes.values()) if (overlaps(box, b)) return false;
    for (const [p, q] of segments) if (segmentCrossesBox(p, q, box, GAP)) return false;
    return true;
  };
  if (options.column) {
    for (let k = 0; k <= COLUMN_STEPS; k++) {
      for (const y of k === 0 ? [want.y] : [want.y + k * STEP_Y, want.y - k * STEP_Y]) if (free(want.x, y)) return { x: Math.round(want.x), y: Math.round(y) };
    }
  }
  for (let r = 0; r <= RINGS; r++) {
    // The ring's spots, nearest first.
    const ring: { x: number; y: number; d: number }[] = [];
    for (let i = -r; i <= r; i++) {
      for (let j = -r; j <= r; j++) {
        if (Math.max(Math.abs(i), Math.abs(j)) !== r) continue;
        const x = want.x + i * STEP_X, y = want.y + j * STEP_Y;
        ring.push({ x, y, d: Math.hypot(i * STEP_X, j * STEP_Y) });
      }
    }
    ring.sort((a, b) => a.d - b.d);
    for (const s of ring) if (free(s.x, s.y)) return { x: Math.round(s.x), y: Math.round(s.y) };
  }
  return { x: Math.round(want.x), y: Math.round(want.y) };
}
