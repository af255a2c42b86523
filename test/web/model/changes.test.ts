import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyChange, applyChanges, ChangeError, type Change } from '../../../web/model/changes.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { createNode } from '../../../web/model/nodeFactory.ts';
import type { Pipeline } from '../../../engine/model/pipelineTypes.ts';

const demo = demoPipeline();
const ids = demo.nodes.map((n) => n.id);

describe('applyChange', () => {
  it('adds a node with its position and does not mutate the input', () => {
    const before = structuredClone(demo);
    const node = createNode({ kind: 'handler', action: 'block' }, demo);
    const { doc, inverse } = applyChange(demo, { type: 'addNodes', nodes: [{ value: node }], wires: [], positions: [{ value: { id: node.id, x: 5, y: 6 } }] });
    expect(doc.nodes.at(-1)).toEqual(node);
    expect(doc.layout?.nodes.at(-1)).toEqual({ id: node.id, x: 5, y: 6 });
    expect(inverse).toEqual({ type: 'removeNodes', ids: [node.id] });
    expect(demo).toEqual(before);
  });

  it('removes nodes with their wires and positions; the inverse restores document order exactly [H1]', () => {
    const { doc, inverse } = applyChange(demo, { type: 'removeNodes', ids: ['m-dangerous-tools', 'h-redact-secrets'] });
    expect(doc.nodes.map((n) => n.id)).not.toContain('m-dangerous-tools');
    expect(doc.wires.some((w) => w.to === 'h-redact-secrets' || w.from === 'm-dangerous-tools' || w.to === 'm-dangerous-tools')).toBe(false);
    expect(doc.layout?.nodes).toHaveLength(demo.nodes.length - 2);
    expect(applyChange(doc, inverse).doc).toEqual(demo);
  });

  it('connects and disconnects, restoring the wire at its index', () => {
    const c = applyChange(demo, { type: 'connect', wires: [{ value: { from: 'ev-input', to: 'h-audit-log' } }] });
    expect(c.doc.wires.at(-1)).toEqual({ from: 'ev-input', to: 'h-audit-log' });
    const d = applyChange(demo, { type: 'disconnect', wires: [{ from: 'm-dangerous-tools', to: 'm-destructive-command' }] });
    expect(d.doc.wires).toHaveLength(demo.wires.length - 1);
    expect(applyChange(d.doc, d.inverse).doc).toEqual(demo);
    expect(applyChange(c.doc, c.inverse).doc).toEqual(demo);
  });

  it('updates a node in place and moves nodes; inverses restore', () => {
    const node = { ...(demo.nodes[1] as Extract<Pipeline['nodes'][number], { kind: 'matcher' }>), label: 'Risky tools' };
    const u = applyChange(demo, { type: 'updateNode', node });
    expect(u.doc.nodes[1]).toBe(node);
    expect(u.doc.nodes[0]).toBe(demo.nodes[0]); // structural sharing: untouched nodes keep their identity
    const m = applyChange(demo, { type: 'moveNodes', positions: [{ id: 'ev-any', x: -10, y: 999 }] });
    expect(m.doc.layout?.nodes.find((p) => p.id === 'ev-any')).toEqual({ id: 'ev-any', x: -10, y: 999 });
    expect(m.doc.nodes).toBe(demo.nodes); // a move never touches semantics [V7]
    expect(applyChange(u.doc, u.inverse).doc).toEqual(demo);
    expect(applyChange(m.doc, m.inverse).doc).toEqual(demo);
  });

  it('sets and clears pipeline properties', () => {
    const s = applyChange(demo, { type: 'setProps', props: { name: 'X', description: undefined, event_types: [{ type: 'billing.charge', mode: 'sync' }] } });
    expect(s.doc.name).toBe('X');
    expect('description' in s.doc).toBe(false);
    expect(applyChange(s.doc, s.inverse).doc).toEqual(demo);
  });

  it('replaces the whole document (restoring a version); the inverse is the document before', () => {
    const other: Pipeline = { ...demo, name: 'Older', nodes: demo.nodes.slice(0, 2), wires: [] };
    const r = applyChange(demo, { type: 'replaceDoc', doc: other });
    expect(r.doc).toBe(other);
    expect(applyChange(r.doc, r.inverse).doc).toEqual(demo);
  });

  it('throws on changes that cannot apply (caller bugs, not user errors)', () => {
    expect(() => applyChange(demo, { type: 'removeNodes', ids: ['nope'] })).toThrow(ChangeError);
    expect(() => applyChange(demo, { type: 'connect', wires: [{ value: demo.wires[0]! }] })).toThrow(ChangeError);
    expect(() => applyChange(demo, { type: 'updateNode', node: { id: 'nope', kind: 'event', pattern: '*' } })).toThrow(ChangeError);
    expect(() =>
      applyChange(demo, { type: 'addNodes', nodes: [{ value: { id: 'ev-any', kind: 'event', pattern: '*' } }], wires: [], positions: [] }),
    ).toThrow(/taken/);
  });
});

// Random edit scripts: whatever sequence of valid changes is applied, applying the inverses restores the
// document exactly (this is what undo relies on).
type Step = [kind: number, a: number, b: number];

function changeFor(doc: Pipeline, [kind, a, b]: Step): Change {
  const pick = <T,>(list: readonly T[], i: number): T => list[i % list.length] as T;
  const node = doc.nodes.length ? pick(doc.nodes, a) : undefined;
  switch (node ? kind % 7 : 0) {
    case 0: {
      const added = createNode({ kind: 'matcher' }, doc);
      const wires = node && node.kind !== 'handler' ? [{ value: { from: node.id, to: added.id } }] : [];
      return { type: 'addNodes', nodes: [{ value: added, at: b % (doc.nodes.length + 1) }], wires, positions: [{ value: { id: added.id, x: a, y: b } }] };
    }
    case 1: return { type: 'removeNodes', ids: [...new Set([node!.id, pick(doc.nodes, b).id])] };
    case 2: return { type: 'moveNodes', positions: [{ id: node!.id, x: b, y: -b }] };
    case 3: return doc.wires.length ? { type: 'disconnect', wires: [pick(doc.wires, b)] } : { type: 'setProps', props: { name: `n${b}` } };
    case 4: return node!.kind === 'handler' ? { type: 'updateNode', node: { ...node!, order: b } } : { type: 'setProps', props: { description: `d${b}` } };
    case 5: {
      // An earlier version: the demo's first few nodes, with only their wires and positions.
      const nodes = demo.nodes.slice(0, b % (demo.nodes.length + 1));
      const kept = new Set(nodes.map((n) => n.id));
      return { type: 'replaceDoc', doc: { ...demo, name: `restored ${a}`, nodes, wires: demo.wires.filter((w) => kept.has(w.from) && kept.has(w.to)), layout: { nodes: demo.layout!.nodes.filter((p) => kept.has(p.id)) } } };
    }
    default: return { type: 'setProps', props: { name: `n${a}`, description: undefined } };
  }
}

describe('applyChanges (property)', () => {
  it('undoing any sequence of changes restores the document exactly', () => {
    const step = fc.tuple(fc.nat(100), fc.nat(1000), fc.nat(1000));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        let doc = demo;
        const inverses: Change[][] = [];
        for (const s of steps) {
          const r = applyChanges(doc, [changeFor(doc, s as Step)]);
          inverses.push(r.inverse);
          doc = r.doc;
        }
        for (const inverse of inverses.reverse()) doc = applyChanges(doc, inverse).doc;
        expect(doc).toEqual(demo);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps node ids unique in the demo', () => {
    expect(new Set(ids).size).toBe(ids.length);
  });
});
