import { describe, expect, it } from 'vitest';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { importSweAgent } from '../../../engine/trace/importers/importSweAgent.ts';
import { commandsFromSystemPrompt, parseSweAction, splitWords, SWE_COMMANDS } from '../../../engine/trace/importers/parseSweAction.ts';
import type { Trace } from '../../../engine/trace/traceTypes.ts';
import { FIXTURE, fileName, HAVE_FIXTURES, readFixture } from '../../shared/fixtures.ts';

const cmds = new Set(SWE_COMMANDS);

// Hand-checked with python: 12 trajectory steps, 12 non-demo assistant messages, info.model_stats.api_calls 12;
// actions: create, edit, python, find_file, open, edit ×4, python, rm, submit.
describe.skipIf(!HAVE_FIXTURES)('SWE-agent importer on a real trajectory (old action-string format)', () => {
  const text = HAVE_FIXTURES ? readFixture(FIXTURE.swe) : '';
  const load = () => {
    const r = importTrace(text, { fileName: fileName(FIXTURE.swe) });
    expect(r.problems).toEqual([]);
    expect(r.format).toBe('swe-agent');
    return { trace: r.trace as Trace, report: r.report as NonNullable<typeof r.report> };
  };

  it('[I6] 12 model calls, 12 tool calls, one final answer, every timestamp synthesised', () => {
    const { trace, report } = load();
    expect(report).toMatchObject({ model_calls: 12, tool_calls: 12, warnings: [], unknown: {} });
    expect(report.event_counts).toMatchObject({ 'input.received': 1, 'prompt.built': 1, 'tool.after_call': 12, 'final_answer.before': 1, 'agent.end': 1 });
    expect(report.synthetic_timestamps).toBe(trace.events.length);
    expect(trace.events.length).toBe(54);
    expect(trace.events[0]?.ts).toBe('1970-01-01T00:00:00.000Z');
    expect(trace.events[53]?.ts).toBe('1970-01-01T00:00:53.000Z');
    expect(trace.header.trace_id).toBe('swe-agent-pydicom__pydicom-1458.gpt4');
    const end = trace.events[53];
    expect(end?.payload).toMatchObject({ status: 'submitted', model_stats: { api_calls: 12, tokens_sent: 122612 } });
  });

  it('[I6] action strings become SWE-agent tools or bash, with their arguments', () => {
    const { trace } = load();
    const calls = trace.events.filter((e) => e.type === 'tool.before_call');
    expect(calls.map((e) => e.payload.tool_name)).toEqual(['create', 'edit', 'bash', 'find_file', 'open', 'edit', 'edit', 'edit', 'edit', 'bash', 'bash', 'submit']);
    expect(calls[10]).toMatchObject({ event_id: 'swe:step-10:tool.before', payload: { tool_name: 'bash', tool_input: { command: 'rm reproduce_bug.py' }, tool_use_id: 'step-10' } });
    expect(calls[3]?.payload.tool_input).toEqual({ command: 'find_file "numpy_handler.py"', args: ['numpy_handler.py'] });
    expect(calls[4]?.payload.tool_input).toEqual({ command: 'open pydicom/pixel_data_handlers/numpy_handler.py 293', args: ['pydicom/pixel_data_handlers/numpy_handler.py', '293'] });
    const edit = calls[1]?.payload.tool_input as { args: string[]; text: string };
    expect(edit.args).toEqual(['1:1']);
    expect(edit.text.startsWith('import numpy as np\nfrom pydicom.dataset import Dataset, FileMetaDataset')).toBe(true);
    expect(edit.text).not.toContain('end_of_edit');
    const after = trace.events.find((e) => e.event_id === 'swe:step-2:tool.after');
    expect(after?.payload).toMatchObject({ tool_name: 'bash', state: { open_file: '/pydicom__pydicom/reproduce_bug.py', working_dir: '/pydicom__pydicom' } });
    expect(after?.payload.tool_response).toMatch(/^Traceback \(most recent call last\)/);
  });

  it('[I6] the issue is the input, the prompt is system + demonstration + issue, the patch is the final answer', () => {
    const { trace } = load();
    const doc = JSON.parse(text);
    expect(trace.events[1]).toMatchObject({ type: 'input.received', payload: { prompt: doc.history[2].content } });
    expect((trace.events[2]?.payload.messages as unknown[]).length).toBe(3);
    const firstCall = trace.events[3];
    expect(firstCall?.type).toBe('model.before_call');
    expect((firstCall?.payload.messages as unknown[]).length).toBe(3);
    expect((trace.events.find((e) => e.event_id === 'swe:step-1:model.before')?.payload.messages as unknown[]).length).toBe(1);
    const final = trace.events.find((e) => e.type === 'final_answer.before');
    expect(final?.payload.text).toBe(doc.info.submission);
    expect(final?.event_id).toBe('swe:step-11:final.before');
  });
});

describe('SWE-agent importer rules', () => {
  it('[I6] parses old action strings', () => {
    expect(parseSweAction('submit\n', cmds)).toEqual({ tool_name: 'submit', tool_input: { command: 'submit', args: [] } });
    expect(parseSweAction('search_dir "def foo" src\n', cmds)).toEqual({ tool_name: 'search_dir', tool_input: { command: 'search_dir "def foo" src', args: ['def foo', 'src'] } });
    expect(parseSweAction('ls -la | grep x\n', cmds)).toEqual({ tool_name: 'bash', tool_input: { command: 'ls -la | grep x' } });
    expect(parseSweAction('edit 3:4\n  x = 1\nend_of_edit\n', cmds).tool_input).toEqual({ command: 'edit 3:4\n  x = 1\nend_of_edit', args: ['3:4'], text: '  x = 1' });
    expect(splitWords(`a "b c" 'd' ""`)).toEqual(['a', 'b c', 'd', '']);
    expect(commandsFromSystemPrompt('COMMANDS:\nopen:\n  docstring: opens\nmy_tool:\n  docstring: custom\n')).toEqual(['open', 'my_tool']);
  });

  it('[I6] function-calling trajectories: tool_calls answered by tool messages, submit then the final answer', () => {
    const r = importSweAgent({
      trajectory: [],
      history: [
        { role: 'system', content: 'You are a helpful assistant.', agent: 'main', message_type: 'system_prompt' },
        { role: 'user', content: 'Fix the bug.', agent: 'main', message_type: 'observation' },
        { role: 'assistant', content: 'Cleaning up.', thought: 'Cleaning up.', agent: 'main', message_type: 'action', tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'bash', arguments: '{"command":"rm reproduce.py"}' } }] },
        { role: 'tool', content: '', agent: 'main', message_type: 'observation', tool_call_ids: ['call_a'] },
        { role: 'assistant', content: 'Submitting.', agent: 'main', tool_calls: [{ id: 'call_b', type: 'function', function: { name: 'submit', arguments: '{}' } }, { id: 'call_c', type: 'function', function: { name: 'edit', arguments: 'not json' } }] },
        { role: 'tool', content: 'diff --git a/x b/x', agent: 'main', tool_call_ids: ['call_b'] },
      ],
      info: { exit_status: 'exit_cost', submission: 'diff --git a/x b/x', model_stats: { api_calls: 2 } },
      replay_config: JSON.stringify({ agent: { model: { name: 'gpt-4o' } }, problem_statement: { id: 'repo__issue-1' } }),
    });
    if (!r.ok) throw new Error('import failed');
    const t = r.trace;
    expect(t.header.trace_id).toBe('repo__issue-1');
    expect(t.events.map((e) => e.type)).toEqual([
      'agent.start', 'input.received', 'prompt.built',
      'model.before_call', 'model.after_call', 'tool.before_call', 'tool.after_call',
      'model.before_call', 'model.after_call', 'tool.before_call', 'tool.before_call', 'tool.after_call', 'final_answer.before', 'final_answer.after',
      'agent.error', 'agent.end',
    ]);
    expect(t.events[5]?.payload).toEqual({ tool_name: 'bash', tool_input: { command: 'rm reproduce.py' }, tool_use_id: 'call_a' });
    expect(t.events[3]?.payload).toMatchObject({ model: 'gpt-4o', messages: [{ role: 'system' }, { role: 'user' }] });
    expect(t.events[7]?.payload.messages).toEqual([expect.objectContaining({ role: 'tool', tool_call_ids: ['call_a'] })]);
    expect(t.events[10]?.payload.tool_input).toEqual({ arguments: 'not json' });
    expect(t.events[12]?.payload.text).toBe('diff --git a/x b/x');
    expect(t.events[14]?.payload).toEqual({ error: 'exit_cost' });
    expect(r.report.warnings).toEqual(['tool call call_c: arguments are not a JSON object; kept as tool_input.arguments', 'tool call call_c (edit) has no result in history']);
    expect(t.header.source).toMatchObject({ kind: 'swe-agent', format: 'function_calling' });
  });

  it('[I6] refuses a document that is not a trajectory', () => {
    const r = importSweAgent({ trajectory: 'nope' });
    expect(r.ok).toBe(false);
  });
});
