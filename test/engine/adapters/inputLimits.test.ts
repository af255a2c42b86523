// The adapters' entry [V9][V12]: framework values past the JSON limits reach `emit`, which refuses them with
// the path and fails closed, instead of a throw in the adapter's own copy.
import { describe, expect, it } from 'vitest';
import { AIMessage, createAgent, fakeModel, tool } from 'langchain';
import { z } from 'zod';
import { jsonOf, toolInputOf } from '../../../engine/adapters/adapterSupport.ts';
import { hookwireMiddleware } from '../../../engine/adapters/langchain/index.ts';
import { createRuntime } from '../../../engine/runtime/index.ts';
import { deepObject, pipelineWithCondition } from '../badInput/corpus.ts';

function trace() {
  const r = createRuntime(pipelineWithCondition('{"payload.tool_name":"Nope"}'));
  if (!r.ok) throw new Error('no runtime');
  return r.runtime.startTrace({ trace_id: 't' });
}

describe('adapters: input past the JSON limits fails closed at emit, never throws in the adapter', () => {
  it('[V9] a tool input or result 10k deep is handed to emit, which refuses it naming the path', async () => {
    const t = trace();
    const input = toolInputOf({ q: deepObject(10_000) });
    const before = await t.emitAsync('tool.before_call', { tool_name: 'search', tool_input: input });
    expect(before).toMatchObject({ decision: 'block_action', blocked: true, problem: { code: 'too_deep' } });
    expect(before.reason).toMatch(/payload\.tool_input\.q\.a\.a/);
    const after = await t.emitAsync('tool.after_call', { tool_name: 'search', tool_response: jsonOf(deepObject(10_000)) });
    expect(after).toMatchObject({ decision: 'block_action', problem: { code: 'too_deep' } });
  });

  it('[V12] LangChain createAgent: a tool result past the string limit is withheld with a readable block', async () => {
    const t = trace();
    const big = tool(async () => 'x'.repeat(4 * 1024 * 1024 + 1), { name: 'dump', description: 'dump', schema: z.object({}) });
    const model = fakeModel()
      .respond(new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'dump', args: {}, type: 'tool_call' }] }))
      .respond(new AIMessage('done'));
    const agent = createAgent({ model, tools: [big], middleware: [hookwireMiddleware(t)] });
    const out = await agent.invoke({ messages: [{ role: 'user', content: 'dump it' }] });
    const tools = out.messages.filter((m) => m.type === 'tool').map((m) => String(m.content));
    expect(tools[0]).toMatch(/^Blocked by Hookwire: input refused: payload\.tool_response is a string of 4194305 characters/);
  });
});
