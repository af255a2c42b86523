import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpanColumns } from '../../../engine/trace/importers/spanColumns.ts';
import { latestTime, orderSpanPoints } from '../../../engine/trace/importers/spanOrder.ts';
import { orderSpanPointsWhole, type OrderedSpan } from './spanOrderWhole.ts';

interface Drawn {
  hex: string | null;
  parent: string | null;
  start: number;
  length: number;
}

/** The spans as columns (what SpanCollector keeps) and as the objects the oracle ordered. */
function both(drawn: readonly Drawn[]): { cols: SpanColumns; objects: OrderedSpan[] } {
  const cols = new SpanColumns();
  const objects = drawn.map((d, index) => {
    cols.add({ hex: d.hex, parent: d.parent, start: d.start, end: d.start + d.length, op: 'chat', hookwire: false, seq: Infinity });
    return { hex: d.hex ?? `span${index}`, parent: d.parent, start: d.start, end: d.start + d.length, index };
  });
  return { cols, objects };
}

/** Points as `2 * span + end` with the time each is placed at. */
function packed(cols: SpanColumns, last: number): { p: number; t: number }[] {
  const latest = latestTime(cols);
  return [...orderSpanPoints(cols, last)].map((p) => ({ p, t: (p & 1) === 0 ? cols.start(p >>> 1) : p >>> 1 === last ? latest : cols.end(p >>> 1) }));
}

function oracle(objects: OrderedSpan[], last: number): { p: number; t: number }[] {
  return orderSpanPointsWhole(objects, last >= 0 ? objects[last] : undefined).map((x) => ({ p: 2 * x.s.index + (x.end ? 1 : 0), t: x.t }));
}

// Few ids and few times, so that ids repeat (the first span with an id is the parent), parents are unknown, a span
// is its own parent, parents form cycles, and many points tie.
const drawnSpan = fc.record({
  hex: fc.constantFrom('a1', 'b2', 'c3', 'd4', 'e5', null),
  parent: fc.constantFrom('a1', 'b2', 'c3', 'd4', 'ff', null),
  start: fc.constantFrom(0, 1, 2, 2.5, 3, 1772445600000000),
  length: fc.constantFrom(0, 0, 1, 2, 0.5),
});

describe('span order in columns', () => {
  it('[I5] any spans (repeated, unknown or cyclic parents, tied times, any last span) order as the object-based ordering did', () => {
    fc.assert(
      fc.property(fc.array(drawnSpan, { maxLength: 30 }), fc.nat(40), (drawn, lastDraw) => {
        const { cols, objects } = both(drawn);
        const last = lastDraw < drawn.length ? lastDraw : -1;
        expect(packed(cols, last)).toEqual(oracle(objects, last));
      }),
      { numRuns: 1000 },
    );
  });

  it('[I5] a chain of 20,000 nested spans orders without recursion, each parent around its child', () => {
    const drawn: Drawn[] = Array.from({ length: 20_000 }, (_, i) => ({ hex: `${i + 1}`, parent: i === 0 ? null : `${i}`, start: 5, length: 0 }));
    const { cols, objects } = both(drawn.reverse());
    const got = packed(cols, cols.count - 1);
    expect(got).toEqual(oracle(objects, cols.count - 1));
    expect(got[0]!.p).toBe(2 * (cols.count - 1));
    expect(got[got.length - 1]!.p).toBe(2 * (cols.count - 1) + 1);
  });

  it('[I5] an id written by many spans is kept once; the first span with it is the parent', () => {
    const cols = new SpanColumns();
    cols.add({ hex: null, parent: 'aa', start: 1, end: 1, op: 'x', hookwire: false, seq: Infinity });
    cols.add({ hex: 'aa', parent: null, start: 0, end: 2, op: 'x', hookwire: false, seq: Infinity });
    cols.add({ hex: 'aa', parent: null, start: 0, end: 2, op: 'x', hookwire: false, seq: Infinity });
    expect([cols.parentOf(0), cols.hex(0), cols.hex(1), cols.hex(2)]).toEqual([1, 'span0', 'aa', 'aa']);
    expect([...orderSpanPoints(cols)]).toEqual([2, 4, 0, 1, 3, 5]);
  });
});
