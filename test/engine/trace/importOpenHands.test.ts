import { describe, expect, it } from 'vitest';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { importOpenHands } from '../../../engine/trace/importers/importOpenHands.ts';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import type { Trace, TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { FIXTURE, fileName, HAVE_FIXTURES, readFixture } from '../../shared/fixtures.ts';
import { readFormat } from '../../shared/formatFixtures.ts';

// Hand-checked with python: 4 events (user message 0, edit action 3, its observation 4 with cause 3,
// finish 5); 2 distinct tool_call_metadata.model_response ids.
describe.skipIf(!HAVE_FIXTURES)('OpenHands importer on a real event stream', () => {
  const load = () => {
    const r = importTrace(readFixture(FIXTURE.openhands), { fileName: fileName(FIXTURE.openhands) });
    expect(r.problems).toEqual([]);
    expect(r.format).toBe('openhands');
    return { trace: r.trace as Trace, report: r.report as NonNullable<typeof r.report> };
  };

  it('[I7] 2 model calls, 1 tool call (finish is the final answer), the user message as input', () => {
    const { trace, report } = load();
    expect(report).toMatchObject({ source_records: 4, model_calls: 2, tool_calls: 1, unknown: {}, warnings: [] });
    expect(trace.events.map((e) => e.type)).toEqual([
      'agent.start', 'input.received', 'model.before_call', 'model.after_call', 'tool.before_call', 'tool.after_call',
      'model.before_call', 'model.after_call', 'final_answer.before', 'final_answer.after', 'agent.end',
    ]);
    expect(trace.events[1]).toMatchObject({
      event_id: 'oh:0:input',
      ts: '2025-01-27T22:44:56.900Z',
      payload: { prompt: 'Please create a simple 2048 game. No need to run it. Please finish the interaction after your finish coding.', image_urls: null },
    });
    expect(report.notes).toContain('timestamps have no time zone and were read as UTC');
  });

  it('[I7] the edit action maps to str_replace_editor with the model-given arguments; its observation answers it', () => {
    const { trace } = load();
    const before = trace.events[4];
    expect(before).toMatchObject({ event_id: 'oh:3:tool.before', payload: { tool_name: 'str_replace_editor', tool_use_id: 'toolu_017nBp7UfiGqyrA7j77HgtFP', action: 'edit' } });
    const input = before?.payload.tool_input as Record<string, string>;
    expect(Object.keys(input).sort()).toEqual(['command', 'file_text', 'path']);
    expect(input).toMatchObject({ command: 'create', path: '/workspace/game_2048.py' });
    expect(input.file_text?.startsWith('import random\nimport keyboard\n')).toBe(true);
    const after = trace.events[5];
    expect(after).toMatchObject({ event_id: 'oh:4:tool.after', payload: { tool_name: 'str_replace_editor', is_error: false, observation: 'edit', extras: { path: '/workspace/game_2048.py', prev_exist: false } } });
    expect(after?.payload.tool_response).toMatch(/^--- \/workspace\/game_2048.py\n\+\+\+ \/workspace\/game_2048.py/);
    expect(trace.events[3]?.payload).toMatchObject({
      model: 'claude-3-5-sonnet-20241022',
      usage: { input_tokens: 3486, output_tokens: 1135 },
      stop_reason: 'tool_calls',
      response: [{ type: 'text' }, { type: 'tool_use', id: 'toolu_017nBp7UfiGqyrA7j77HgtFP', name: 'str_replace_editor' }],
    });
    expect(trace.events[8]?.payload).toMatchObject({ tool_name: 'finish', tool_input: {}, text: expect.stringMatching(/^I've created a simple implementation of the 2048 game/) });
  });
});

describe('OpenHands importer rules', () => {
  it('[I7] pairs by cause, counts unknown kinds, reports errors and actions without observation', () => {
    const r = importOpenHands({
      trajectory: [
        { id: 1, timestamp: '2025-01-01T00:00:00Z', source: 'user', action: 'message', args: { content: 'run it' } },
        { id: 2, timestamp: '2025-01-01T00:00:01Z', source: 'agent', action: 'run', args: { command: 'python3 -m http.server 8000' } },
        { id: 3, timestamp: '2025-01-01T00:00:02Z', source: 'agent', action: 'teleport', args: {} },
        { id: 4, timestamp: '2025-01-01T00:00:03Z', source: 'agent', action: 'run', args: { command: 'ls' } },
        { id: 5, timestamp: '2025-01-01T00:00:04Z', source: 'agent', observation: 'run', cause: 4, content: 'a.txt', extras: { metadata: { exit_code: 0 } } },
        { id: 6, timestamp: '2025-01-01T00:00:05Z', source: 'environment', observation: 'agent_state_changed', content: '', extras: { agent_state: 'error', reason: 'sandbox died' } },
        { id: 7, timestamp: '2025-01-01T00:00:06Z', source: 'environment', observation: 'null', content: '' },
      ],
    });
    if (!r.ok) throw new Error('import failed');
    expect(r.trace.events.map((e) => e.type)).toEqual(['agent.start', 'input.received', 'tool.before_call', 'tool.before_call', 'tool.after_call', 'agent.error', 'agent.end']);
    expect(r.trace.events[2]?.payload).toEqual({ tool_name: 'run', tool_input: { command: 'python3 -m http.server 8000' }, tool_use_id: 'action-2', action: 'run' });
    expect(r.trace.events[4]?.payload).toMatchObject({ tool_name: 'run', tool_use_id: 'action-4', tool_response: 'a.txt' });
    expect(r.trace.events[5]?.payload).toEqual({ error: 'sandbox died' });
    expect(r.trace.events[6]?.payload).toEqual({ status: 'error', synthesised: true });
    expect(r.report.unknown).toEqual({ 'action:teleport': 1 });
    expect(r.report.skipped).toEqual({ 'observation:null': 1 });
    expect(r.report.annotations).toEqual({ 'observation:agent_state_changed': 1 });
    expect(r.report.warnings).toEqual(['action 2 (run) has no observation']);
  });

  it('[I7] refuses something that is not an event stream', () => {
    expect(importOpenHands({ events: 1 }).ok).toBe(false);
  });
});

describe('OpenHands event streams stream [I1][I7]', () => {
  const text = readFormat('openhands-text-replies.json');
  const streamed = (input: string, chunk: number) => {
    const events: TraceEvent[] = [];
    const s = createImportStream({ fileName: 'events.json', onEvent: (e) => void events.push(e) });
    for (let at = 0; at < input.length; at += chunk) s.push(input.slice(at, at + chunk));
    return { out: s.end(), events };
  };

  it('[I1][I7] an event array streams event by event to what the whole import makes, in any chunks', () => {
    const whole = importOpenHands(JSON.parse(text), { fileName: 'events.json', fallbackTraceId: 'x' });
    expect(whole.ok).toBe(true);
    for (const chunk of [1, 13, 4096]) {
      const s = streamed(text, chunk);
      expect(s.out.problems).toEqual([]);
      expect(s.events).toEqual(whole.ok && whole.trace.events.map((e) => ({ ...e, trace_id: s.out.trace?.header.trace_id })));
      expect(s.out.report).toEqual(whole.ok && whole.report);
    }
  });

  it('[I1][I7] a stream cut off keeps the events before the cut (a partial import), as JSON Lines do', () => {
    const cut = text.slice(0, text.lastIndexOf('"id"'));
    const s = streamed(cut, 97);
    expect(s.out.trace).not.toBeNull();
    expect(s.out.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'truncated' })]);
    expect(s.events.length).toBeGreaterThan(3);
  });
});
