import { describe, expect, it } from 'vitest';
import { autoLayout, normalizeLayout } from '../../../web/model/autoLayout.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import type { Pipeline } from '../../../engine/model/pipelineTypes.ts';

const demo = demoPipeline();

describe('autoLayout', () => {
  it('places events left of the matchers and handlers they feed', () => {
    const pos = new Map(autoLayout(demo).map((p) => [p.id, p]));
    for (const w of demo.wires) expect(pos.get(w.from)!.x).toBeLessThan(pos.get(w.to)!.x);
  });

  it('puts every event node in the first column, also when an event feeds only a handler further right', () => {
    const nodes: Pipeline['nodes'] = [];
    const wires: Pipeline['wires'] = [];
    for (let g = 0; g < 4; g++) {
      nodes.push({ id: `e${g}`, kind: 'event', pattern: 'tool.before_call' });
      nodes.push({ id: `m${g}`, kind: 'matcher', when: { 'payload.x': { eq: g } } });
      nodes.push({ id: `h${g}`, kind: 'handler', name: `h${g}`, order: g, enabled: true, shadow: false, on_error: 'block', action: { type: 'stop' } });
      wires.push({ from: `e${g}`, to: `m${g}` }, { from: `m${g}`, to: `h${g}` });
      if (g > 0) wires.push({ from: `e${g}`, to: `h${g - 1}` });
    }
    const pos = autoLayout({ nodes, wires });
    const xs = new Set(pos.filter((p) => p.id.startsWith('e')).map((p) => p.x));
    expect([...xs]).toEqual([0]);
    expect(Math.min(...pos.map((p) => p.y))).toBe(0);
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
