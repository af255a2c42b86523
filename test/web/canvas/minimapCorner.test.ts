import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { minimapCorner, type ScreenBox } from '../../../web/canvas/minimapCorner.ts';

const pane = { width: 800, height: 600 };
const map = { width: 168, height: 112, margin: 15 };
const box = (x0: number, y0: number, w: number, h: number): ScreenBox => ({ x0, y0, x1: x0 + w, y1: y0 + h });
const OUT = box(-300, 0, 200, 80);

/** The minimap's box in `corner`, as minimapCorner places it. */
function mapBox(corner: string): ScreenBox {
  const x0 = corner.endsWith('left') ? map.margin : pane.width - map.margin - map.width;
  const y0 = corner.startsWith('top') ? map.margin : pane.height - map.margin - map.height;
  return box(x0, y0, map.width, map.height);
}
const overlap = (a: ScreenBox, b: ScreenBox) => a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;

describe('minimapCorner', () => {
  it('shows nothing while every node is on screen', () => {
    expect(minimapCorner([box(10, 10, 200, 80), box(560, 450, 200, 100)], pane, map)).toBeNull();
  });

  it('takes the bottom right when it is free and some node is out of view', () => {
    expect(minimapCorner([OUT, box(10, 10, 200, 80)], pane, map)).toBe('bottom-right');
  });

  it('goes to the next free corner when a node is under the bottom right (the Audit log at 1280×720)', () => {
    expect(minimapCorner([OUT, box(560, 450, 220, 100)], pane, map)).toBe('bottom-left');
    expect(minimapCorner([OUT, box(560, 450, 220, 100), box(0, 450, 220, 100)], pane, map)).toBe('top-right');
  });

  it('shows nowhere when a node is in every corner', () => {
    const corners = [box(0, 0, 200, 140), box(600, 0, 200, 140), box(0, 460, 200, 140), box(600, 460, 200, 140)];
    expect(minimapCorner([OUT, ...corners], pane, map)).toBeNull();
  });

  it('never covers a node on screen, and hides only when no corner is free', () => {
    const node = fc.record({ x: fc.integer({ min: -400, max: 900 }), y: fc.integer({ min: -300, max: 700 }), w: fc.integer({ min: 20, max: 300 }), h: fc.integer({ min: 20, max: 200 }) })
      .map(({ x, y, w, h }) => box(x, y, w, h));
    fc.assert(fc.property(fc.array(node, { maxLength: 12 }), (nodes) => {
      const corner = minimapCorner(nodes, pane, map);
      const overflows = nodes.some((n) => n.x0 < 0 || n.y0 < 0 || n.x1 > pane.width || n.y1 > pane.height);
      if (corner) {
        expect(overflows).toBe(true);
        for (const n of nodes) expect(overlap(mapBox(corner), n)).toBe(false);
      } else if (overflows) {
        for (const c of ['bottom-right', 'bottom-left', 'top-right', 'top-left']) expect(nodes.some((n) => overlap(mapBox(c), n))).toBe(true);
      }
    }));
  });
});
