import { describe, expect, it } from 'vitest';
import type { Pipeline } from '../../../engine/model/pipelineTypes.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { DEFAULT_SIZES } from '../../../web/model/autoLayout.ts';
import { freeSpot } from '../../../web/model/freeSpot.ts';
import { routeWires, segmentCrossesBox } from '../../../web/model/routeWires.ts';

const size = DEFAULT_SIZES.handler;
const boxOf = (doc: Pipeline, id: string) => {
  const p = doc.layout!.nodes.find((n) => n.id === id)!;
  return { ...p, ...DEFAULT_SIZES[doc.nodes.find((n) => n.id === id)!.kind] };
};
const apart = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

describe('freeSpot', () => {
  it('on an empty canvas is where it was asked', () => {
    expect(freeSpot({ nodes: [], wires: [] }, { x: 10, y: 20 }, size)).toEqual({ x: 10, y: 20 });
  });

  it('never lands on a node of the demo, wherever it is asked, and adding several one after another never stacks them', () => {
    const doc = structuredClone(demoPipeline());
    for (let k = 0; k < 6; k++) {
      const want = boxOf(doc, doc.nodes[k % doc.nodes.length]!.id);
      const spot = freeSpot(doc, want, size);
      const box = { ...spot, ...size };
      for (const n of doc.nodes) expect(apart(box, boxOf(doc, n.id))).toBe(true);
      const id = `new-${k}`;
      doc.nodes.push({ id, kind: 'handler', name: id, order: 100, enabled: true, shadow: false, on_error: 'block', action: { type: 'stop' } } as Pipeline['nodes'][number]);
      doc.layout!.nodes.push({ id, ...spot });
    }
  });

  /** An event at (0, 0) wired to a handler at `b`. */
  const wired = (b: { x: number; y: number }) => ({
    nodes: [
      { id: 'a', kind: 'event', pattern: 'input.received' },
      { id: 'b', kind: 'handler', name: 'b', order: 1, enabled: true, shadow: false, on_error: 'block', action: { type: 'stop' } },
    ] as Pipeline['nodes'],
    wires: [{ from: 'a', to: 'b' }],
    layout: { nodes: [{ id: 'a', x: 0, y: 0 }, { id: 'b', ...b }] },
  });

  it('does not sit on a wire it is not part of', () => {
    const doc = wired({ x: 1000, y: 0 });
    // Halfway along the wire: the spot found is off the line y ≈ 32.
    const spot = freeSpot(doc as Pick<Pipeline, 'nodes' | 'wires' | 'layout'>, { x: 400, y: 0 }, size);
    expect(spot.y + size.height < 32 - 24 || spot.y > 32 + 24).toBe(true);
  });

  it('avoids a wire where it is drawn: an orthogonal route, not the straight line between the nodes', () => {
    const doc = wired({ x: 1200, y: 900 });
    const route = routeWires(new Map([['a', boxOf(doc as Pipeline, 'a')], ['b', boxOf(doc as Pipeline, 'b')]]), [{ id: 'w', ...doc.wires[0]! }]).get('w')!;
    // Asked right on the route's first horizontal run, far from the straight diagonal a→b.
    const want = { x: 300, y: route[0]!.y - size.height / 2 };
    const spot = freeSpot(doc as Pick<Pipeline, 'nodes' | 'wires' | 'layout'>, want, size);
    const box = { ...spot, ...size };
    for (let k = 1; k < route.length; k++) expect(segmentCrossesBox(route[k - 1]!, route[k]!, box)).toBe(false);
  });
});
