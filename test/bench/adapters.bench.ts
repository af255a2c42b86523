// Adapter overhead (issue 17). Not a test: prints, per framework and workload, the CPU time per tool call of the
// bare framework loop, with the Hookwire adapter, and with the adapter plus OpenTelemetry spans exported (real SDK,
// SimpleSpanProcessor into an in-memory exporter), run side by side in one process in interleaved rounds (best
// round kept, so load from other processes falls on all alike), with the same scripted model.
// Run: npx tsx test/bench/adapters.bench.ts [rounds]
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { generateText, stepCountIs, tool as aiTool, wrapLanguageModel, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { AIMessage, createAgent, fakeModel, tool as lcTool } from 'langchain';
import { Agent, Runner, tool as oaTool, Usage } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { z } from 'zod';
import { createRuntime, type RuntimeOptions, type RuntimeTrace } from '../../engine/index.ts';
import { hookwireAiSdk } from '../../engine/adapters/aiSdk/index.ts';
import { hookwireMiddleware } from '../../engine/adapters/langchain/index.ts';
import { hookwireAgents } from '../../engine/adapters/openaiAgents/index.ts';
import { PIPELINE } from '../engine/adapters/adapterFixture.ts';
import { table } from './measure.ts';

/** The scenario pipeline with a budget that never runs out: every tool call is checked, redacted and counted. */
const pipeline = { ...PIPELINE, nodes: PIPELINE.nodes.map((n) => (n.id === 'h-budget' && n.kind === 'handler' ? { ...n, action: { type: 'budget' as const, key: 'tokens', amount_path: 'payload.usage.output_tokens', limit: 1e12 } } : n)) };

interface Workload {
  name: string;
  steps: number;
  perStep: number;
}
const WORKLOADS: Workload[] = [
  { name: '40 steps x 1 tool call', steps: 40, perStep: 1 },
  { name: '8 steps x 5 parallel calls', steps: 8, perStep: 5 },
];

type Variant = 'bare' | 'hookwire' | 'hookwire+otel';
const VARIANTS: Variant[] = ['bare', 'hookwire', 'hookwire+otel'];

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('bench');

function traceFor(v: Variant): RuntimeTrace | null {
  if (v === 'bare') return null;
  const options: RuntimeOptions = v === 'hookwire+otel' ? { telemetry: { tracer } } : {};
  const r = createRuntime(pipeline, options);
  if (!r.ok) throw new Error('refused');
  return r.runtime.startTrace();
}

const read = async (i: { path: string }) => `contents of ${i.path}: nothing secret here`;
const usageV3 = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

async function aiSdkRun(w: Workload, v: Variant): Promise<number> {
  let step = 0;
  let calls = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      if (step++ >= w.steps) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage: usageV3, warnings: [] };
      return { content: Array.from({ length: w.perStep }, (_, k) => ({ type: 'tool-call' as const, toolCallId: `c${step}-${k}`, toolName: 'read_file', input: JSON.stringify({ path: `/workspace/f${k}` }) })), finishReason: { unified: 'tool-calls', raw: undefined }, usage: usageV3, warnings: [] };
    },
  });
  const tools: ToolSet = { read_file: aiTool({ inputSchema: z.object({ path: z.string() }), execute: async (i) => (calls++, read(i)) }) };
  const t = traceFor(v);
  const hw = t ? hookwireAiSdk(t) : null;
  await generateText({ model: hw ? wrapLanguageModel({ model, middleware: hw.middleware }) : model, tools: hw ? hw.tools(tools) : tools, stopWhen: stepCountIs(w.steps + 2), prompt: 'go' });
  return calls;
}

async function langchainRun(w: Workload, v: Variant): Promise<number> {
  let calls = 0;
  const model = fakeModel();
  for (let s = 0; s < w.steps; s++) model.respond(new AIMessage({ content: '', tool_calls: Array.from({ length: w.perStep }, (_, k) => ({ id: `c${s}-${k}`, name: 'read_file', args: { path: `/workspace/f${k}` }, type: 'tool_call' as const })), usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } }));
  model.respond(new AIMessage('done'));
  const tools = [lcTool(async (i: { path: string }) => (calls++, read(i)), { name: 'read_file', description: 'read', schema: z.object({ path: z.string() }) })];
  const t = traceFor(v);
  const agent = createAgent({ model, tools, middleware: t ? [hookwireMiddleware(t)] : [] });
  await agent.invoke({ messages: [{ role: 'user', content: 'go' }] }, { recursionLimit: 10 * w.steps + 10 });
  return calls;
}

async function openaiRun(w: Workload, v: Variant): Promise<number> {
  let calls = 0;
  const usage = () => new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 });
  const script = Array.from({ length: w.steps }, (_, s) => ({ usage: usage(), output: Array.from({ length: w.perStep }, (_, k) => functionCall('read_file', { path: `/workspace/f${k}` }, { callId: `c${s}-${k}` })) }));
  const model = new ScriptedModel([...script, { usage: usage(), output: [assistantMessage('done')] }]);
  const t = traceFor(v);
  const hw = t ? hookwireAgents(t) : null;
  const agent = new Agent({ name: 'bench', model: 'scripted', tools: [oaTool({ name: 'read_file', description: 'read', parameters: z.object({ path: z.string() }), execute: async (i) => (calls++, read(i)) })] });
  const provider = { getModel: () => model };
  const runner = new Runner({ modelProvider: hw ? hw.modelProvider(provider) : provider, tracingDisabled: true });
  await runner.run(hw ? hw.agent(agent) : agent, 'go', { maxTurns: w.steps + 2 });
  return calls;
}

const FRAMEWORKS: { name: string; run: (w: Workload, v: Variant) => Promise<number> }[] = [
  { name: 'AI SDK 6 generateText', run: aiSdkRun },
  { name: 'LangChain createAgent', run: langchainRun },
  { name: 'OpenAI Agents Runner', run: openaiRun },
];

/** CPU microseconds (user + system) of one run, and the tool calls it made. */
async function cpuOf(run: () => Promise<number>): Promise<{ us: number; calls: number }> {
  const c0 = process.cpuUsage();
  const calls = await run();
  const c = process.cpuUsage(c0);
  return { us: c.user + c.system, calls };
}

export async function runAdaptersBench(rounds = 7): Promise<void> {
  console.log(`CPU time per tool call (best of ${rounds} interleaved rounds, one process, same scripted model); recording off`);
  for (const f of FRAMEWORKS) {
    for (const w of WORKLOADS) {
      const expected = w.steps * w.perStep;
      for (const v of VARIANTS) await f.run(w, v); // warm-up
      const best = VARIANTS.map(() => Infinity);
      for (let r = 0; r < rounds; r++) {
        for (let i = 0; i < VARIANTS.length; i++) {
          const { us, calls } = await cpuOf(() => f.run(w, VARIANTS[i]!));
          if (calls !== expected) throw new Error(`${f.name} ${VARIANTS[i]}: ${calls} tool calls, expected ${expected}`);
          best[i] = Math.min(best[i]!, us / calls);
          exporter.reset();
        }
      }
      const bare = best[0]!;
      console.log(`\n${f.name}, ${w.name}`);
      table([
        ['contender', 'µs CPU / tool call', 'vs bare', 'added µs / call'],
        ...VARIANTS.map((v, i) => [v, best[i]!.toFixed(1), `${(best[i]! / bare).toFixed(2)}x`, i === 0 ? '-' : (best[i]! - bare).toFixed(1)]),
      ]);
      console.log(`OTel export on vs off: ${(best[2]! / best[1]!).toFixed(2)}x`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runAdaptersBench(Number(process.argv[2] ?? 7));
}
