// [S13][O2] An adapter's decisions with a code handler do not depend on load: the AI SDK scenario run idle and
// with two real busy processes burning CPU gives the same decisions, and `hookwire replay` of each recording
// agrees (the CLI's check is on: a differing decision would exit 1). Before fuel, a 50 ms wall-clock limit made
// the destructive-tool block time out and fail closed with the timeout message instead (the case).
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { hookwireAiSdk } from '../../../engine/adapters/aiSdk/index.ts';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import type { PipelineInput } from '../../../engine/index.ts';
import { liveDecisions, PIPELINE, replayedDecisions, replayWithCli, scenarioTools, startLive } from './adapterFixture.ts';

// The scenario's pipeline with its destructive-tool block as code that does real work (~120 fuel units: tens of
// ms idle, far more under load).
const CODE_PIPELINE: PipelineInput = {
  ...PIPELINE,
  name: 'adapter scenario (code)',
  nodes: PIPELINE.nodes.map((n) =>
    n.id === 'h-block'
      ? { id: 'h-block', kind: 'handler', name: 'no destructive tools', order: 10, action: { type: 'code', language: 'js', source: 'export default (ctx) => { let h = 0; for (let i = 0; i < 600_000; i++) h = (h * 31 + i) | 0; return ctx.payload.tool_name === "delete_file" || ctx.payload.tool_name === "run_shell" ? block("destructive tool " + ctx.payload.tool_name + " (" + (h & 7) + ")") : null; }' } }
      : n,
  ),
} as PipelineInput;

const usage = (output: number) => ({ inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: output, text: output, reasoning: 0 } });
const call = (id: string, toolName: string, input: object) => ({ type: 'tool-call' as const, toolCallId: id, toolName, input: JSON.stringify(input) });
const toolCalls = { unified: 'tool-calls' as const, raw: undefined };

async function scenario() {
  const live = startLive({ sandbox: await createNodeSandbox() }, 'load-trace', CODE_PIPELINE);
  const hw = hookwireAiSdk(live.trace);
  const t = scenarioTools();
  const path = z.object({ path: z.string() });
  const mock = new MockLanguageModelV3({
    doGenerate: [
      { content: [call('c1', 'delete_file', { path: '/' })], finishReason: toolCalls, usage: usage(30), warnings: [] },
      { content: [call('c2', 'read_file', { path: '/etc/passwd' })], finishReason: toolCalls, usage: usage(30), warnings: [] },
      { content: [call('c3', 'send_email', { to: 'ops@example.com' })], finishReason: toolCalls, usage: usage(500), warnings: [] },
    ],
  });
  await generateText({
    model: wrapLanguageModel({ model: mock, middleware: hw.middleware }),
    tools: hw.tools({
      delete_file: tool({ description: 'delete a file', inputSchema: path, execute: async (i) => t.delete_file(i) }),
      read_file: tool({ description: 'read a file', inputSchema: path, execute: async (i) => t.read_file(i) }),
      send_email: tool({ description: 'send mail', inputSchema: z.object({ to: z.string() }), execute: async (i) => t.send_email(i) }),
    }),
    stopWhen: [stepCountIs(10), hw.stopWhen],
    prompt: 'tidy up the disk',
  });
  return { live, calls: t.calls };
}

const burners: ChildProcess[] = [];
afterEach(() => {
  for (const b of burners.splice(0)) b.kill('SIGKILL');
});

describe('adapters under load [S13]', { timeout: 300_000 }, () => {
  it('[S13][O2] AI SDK: with two busy processes the decisions (and what the tools got) equal the idle ones, and the CLI replay of each recording agrees', async () => {
    const idle = await scenario();
    const idleDecisions = liveDecisions(idle.live);
    expect(idleDecisions.find((d) => d.type === 'tool.before_call')).toMatchObject({ decision: 'block_action', reason: expect.stringMatching(/^destructive tool delete_file/) });
    for (let i = 0; i < 2; i++) burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    const loaded = await scenario();
    const loadedDecisions = liveDecisions(loaded.live);
    const idleReplay = await replayWithCli(idle.live);
    const loadedReplay = await replayWithCli(loaded.live);
    expect(loadedDecisions).toEqual(idleDecisions);
    expect(loaded.calls).toEqual(idle.calls);
    expect(replayedDecisions(idleReplay)).toEqual(idleDecisions);
    expect(replayedDecisions(loadedReplay)).toEqual(loadedDecisions);
  });
});
