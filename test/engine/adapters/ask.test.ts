import { describe, expect, it } from 'vitest';
import { generateText, stepCountIs, tool as aiTool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { AIMessage, createAgent, fakeModel, tool as lcTool } from 'langchain';
import { Agent, Runner, tool as oaTool, Usage } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { z } from 'zod';
import type { ApprovalRequest, PipelineInput } from '../../../engine/index.ts';
import { hookwireAiSdk } from '../../../engine/adapters/aiSdk/index.ts';
import { hookwireMiddleware } from '../../../engine/adapters/langchain/index.ts';
import { hookwireAgents } from '../../../engine/adapters/openaiAgents/index.ts';
import { liveDecisions, replayedDecisions, replayWithCli, startLive } from './adapterFixture.ts';

// [O2][P14] An ASK at a tool call asks the runtime's approver (sync or async; the adapters wait for it); an
// allowed call runs, a denied one is blocked with the question and the answer as the tool's result. The recorded
// answers replay without asking [R15].

const ASK_PIPELINE: PipelineInput = {
  format: 'hookwire.pipeline',
  version: 1,
  name: 'ask before mail',
  nodes: [
    { id: 'ev', kind: 'event', pattern: 'tool.before_call' },
    { id: 'm', kind: 'matcher', tools: ['send_email'] },
    { id: 'h-ask', kind: 'handler', name: 'ask before mail', action: { type: 'ask', reason: 'send mail to {{payload.tool_input.to}}?' } },
  ],
  wires: [{ from: 'ev', to: 'm' }, { from: 'm', to: 'h-ask' }],
};

function setup(traceId: string) {
  const asked: string[] = [];
  // An asynchronous approver, as a person behind a UI would be: mail inside the company only.
  const approver = async (r: ApprovalRequest) => {
    asked.push(r.reason);
    const to = String((r.payload.tool_input as { to?: unknown }).to);
    return to.endsWith('@example.com') ? 'allow' : { answer: 'deny' as const, reason: 'outside the company' };
  };
  const live = startLive({ approver }, traceId, ASK_PIPELINE);
  const sent: string[] = [];
  const send = async (i: { to: string }) => (sent.push(i.to), 'sent');
  return { live, asked, sent, send };
}

const expectAskOutcome = async (s: ReturnType<typeof setup>, modelSaw: string) => {
  expect(s.asked).toEqual(['send mail to ops@example.com?', 'send mail to eve@evil.test?']);
  expect(s.sent).toEqual(['ops@example.com']);
  expect(modelSaw).toContain('Not approved: send mail to eve@evil.test?');
  expect(modelSaw).toContain('outside the company');
  const live = liveDecisions(s.live).filter((d) => d.type === 'tool.before_call');
  expect(live.map((d) => d.decision)).toEqual(['ask', 'ask']);
  // The CLI replays the recorded answers (no approver there) and gives the same decisions.
  expect(replayedDecisions(await replayWithCli(s.live))).toEqual(liveDecisions(s.live));
};

describe('ASK through the adapters [O2]', () => {
  it('[O2] AI SDK: the approver decides each asked tool call', async () => {
    const s = setup('ask-ai');
    const hw = hookwireAiSdk(s.live.trace);
    const u = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    const calls = (id: string, to: string) => ({ type: 'tool-call' as const, toolCallId: id, toolName: 'send_email', input: JSON.stringify({ to }) });
    const model = new MockLanguageModelV3({
      doGenerate: [
        { content: [calls('a', 'ops@example.com'), calls('b', 'eve@evil.test')], finishReason: { unified: 'tool-calls', raw: undefined }, usage: u, warnings: [] },
        { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage: u, warnings: [] },
      ],
    });
    await generateText({ model: wrapLanguageModel({ model, middleware: hw.middleware }), tools: hw.tools({ send_email: aiTool({ inputSchema: z.object({ to: z.string() }), execute: s.send }) }), stopWhen: stepCountIs(4), prompt: 'mail' });
    await expectAskOutcome(s, JSON.stringify(model.doGenerateCalls[1]!.prompt));
  });

  it('[O2] LangChain: the approver decides each asked tool call', async () => {
    const s = setup('ask-lc');
    const model = fakeModel()
      .respond(new AIMessage({ content: '', tool_calls: [{ id: 'a', name: 'send_email', args: { to: 'ops@example.com' }, type: 'tool_call' }, { id: 'b', name: 'send_email', args: { to: 'eve@evil.test' }, type: 'tool_call' }] }))
      .respond(new AIMessage('done'));
    const agent = createAgent({ model, tools: [lcTool(s.send, { name: 'send_email', description: 'mail', schema: z.object({ to: z.string() }) })], middleware: [hookwireMiddleware(s.live.trace)] });
    await agent.invoke({ messages: [{ role: 'user', content: 'mail' }] });
    await expectAskOutcome(s, JSON.stringify(model.calls[1]!.messages.map((m) => m.content)));
  });

  it('[O2] OpenAI Agents: the approver decides each asked tool call', async () => {
    const s = setup('ask-oa');
    const usage = () => new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    const scripted = new ScriptedModel([
      { usage: usage(), output: [functionCall('send_email', { to: 'ops@example.com' }, { callId: 'a' }), functionCall('send_email', { to: 'eve@evil.test' }, { callId: 'b' })] },
      { usage: usage(), output: [assistantMessage('done')] },
    ]);
    const hw = hookwireAgents(s.live.trace);
    const runner = new Runner({ modelProvider: hw.modelProvider({ getModel: () => scripted }), tracingDisabled: true });
    const agent = new Agent({ name: 'mailer', model: 'scripted', tools: [oaTool({ name: 'send_email', description: 'mail', parameters: z.object({ to: z.string() }), execute: s.send })] });
    await runner.run(hw.agent(agent), 'mail');
    await expectAskOutcome(s, JSON.stringify(scripted.calls[1]!.request.input));
  });
});
