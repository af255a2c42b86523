import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../engine/model/json.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { importOtelGenai } from '../../../engine/trace/importers/importOtelGenai.ts';
import type { Trace } from '../../../engine/trace/traceTypes.ts';
import { FIXTURE, fileName, HAVE_FIXTURES, readFixture } from '../../shared/fixtures.ts';

function load(rel: string) {
  const r = importTrace(readFixture(rel), { fileName: fileName(rel) });
  expect(r.problems).toEqual([]);
  expect(r.format).toBe('otel-genai');
  return { trace: r.trace as Trace, report: r.report as NonNullable<typeof r.report> };
}

// Hand-checked with python: OPENAI has 3 call_llm, 2 execute_tool, 1 invoke_agent spans; LANGCHAIN 4, 2, 1.
describe.skipIf(!HAVE_FIXTURES)('OpenTelemetry GenAI importer on any-agent exports', () => {
  it('[I5] OPENAI_trace: 3 model calls, 2 tool calls, in start-time order from an end-ordered file', () => {
    const { trace, report } = load(FIXTURE.otelOpenai);
    expect(report).toMatchObject({ source_records: 6, model_calls: 3, tool_calls: 2, unknown: {}, warnings: [] });
    expect(trace.events.map((e) => e.type)).toEqual([
      'agent.start', 'input.received', 'prompt.built',
      'model.before_call', 'model.after_call', 'tool.before_call', 'tool.after_call',
      'model.before_call', 'model.after_call', 'tool.before_call', 'tool.after_call',
      'model.before_call', 'model.after_call',
      'final_answer.before', 'final_answer.after', 'agent.end',
    ]);
    const ts = trace.events.map((e) => e.ts);
    expect([...ts].sort()).toEqual(ts);
  });

  it('[I5] OPENAI_trace: exact tool call, usage, tool_use blocks and 128-bit trace id', () => {
    const text = readFixture(FIXTURE.otelOpenai);
    const { trace, report } = load(FIXTURE.otelOpenai);
    expect(trace.header.trace_id).toBe(BigInt('100927429609276267646756448943279827607').toString(16).padStart(32, '0'));
    const spanId = BigInt('13687147528289423029').toString(16); // the get_current_time span, exact past 2^53
    expect(text).toContain('"span_id": 13687147528289423029');
    const before = trace.events.find((e) => e.type === 'tool.before_call');
    expect(before).toMatchObject({
      event_id: `otel:${spanId}:tool.before_call`,
      ts: '2025-09-16T12:43:13.450Z',
      payload: { tool_name: 'get_current_time', tool_input: { timezone: 'America/New_York' }, tool_use_id: spanId, description: 'Get current time in a specific timezones' },
    });
    expect(trace.events.find((e) => e.type === 'tool.after_call')?.payload.tool_response).toEqual({ timezone: 'America/New_York', datetime: '2025-09-16T08:43:13-04:00', is_dst: true });
    const firstModel = trace.events.find((e) => e.type === 'model.after_call') as Trace['events'][number];
    expect(firstModel.payload).toEqual({
      response: [{ type: 'tool_use', name: 'get_current_time', input: { timezone: 'America/New_York' } }],
      model: 'mistral/mistral-small-latest',
      output_type: 'json',
      usage: { input_tokens: 269, output_tokens: 16 },
      cost: { input: 2.69e-5, output: 4.8e-6 },
    });
    expect(trace.events[1]?.payload.prompt).toMatch(/^Find what year it is in the America\/New_York timezone/);
    expect(report.notes).toEqual(expect.arrayContaining([expect.stringContaining('gen_ai.tool.args as gen_ai.tool.call.arguments')]));
    expect(JSON.parse(trace.events[13]?.payload.text as string)).toEqual({ steps: [{ number: 1, description: 'Get current time in the America/New_York timezone.' }, { number: 2, description: 'Write the year to a file.' }] });
  });

  it('[I5] LANGCHAIN_trace: 4 model calls, 2 tool calls; the same task as OPENAI maps to the same tool calls', () => {
    const { trace, report } = load(FIXTURE.otelLangchain);
    expect(report).toMatchObject({ source_records: 7, model_calls: 4, tool_calls: 2 });
    const calls = (t: Trace) => t.events.filter((e) => e.type === 'tool.before_call').map((e) => [e.payload.tool_name, e.payload.tool_input]);
    expect(calls(trace)).toEqual([
      ['get_current_time', { timezone: 'America/New_York' }],
      ['write_file', { text: '2025' }],
    ]);
    expect(calls(trace)).toEqual(calls(load(FIXTURE.otelOpenai).trace));
    // tool.args is an object inside LangChain's gen_ai.output (a JSON string in OpenAI's): both become input.
    const secondModel = trace.events.filter((e) => e.type === 'model.after_call')[1];
    expect(secondModel?.payload.response).toEqual([{ type: 'tool_use', name: 'write_file', input: { text: '2025' } }]);
    const write = trace.events.filter((e) => e.type === 'tool.after_call')[1];
    expect(write?.payload).toMatchObject({ tool_name: 'write_file', tool_response: null, is_error: false });
    const textOut = trace.events.filter((e) => e.type === 'model.after_call')[2];
    expect(textOut?.payload).toMatchObject({ output_type: 'text', response: expect.stringMatching(/^Here are the steps I have taken/) });
  });
});

describe('OpenTelemetry GenAI importer rules', () => {
  const span = (name: string, id: number, parent: number | null, start: number, end: number, attributes: JsonObject, status = 'ok') => ({
    name,
    context: { trace_id: 7, span_id: id },
    parent: parent === null ? null : { trace_id: 7, span_id: parent },
    start_time: start,
    end_time: end,
    status: { status_code: status, description: status === 'error' ? 'boom' : null },
    attributes,
  });

  it('[I5] spec attribute names, final_answer tools, unknown operations and errors', () => {
    const r = importOtelGenai({
      spans: [
        span('chat', 2, 1, 2e18, 3e18, { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm', 'gen_ai.usage.prompt_tokens': 5 }),
        span('execute_tool x', 3, 1, 3e18 + 1, 4e18, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'rm', 'gen_ai.tool.call.arguments': '{"path":"/"}', 'gen_ai.tool.call.result': 'denied', 'gen_ai.tool.call.id': 'call_1' }, 'error'),
        span('execute_tool final_answer', 4, 1, 4e18 + 1, 5e18, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'final_answer', 'gen_ai.tool.args': '{"answer": "done"}' }),
        span('retriever', 5, 1, 5e18 + 1, 5e18 + 2, { 'gen_ai.operation.name': 'retrieve' }),
        span('invoke_agent', 1, null, 1e18, 6e18, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'bot' }, 'error'),
      ],
    });
    if (!r.ok) throw new Error('import failed');
    expect(r.trace.events.map((e) => e.type)).toEqual([
      'agent.start', 'model.before_call', 'model.after_call', 'tool.before_call', 'tool.after_call', 'final_answer.before', 'final_answer.after', 'agent.error', 'agent.end',
    ]);
    expect(r.trace.events[2]?.payload.usage).toEqual({ input_tokens: 5 });
    expect(r.trace.events[4]?.payload).toEqual({ tool_name: 'rm', tool_input: { path: '/' }, tool_response: 'denied', is_error: true, tool_use_id: 'call_1' });
    expect(r.trace.events[5]?.payload).toEqual({ text: 'done', tool_name: 'final_answer' });
    expect(r.trace.events[7]?.payload).toEqual({ error: 'boom' });
    expect(r.report.unknown).toEqual({ 'span:retrieve': 1 });
    expect(r.trace.header.agent_id).toBe('bot');
  });

  it('[I2] a partial export without an agent span still starts with agent.start and ends with agent.end', () => {
    const r = importOtelGenai({
      spans: [span('call_llm', 2, 1, 2e18, 3e18, { 'gen_ai.operation.name': 'call_llm', 'gen_ai.output': 'hi', 'gen_ai.output.type': 'text' })],
      final_output: 'hi',
    });
    if (!r.ok) throw new Error('import failed');
    expect(r.trace.events.map((e) => e.type)).toEqual(['agent.start', 'model.before_call', 'model.after_call', 'final_answer.before', 'final_answer.after', 'agent.end']);
    expect(r.trace.events[0]).toMatchObject({ ts: new Date(2e18 / 1e6).toISOString(), payload: { synthesised: true } });
    expect(r.trace.events[2]?.payload.response).toBe('hi');
  });

  it('[I5] refuses a document without spans', () => {
    const r = importOtelGenai({ resourceSpans: [] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toMatchObject({ code: 'bad_source', message: expect.stringContaining('"spans"') });
  });
});
