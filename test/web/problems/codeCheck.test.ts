import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pipeline, PipelineNode } from '../../../engine/model/pipelineTypes.ts';
import type { Problem } from '../../../engine/model/problem.ts';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import type { QuickJSSandbox } from '../../../engine/sandbox/quickjsSandbox.ts';
import { demoPipeline } from '../../../web/demo/demoPipeline.ts';
import { startCodeCheck, type CheckFn } from '../../../web/problems/codeCheck.ts';
import { checkCode } from '../../../web/sandbox/checkCode.ts';
import { useApp } from '../../../web/store/appStore.ts';

// The editor's code check against the store, with the worker's own check (checkCode) on a real QuickJS
// sandbox in Node standing in for the worker round trip.
let sandbox: QuickJSSandbox;
beforeAll(async () => {
  sandbox = await createNodeSandbox();
});
afterAll(() => sandbox.dispose());

const s = () => useApp.getState();
const DEBOUNCE = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let sent: Pipeline[];
let gate: Promise<void> | null;
const check: CheckFn = async (doc) => {
  sent.push(doc);
  if (gate) await gate;
  return checkCode(sandbox, doc);
};
let stop: () => void = () => undefined;

const codeHandler = (source: string): PipelineNode => ({
  id: 'h-code', kind: 'handler', name: 'Code', order: 50, enabled: true, shadow: false, on_error: 'block', action: { type: 'code', language: 'js', source },
});
const setSource = (source: string) => s().apply([{ type: 'updateNode', node: codeHandler(source) }], 'Edit code');
const codeErrors = () => s().problems.filter((p: Problem) => p.code === 'code_error');

beforeEach(() => {
  sent = [];
  gate = null;
  const demo = demoPipeline();
  s().open('p1', { ...demo, nodes: [...demo.nodes, codeHandler('export default () => ({})')], wires: [...demo.wires, { from: 'ev-tool-before', to: 'h-code' }] }, 1);
});
afterEach(() => stop());

describe('code check', () => {
  it('[S1] a syntax error in a code handler reaches the problems list, with its line, and goes when fixed', async () => {
    stop = startCodeCheck(useApp, check, DEBOUNCE);
    await expect.poll(() => sent.length).toBe(1);
    setSource('export default () => {\n  return {\n};;}}');
    await expect.poll(() => codeErrors().length).toBe(1);
    expect(codeErrors()[0]).toMatchObject({ node_id: 'h-code', message: expect.stringMatching(/line 3/) });
    setSource('export default () => ({ decision: "continue" })');
    await expect.poll(() => codeErrors().length).toBe(0);
  });

  it('waits until the edits pause, and sends nothing for a document without code', async () => {
    stop = startCodeCheck(useApp, check, 40);
    await expect.poll(() => sent.length).toBe(1);
    for (const src of ['export default (', 'export default ((', 'export default (((']) setSource(src);
    await expect.poll(() => codeErrors().length).toBe(1);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(s().doc);
    s().apply([{ type: 'removeNodes', ids: ['h-code'] }], 'Delete');
    // The node is gone: its error goes at once, before any check, and none is sent.
    expect(codeErrors()).toEqual([]);
    await sleep(80);
    expect(sent).toHaveLength(2);
  });

  it('ignores an answer about another pipeline', async () => {
    stop = startCodeCheck(useApp, check, 50);
    await expect.poll(() => sent.length).toBe(1);
    let release!: () => void;
    gate = new Promise((r) => (release = r));
    setSource('export default (');
    await expect.poll(() => sent.length).toBe(2);
    // Another pipeline opens while p1's check is out; its code node has the same id and compiles.
    s().open('p2', { ...s().doc!, nodes: s().doc!.nodes.map((n) => (n.id === 'h-code' ? codeHandler('export default () => ({})') : n)) }, 1);
    gate = null;
    release();
    await sleep(10);
    expect(sent).toHaveLength(2);
    expect(codeErrors()).toEqual([]);
    await expect.poll(() => sent.length).toBe(3);
    await sleep(10);
    expect(codeErrors()).toEqual([]);
    expect(s().pipelineId).toBe('p2');
  });

  it('stops following the store when stopped', async () => {
    stop = startCodeCheck(useApp, check, DEBOUNCE);
    await expect.poll(() => sent.length).toBe(1);
    stop();
    setSource('export default (');
    await sleep(40);
    expect(sent).toHaveLength(1);
    expect(codeErrors()).toEqual([]);
  });
});
