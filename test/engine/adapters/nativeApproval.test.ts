import { describe, expect, it } from 'vitest';
import { generateText, stepCountIs, tool as aiTool, wrapLanguageModel, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Command, MemorySaver } from '@langchain/langgraph';
import { AIMessage, createAgent, fakeModel, tool as lcTool } from 'langchain';
import { Agent, Runner, RunState, tool as oaTool, Usage } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { z } from 'zod';
import type { PipelineInput } from '../../../engine/index.ts';
import { hookwireAgents } from '../../../engine/adapters/openaiAgents/index.ts';
import { hookwireAiSdk } from '../../../engine/adapters/aiSdk/index.ts';
import { hookwireMiddleware } from '../../../engine/adapters/langchain/index.ts';
import { replayWithCli, startLive, type Live } from './adapterFixture.ts';

// [O4] An ASK goes through each framework's own approval: the run pauses, the test plays the person and answers
// in the framework, the run resumes. An approved call runs with the rewritten input; a rejected one never runs
// and the model reads the refusal. The answer is recorded as an approver's answer [P14], and the CLI's replay of
// the recording gives the live decisions [R15].

const PIPELINE: PipelineInput = {
  format: 'hookwire.pipeline',
  version: 1,
  name: 'ask before mail',
  nodes: [
    { id: 'ev', kind: 'event', pattern: 'tool.before_call' },
    { id: 'm', kind: 'matcher', tools: ['send_email'] },
    { id: 'h-cc', kind: 'handler', name: 'copy the audit box', order: 10, action: { type: 'rewrite', ops: [{ op: 'set', path: 'payload.tool_input.cc', value: 'audit@example.com' }] } },
    { id: 'h-ask', kind: 'handler', name: 'ask before mail', order: 20, action: { type: 'ask', reason: 'send mail to {{payload.tool_input.to}}?' } },
  ],
  wires: [{ from: 'ev', to: 'm' }, { from: 'm', to: 'h-cc' }, { from: 'm', to: 'h-ask' }],
};

function mailer() {
  const sent: unknown[] = [];
  return { sent, send: async (i: unknown) => (sent.push(i), 'sent') };
}

function recordedLine(live: Live, eventId: string) {
  return live.lines.map((l) => JSON.parse(l) as { event_id?: string; recorded?: Record<string, unknown> }).find((l) => l.event_id === eventId);
}

/** The CLI replays the recording (no approver there: the recorded answers) to the decisions the adapter got. */
async function expectReplayMatches(live: Live) {
  const replayed = await replayWithCli(live);
  const live_ = new Map(live.results.map((r) => [r.event_id, { decision: r.decision, reason: r.reason, decided_by: r.decided_by }]));
  expect(replayed.length).toBe(live_.size);
  for (const r of replayed) expect({ decision: r.decision, reason: r.reason, decided_by: r.decided_by }).toEqual(live_.get(r.event_id));
}

/** A resumed run that waits on a lost answer would hang: the test fails after 5 s instead. */
function within<T>(run: Promise<T>, what: string): Promise<T> {
  return Promise.race([run, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what)), 5000))]);
}

/**
 * The waiting ASK got the person's approval: the tool ran once with the rewritten input, its event was
 * dispatched once and recorded as approved, and the CLI's replay of the recording agrees.
 */
async function expectApprovedOnce(live: Live, sent: unknown[]) {
  expect(sent).toEqual([{ to: 'ops@example.com', cc: 'audit@example.com' }]);
  expect(live.results.filter((r) => r.type === 'tool.before_call')).toHaveLength(1);
  expect(recordedLine(live, 'call-1:before')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to ops@example.com?', decided_by: 'h-ask', approval: { answer: 'allow', by: 'approver', at: expect.any(String) } });
  await expectReplayMatches(live);
}

describe('ASK through the frameworks\' own approval [O4]', () => {
  const usage = () => new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });
  const oaRun = (traceId: string, resuming = false, on?: Live) => {
    const live = on ?? startLive({}, traceId, PIPELINE); // no approver: the SDK's interruption asks
    const m = mailer();
    const scripted = new ScriptedModel([
      ...(resuming ? [] : [{ usage: usage(), output: [functionCall('send_email', { to: 'ops@example.com' }, { callId: 'call-1' })] }]),
      { usage: usage(), output: [assistantMessage('done')] },
    ]);
    const hw = hookwireAgents(live.trace);
    const runner = new Runner({ modelProvider: hw.modelProvider({ getModel: () => scripted }), tracingDisabled: true });
    const agent = hw.agent(new Agent({ name: 'mailer', model: 'scripted', tools: [oaTool({ name: 'send_email', description: 'mail', parameters: z.object({ to: z.string(), cc: z.string().optional() }), execute: m.send })] }));
    return { live, m, scripted, runner, agent };
  };

  it('[O4] OpenAI Agents: an ASK is a needsApproval interruption; approved, the tool runs with the rewritten input', async () => {
    const s = oaRun('native-oa-allow');
    const first = await s.runner.run(s.agent, 'mail ops');
    expect(first.interruptions).toHaveLength(1);
    expect(first.interruptions[0]!.name).toBe('send_email');
    expect(s.m.sent).toEqual([]);
    first.state.approve(first.interruptions[0]!);
    const second = await s.runner.run(s.agent, first.state);
    expect(second.finalOutput).toBe('done');
    expect(s.m.sent).toEqual([{ to: 'ops@example.com', cc: 'audit@example.com' }]);
    expect(recordedLine(s.live, 'call-1:before')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to ops@example.com?', decided_by: 'h-ask', approval: { answer: 'allow', by: 'approver', at: expect.any(String) } });
    expect(s.live.results.filter((r) => r.type === 'tool.before_call')).toHaveLength(1); // dispatched once, though the SDK asked twice
    await expectReplayMatches(s.live);
  });

  it('[O4] OpenAI Agents: rejected with state.reject, the tool never runs and the model reads the refusal', async () => {
    const s = oaRun('native-oa-deny');
    const first = await s.runner.run(s.agent, 'mail ops');
    expect(first.interruptions).toHaveLength(1);
    first.state.reject(first.interruptions[0]!, { message: 'not today' });
    const second = await s.runner.run(s.agent, first.state);
    expect(second.finalOutput).toBe('done');
    expect(s.m.sent).toEqual([]);
    expect(JSON.stringify(s.scripted.calls[1]!.request.input)).toContain('not today');
    expect(recordedLine(s.live, 'call-1:before')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to ops@example.com?', decided_by: 'h-ask', approval: { answer: 'deny', by: 'approver', reason: 'not today', at: expect.any(String) } });
    const before = s.live.results.find((r) => r.event_id === 'call-1:before')!;
    expect(before.blocked).toBe(true);
    await expectReplayMatches(s.live);
  });

  /**
   * The pause in one place, the resume in another: the run state is serialized at the interruption, and a new
   * adapter, trace, runner and agent (nothing shared with the first, as in another process) read it back, the
   * person answers there, and the run goes on.
   */
  const oaResumeElsewhere = async (answer: (state: RunState<unknown, Agent<any, any>>) => void) => {
    const a = oaRun('native-oa-paused');
    const first = await a.runner.run(a.agent, 'mail ops');
    expect(first.interruptions).toHaveLength(1);
    const saved = first.state.toString();
    const b = oaRun('native-oa-resumed', true);
    const state = await RunState.fromString(b.agent, saved);
    answer(state);
    const second = await b.runner.run(b.agent, state);
    expect(second.finalOutput).toBe('done');
    expect(a.m.sent).toEqual([]);
    return b;
  };

  it('[O4] OpenAI Agents: a run state approved after a resume elsewhere runs the tool with the rewritten input, recorded there as approved', async () => {
    const b = await oaResumeElsewhere((state) => state.approve(state.getInterruptions()[0]!));
    expect(b.m.sent).toEqual([{ to: 'ops@example.com', cc: 'audit@example.com' }]);
    expect(recordedLine(b.live, 'call-1:before')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to ops@example.com?', decided_by: 'h-ask', approval: { answer: 'allow', by: 'approver', at: expect.any(String) } });
    await expectReplayMatches(b.live);
  });

  it('[O4] OpenAI Agents: resumed through a new adapter on the same trace (an adapter per request), the waiting ASK gets the approval: dispatched once, the tool runs', async () => {
    const a = oaRun('native-oa-same');
    const first = await a.runner.run(a.agent, 'mail ops');
    expect(first.interruptions).toHaveLength(1);
    const b = oaRun('native-oa-same', true, a.live);
    const state = await RunState.fromString(b.agent, first.state.toString());
    state.approve(state.getInterruptions()[0]!);
    const second = await within(b.runner.run(b.agent, state), 'the resumed run hangs');
    expect(second.finalOutput).toBe('done');
    await expectApprovedOnce(a.live, b.m.sent);
  });

  it('[O4] OpenAI Agents: a run state rejected after a resume elsewhere never runs the tool: the SDK refuses it and the model reads the refusal', async () => {
    const b = await oaResumeElsewhere((state) => state.reject(state.getInterruptions()[0]!, { message: 'not from here' }));
    expect(b.m.sent).toEqual([]);
    expect(JSON.stringify(b.scripted.calls[0]!.request.input)).toContain('not from here');
    await expectReplayMatches(b.live);
  });

  const aiRun = (traceId: string, resuming = false, on?: Live) => {
    const live = on ?? startLive({}, traceId, PIPELINE);
    const m = mailer();
    const hw = hookwireAiSdk(live.trace);
    const u = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    const done = { content: [{ type: 'text' as const, text: 'done' }], finishReason: { unified: 'stop' as const, raw: undefined }, usage: u, warnings: [] };
    const model = new MockLanguageModelV3({
      doGenerate: resuming ? [done] : [
        { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'send_email', input: JSON.stringify({ to: 'ops@example.com' }) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage: u, warnings: [] },
        done,
      ],
    });
    const settings = {
      model: wrapLanguageModel({ model, middleware: hw.middleware }),
      tools: hw.tools({ send_email: aiTool({ inputSchema: z.object({ to: z.string(), cc: z.string().optional() }), execute: m.send }) }),
      stopWhen: [stepCountIs(4), hw.stopWhen],
    };
    /** Plays the app: the first call stops at the approval request; the person's answer goes back as a tool message. */
    const answer = async (approved: boolean, reason?: string) => {
      const messages: ModelMessage[] = [{ role: 'user', content: 'mail ops' }];
      const first = await generateText({ ...settings, messages });
      const requests = first.content.filter((p) => p.type === 'tool-approval-request');
      expect(requests).toHaveLength(1);
      expect(m.sent).toEqual([]);
      const response = { type: 'tool-approval-response' as const, approvalId: requests[0]!.approvalId, approved, ...(reason ? { reason } : {}) };
      return generateText({ ...settings, messages: [...messages, ...first.response.messages, { role: 'tool', content: [response] }] });
    };
    return { live, m, model, settings, answer };
  };

  /** The approval request from one adapter and trace; the person's response sent with a new one (as from another process). */
  const aiAnswerElsewhere = async (approved: boolean, reason?: string) => {
    const a = aiRun('native-ai-paused');
    const messages: ModelMessage[] = [{ role: 'user', content: 'mail ops' }];
    const first = await generateText({ ...a.settings, messages });
    const request = first.content.find((p) => p.type === 'tool-approval-request')!;
    const b = aiRun('native-ai-resumed', true);
    const response = { type: 'tool-approval-response' as const, approvalId: request.approvalId, approved, ...(reason ? { reason } : {}) };
    const second = await generateText({ ...b.settings, messages: [...messages, ...first.response.messages, { role: 'tool', content: [response] }] });
    expect(second.text).toBe('done');
    expect(a.m.sent).toEqual([]);
    return b;
  };

  it('[O4] AI SDK: approved in a response sent to a new adapter and trace, execute runs with the rewritten input, recorded there as approved', async () => {
    const b = await aiAnswerElsewhere(true);
    expect(b.m.sent).toEqual([{ to: 'ops@example.com', cc: 'audit@example.com' }]);
    expect(recordedLine(b.live, 'call-1:before')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to ops@example.com?', decided_by: 'h-ask', approval: { answer: 'allow', by: 'approver', at: expect.any(String) } });
    await expectReplayMatches(b.live);
  });

  it('[O4] AI SDK: the response sent through a new adapter on the same trace answers the waiting ASK: dispatched once, execute runs', async () => {
    const a = aiRun('native-ai-same');
    const messages: ModelMessage[] = [{ role: 'user', content: 'mail ops' }];
    const first = await generateText({ ...a.settings, messages });
    const request = first.content.find((p) => p.type === 'tool-approval-request')!;
    const b = aiRun('native-ai-same', true, a.live);
    const response = { type: 'tool-approval-response' as const, approvalId: request.approvalId, approved: true };
    const second = await within(generateText({ ...b.settings, messages: [...messages, ...first.response.messages, { role: 'tool', content: [response] }] }), 'the resumed call hangs');
    expect(second.text).toBe('done');
    await expectApprovedOnce(a.live, b.m.sent);
  });

  it('[O4] AI SDK: denied in a response sent to a new adapter and trace, execute never runs and the model reads the denial', async () => {
    const b = await aiAnswerElsewhere(false, 'not from here');
    expect(b.m.sent).toEqual([]);
    expect(JSON.stringify(b.model.doGenerateCalls[0]!.prompt)).toContain('not from here');
    await expectReplayMatches(b.live);
  });

  it('[O4] AI SDK: an ASK is a tool-approval-request; approved, execute runs with the rewritten input', async () => {
    const s = aiRun('native-ai-allow');
    const second = await s.answer(true);
    expect(second.text).toBe('done');
    expect(s.m.sent).toEqual([{ to: 'ops@example.com', cc: 'audit@example.com' }]);
    expect(recordedLine(s.live, 'call-1:before')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to ops@example.com?', decided_by: 'h-ask', approval: { answer: 'allow', by: 'approver', at: expect.any(String) } });
    expect(s.live.results.filter((r) => r.type === 'tool.before_call')).toHaveLength(1);
    await expectReplayMatches(s.live);
  });

  it('[O4] AI SDK: denied in a tool-approval-response, execute never runs and the model reads the denial', async () => {
    const s = aiRun('native-ai-deny');
    const second = await s.answer(false, 'not today');
    expect(second.text).toBe('done');
    expect(s.m.sent).toEqual([]);
    expect(JSON.stringify(s.model.doGenerateCalls[1]!.prompt)).toContain('not today');
    expect(recordedLine(s.live, 'call-1:before')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to ops@example.com?', decided_by: 'h-ask', approval: { answer: 'deny', by: 'approver', reason: 'not today', at: expect.any(String) } });
    expect(s.live.results.find((r) => r.event_id === 'call-1:before')!.blocked).toBe(true);
    await expectReplayMatches(s.live);
  });

  const lcRun = (traceId: string, checkpointer = new MemorySaver(), thread = traceId, resuming = false, on?: Live) => {
    const live = on ?? startLive({}, traceId, PIPELINE);
    const m = mailer();
    const call = new AIMessage({ content: '', tool_calls: [{ id: 'call-1', name: 'send_email', args: { to: 'ops@example.com' }, type: 'tool_call' }] });
    const model = resuming ? fakeModel().respond(new AIMessage('done')) : fakeModel().respond(call).respond(new AIMessage('done'));
    const agent = createAgent({ model, tools: [lcTool(m.send, { name: 'send_email', description: 'mail', schema: z.object({ to: z.string(), cc: z.string().optional() }) })], middleware: [hookwireMiddleware(live.trace)], checkpointer });
    const config = { configurable: { thread_id: thread } };
    /** Plays the app: the run stops at the interrupt; the person's decision resumes it. */
    const answer = async (decision: { type: 'approve' } | { type: 'reject'; message: string }) => {
      const first = await agent.invoke({ messages: [{ role: 'user', content: 'mail ops' }] }, config);
      const interrupts = (first as { __interrupt__?: { value: { actionRequests: { name: string; args: unknown; description: string }[] } }[] }).__interrupt__;
      expect(interrupts).toHaveLength(1);
      // The person sees the call as it will run (the rewrite applied) and Hookwire's question.
      expect(interrupts![0]!.value.actionRequests).toEqual([{ name: 'send_email', args: { to: 'ops@example.com', cc: 'audit@example.com' }, description: 'send mail to ops@example.com?' }]);
      expect(m.sent).toEqual([]);
      return agent.invoke(new Command({ resume: { decisions: [decision] } }), config);
    };
    return { live, m, model, agent, config, answer };
  };

  /** Two mails in one model step, both asked: two interrupts, one per tool call. */
  const lcTwoAsks = async () => {
    const live = startLive({}, 'native-lc-two', PIPELINE);
    const m = mailer();
    const model = fakeModel()
      .respond(new AIMessage({ content: '', tool_calls: [
        { id: 'call-1', name: 'send_email', args: { to: 'ops@example.com' }, type: 'tool_call' },
        { id: 'call-2', name: 'send_email', args: { to: 'dev@example.com' }, type: 'tool_call' },
      ] }))
      .respond(new AIMessage('done'));
    const agent = createAgent({ model, tools: [lcTool(m.send, { name: 'send_email', description: 'mail', schema: z.object({ to: z.string(), cc: z.string().optional() }) })], middleware: [hookwireMiddleware(live.trace)], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: 'two' } };
    const first = (await agent.invoke({ messages: [{ role: 'user', content: 'mail both' }] }, config)) as { __interrupt__?: { id: string; value: { actionRequests: { args: { to: string } }[]; hookwire: { event_id: string } } }[] };
    const interrupts = first.__interrupt__ ?? [];
    expect(interrupts.map((i) => i.value.hookwire.event_id).sort()).toEqual(['call-1:before', 'call-2:before']);
    expect(m.sent).toEqual([]);
    return { live, m, agent, config, interrupts };
  };

  it('[O4] LangChain: two ASKs in one step are two interrupts; resumed by interrupt id, each call gets its own answer', async () => {
    const s = await lcTwoAsks();
    const resume = Object.fromEntries(s.interrupts.map((i) => [i.id, i.value.actionRequests[0]!.args.to === 'ops@example.com' ? { decisions: [{ type: 'approve' }] } : { decisions: [{ type: 'reject', message: 'not dev' }] }]));
    await s.agent.invoke(new Command({ resume }), s.config);
    expect(s.m.sent).toEqual([{ to: 'ops@example.com', cc: 'audit@example.com' }]);
    expect(recordedLine(s.live, 'call-1:before')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to ops@example.com?', decided_by: 'h-ask', approval: { answer: 'allow', by: 'approver', at: expect.any(String) } });
    expect(recordedLine(s.live, 'call-2:before')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to dev@example.com?', decided_by: 'h-ask', approval: { answer: 'deny', by: 'approver', reason: 'not dev', at: expect.any(String) } });
    await expectReplayMatches(s.live);
  });

  it('[O4] LangChain: one plain resume value answers every pending interrupt of the step (LangGraph\'s rule), so one approve approves both', async () => {
    const s = await lcTwoAsks();
    await s.agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), s.config);
    expect(s.m.sent).toHaveLength(2);
    for (const id of ['call-1:before', 'call-2:before']) expect((recordedLine(s.live, id)!.recorded as { approval: unknown }).approval).toEqual({ answer: 'allow', by: 'approver', at: expect.any(String) });
    await expectReplayMatches(s.live);
  });

  it('[O4] LangChain: resumed through a new middleware on the same trace, the waiting ASK gets the decision: dispatched once, the tool runs', async () => {
    const checkpointer = new MemorySaver();
    const a = lcRun('native-lc-same', checkpointer, 'thread-s');
    const first = await a.agent.invoke({ messages: [{ role: 'user', content: 'mail ops' }] }, a.config);
    expect((first as { __interrupt__?: unknown[] }).__interrupt__).toHaveLength(1);
    const b = lcRun('native-lc-same', checkpointer, 'thread-s', true, a.live);
    await within(b.agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), b.config), 'the resumed run hangs');
    await expectApprovedOnce(a.live, b.m.sent);
  });

  it('[O4] LangChain: a thread interrupted under one agent and trace and resumed under new ones (one checkpointer, as a database shared by two processes) runs the tool, recorded there as approved', async () => {
    const checkpointer = new MemorySaver();
    const a = lcRun('native-lc-paused', checkpointer, 'thread-1');
    const first = await a.agent.invoke({ messages: [{ role: 'user', content: 'mail ops' }] }, a.config);
    expect((first as { __interrupt__?: unknown[] }).__interrupt__).toHaveLength(1);
    const b = lcRun('native-lc-resumed', checkpointer, 'thread-1', true);
    await b.agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), b.config);
    expect(a.m.sent).toEqual([]);
    expect(b.m.sent).toEqual([{ to: 'ops@example.com', cc: 'audit@example.com' }]);
    expect(recordedLine(b.live, 'call-1:before')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to ops@example.com?', decided_by: 'h-ask', approval: { answer: 'allow', by: 'approver', at: expect.any(String) } });
    await expectReplayMatches(b.live);
  });

  it('[O4] LangChain: an ASK is a LangGraph interrupt; approved on resume, the tool runs with the rewritten input', async () => {
    const s = lcRun('native-lc-allow');
    const second = await s.answer({ type: 'approve' });
    expect(second.messages.at(-1)!.content).toBe('done');
    expect(s.m.sent).toEqual([{ to: 'ops@example.com', cc: 'audit@example.com' }]);
    expect(recordedLine(s.live, 'call-1:before')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to ops@example.com?', decided_by: 'h-ask', approval: { answer: 'allow', by: 'approver', at: expect.any(String) } });
    expect(s.live.results.filter((r) => r.type === 'tool.before_call')).toHaveLength(1);
    await expectReplayMatches(s.live);
  });

  it('[O4] LangChain: rejected on resume, the tool never runs and the model reads the refusal', async () => {
    const s = lcRun('native-lc-deny');
    await s.answer({ type: 'reject', message: 'not today' });
    expect(s.m.sent).toEqual([]);
    expect(JSON.stringify(s.model.calls[1]!.messages.map((x) => x.content))).toContain('not today');
    expect(recordedLine(s.live, 'call-1:before')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to ops@example.com?', decided_by: 'h-ask', approval: { answer: 'deny', by: 'approver', reason: 'not today', at: expect.any(String) } });
    expect(s.live.results.find((r) => r.event_id === 'call-1:before')!.blocked).toBe(true);
    await expectReplayMatches(s.live);
  });

  // LangChain's HITL `edit` decision ({type: 'edit', editedAction: {name, args}}) is an approval with an edit [AP2]:
  // the edited call goes through the pipeline as its own event. Here the pipeline asks about every mail, so the
  // edited call asks again: a second interrupt of the same node shows the edited call (with the pipeline's rewrite),
  // and only its approval runs the tool, with the person's args.
  it('[O4][AP2] LangChain: an edit decision runs the edited args through the pipeline again; its own ASK is a second interrupt, approved, the tool runs with them', async () => {
    const s = lcRun('native-lc-edit');
    const first = await s.agent.invoke({ messages: [{ role: 'user', content: 'mail ops' }] }, s.config);
    expect((first as { __interrupt__?: { value: { reviewConfigs: { allowedDecisions: string[] }[] } }[] }).__interrupt__![0]!.value.reviewConfigs[0]!.allowedDecisions).toEqual(['approve', 'edit', 'reject']);
    const edited = await s.agent.invoke(new Command({ resume: { decisions: [{ type: 'edit', editedAction: { name: 'send_email', args: { to: 'dev@example.com' } } }] } }), s.config);
    const again = (edited as { __interrupt__?: { value: { actionRequests: { name: string; args: unknown; description: string }[]; hookwire: { event_id: string } } }[] }).__interrupt__;
    expect(again).toHaveLength(1);
    expect(again![0]!.value.actionRequests).toEqual([{ name: 'send_email', args: { to: 'dev@example.com', cc: 'audit@example.com' }, description: 'send mail to dev@example.com?' }]);
    expect(again![0]!.value.hookwire.event_id).toBe('call-1:before:edit');
    expect(s.m.sent).toEqual([]);
    const done = await within(s.agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), s.config), 'the resumed run hangs');
    expect(done.messages.at(-1)!.content).toBe('done');
    expect(s.m.sent).toEqual([{ to: 'dev@example.com', cc: 'audit@example.com' }]);
    expect(recordedLine(s.live, 'call-1:before')!.recorded).toMatchObject({ decision: 'ask', approval: { answer: 'allow', by: 'approver', edit: { tool_name: 'send_email', tool_input: { to: 'dev@example.com' } } } });
    expect(recordedLine(s.live, 'call-1:before:edit')!.recorded).toEqual({ decision: 'ask', reason: 'send mail to dev@example.com?', decided_by: 'h-ask', approval: { answer: 'allow', by: 'approver', at: expect.any(String) } });
    // The live results hold the edited call's (what the emit returned); the recording holds both calls, and the
    // CLI's replay gives each its recorded decision.
    const recorded = s.live.lines.map((l) => JSON.parse(l) as { event_id?: string; recorded?: { decision: string; reason?: string } }).filter((l) => l.event_id);
    expect((await replayWithCli(s.live)).map((r) => [r.event_id, r.decision, r.reason])).toEqual(recorded.map((l) => [l.event_id, l.recorded!.decision, l.recorded!.reason ?? '']));
  });

  it('[O4][AP2] LangChain: an edit that names another tool is denied (the middleware runs the call it asked about or none); the tool never runs', async () => {
    const s = lcRun('native-lc-edit-other');
    await s.agent.invoke({ messages: [{ role: 'user', content: 'mail ops' }] }, s.config);
    await within(s.agent.invoke(new Command({ resume: { decisions: [{ type: 'edit', editedAction: { name: 'delete_file', args: { path: '/' } } }] } }), s.config), 'the resumed run hangs');
    expect(s.m.sent).toEqual([]);
    expect(JSON.stringify(s.model.calls[1]!.messages.map((x) => x.content))).toContain('the edit names the tool delete_file, not send_email');
    expect(recordedLine(s.live, 'call-1:before')!.recorded).toMatchObject({ decision: 'ask', approval: { answer: 'deny', by: 'approver', reason: 'the edit names the tool delete_file, not send_email: Hookwire runs the call it asked about or none' } });
    await expectReplayMatches(s.live);
  });
});
