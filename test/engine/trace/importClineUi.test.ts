import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../engine/model/json.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { detectTraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { expectWellFormed, expectWrongAgentNamed, ofType } from './sessionImport.ts';

const NAME = 'cline-ui-messages.json';
const load = (path = `/home/u/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1772528400000/ui_messages.json`) =>
  importTrace(readFormat(NAME), { fileName: 'ui_messages.json', filePath: path });

describe("Cline's UI message log (ui_messages.json)", () => {
  it('[I20] counts by hand: 4 model calls (api_req_started), 3 tool calls, 2 prompts, 1 final answer, 1 error; task id from the path', () => {
    const r = load();
    expect(r.format).toBe('cline-ui');
    const t = r.trace!;
    expect(r.report).toMatchObject({ model_calls: 4, tool_calls: 3 });
    expect(ofType(t, 'input.received').map((e) => e.payload.prompt)).toEqual(['Fix the failing date test', 'also check the docs']);
    expect(ofType(t, 'final_answer.after').map((e) => e.payload.text)).toEqual(['The date parser keeps the zone now.']);
    expect(ofType(t, 'agent.error')).toHaveLength(1);
    expect(t.header).toMatchObject({ trace_id: '1772528400000', agent_id: 'cline' });
    expect(importTrace(readFormat(NAME), { fileName: 'ui_messages.json', filePath: '/x/rooveterinaryinc.roo-cline/tasks/9/ui_messages.json' }).trace?.header.agent_id).toBe('roo-code');
  });

  it('[I20] a model call: its usage from api_req_started, its text and reasoning, its tool_use; partial updates skipped', () => {
    const r = load();
    const first = ofType(r.trace!, 'model.after_call')[0]?.payload as JsonObject;
    expect(first.usage).toEqual({ tokensIn: 1500, tokensOut: 80, cacheReads: 0, cacheWrites: 1200, cost: 0.012 });
    expect(first.response).toEqual([
      { type: 'text', text: "I'll run the tests first." },
      { type: 'tool_use', id: 'm5', name: 'execute_command', input: { command: 'npm test -- date' } },
    ]);
    expect(r.report?.skipped).toEqual({ 'say:text (partial)': 1 });
  });

  it('[I13][I20] tools: the command with its output (Exit code 1 → is_error), the file edit (no result in this log, said), the MCP call failing', () => {
    const r = load();
    const t = r.trace!;
    expect(ofType(t, 'tool.before_call').map((e) => [e.payload.tool_name, e.payload.tool, e.payload.command ?? e.payload.file_path ?? null])).toEqual([
      ['execute_command', 'shell', 'npm test -- date'],
      ['replace_in_file', 'edit', 'src/date.ts'],
      ['use_mcp_tool', 'mcp', null],
    ]);
    expect(ofType(t, 'tool.after_call').map((e) => [e.payload.tool_use_id, e.payload.tool_response, e.payload.is_error])).toEqual([
      ['m5', 'FAIL src/date.test.ts\nExit code: 1', true],
      ['m13', 'Error: not authorized', true],
    ]);
    expect(r.report?.notes).toContain('1 file tool calls have no result here: ui_messages.json does not keep them (api_conversation_history.json beside it does)');
  });

  it('[I11] an unknown message kind is kept and listed; a cut file keeps the messages before the cut and lists it as truncated; the wrong agent is named', () => {
    const r = load();
    expect(r.problems.map((p) => [p.code, p.severity])).toEqual([['unknown_record', 'warning']]);
    expect(r.problems[0]?.message).toMatch(/message 15: .*say:future_widget/);
    // The array streams element by element [I1]: a file cut inside a message is read up to it (a partial import).
    const path = '/home/u/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1772528400000/ui_messages.json';
    const cut = importTrace(readFormat(NAME).slice(0, 900), { fileName: 'ui_messages.json', filePath: path });
    const whole = load(path).trace!;
    expect(cut.trace!.events.length).toBeGreaterThan(1);
    // The same events up to the cut; the command whose output was cut off ends with what was read of it.
    const before = cut.trace!.events.slice(0, -2);
    expect(before.map((e) => e.payload)).toEqual(whole.events.slice(0, before.length).map((e) => e.payload));
    expect(cut.trace!.events.at(-2)!.payload).toMatchObject({ tool_name: 'execute_command', tool_response: 'FAIL src/date.test.ts' });
    expect(cut.trace!.events.at(-1)!.type).toBe('agent.end');
    expect(cut.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'truncated', severity: 'error', line: 39, message: expect.stringMatching(/the file ends inside element \d+ of the array/) })]);
    expectWrongAgentNamed(readFormat(NAME), 'cline', /UI messages/);
    expectWrongAgentNamed(readFormat('cline-xml-task.json'), 'cline-ui', /api_conversation_history/);
  });

  it('[I3][I1] well formed and stable; detected by content', () => {
    expectWellFormed(readFormat(NAME), NAME);
    expect(detectTraceFormat(readFormat(NAME)).format).toBe('cline-ui');
  });
});
