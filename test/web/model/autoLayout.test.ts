import { describe, expect, it } from 'vitest';
import { autoLayout, normalizeLayout } from '../../../web/model/autoLayout.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';

const demo = demoPipeline();

describe('autoLayout', () => {
  it('places events left of the matchers and handlers they feed', () => {
    const pos = new Map(autoLayout(demo).map((p) => [p.id, p]));
    for (const w of demo.wires) expect(pos.get(w.from)!.x).toBeLessThan(pos.get(w.to)!.x);
  });

  it('normalizeLayout lays out a document without layout and leaves a complete one alone', () => {
    const { layout: _l, ...bare } = demo;
    const laid = normalizeLayout(bare);
    expect(laid.layout?.nodes.map((p) => p.id)).toEqual(demo.nodes.map((n) => n.id));
    expect(normalizeLayout(demo)).toBe(demo);
    const partial = { ...demo, layout: { nodes: [...demo.layout!.nodes.slice(1), { id: 'ghost', x: 0, y: 0 }] } };
    const fixed = normalizeLayout(partial);
    expect(fixed.layout!.nodes.map((p) => p.id)).toEqual(demo.nodes.map((n) => n.id));
    expect(fixed.layout!.nodes[1]).toEqual(demo.layout!.nodes[1]);
  });
});
