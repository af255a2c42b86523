import { describe, expect, it } from 'vitest';
import { AIMessage, createAgent, fakeModel, tool, type BaseMessage } from 'langchain';
import { z } from 'zod';
import { hookwireMiddleware } from '../../../engine/adapters/langchain/index.ts';
import { GATE_PIPELINE, liveDecisions, replayedDecisions, replayWithCli, REWRITTEN_PATH, scenarioTools, SECRET, startLive } from './adapterFixture.ts';

// LangChain.js v1: the real createAgent loop (LangGraph underneath) with @langchain/core's fakeModel.

const usage = (output: number) => ({ input_tokens: 10, output_tokens: output, total_tokens: 10 + output });
const calls = (id: string, name: string, args: Record<string, unknown>, output: number) =>
  new AIMessage({ content: '', tool_calls: [{ id, name, args, type: 'tool_call' }], usage_metadata: usage(output) });

function toolsOf(t: ReturnType<typeof scenarioTools>) {
  const path = z.object({ path: z.string() });
  return [
    tool(async (i) => t.delete_file(i), { name: 'delete_file', description: 'delete a file', schema: path }),
    tool(async (i) => t.read_file(i), { name: 'read_file', description: 'read a file', schema: path }),
    tool(async (i) => t.send_email(i), { name: 'send_email', description: 'send mail', schema: z.object({ to: z.string() }) }),
  ];
}

const toolMessages = (messages: BaseMessage[]) => messages.filter((m) => m.type === 'tool').map((m) => String(m.content));

describe('LangChain adapter (langchain 1.5 createAgent middleware, fakeModel)', () => {
  it('[O2] blocks the destructive tool, rewrites and redacts, jumps to the end on the token budget; the CLI replay agrees', async () => {
    const live = startLive();
    const t = scenarioTools();
    const model = fakeModel()
      .respond(calls('c1', 'delete_file', { path: '/' }, 30))
      .respond(calls('c2', 'read_file', { path: '/etc/passwd' }, 30))
      .respond(calls('c3', 'send_email', { to: 'ops@example.com' }, 500))
      .respond(new AIMessage('never asked for'));
    const agent = createAgent({ model, tools: toolsOf(t), middleware: [hookwireMiddleware(live.trace)] });
    const out = await agent.invoke({ messages: [{ role: 'user', content: 'tidy up the disk' }] });

    expect(t.calls).toEqual([{ tool: 'read_file', input: { path: REWRITTEN_PATH } }]);
    expect(model.callCount).toBe(3);
    const tools = toolMessages(out.messages);
    expect(tools[0]).toMatch(/^Blocked by Hookwire: destructive tool delete_file/);
    expect(tools[1]).toBe(`contents of ${REWRITTEN_PATH}: OPENAI_API_KEY=[REDACTED]`);
    expect(JSON.stringify(model.calls.map((c) => c.messages.map((m) => m.content)))).not.toContain(SECRET);
    // The budget ended the run: the last answer is Hookwire's, with no tool call.
    const last = out.messages.at(-1) as AIMessage;
    expect(String(last.content)).toMatch(/^Run terminated by Hookwire: token budget of 100 spent/);
    expect(last.tool_calls ?? []).toEqual([]);

    const live_ = liveDecisions(live);
    expect(live_.map((d) => `${d.type}:${d.decision}`)).toEqual([
      'model.before_call:continue', 'model.after_call:continue', 'tool.before_call:block_action',
      'model.before_call:continue', 'model.after_call:continue', 'tool.before_call:continue', 'tool.after_call:continue',
      'model.before_call:continue', 'model.after_call:terminate',
    ]);
    expect(replayedDecisions(await replayWithCli(live))).toEqual(live_);
  });

  it('[O2] a TERMINATE at a tool call jumps to the end (beforeModel): the model is not called again', async () => {
    const live = startLive({}, 'gate-trace', GATE_PIPELINE);
    const t = scenarioTools();
    const model = fakeModel().respond(calls('m1', 'send_email', { to: 'ops@example.com' }, 5)).respond(new AIMessage('never asked for'));
    const agent = createAgent({ model, tools: toolsOf(t), middleware: [hookwireMiddleware(live.trace)] });
    const out = await agent.invoke({ messages: [{ role: 'user', content: 'mail the report' }] });
    expect(t.calls).toEqual([]);
    expect(model.callCount).toBe(1);
    expect(String(out.messages.at(-1)!.content)).toMatch(/^Run terminated by Hookwire: mail is not allowed/);
    expect(live.trace.terminated?.decided_by).toBe('h-no-mail');
    // The jump, not the model wrapper, ended it: the tool's answer is the last message and no model call was emitted.
    expect(out.messages.at(-1)!.type).toBe('tool');
    expect(live.audit.filter((a) => a.event_type === 'model.before_call')).toHaveLength(1);
    expect(replayedDecisions(await replayWithCli(live))).toEqual(liveDecisions(live));
  });

  it('[O2] a tool call id the model repeats (in a later step, or twice in one step) is a new call: a blocked tool never runs under an allowed call\'s id', async () => {
    const step = (...c: [string, Record<string, unknown>][]) => new AIMessage({ content: '', tool_calls: c.map(([name, args]) => ({ id: 'x', name, args, type: 'tool_call' as const })), usage_metadata: usage(1) });
    for (const steps of [[step(['read_file', { path: '/w/a' }]), step(['delete_file', { path: '/' }])], [step(['read_file', { path: '/w/a' }], ['delete_file', { path: '/' }])]]) {
      const live = startLive();
      const t = scenarioTools();
      const model = steps.reduce((m, s) => m.respond(s), fakeModel()).respond(new AIMessage('done'));
      const agent = createAgent({ model, tools: toolsOf(t), middleware: [hookwireMiddleware(live.trace)] });
      const out = await agent.invoke({ messages: [{ role: 'user', content: 'tidy up' }] });
      expect(t.calls).toEqual([{ tool: 'read_file', input: { path: '/w/a' } }]);
      expect(toolMessages(out.messages).filter((m) => m.startsWith('Blocked by Hookwire: destructive tool delete_file'))).toHaveLength(1);
      // Each call has its own events, so the recording replays to the same decisions.
      const before = live.results.filter((r) => r.type === 'tool.before_call');
      expect(before.map((r) => [r.event_id, r.decision, r.duplicate]).sort()).toEqual([['x#2:before', expect.any(String), false], ['x:before', expect.any(String), false]]);
      expect(replayedDecisions(await replayWithCli(live))).toEqual(liveDecisions(live));
    }
  }, 90_000); // two agent runs and two CLI replays (real processes): ~4 s idle, past the 20 s default at load 25

  it('[O2] streamMode "messages": the reader gets the answer as model.after_call left it (a key redacted), never the model\'s own first', async () => {
    const live = startLive();
    const model = fakeModel().respond(calls('c1', 'read_file', { path: '/w/a' }, 1)).respond(new AIMessage({ content: `the key is ${SECRET}`, usage_metadata: usage(1) }));
    const agent = createAgent({ model, tools: toolsOf(scenarioTools()), middleware: [hookwireMiddleware(live.trace)] });
    const streamed: unknown[] = [];
    for await (const [message] of await agent.stream({ messages: [{ role: 'user', content: 'read it' }] }, { streamMode: 'messages' })) streamed.push(message.content);
    expect(JSON.stringify(streamed)).not.toContain(SECRET);
    expect(streamed).toContain('the key is [REDACTED]');
    expect(streamed.filter((c) => typeof c === 'string' && c.startsWith('contents of /w/a'))).toHaveLength(1); // the tool's (redacted) answer is streamed too
  });

  it('[O2] a rewritten prompt is what the model gets (a pasted key is redacted before the call)', async () => {
    const live = startLive({}, 'prompt-trace', GATE_PIPELINE);
    const model = fakeModel().respond(new AIMessage({ content: 'ok', usage_metadata: usage(1) }));
    const agent = createAgent({ model, tools: [], middleware: [hookwireMiddleware(live.trace)] });
    const out = await agent.invoke({ messages: [{ role: 'user', content: `my key is ${SECRET}, keep it` }] });
    expect(String(model.calls[0]!.messages.at(-1)!.content)).toBe('my key is [KEY], keep it');
    // The agent's own state is not changed by the rewrite: only the call is.
    expect(String(out.messages[0]!.content)).toContain(SECRET);
  });
});
