import { describe, expect, it } from 'vitest';
import { AIMessage, createAgent, fakeModel, tool as lcTool } from 'langchain';
import { z } from 'zod';
import type { ApprovalRequest, PipelineInput } from '../../../engine/index.ts';
import { hookwireMiddleware } from '../../../engine/adapters/langchain/index.ts';
import { liveDecisions, replayedDecisions, replayWithCli, startLive } from './adapterFixture.ts';

// [O2][P14] An ASK at a tool call asks the runtime's approver (sync or async; the adapters wait for it); an
// allowed call runs, a denied one is blocked with the question and the answer as the tool's result. The recorded
// answers replay without asking [R15]. (The OpenAI Agents and AI SDK adapters hand an ASK to the framework's own approval: nativeApproval.test.ts.)

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
  it('[O2] LangChain: the approver decides each asked tool call', async () => {
    const s = setup('ask-lc');
    const model = fakeModel()
      .respond(new AIMessage({ content: '', tool_calls: [{ id: 'a', name: 'send_email', args: { to: 'ops@example.com' }, type: 'tool_call' }, { id: 'b', name: 'send_email', args: { to: 'eve@evil.test' }, type: 'tool_call' }] }))
      .respond(new AIMessage('done'));
    const agent = createAgent({ model, tools: [lcTool(s.send, { name: 'send_email', description: 'mail', schema: z.object({ to: z.string() }) })], middleware: [hookwireMiddleware(s.live.trace)] });
    await agent.invoke({ messages: [{ role: 'user', content: 'mail' }] });
    await expectAskOutcome(s, JSON.stringify(model.calls[1]!.messages.map((m) => m.content)));
  });
});
