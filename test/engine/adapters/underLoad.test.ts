// [S13][O2] An adapter's decisions with a code handler do not depend on load: the AI SDK, LangChain and OpenAI
// Agents scenarios run idle and with two real busy processes burning CPU give the same decisions, and
// `hookwire replay` of each recording agrees (the CLI's check is on: a differing decision would exit 1). Before
// fuel, a 50 ms wall-clock limit made the destructive-tool block time out and fail closed with the timeout
// message instead, or an allowed call blocked (the cases). And a property: random traces through a code
// handler whose work ranges up to past its fuel decide the same idle and loaded, and as replayed.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { AIMessage, createAgent, fakeModel, tool as lcTool } from 'langchain';
import { Agent, Runner, tool as agentsTool, Usage, type ModelProvider } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import fc from 'fast-check';
import { z } from 'zod';
import { hookwireAiSdk } from '../../../engine/adapters/aiSdk/index.ts';
import { hookwireMiddleware } from '../../../engine/adapters/langchain/index.ts';
import { hookwireAgents } from '../../../engine/adapters/openaiAgents/index.ts';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import { compilePipeline, createRuntime, readTrace, replaySteps, type PipelineInput } from '../../../engine/index.ts';
import type { Sandbox } from '../../../engine/sandbox/types.ts';
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

/** The LangChain scenario (createAgent with fakeModel), through the code pipeline. */
async function langchainScenario() {
  const live = startLive({ sandbox: await createNodeSandbox() }, 'load-lc', CODE_PIPELINE);
  const t = scenarioTools();
  const path = z.object({ path: z.string() });
  const lcUsage = (output: number) => ({ input_tokens: 10, output_tokens: output, total_tokens: 10 + output });
  const lcCall = (id: string, name: string, args: Record<string, unknown>, output: number) => new AIMessage({ content: '', tool_calls: [{ id, name, args, type: 'tool_call' }], usage_metadata: lcUsage(output) });
  const model = fakeModel()
    .respond(lcCall('c1', 'delete_file', { path: '/' }, 30))
    .respond(lcCall('c2', 'read_file', { path: '/etc/passwd' }, 30))
    .respond(lcCall('c3', 'send_email', { to: 'ops@example.com' }, 500))
    .respond(new AIMessage('never asked for'));
  const tools = [
    lcTool(async (i) => t.delete_file(i), { name: 'delete_file', description: 'delete a file', schema: path }),
    lcTool(async (i) => t.read_file(i), { name: 'read_file', description: 'read a file', schema: path }),
    lcTool(async (i) => t.send_email(i), { name: 'send_email', description: 'send mail', schema: z.object({ to: z.string() }) }),
  ];
  await createAgent({ model, tools, middleware: [hookwireMiddleware(live.trace)] }).invoke({ messages: [{ role: 'user', content: 'tidy up the disk' }] });
  return { live, calls: t.calls };
}

/** The OpenAI Agents scenario (the Runner with the SDK's ScriptedModel), through the code pipeline. */
async function agentsScenario() {
  const live = startLive({ sandbox: await createNodeSandbox() }, 'load-agents', CODE_PIPELINE);
  const hw = hookwireAgents(live.trace);
  const t = scenarioTools();
  const agUsage = (output: number) => new Usage({ requests: 1, inputTokens: 10, outputTokens: output, totalTokens: 10 + output });
  const scripted = new ScriptedModel([
    { usage: agUsage(30), output: [functionCall('delete_file', { path: '/' }, { callId: 'c1' })] },
    { usage: agUsage(30), output: [functionCall('read_file', { path: '/etc/passwd' }, { callId: 'c2' })] },
    { usage: agUsage(500), output: [functionCall('send_email', { to: 'ops@example.com' }, { callId: 'c3' })] },
    { usage: agUsage(1), output: [assistantMessage('never asked for')] },
  ]);
  const provider: ModelProvider = { getModel: () => scripted };
  const path = z.object({ path: z.string() });
  const tools = [
    agentsTool({ name: 'delete_file', description: 'delete a file', parameters: path, execute: async (i) => t.delete_file(i) }),
    agentsTool({ name: 'read_file', description: 'read a file', parameters: path, execute: async (i) => t.read_file(i) }),
    agentsTool({ name: 'send_email', description: 'send mail', parameters: z.object({ to: z.string() }), execute: async (i) => t.send_email(i) }),
  ];
  const runner = new Runner({ modelProvider: hw.modelProvider(provider), tracingDisabled: true });
  // The budget ends the run through the SDK's output tripwire (a thrown error): what matters here is the decisions.
  await runner.run(hw.agent(new Agent({ name: 'janitor', instructions: 'tidy up', model: 'scripted', tools })), 'tidy up the disk').catch(() => undefined);
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
    startBurners();
    const loaded = await scenario();
    const loadedDecisions = liveDecisions(loaded.live);
    const idleReplay = await replayWithCli(idle.live);
    const loadedReplay = await replayWithCli(loaded.live);
    expect(loadedDecisions).toEqual(idleDecisions);
    expect(loaded.calls).toEqual(idle.calls);
    expect(replayedDecisions(idleReplay)).toEqual(idleDecisions);
    expect(replayedDecisions(loadedReplay)).toEqual(loadedDecisions);
  });

  for (const [name, scenario_, blockedAt] of [['LangChain', langchainScenario, 2], ['OpenAI Agents', agentsScenario, 3]] as const) {
    it(`[S13][O2] ${name}: with two busy processes the decisions (and what the tools got) equal the idle ones, and the CLI replay of each recording agrees`, async () => {
      const idle = await scenario_();
      const idleDecisions = liveDecisions(idle.live);
      // The code decides both ways: the destructive tool is blocked by it, the read is let through by it.
      expect(idleDecisions[blockedAt]).toMatchObject({ type: 'tool.before_call', decision: 'block_action', decided_by: 'h-block', reason: expect.stringMatching(/^destructive tool delete_file \(\d\)$/) });
      expect(idleDecisions.filter((d) => d.type === 'tool.before_call').map((d) => d.decision)).toEqual(['block_action', 'continue']);
      expect(idle.calls.map((c) => c.tool)).toEqual(['read_file']);
      startBurners();
      const loaded = await scenario_();
      const loadedDecisions = liveDecisions(loaded.live);
      const [idleReplay, loadedReplay] = [await replayWithCli(idle.live), await replayWithCli(loaded.live)];
      expect(loadedDecisions).toEqual(idleDecisions);
      expect(loaded.calls).toEqual(idle.calls);
      expect(replayedDecisions(idleReplay)).toEqual(idleDecisions);
      expect(replayedDecisions(loadedReplay)).toEqual(loadedDecisions);
    });
  }

  it('[S13] property: a code handler\'s decisions over random traces (work from none to past its fuel) are the same loaded (two busy processes) as idle, and as replayed', { timeout: 900_000 }, async () => {
    const sandbox = await createNodeSandbox();
    const compiled = compilePipeline(WORK_PIPELINE, { sandbox });
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    // Each generated trace is decided idle, then again with two busy processes started for it (and stopped after).
    const errorsSeen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(workTraceArb, async (calls) => {
        const idle = await decideWork(sandbox, calls, compiled.compiled);
        for (const x of idle) if (x.error) errorsSeen.add(x.error);
        await startBurnersRunning();
        try {
          expect(await decideWork(sandbox, calls, compiled.compiled)).toEqual(idle);
        } finally {
          for (const b of burners.splice(0)) b.kill('SIGKILL');
        }
      }),
      { seed: 20261206, numRuns: 6 },
    );
    // The generated work reaches past the fuel: some calls stop on it (and fail closed), others decide.
    expect([...errorsSeen]).toContain('fuel');
    sandbox.dispose();
  });
});

function startBurners(): void {
  for (let i = 0; i < 2; i++) burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

/** Two busy processes, resolved once both have started and burnt for a moment. */
async function startBurnersRunning(): Promise<void> {
  startBurners();
  await Promise.all(burners.map((b) => new Promise((r) => b.once('spawn', r))));
  await new Promise((r) => setTimeout(r, 150));
}

// A code handler whose work is the call's `work` loop iterations (its fuel of 1000 runs out at about 5 million),
// that blocks reads of /etc and lets the rest through, its reason carrying the loop's result. Default limits: the
// wall-clock net is derived from the fuel, far past it [S7] (before, a fixed 5 s net could fire first here: the
// whole default fuel took 3.6-7.8 s of wall time on this 2-core machine under load).
const WORK_PIPELINE: PipelineInput = {
  format: 'hookwire.pipeline',
  version: 1,
  name: 'work under load',
  nodes: [
    { id: 'ev', kind: 'event', pattern: 'tool.before_call' },
    { id: 'h-code', kind: 'handler', name: 'etc guard', order: 10, action: { type: 'code', language: 'js', source: 'export default (ctx) => { const n = ctx.payload.tool_input.work; let h = 0; for (let i = 0; i < n; i++) h = (h * 31 + i) | 0; return String(ctx.payload.tool_input.path).startsWith("/etc") ? block("etc read (" + (h & 7) + ")") : null; }' } },
  ],
  wires: [{ from: 'ev', to: 'h-code' }],
} as PipelineInput;

const workTraceArb = fc.array(
  fc.record({
    path: fc.constantFrom('/etc/passwd', '/w/readme', '/etc/hosts', '/tmp/x'),
    work: fc.oneof(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 400_000, max: 900_000 }), fc.integer({ min: 4_500_000, max: 7_000_000 })),
  }),
  { minLength: 1, maxLength: 2 },
);

interface Decided {
  decision: string;
  reason: string;
  error: string | null;
}

/** The live decisions of one trace, checked against the engine's replay of its recording. */
async function decideWork(sandbox: Sandbox, calls: readonly { path: string; work: number }[], compiled: Parameters<typeof replaySteps>[0]): Promise<Decided[]> {
  const lines: string[] = [];
  let t = Date.parse('2026-12-06T10:00:00.000Z');
  const r = createRuntime(WORK_PIPELINE, { sandbox, clock: { now: () => (t += 1000) } });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const trace = r.runtime.startTrace({ trace_id: 'work', record: (l) => void lines.push(l) });
  const out = calls.map((c) => {
    const res = trace.emit('tool.before_call', { tool_name: 'read_file', tool_input: c });
    return { decision: res.decision, reason: res.reason, error: res.errors[0]?.kind ?? null };
  });
  await trace.flush();
  const replayed = [...replaySteps(compiled, readTrace(lines.join('')).events)].map((s) => ({ decision: s.decision, reason: s.reason, error: s.errors[0]?.kind ?? null }));
  expect(replayed).toEqual(out);
  return out;
}
