import { describe, expect, expectTypeOf, it } from 'vitest';
import { Agent, InputGuardrailTripwireTriggered, OutputGuardrailTripwireTriggered, Runner, tool, Usage, type MCPServer, type ModelProvider, type RunContext, type Tool } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { z } from 'zod';
import { hookwireAgents } from '../../../engine/adapters/openaiAgents/index.ts';
import type { PipelineInput } from '../../../engine/index.ts';
import { GATE_PIPELINE, PIPELINE, liveDecisions, replayedDecisions, replayWithCli, REWRITTEN_PATH, scenarioTools, SECRET, startLive } from './adapterFixture.ts';

// The OpenAI Agents SDK: the real Runner with a custom model provider serving the SDK's own ScriptedModel
// (@openai/agents/testing). Tracing to OpenAI is off: nothing leaves the process.

const usage = (output: number) => new Usage({ requests: 1, inputTokens: 10, outputTokens: output, totalTokens: 10 + output });
const providerOf = (model: ScriptedModel): ModelProvider => ({ getModel: () => model });

function toolsOf(t: ReturnType<typeof scenarioTools>) {
  const path = z.object({ path: z.string() });
  return [
    tool({ name: 'delete_file', description: 'delete a file', parameters: path, execute: async (i) => t.delete_file(i) }),
    tool({ name: 'read_file', description: 'read a file', parameters: path, execute: async (i) => t.read_file(i) }),
    tool({ name: 'send_email', description: 'send mail', parameters: z.object({ to: z.string() }), execute: async (i) => t.send_email(i) }),
  ];
}

const outputsOf = (input: unknown) => JSON.stringify((input as { type?: string }[]).filter((i) => i.type === 'function_call_result'));

describe('OpenAI Agents adapter (@openai/agents 0.20, ScriptedModel behind a custom provider)', () => {
  it('[O2] blocks the destructive tool, rewrites and redacts, stops on the token budget (output tripwire); the CLI replay agrees', async () => {
    const live = startLive();
    const hw = hookwireAgents(live.trace);
    const t = scenarioTools();
    const scripted = new ScriptedModel([
      { usage: usage(30), output: [functionCall('delete_file', { path: '/' }, { callId: 'c1' })] },
      { usage: usage(30), output: [functionCall('read_file', { path: '/etc/passwd' }, { callId: 'c2' })] },
      { usage: usage(500), output: [functionCall('send_email', { to: 'ops@example.com' }, { callId: 'c3' })] },
      { usage: usage(1), output: [assistantMessage('never asked for')] },
    ]);
    const runner = new Runner({ modelProvider: hw.modelProvider(providerOf(scripted)), tracingDisabled: true });
    const agent = hw.agent(new Agent({ name: 'janitor', instructions: 'tidy up', model: 'scripted', tools: toolsOf(t) }));
    const err = await runner.run(agent, 'tidy up the disk').catch((e: unknown) => e);

    expect(t.calls).toEqual([{ tool: 'read_file', input: { path: REWRITTEN_PATH } }]);
    expect(scripted.calls).toHaveLength(3);
    expect(outputsOf(scripted.calls[1]!.request.input)).toContain('Blocked by Hookwire: destructive tool delete_file');
    expect(outputsOf(scripted.calls[2]!.request.input)).toContain('OPENAI_API_KEY=[REDACTED]');
    expect(JSON.stringify(scripted.calls.map((c) => c.request.input))).not.toContain(SECRET);
    // The budget TERMINATE replaced the third answer (send_email never ran); the final answer then trips the
    // output guardrail, the SDK's way to end a run that must not return.
    expect(err).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect((err as OutputGuardrailTripwireTriggered<{ type: 'output'; name: string }>).result.output.outputInfo).toMatchObject({ decision: 'terminate', decided_by: 'h-budget' });

    const live_ = liveDecisions(live);
    expect(live_.map((d) => `${d.type}:${d.decision}`)).toEqual([
      'input.received:continue',
      'model.before_call:continue', 'model.after_call:continue', 'tool.before_call:block_action',
      'model.before_call:continue', 'model.after_call:continue', 'tool.before_call:continue', 'tool.after_call:continue',
      'model.before_call:continue', 'model.after_call:terminate', 'final_answer.before:terminate',
    ]);
    expect(replayedDecisions(await replayWithCli(live))).toEqual(live_);
  });


  it('[O2] a call id the model repeats in a later run on the same trace (the SDK refuses a repeat within one run) is a new call: a blocked tool never runs under an allowed call\'s id', async () => {
    const live = startLive();
    const hw = hookwireAgents(live.trace);
    const t = scenarioTools();
    const scripted = new ScriptedModel([
      { usage: usage(1), output: [functionCall('read_file', { path: '/w/a' }, { callId: 'x' })] },
      { usage: usage(1), output: [assistantMessage('read')] },
      { usage: usage(1), output: [functionCall('delete_file', { path: '/' }, { callId: 'x' })] },
      { usage: usage(1), output: [assistantMessage('done')] },
    ]);
    const runner = new Runner({ modelProvider: hw.modelProvider(providerOf(scripted)), tracingDisabled: true });
    const agent = hw.agent(new Agent({ name: 'janitor', model: 'scripted', tools: toolsOf(t) }));
    await runner.run(agent, 'read it');
    await runner.run(agent, 'now tidy up'); // one trace per conversation, one run per user turn
    expect(t.calls).toEqual([{ tool: 'read_file', input: { path: '/w/a' } }]);
    expect(outputsOf(scripted.calls[3]!.request.input)).toContain('Blocked by Hookwire: destructive tool delete_file');
    const before = live.results.filter((r) => r.type === 'tool.before_call');
    expect(before.map((r) => [r.event_id, r.decision, r.duplicate])).toEqual([['x:before', 'continue', false], ['x#2:before', 'block_action', false]]);
    expect(replayedDecisions(await replayWithCli(live))).toEqual(liveDecisions(live));
  });
  it('[O2] a blocked input trips the input guardrail before the model is called', async () => {
    const pipeline: PipelineInput = {
      ...GATE_PIPELINE,
      nodes: [...GATE_PIPELINE.nodes, { id: 'ev-input', kind: 'event', pattern: 'input.received' }, { id: 'm-wipe', kind: 'matcher', when: { 'payload.prompt': { contains: 'wipe' } } }, { id: 'h-no-wipe', kind: 'handler', name: 'no wiping', order: 5, action: { type: 'block', reason: 'asked to wipe' } }],
      wires: [...GATE_PIPELINE.wires, { from: 'ev-input', to: 'm-wipe' }, { from: 'm-wipe', to: 'h-no-wipe' }],
    };
    const live = startLive({}, 'input-trace', pipeline);
    const hw = hookwireAgents(live.trace);
    const scripted = new ScriptedModel([{ usage: usage(1), output: [assistantMessage('ok')] }]);
    const runner = new Runner({ modelProvider: hw.modelProvider(providerOf(scripted)), tracingDisabled: true });
    const err = await runner.run(hw.agent(new Agent({ name: 'a', model: 'scripted' })), 'please wipe the disk').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputGuardrailTripwireTriggered);
    expect(scripted.calls).toHaveLength(0);
    expect(replayedDecisions(await replayWithCli(live))).toEqual(liveDecisions(live));
  });

  it('[O2] handoffs are their own event type; a rewritten prompt reaches the model; a TERMINATE at a tool ends the run', async () => {
    const pipeline: PipelineInput = {
      ...GATE_PIPELINE,
      nodes: [...GATE_PIPELINE.nodes, { id: 'ev-handoff', kind: 'event', pattern: 'agent.handoff' }, { id: 'h-audit', kind: 'handler', name: 'log handoffs', order: 1, action: { type: 'audit', fields: ['payload.to_agent'] } }],
      wires: [...GATE_PIPELINE.wires, { from: 'ev-handoff', to: 'h-audit' }],
    };
    const live = startLive({}, 'handoff-trace', pipeline);
    const hw = hookwireAgents(live.trace);
    const t = scenarioTools();
    const scripted = new ScriptedModel([
      { usage: usage(5), output: [functionCall('transfer_to_mailer', {}, { callId: 'h1' })] },
      { usage: usage(5), output: [functionCall('send_email', { to: 'ops@example.com' }, { callId: 'm1' })] },
      { usage: usage(1), output: [assistantMessage('never asked for')] },
    ]);
    const mailer = new Agent({ name: 'mailer', model: 'scripted', tools: toolsOf(t) });
    const triage = new Agent({ name: 'triage', model: 'scripted', handoffs: [mailer] });
    const runner = new Runner({ modelProvider: hw.modelProvider(providerOf(scripted)), tracingDisabled: true });
    const err = await runner.run(hw.agent(triage), `mail the report, key ${SECRET}`).catch((e: unknown) => e);

    // The prompt redaction (model.before_call rewrite) is what the model got.
    expect(JSON.stringify(scripted.calls[0]!.request.input)).toContain('key [KEY]');
    expect(JSON.stringify(scripted.calls.map((c) => c.request.input))).not.toContain(SECRET);
    const types = live.results.map((r) => `${r.type}:${r.decision}`);
    expect(types).toContain('agent.handoff:continue');
    expect(live.results.find((r) => r.type === 'agent.handoff')!.payload).toMatchObject({ from_agent: 'triage', to_agent: 'mailer' });
    // send_email was stopped by TERMINATE; the model is not asked again and the final answer trips.
    expect(t.calls).toEqual([]);
    expect(scripted.calls).toHaveLength(2);
    expect(err).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(replayedDecisions(await replayWithCli(live))).toEqual(liveDecisions(live));
  });

  // An agent's MCP servers give it tools at run time (`Agent.getAllTools` → `getMcpTools`), never in `agent.tools`:
  // those calls are guarded like any function tool. The server here is the SDK's own MCPServer interface, served
  // in-process (no MCP client package, nothing spawned).
  it('[O2] tools from an agent\'s MCP servers are guarded: a blocked one never reaches the server, a rewritten input does', async () => {
    const served: { tool: string; args: unknown }[] = [];
    const files: MCPServer = {
      name: 'files',
      cacheToolsList: false,
      async connect() {},
      async close() {},
      async invalidateToolsCache() {},
      async listTools() {
        const path = { type: 'object' as const, properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false };
        return [{ name: 'delete_file', description: 'delete a file', inputSchema: path }, { name: 'read_file', description: 'read a file', inputSchema: path }];
      },
      async callTool(toolName, args) {
        served.push({ tool: toolName, args });
        return [{ type: 'text', text: toolName === 'read_file' ? `contents of ${String((args as { path?: unknown }).path)}` : 'deleted' }];
      },
    };
    const live = startLive({}, 'mcp-trace', PIPELINE);
    const hw = hookwireAgents(live.trace);
    const scripted = new ScriptedModel([
      { usage: usage(1), output: [functionCall('delete_file', { path: '/' }, { callId: 'm1' })] },
      { usage: usage(1), output: [functionCall('read_file', { path: '/etc/passwd' }, { callId: 'm2' })] },
      { usage: usage(1), output: [assistantMessage('done')] },
    ]);
    const runner = new Runner({ modelProvider: hw.modelProvider(providerOf(scripted)), tracingDisabled: true });
    const result = await runner.run(hw.agent(new Agent({ name: 'mcp-user', model: 'scripted', mcpServers: [files] })), 'tidy up');

    expect(result.finalOutput).toBe('done');
    expect(served).toEqual([{ tool: 'read_file', args: { path: REWRITTEN_PATH } }]);
    expect(outputsOf(scripted.calls[1]!.request.input)).toContain('Blocked by Hookwire: destructive tool delete_file');
    expect(liveDecisions(live).filter((d) => d.type.startsWith('tool.')).map((d) => `${d.type}:${d.decision}`)).toEqual(['tool.before_call:block_action', 'tool.before_call:continue', 'tool.after_call:continue']);
  });

  // The public types carry the agent's own run context and output type through (no `any`): a guarded agent with
  // a typed context and a structured output is still that agent, and its tool sees the context the run was given.
  it('[O2] a guarded agent keeps its run context and output types; its tools get the run\'s context', async () => {
    interface Ctx { user: string }
    const seen: string[] = [];
    const whoami = tool({
      name: 'whoami', description: 'who runs this', parameters: z.object({}),
      execute: async (_input, ctx?: RunContext<Ctx>) => (seen.push(ctx?.context.user ?? 'none'), 'ok'),
    });
    const answer = z.object({ done: z.boolean() });
    const typed = new Agent<Ctx, typeof answer>({ name: 'typed', model: 'scripted', outputType: answer, tools: [whoami] });
    const live = startLive({}, 'typed-trace', PIPELINE);
    const hw = hookwireAgents(live.trace);
    const guarded = hw.agent(typed);
    expectTypeOf(guarded).toEqualTypeOf<Agent<Ctx, typeof answer>>();
    expectTypeOf(hw.tools<Ctx>([whoami])).toEqualTypeOf<Tool<Ctx>[]>();
    expect(hw.agent(typed)).toBe(guarded);
    const scripted = new ScriptedModel([
      { usage: usage(1), output: [functionCall('whoami', {}, { callId: 'w1' })] },
      { usage: usage(1), output: [assistantMessage(JSON.stringify({ done: true }))] },
    ]);
    const runner = new Runner({ modelProvider: hw.modelProvider(providerOf(scripted)), tracingDisabled: true });
    const result = await runner.run(guarded, 'who am I', { context: { user: 'ada' } });
    expect(result.finalOutput).toEqual({ done: true });
    expect(seen).toEqual(['ada']);
    expect(liveDecisions(live).map((d) => `${d.type}:${d.decision}`)).toContain('final_answer.before:continue');
  });
});
