import { describe, expect, it } from 'vitest';
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { hookwireAiSdk } from '../../../engine/adapters/aiSdk/index.ts';
import { liveDecisions, replayCheckWithCli, replayedDecisions, replayWithCli, REWRITTEN_PATH, scenarioTools, SECRET, startLive } from './adapterFixture.ts';

// The Vercel AI SDK 6 with its own offline test model (ai/test MockLanguageModelV3), the real generateText and
// streamText loops, and the real tool() helper.

const usage = (output: number) => ({ inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: output, text: output, reasoning: 0 } });
const call = (id: string, toolName: string, input: object) => ({ type: 'tool-call' as const, toolCallId: id, toolName, input: JSON.stringify(input) });
const toolCalls = { unified: 'tool-calls' as const, raw: undefined };

function toolsOf(t: ReturnType<typeof scenarioTools>) {
  const path = z.object({ path: z.string() });
  return {
    delete_file: tool({ description: 'delete a file', inputSchema: path, execute: async (i) => t.delete_file(i) }),
    read_file: tool({ description: 'read a file', inputSchema: path, execute: async (i) => t.read_file(i) }),
    send_email: tool({ description: 'send mail', inputSchema: z.object({ to: z.string() }), execute: async (i) => t.send_email(i) }),
  };
}

/** The text of every tool result a prompt carries. */
function toolResults(prompt: unknown): string {
  return JSON.stringify((prompt as { role: string; content: unknown }[]).filter((m) => m.role === 'tool'));
}

describe('AI SDK adapter (ai 6, MockLanguageModelV3)', () => {
  it('[O2] generateText: blocks the destructive tool, rewrites and redacts, stops on the token budget; the CLI replay agrees', async () => {
    const live = startLive();
    const hw = hookwireAiSdk(live.trace);
    const t = scenarioTools();
    const mock = new MockLanguageModelV3({
      doGenerate: [
        { content: [call('c1', 'delete_file', { path: '/' })], finishReason: toolCalls, usage: usage(30), warnings: [] },
        { content: [call('c2', 'read_file', { path: '/etc/passwd' })], finishReason: toolCalls, usage: usage(30), warnings: [] },
        { content: [call('c3', 'send_email', { to: 'ops@example.com' })], finishReason: toolCalls, usage: usage(500), warnings: [] },
        { content: [{ type: 'text', text: 'never asked for' }], finishReason: { unified: 'stop', raw: undefined }, usage: usage(1), warnings: [] },
      ],
    });
    const result = await generateText({
      model: wrapLanguageModel({ model: mock, middleware: hw.middleware }),
      tools: hw.tools(toolsOf(t)),
      stopWhen: [stepCountIs(10), hw.stopWhen],
      prompt: 'tidy up the disk',
    });

    // The blocked tool never ran; the rewritten input is what the tool got; send_email (after TERMINATE) never ran.
    expect(t.calls).toEqual([{ tool: 'read_file', input: { path: REWRITTEN_PATH } }]);
    expect(mock.doGenerateCalls).toHaveLength(3);
    // The model read Hookwire's block message as the tool result, and the redacted file.
    expect(toolResults(mock.doGenerateCalls[1]!.prompt)).toContain('Blocked by Hookwire: destructive tool delete_file');
    const third = toolResults(mock.doGenerateCalls[2]!.prompt);
    expect(third).toContain('OPENAI_API_KEY=[REDACTED]');
    expect(JSON.stringify(mock.doGenerateCalls)).not.toContain(SECRET);
    // The budget ended the run: the third answer (and its tool call) was replaced by the TERMINATE message.
    expect(result.text).toMatch(/^Run terminated by Hookwire: token budget of 100 spent/);
    expect(result.steps.at(-1)!.toolCalls).toEqual([]);
    expect(live.trace.terminated?.decided_by).toBe('h-budget');

    const live_ = liveDecisions(live);
    expect(live_.map((d) => `${d.type}:${d.decision}`)).toEqual([
      'model.before_call:continue', 'model.after_call:continue', 'tool.before_call:block_action',
      'model.before_call:continue', 'model.after_call:continue', 'tool.before_call:continue', 'tool.after_call:continue',
      'model.before_call:continue', 'model.after_call:terminate',
    ]);
    // Conformance: the recorded trace replayed by the CLI gives the decisions the adapter got live.
    const replayed = await replayWithCli(live);
    expect(replayedDecisions(replayed)).toEqual(live_);
    expect(replayed.find((l) => l.type === 'tool.after_call')!.payload.tool_response).toBe(`contents of ${REWRITTEN_PATH}: OPENAI_API_KEY=[REDACTED]`);
  });

  it('[R6][P7] the recording names the deciding handler; replay --check flags a step whose recorded decider was changed, and does not fail it', async () => {
    const live = startLive({}, 'decider-trace');
    const hw = hookwireAiSdk(live.trace);
    const t = scenarioTools();
    const mock = new MockLanguageModelV3({
      doGenerate: [
        { content: [call('c1', 'delete_file', { path: '/' })], finishReason: toolCalls, usage: usage(30), warnings: [] },
        { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage: usage(1), warnings: [] },
      ],
    });
    await generateText({ model: wrapLanguageModel({ model: mock, middleware: hw.middleware }), tools: hw.tools(toolsOf(t)), stopWhen: [stepCountIs(5), hw.stopWhen], prompt: 'tidy up' });
    await live.trace.flush();
    expect(t.calls).toEqual([]);
    const lines = live.lines.map((l) => JSON.parse(l) as { type?: string; recorded?: Record<string, unknown> });
    const blocked = lines.findIndex((l) => l.type === 'tool.before_call');
    // As hookwire serve and claude-hook --record write it: the handler whose decision won; nobody decided a CONTINUE.
    expect(lines[blocked]!.recorded).toEqual({ decision: 'block_action', reason: 'destructive tool delete_file', decided_by: 'h-block' });
    expect(lines.filter((l) => l.recorded && l.recorded.decision === 'continue').every((l) => !('decided_by' in l.recorded!))).toBe(true);

    const untouched = await replayCheckWithCli(live.pipeline, live.lines);
    expect(untouched.code).toBe(0);
    expect(untouched.stdout).not.toMatch(/another handler/);
    // The same block, recorded as made by another handler (the line edited): flagged in the table and the report.
    const edited = [...live.lines];
    edited[blocked] = edited[blocked]!.replace('"decided_by":"h-block"', '"decided_by":"h-jail"');
    expect(edited[blocked]).toContain('"decided_by":"h-jail"');
    const flagged = await replayCheckWithCli(live.pipeline, edited);
    expect(flagged.code).toBe(0);
    expect(flagged.stdout).toContain('recorded by h-jail');
    expect(flagged.stdout).toMatch(/1 matching decision was made for another reason or by another handler/);
    expect(flagged.stdout).toMatch(/Recorded BLOCK_ACTION by .keep reads in the workspace.*replay decides BLOCK_ACTION too by .no destructive tools.*another handler/);
  });

  it('[O2] streamText: a step is decided on its final text (a key split across deltas is redacted), then released', async () => {
    const live = startLive({}, 'stream-trace');
    const hw = hookwireAiSdk(live.trace);
    const t = scenarioTools();
    const finish = (n: number) => ({ type: 'finish' as const, usage: usage(n), finishReason: toolCalls });
    const mock = new MockLanguageModelV3({
      doStream: [
        { stream: convertArrayToReadableStream([{ type: 'stream-start', warnings: [] }, call('c1', 'delete_file', { path: '/' }), finish(30)]) },
        {
          stream: convertArrayToReadableStream([
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: `Reading it; the key is ${SECRET.slice(0, 12)}` },
            { type: 'text-delta', id: 't', delta: SECRET.slice(12) },
            { type: 'text-end', id: 't' },
            call('c2', 'read_file', { path: '/etc/passwd' }),
            finish(30),
          ]),
        },
        { stream: convertArrayToReadableStream([call('c3', 'send_email', { to: 'ops@example.com' }), finish(500)]) },
      ],
    });
    const result = streamText({
      model: wrapLanguageModel({ model: mock, middleware: hw.middleware }),
      tools: hw.tools(toolsOf(t)),
      stopWhen: [stepCountIs(10), hw.stopWhen],
      prompt: 'tidy up the disk',
    });
    const deltas: string[] = [];
    for await (const part of result.fullStream) if (part.type === 'text-delta') deltas.push(part.text);

    expect(deltas.join('')).not.toContain(SECRET.slice(12));
    expect(deltas).toContain('Reading it; the key is [REDACTED]');
    expect(deltas.at(-1)).toMatch(/^Run terminated by Hookwire: token budget of 100 spent/);
    expect(t.calls).toEqual([{ tool: 'read_file', input: { path: REWRITTEN_PATH } }]);
    expect(JSON.stringify(mock.doStreamCalls)).not.toContain(SECRET);

    const replayed = await replayWithCli(live);
    expect(replayedDecisions(replayed)).toEqual(liveDecisions(live));
  });

  it('[O2] a tool call id the model repeats (in a later step, or twice in one step; generateText and streamText) is a new call: a blocked tool never runs under an allowed call\'s id', async () => {
    const read = call('x', 'read_file', { path: '/w/a' });
    const del = call('x', 'delete_file', { path: '/' });
    const done = { content: [{ type: 'text' as const, text: 'done' }], finishReason: { unified: 'stop' as const, raw: undefined }, usage: usage(1), warnings: [] };
    for (const [stream, steps] of [[false, [[read], [del]]], [false, [[read, del]]], [true, [[read, del]]]] as const) {
      const live = startLive();
      const hw = hookwireAiSdk(live.trace);
      const t = scenarioTools();
      const mock = new MockLanguageModelV3({
        doGenerate: [...steps.map((content) => ({ content: [...content], finishReason: toolCalls, usage: usage(1), warnings: [] })), done],
        doStream: [...steps.map((content) => ({ stream: convertArrayToReadableStream([...content, { type: 'finish' as const, usage: usage(1), finishReason: toolCalls }]) })), { stream: convertArrayToReadableStream([{ type: 'finish' as const, usage: usage(1), finishReason: { unified: 'stop' as const, raw: undefined } }]) }],
      });
      const settings = { model: wrapLanguageModel({ model: mock, middleware: hw.middleware }), tools: hw.tools(toolsOf(t)), stopWhen: stepCountIs(5), prompt: 'tidy up' };
      if (stream) await streamText(settings).consumeStream();
      else await generateText(settings);
      expect(t.calls).toEqual([{ tool: 'read_file', input: { path: '/w/a' } }]);
      const before = live.results.filter((r) => r.type === 'tool.before_call');
      expect(before.map((r) => [r.event_id, r.duplicate]).sort()).toEqual([['x#2:before', false], ['x:before', false]]);
      expect(replayedDecisions(await replayWithCli(live))).toEqual(liveDecisions(live));
    }
  });

  it('[O2] a block before the model call answers with the message and never calls the model', async () => {
    const live = startLive();
    live.trace.emit('tool.before_call', { tool_name: 'run_shell', tool_input: {} }); // a block; the trace goes on
    const hw = hookwireAiSdk(live.trace);
    const mock = new MockLanguageModelV3({ doGenerate: [{ content: [{ type: 'text', text: 'x' }], finishReason: { unified: 'stop', raw: undefined }, usage: usage(500), warnings: [] }] });
    const model = wrapLanguageModel({ model: mock, middleware: hw.middleware });
    const first = await generateText({ model, prompt: 'hi' });
    expect(first.text).toMatch(/^Run terminated by Hookwire/);
    // After TERMINATE every model call is answered by Hookwire; the model is not called again.
    const second = await generateText({ model, prompt: 'again' });
    expect(second.text).toMatch(/^Run terminated by Hookwire/);
    expect(mock.doGenerateCalls).toHaveLength(1);
  });
});
