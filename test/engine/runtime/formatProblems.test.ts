import { describe, expect, it } from 'vitest';
import { formatProblems, nodeLabels, nodeRef } from '../../../engine/runtime/formatProblems.ts';

describe('formatProblems names nodes as people see them', () => {
  it('[V2] a node is its label (or handler name) and its id; an unlabelled one its id', () => {
    const doc = {
      nodes: [
        { id: 'matcher', kind: 'matcher', label: 'Dangerous tools' },
        { id: 'h', kind: 'handler', name: 'Block' },
        { id: 'plain', kind: 'matcher' },
        { id: 'same', kind: 'matcher', label: 'same' },
        { id: '__proto__', kind: 'matcher', label: 'odd' },
        JSON.parse('{"id":"x","kind":"matcher","__proto__":{"label":"inherited"}}'),
      ],
    };
    const labels = nodeLabels(doc);
    expect(nodeRef('matcher', labels)).toBe('"Dangerous tools" (matcher)');
    expect(nodeRef('h', labels)).toBe('"Block" (h)');
    expect(nodeRef('plain', labels)).toBe('plain');
    expect(nodeRef('same', labels)).toBe('same');
    expect(nodeRef('__proto__', labels)).toBe('"odd" (__proto__)');
    expect(nodeRef('x', labels)).toBe('x');
    const text = formatProblems([{ code: 'bad_regex', severity: 'error', path: ['nodes', 0, 'when'], message: 'missing )', node_id: 'matcher' }], labels);
    expect(text).toBe('error   nodes[0].when [node "Dangerous tools" (matcher)]: missing ) (bad_regex)');
    expect(nodeLabels(null).size).toBe(0);
    expect(nodeLabels({ nodes: 'no' }).size).toBe(0);
  });
});
