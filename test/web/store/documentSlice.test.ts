import { beforeEach, describe, expect, it } from 'vitest';
import { useApp } from '../../../web/store/appStore.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';

const s = () => useApp.getState();

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

  it('typing leaves the whole-pipeline load for later; lint() (or the scheduler after a pause) catches up', async () => {
    const { startLintScheduler } = await import('../../../web/problems/lintScheduler.ts');
    const node = s().doc!.nodes.find((n) => n.id === 'm-dangerous-tools')!;
    if (node.kind !== 'matcher') throw new Error('fixture');
    const bad = { ...node, when: { 'payload.tool_name': { regex: '(' } } };
    s().apply([{ type: 'updateNode', node: bad }], 'Edit when', `${node.id}:when`);
    // A key costs its edit only: the problems are still those of the version before it.
    expect(s().lintedDoc).not.toBe(s().doc);
    expect(s().problems.map((p) => p.code)).not.toContain('bad_regex');
    s().lint();
    expect(s().lintedDoc).toBe(s().doc);
    expect(s().problems.map((p) => p.code)).toContain('bad_regex');
    // An edit that is not typing loads at once.
    s().apply([{ type: 'updateNode', node }], 'Fix');
    expect(s().problems).toEqual([]);
    // The scheduler loads once the keys pause, not on every key.
    const stop = startLintScheduler(useApp, 20);
    try {
      s().apply([{ type: 'updateNode', node: bad }], 'Edit when', `${node.id}:when`);
      expect(s().problems).toEqual([]);
      await new Promise((r) => setTimeout(r, 60));
      expect(s().problems.map((p) => p.code)).toContain('bad_regex');
    } finally {
      stop();
    }
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

  it('joins the sandbox worker\'s code errors to the page\'s problems, through edits, until another document opens', () => {
    const code = { id: 'h-code', kind: 'handler' as const, name: 'Code', order: 5, enabled: true, shadow: false, on_error: 'block' as const, action: { type: 'code' as const, language: 'js' as const, source: 'export default (' } };
    s().apply([{ type: 'addNodes', nodes: [{ value: code }], wires: [{ value: { from: 'ev-tool-before', to: 'h-code' } }], positions: [] }], 'add');
    const index = s().doc!.nodes.length - 1;
    const problem = { code: 'code_error' as const, severity: 'error' as const, path: ['nodes', index, 'action', 'source'], message: 'Unexpected end of input (line 1, column 17)', node_id: 'h-code' };
    s().setCodeProblems([problem]);
    expect(s().problems).toContainEqual(problem);
    // An edit elsewhere moves the node in the array: the error follows it until the next check.
    s().apply([{ type: 'removeNodes', ids: ['ev-any'] }], 'Delete');
    expect(s().problems).toContainEqual({ ...problem, path: ['nodes', index - 1, 'action', 'source'] });
    expect(s().docProblems.some((p) => p.code === 'code_error')).toBe(false);
    s().undo();
    expect(s().problems).toContainEqual(problem);
    s().open('p2', s().doc!, 2);
    expect(s().codeProblems).toEqual([]);
    expect(s().problems.some((p) => p.code === 'code_error')).toBe(false);
  });
});
