import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { revealBoxes, shiftInto } from '../../../web/canvas/revealBoxes.ts';

const pane = { width: 800, height: 600 };

describe('revealBoxes', () => {
  it('leaves a view alone when the boxes are inside it with the pad to spare', () => {
    expect(revealBoxes({ x: 0, y: 0, zoom: 1 }, [{ x: 100, y: 100, width: 200, height: 100 }], pane, 20)).toBeNull();
  });

  it('pans up just enough for a box below the pane, at the same zoom', () => {
    expect(revealBoxes({ x: 0, y: 0, zoom: 1 }, [{ x: 0, y: 700, width: 200, height: 100 }], pane, 20)).toEqual({ x: 20, y: -220, zoom: 1 });
  });

  it('keeps the top-left corner in view when the boxes do not fit', () => {
    expect(revealBoxes({ x: 0, y: 0, zoom: 2 }, [{ x: 500, y: 400, width: 600, height: 400 }], pane, 20)).toEqual({ x: -980, y: -780, zoom: 2 });
  });

  it('puts any box that fits wholly inside the pane, and moves no more than needed', () => {
    fc.assert(fc.property(
      fc.record({ x: fc.integer({ min: -3000, max: 3000 }), y: fc.integer({ min: -3000, max: 3000 }), zoom: fc.constantFrom(0.5, 1, 1.5) }),
      fc.record({ x: fc.integer({ min: -2000, max: 2000 }), y: fc.integer({ min: -2000, max: 2000 }), width: fc.integer({ min: 10, max: 400 }), height: fc.integer({ min: 10, max: 300 }) }),
      (view, box) => {
        const next = revealBoxes(view, [box], pane, 20) ?? view;
        const left = box.x * next.zoom + next.x, top = box.y * next.zoom + next.y;
        expect(next.zoom).toBe(view.zoom);
        expect(left).toBeGreaterThanOrEqual(20 - 1e-9);
        expect(top).toBeGreaterThanOrEqual(20 - 1e-9);
        expect(left + box.width * next.zoom).toBeLessThanOrEqual(780 + 1e-9);
        expect(top + box.height * next.zoom).toBeLessThanOrEqual(580 + 1e-9);
        // Least move: one edge of the box touches the padded pane's edge on each axis moved.
        if (next.x !== view.x) expect([20, 780].some((e) => Math.abs(e - left) < 1e-9 || Math.abs(e - (left + box.width * next.zoom)) < 1e-9)).toBe(true);
        if (next.y !== view.y) expect([20, 580].some((e) => Math.abs(e - top) < 1e-9 || Math.abs(e - (top + box.height * next.zoom)) < 1e-9)).toBe(true);
      },
    ));
  });

  it('shiftInto, as the selection kept in view uses it: leftwards only when the right edge is past the pane, by just that much, never past the left edge', () => {
    fc.assert(fc.property(fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 100, max: 2000 }), (lo, width, size) => {
      const hi = lo + width;
      const dx = shiftInto(lo, hi, size, 20);
      if (hi <= size - 20) expect(dx).toBeGreaterThanOrEqual(0);
      else expect(dx).toBe(Math.max(size - 20 - hi, 20 - lo));
    }));
  });
});
