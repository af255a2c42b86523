import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../engine/model/json.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import type { ImportReport } from '../../../engine/trace/importers/importReport.ts';
import type { TraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import type { Trace, TraceEvent } from '../../../engine/trace/traceTypes.ts';

import { readFormat } from '../../shared/formatFixtures.ts';

function load(name: string, format: TraceFormat): { trace: Trace; report: ImportReport } {
  const r = importTrace(readFormat(name), { fileName: name });
  expect(r.problems).toEqual([]);
  expect(r.format).toBe(format);
  return { trace: r.trace as Trace, report: r.report as ImportReport };
}

const types = (t: Trace) => t.events.map((e) => e.type);
const ofType = (t: Trace, type: string) => t.events.filter((e) => e.type === type);
const count = (t: Trace, type: string) => ofType(t, type).length;

/** Recording time order: timestamps never go back, and each tool call's before comes before its after. */
function expectRecordingOrder(t: Trace): void {
  const ts = t.events.map((e) => e.ts);
  expect([...ts].sort()).toEqual(ts);
  expect(t.events[0]?.type).toBe('agent.start');
  expect(t.events.at(-1)?.type).toBe('agent.end');
  const at = new Map<string, number>();
  t.events.forEach((e, i) => {
    if (e.type === 'tool.before_call') at.set(String(e.payload.tool_use_id), i);
    if (e.type === 'tool.after_call') expect(at.get(String(e.payload.tool_use_id))).toBeLessThan(i);
  });
  for (let i = 0; i < t.events.length; i++) {
    if (t.events[i]?.type !== 'model.after_call') continue;
    expect(t.events.slice(0, i).filter((e) => e.type === 'model.before_call').length).toBeGreaterThan(t.events.slice(0, i).filter((e) => e.type === 'model.after_call').length);
  }
}

function expectStableIds(name: string): void {
  const a = importTrace(readFormat(name), { fileName: name }).trace as Trace;
  const b = importTrace(readFormat(name), { fileName: name }).trace as Trace;
  expect(b.events.map((e) => e.event_id)).toEqual(a.events.map((e) => e.event_id));
  expect(new Set(a.events.map((e) => e.event_id)).size).toBe(a.events.length);
  expect(b.header.trace_id).toBe(a.header.trace_id);
}

describe('Codex CLI rollout (codex-rollout.jsonl)', () => {
  const name = 'codex-rollout.jsonl';
  it('[I9] counts: 3 model calls, 2 tool calls, 1 user input, 1 injected context', () => {
    const { trace, report } = load(name, 'codex-rollout');
    // Hand counts from the file: model calls = the three runs of assistant-side response items closed by a
    // token_count (lines 6-7, 10, 13); tool calls = function_call call_A1 (line 7) and call_A2 (line 10);
    // inputs = the typed message of line 4 (line 5 is its event_msg copy; line 2 is <environment_context>).
    expect(report).toMatchObject({ model_calls: 3, tool_calls: 2, source_records: 16 });
    expect(count(trace, 'input.received')).toBe(1);
    expect(count(trace, 'context.added')).toBe(1);
    expect(count(trace, 'final_answer.after')).toBe(1);
  });
  it('[I9] payload fields a rule uses: tool name and input, prompt, response text, token usage, exit code', () => {
    const { trace } = load(name, 'codex-rollout');
    expect(ofType(trace, 'input.received')[0]?.payload).toEqual({ prompt: 'List the files and delete build/' });
    expect(ofType(trace, 'tool.before_call').map((e) => e.payload)).toEqual([
      { tool_name: 'shell', tool_input: { command: ['bash', '-lc', 'ls'], workdir: '/work/demo' }, tool_use_id: 'call_A1', tool: 'shell', command: 'ls' },
      { tool_name: 'shell', tool_input: { command: ['bash', '-lc', 'rm -rf build'] }, tool_use_id: 'call_A2', tool: 'shell', command: 'rm -rf build' },
    ]);
    const after = ofType(trace, 'tool.after_call');
    expect(after.map((e) => e.payload.is_error)).toEqual([false, true]); // exit_code 0, then 1
    expect((after[0]?.payload.tool_response as JsonObject).output).toBe('README.md\nbuild\nsrc\n');
    const models = ofType(trace, 'model.after_call');
    expect(models.map((e) => (e.payload.usage as JsonObject).input_tokens)).toEqual([1200, 1300, 1400]); // last_token_usage of each token_count
    expect(models[0]?.payload.model).toBe('gpt-5-codex'); // turn_context
    expect(models[2]?.payload.response).toEqual([{ type: 'text', text: expect.stringMatching(/^The files are README.md/) }]);
    expect(trace.header.trace_id).toBe('0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
    expect(trace.events.at(-1)?.payload.status).toBe('completed');
  });
  it('[I3] event order follows the recording, ids are stable', () => {
    expectRecordingOrder(load(name, 'codex-rollout').trace);
    expectStableIds(name);
  });
});

describe('OTLP/JSON from the collector file exporter (otlp-file-exporter.jsonl)', () => {
  const name = 'otlp-file-exporter.jsonl';
  it('[I5] counts: 2 model calls, 1 tool call, 1 user input', () => {
    const { trace, report } = load(name, 'otlp-json');
    // Hand counts: two lines (export batches) hold 4 spans: chat ×2 (0a1b…, 5555…), execute_tool ×1 (1111…), invoke_agent ×1.
    expect(report).toMatchObject({ model_calls: 2, tool_calls: 1, source_records: 4, unknown: {} });
    expect(count(trace, 'input.received')).toBe(1);
  });
  it('[I5] a zero-length tool span at the instant its neighbours end and start: before, after, in tree order; agent.end last', () => {
    const { trace } = load(name, 'otlp-json');
    expect(types(trace)).toEqual([
      'agent.start', 'input.received', 'prompt.built', 'model.before_call', 'model.after_call',
      'tool.before_call', 'tool.after_call', 'model.before_call', 'model.after_call', 'agent.end',
    ]);
    expectRecordingOrder(trace);
    expectStableIds(name);
  });
  it('[I5] parts[].content is the prompt; output parts become blocks; intValue tokens are numbers', () => {
    const { trace } = load(name, 'otlp-json');
    expect(ofType(trace, 'input.received')[0]?.payload.prompt).toBe('What is the weather in Paris?');
    const [m1, m2] = ofType(trace, 'model.after_call');
    expect(m1?.payload).toMatchObject({ response: [{ type: 'tool_use', id: 'call_w1', name: 'get_weather', input: { city: 'Paris' } }], usage: { input_tokens: 42, output_tokens: 11 }, stop_reason: 'tool_call' });
    expect(m2?.payload.response).toEqual([{ type: 'text', text: 'It is 18 °C and sunny in Paris.' }]);
    expect(ofType(trace, 'tool.after_call')[0]?.payload).toMatchObject({ tool_name: 'get_weather', tool_input: { city: 'Paris' }, tool_response: { temp_c: 18, sky: 'sunny' } });
    expect(trace.header.trace_id).toBe('5b8efff798038103d269b633813fc60c');
    expect(trace.header.agent_id).toBe('weather-bot');
  });
});

describe('OpenTelemetry spans, one per line (otel-spans.jsonl)', () => {
  const name = 'otel-spans.jsonl';
  it('[I5] counts: 2 model calls, 1 tool call, 1 user input; a JSON response sent as text is parsed', () => {
    const { trace, report } = load(name, 'otel-spans-jsonl');
    // Hand counts: 4 lines = chat a2, execute_tool a3, chat a4, invoke_agent a1.
    expect(report).toMatchObject({ model_calls: 2, tool_calls: 1, source_records: 4 });
    expect(count(trace, 'input.received')).toBe(1);
    expect(ofType(trace, 'model.after_call')[1]?.payload.response).toEqual({ status: 'up to date', targets: 0 });
    expect(ofType(trace, 'tool.before_call')[0]?.payload).toEqual({ tool_name: 'run_shell', tool_input: { command: 'make -q' }, tool_use_id: 'toolu_1' });
    expectRecordingOrder(trace);
    expectStableIds(name);
  });
});

describe('OpenTelemetry Python SDK console exporter output (otel-console.txt)', () => {
  const name = 'otel-console.txt';
  it('[I5] counts: 1 model call, 1 tool call (failed), 1 user input; times cut to ms keep start before end', () => {
    const { trace, report } = load(name, 'otel-console');
    // Hand counts: three pretty-printed spans: chat c2, execute_tool c3 (zero length, status ERROR), invoke_agent c1.
    expect(report).toMatchObject({ model_calls: 1, tool_calls: 1, source_records: 3 });
    expect(types(trace)).toEqual(['agent.start', 'input.received', 'prompt.built', 'model.before_call', 'model.after_call', 'tool.before_call', 'tool.after_call', 'agent.end']);
    expect(ofType(trace, 'tool.after_call')[0]?.payload).toMatchObject({ tool_name: 'delete_file', tool_input: { path: '/tmp/x' }, is_error: true, tool_use_id: 'call_c1' });
    expect(ofType(trace, 'input.received')[0]?.payload.prompt).toBe('Delete the temp files');
    expect(trace.header.trace_id).toBe('c0ffee00'.repeat(4));
    expectRecordingOrder(trace);
    expectStableIds(name);
  });
});

describe('mini-swe-agent trajectory (slugify.traj.json)', () => {
  const name = 'slugify.traj.json';
  it('[I10] counts: 4 model calls (= info.model_stats.api_calls), 3 tool calls, 1 user input, 1 format error', () => {
    const { trace, report } = load(name, 'mini-swe-agent');
    // Hand counts: 4 assistant messages; messages 2, 6 and 8 have exactly one ```bash block (message 4 has two:
    // a format error, answered by the feedback of message 5); the task is message 1.
    expect(report).toMatchObject({ model_calls: 4, tool_calls: 3, source_records: 10 });
    expect(count(trace, 'input.received')).toBe(1);
    expect(count(trace, 'context.added')).toBe(1);
    expect(ofType(trace, 'tool.before_call')[0]?.payload).toEqual({ tool_name: 'bash', tool_input: { command: "grep -rn 'def slugify' src" }, tool_use_id: 'msg-2:action-0' });
    expect(ofType(trace, 'tool.after_call').map((e) => [e.payload.returncode, e.payload.is_error])).toEqual([[0, false], [1, true], [null, false]]);
    expect(ofType(trace, 'final_answer.after')[0]?.payload.text).toMatch(/^diff --git a\/src\/text.py/);
    expect(ofType(trace, 'model.before_call')[0]?.payload.model).toBe('anthropic/claude-sonnet-4-5-20250929');
    expectRecordingOrder(trace);
    expectStableIds(name);
  });
  it('[I10] v2 tool-calling trajectories: tool_calls answered by tool messages; a limit exit is agent.error', () => {
    const doc = {
      info: { exit_status: 'LimitsExceeded', submission: '', mini_version: '2.0.0', config: { model: { model_name: 'openai/gpt-5' } } },
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'Fix the bug' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command": "ls"}' } }], extra: { cost: 0.01 } },
        { role: 'tool', tool_call_id: 'call_1', content: '<returncode>0</returncode>\n<output>\na.py\n</output>' },
        { role: 'exit', content: '', extra: { exit_status: 'LimitsExceeded' } },
      ],
      trajectory_format: 'mini-swe-agent-1.1',
    };
    const r = importTrace(JSON.stringify(doc), { fileName: 'x.traj.json' });
    expect(r.format).toBe('mini-swe-agent');
    const t = r.trace as Trace;
    expect(r.report).toMatchObject({ model_calls: 1, tool_calls: 1 });
    expect(ofType(t, 'tool.after_call')[0]?.payload).toMatchObject({ tool_use_id: 'call_1', tool_response: 'a.py', returncode: 0 });
    expect(ofType(t, 'agent.error')[0]?.payload.error).toBe('LimitsExceeded');
    expect(ofType(t, 'model.after_call')[0]?.payload.cost).toBe(0.01);
  });
});

describe('OpenHands text-only replies (openhands-text-replies.json)', () => {
  it('[I7] an agent message without tool_call_metadata is a model call: 3 model calls, 1 tool call, 2 inputs', () => {
    const { trace, report } = load('openhands-text-replies.json', 'openhands');
    // Hand counts: agent messages 1 and 6 (text replies) + action 4 (response chatcmpl-2) = 3 model calls;
    // one run action (4) = 1 tool call; user messages 0 and 3 = 2 inputs.
    expect(report).toMatchObject({ model_calls: 3, tool_calls: 1 });
    expect(count(trace, 'input.received')).toBe(2);
    const models = ofType(trace, 'model.after_call');
    expect(models[0]?.payload).toMatchObject({ response_id: 'chatcmpl-1', model: 'claude-sonnet-4-5', usage: { input_tokens: 700, output_tokens: 18 } });
    expect(models[2]?.payload.response).toEqual([{ type: 'text', text: 'app.py has 42 lines.' }]);
    expectRecordingOrder(trace);
    expectStableIds('openhands-text-replies.json');
  });
});

describe('Claude Code injected text (claude-meta-and-compact.jsonl)', () => {
  it('[I4] isMeta and isCompactSummary records are context.added, not input.received: 2 inputs, 2 model calls', () => {
    const { trace, report } = load('claude-meta-and-compact.jsonl', 'claude-code');
    // Hand counts: typed prompts u1 and u4; u2 (isMeta skill text) and u3 (isCompactSummary) are context.
    expect(ofType(trace, 'input.received').map((e) => e.payload.prompt)).toEqual(['Use the release skill to tag v1.2', 'Now push the tag']);
    expect(ofType(trace, 'context.added').map((e) => e.payload.source)).toEqual(['meta', 'compact_summary']);
    expect(report.model_calls).toBe(2);
    expect(ofType(trace, 'final_answer.after').map((e) => e.payload.text)).toEqual(['Tagged v1.2.', 'Pushed.']);
    expectRecordingOrder(trace);
    expectStableIds('claude-meta-and-compact.jsonl');
  });
});

describe("OTLP/JSON with Hookwire's own spans (otlp-hookwire-decisions.json)", () => {
  it('[I8] hookwire.* attributes become the events with their recorded decisions; framework spans are skipped', () => {
    const { trace, report } = load('otlp-hookwire-decisions.json', 'otlp-json');
    const real = trace.events.filter((e) => !e.payload.synthesised);
    expect(real.map((e: TraceEvent) => [e.event_id, e.type, e.recorded])).toEqual([
      ['cc:sess-42:1:UserPromptSubmit', 'input.received', { decision: 'continue' }],
      ['cc:toolu_9:before', 'tool.before_call', { decision: 'block_action', reason: 'rm -rf is not allowed' }],
    ]);
    expect(real[1]?.payload).toEqual({ tool_name: 'bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 'toolu_9' });
    expect(real[1]?.meta).toEqual({ decided_by: 'block-destructive', pipeline: { name: 'safety', version: 3 } });
    expect(trace.header.trace_id).toBe('sess-42');
    expect(report.skipped).toEqual({ 'span:execute_tool': 1 });
  });
});

describe('Codex CLI: a shell result written as text', () => {
  const rollout = (output: string) => [
    { timestamp: '2026-03-02T10:00:00.000Z', type: 'session_meta', payload: { id: 'text-exit', cwd: '/w' } },
    { timestamp: '2026-03-02T10:00:01.000Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"command":["bash","-lc","make"]}', call_id: 'c1' } },
    { timestamp: '2026-03-02T10:00:02.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output } },
  ].map((r) => JSON.stringify(r)).join('\n');
  const isError = (output: string) => importTrace(rollout(output), { fileName: 'rollout-x.jsonl' }).trace?.events.find((e) => e.type === 'tool.after_call')?.payload.is_error;
  it('[I9] "Process exited with code N", N ≠ 0, is a failed call; code 0 and no such line are not', () => {
    expect(isError('Process exited with code 2\nmake: *** [all] Error 2\n')).toBe(true);
    expect(isError('compiling…\nProcess exited with code 127')).toBe(true);
    expect(isError('Process exited with code 0\nok\n')).toBe(false);
    expect(isError('all good')).toBe(false);
    expect(isError('{"output": "Process exited with code 1", "metadata": {}}')).toBe(true);
  });
});
