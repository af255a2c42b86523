import { beforeEach, describe, expect, it } from 'vitest';
import { useEditor } from '../../../web/store/editorStore.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';

const s = () => useEditor.getState();

beforeEach(() => {
  s().open('p1', demoPipeline(), 1);
});

describe('editor store', () => {
  it('applies edits, validates with the engine and undoes/redoes them exactly', () => {
    const before = s().doc;
    s().apply([{ type: 'connect', wires: [{ value: { from: 'h-audit-log', to: 'm-dangerous-tools' } }] }], 'bad wire');
    expect(s().problems.map((p) => p.code)).toContain('bad_wire');
    expect(s().version).toBe(1);
    s().undo();
    expect(s().doc).toEqual(before);
    expect(s().problems).toEqual([]);
    expect(s().version).toBe(2);
    s().redo();
    expect(s().doc?.wires).toHaveLength(before!.wires.length + 1);
  });

  it('merges typing in one field into one undo step', () => {
    const node = s().doc!.nodes.find((n) => n.id === 'h-audit-log')!;
    if (node.kind !== 'handler') throw new Error('fixture');
    for (const name of ['A', 'Au', 'Aud']) s().apply([{ type: 'updateNode', node: { ...node, name } }], 'Edit name', `${node.id}:name`);
    expect(s().history.past).toHaveLength(1);
    s().undo();
    expect(s().doc!.nodes.find((n) => n.id === 'h-audit-log')).toEqual(node);
  });

  it('drops deleted nodes from the selection', () => {
    s().select(['ev-any', 'h-audit-log']);
    s().apply([{ type: 'removeNodes', ids: ['ev-any'] }], 'Delete');
    expect(s().selectedNodes).toEqual(['h-audit-log']);
  });

  it('opening a document resets history and selection', () => {
    s().apply([{ type: 'setProps', props: { name: 'x' } }], 'rename');
    s().select(['ev-any']);
    s().open('p2', demoPipeline(), 7);
    expect(s().history.past).toEqual([]);
    expect(s().selectedNodes).toEqual([]);
    expect(s().revision).toBe(7);
  });
});
