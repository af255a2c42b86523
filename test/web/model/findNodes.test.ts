import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findNodes } from '../../../web/model/findNodes.ts';
import { nodeName, type PipelineNode } from '../../../engine/app.ts';

const handler = (id: string, name: string): PipelineNode => ({ id, kind: 'handler', name, order: 0, enabled: true, shadow: false, on_error: 'block', action: { type: 'audit' } } as PipelineNode);

describe('findNodes (the canvas\'s Find node)', () => {
  const nodes: PipelineNode[] = [
    { id: 'ev-1', kind: 'event', pattern: 'tool.before_call' },
    { id: 'm-1', kind: 'matcher', label: 'Dangerous tools', when: {} } as PipelineNode,
    ...Array.from({ length: 30 }, (_, i) => handler(`h-${i}`, `Handler ${i}`)),
    handler('h-x', 'Old handler 2'),
  ];

  it('puts the name equal to the text first, then names starting with it, then names holding it, then names holding its words apart', () => {
    expect(findNodes(nodes, 'handler 2').map((f) => f.name)).toEqual(['Handler 2', ...Array.from({ length: 10 }, (_, i) => `Handler ${20 + i}`), 'Old handler 2', 'Handler 12']);
  });

  it('finds by id and by an event\'s pattern, case-insensitively, and every node for empty text', () => {
    expect(findNodes(nodes, 'M-1').map((f) => f.id)).toEqual(['m-1']);
    expect(findNodes(nodes, 'TOOL.before').map((f) => f.id)).toEqual(['ev-1']);
    expect(findNodes(nodes, '  ')).toHaveLength(nodes.length);
    expect(findNodes(nodes, 'nothing like it')).toEqual([]);
  });

  it('finds exactly the nodes whose name or id holds every word, each once, named by the engine', () => {
    const names = fc.stringMatching(/^[a-z_ ]{0,8}$/);
    fc.assert(fc.property(fc.array(names, { maxLength: 12 }), names, (labels, text) => {
      const list = labels.map((l, i) => handler(`n${i}`, l));
      const found = findNodes(list, text);
      const words = text.trim().split(/\s+/).filter(Boolean);
      const expected = list.filter((n) => words.every((w) => `${nodeName(n)} ${n.id}`.toLowerCase().includes(w)));
      expect(new Set(found.map((f) => f.id))).toEqual(new Set(expected.map((n) => n.id)));
      expect(found).toHaveLength(expected.length);
      for (const f of found) expect(f.name).toBe(nodeName(list.find((n) => n.id === f.id)!));
    }), { numRuns: 300 });
  });
});
