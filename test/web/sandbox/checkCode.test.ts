import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline, PipelineNode } from '../../../engine/model/pipelineTypes.ts';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import type { QuickJSSandbox } from '../../../engine/sandbox/quickjsSandbox.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { checkCode } from '../../../web/sandbox/checkCode.ts';

// What the sandbox worker runs for the editor's code check, here on the real QuickJS sandbox in Node.
let sandbox: QuickJSSandbox;
beforeAll(async () => {
  sandbox = await createNodeSandbox();
});
afterAll(() => sandbox.dispose());

const code = (id: string, source: string, language: 'js' | 'ts' = 'ts'): PipelineNode => ({
  id, kind: 'handler', name: id, order: 50, enabled: true, shadow: false, on_error: 'block', action: { type: 'code', language, source },
});
const withNodes = (...nodes: PipelineNode[]): Pipeline => {
  const demo = demoPipeline();
  return { ...demo, nodes: [...demo.nodes, ...nodes], wires: [...demo.wires, ...nodes.map((n) => ({ from: 'ev-tool-before', to: n.id }))] };
};

describe('checkCode', () => {
  it('[S1] reports the engine\'s code_error problems with the line and column in the user\'s source', () => {
    const doc = withNodes(code('ok', 'export default () => ({ decision: "continue" })'), code('broken', 'export default function (ctx) {\n  return {\n}}}', 'js'));
    const problems = checkCode(sandbox, doc);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'code_error', severity: 'error', node_id: 'broken', path: ['nodes', doc.nodes.length - 1, 'action', 'source'] });
    expect(problems[0]!.message).toMatch(/line 3, column \d+/);
  });

  it('[S1] a code matcher without a default export is a code_error too', () => {
    const doc = withNodes({ id: 'm', kind: 'matcher', code: { language: 'js', source: 'const x = 1;' } });
    expect(checkCode(sandbox, doc)).toEqual([expect.objectContaining({ code: 'code_error', node_id: 'm', path: ['nodes', doc.nodes.length - 1, 'code', 'source'] })]);
  });

  it('[V2] still compiles the code when the structure has other problems, and returns only code problems', () => {
    const doc = withNodes(code('broken', 'export default (', 'js'));
    const bad = { ...doc, wires: [...doc.wires, { from: 'broken', to: 'ev-tool-before' }] };
    expect(checkCode(sandbox, bad).map((p) => [p.code, p.node_id])).toEqual([['code_error', 'broken']]);
  });

  it('releases every program it compiled, so checks after each edit do not pile up', () => {
    const doc = withNodes(code('a', 'export default () => ({})'), code('b', 'export default () => ({})'));
    const before = sandbox.stats().programs;
    for (let i = 0; i < 5; i++) expect(checkCode(sandbox, doc)).toEqual([]);
    expect(sandbox.stats().programs).toBe(before);
  });
});
