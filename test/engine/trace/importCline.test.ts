import { describe, expect, it } from 'vitest';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { parseXmlToolCalls } from '../../../engine/trace/importers/clineXmlTools.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { expectWellFormed, expectWrongAgentNamed, loadFixture, ofType } from './sessionImport.ts';

const XML = 'cline-xml-task.json';
const ROO = 'roo-code-task.json';

describe('Cline task history with XML tool calls (cline-xml-task.json)', () => {
  it('[I14] counts by hand: 5 model calls, 4 tool calls (attempt_completion is the answer), 2 prompts', () => {
    const { trace, report } = loadFixture(XML, 'cline');
    expect(report).toMatchObject({ model_calls: 5, tool_calls: 4 });
    expect(ofType(trace, 'input.received').map((e) => e.payload.prompt)).toEqual(['Fix the failing test in src/sum.ts', 'Use the helper in math.ts instead']);
    expect(ofType(trace, 'final_answer.after').map((e) => e.payload.text)).toEqual(['sum now uses add from math.ts; the test passes.']);
    expect(ofType(trace, 'context.added')).toHaveLength(5);
    expect(trace.header.agent_id).toBe('cline');
    expect(trace.events.at(-1)?.payload.status).toBe('completed');
  });
  it('[I14] each result is paired with its call; an error text and a denial are is_error', () => {
    const { trace } = loadFixture(XML, 'cline');
    expect(ofType(trace, 'tool.after_call').map((e) => [e.payload.tool_name, e.payload.is_error])).toEqual([
      ['execute_command', false], ['read_file', true], ['replace_in_file', true], ['write_to_file', false],
    ]);
    expect(ofType(trace, 'tool.after_call')[0]?.payload.tool_response).toBe('Command executed.\nOutput:\n1 failing: sum(1, 2) expected 3, got -1');
    const write = ofType(trace, 'tool.before_call')[3]?.payload;
    expect(write).toMatchObject({ tool: 'write', file_path: 'src/sum.ts', tool_input: { path: 'src/sum.ts', content: "import { add } from './math';\nexport const sum = (a: number, b: number) => add(a, b);" } });
    expect(ofType(trace, 'tool.before_call')[0]?.payload).toMatchObject({ tool: 'shell', command: 'npm test', tool_input: { command: 'npm test', requires_approval: 'false' } });
  });
  it('[I11] an unknown message role is kept and listed', () => {
    const { problems, report } = loadFixture(XML, 'cline');
    expect(problems.map((p) => [p.code, p.severity])).toEqual([['unknown_record', 'warning']]);
    expect(report?.unknown).toEqual({ 'role system_note': 1 });
  });
  it('[I3] order and ids', () => expectWellFormed(readFormat(XML), XML));
  it('the XML reader: prose stays text, a cut-off call is read to the end, other tags are not tools', () => {
    expect(parseXmlToolCalls('I will look.\n<read_file>\n<path>a.ts</path>\n</read_file>')).toEqual({ calls: [{ name: 'read_file', input: { path: 'a.ts' } }], text: 'I will look.' });
    expect(parseXmlToolCalls('<execute_command><command>ls -la').calls).toEqual([{ name: 'execute_command', input: {} }]);
    expect(parseXmlToolCalls('use <b>bold</b> and <path>x</path>').calls).toEqual([]);
  });
});

describe('Roo Code task history with native tool calls (roo-code-task.json)', () => {
  it('[I14] agent, model, tokens, times, results by id; exit code 1 is is_error; new_task is a task call', () => {
    const { trace, report, problems } = loadFixture(ROO, 'cline');
    expect(problems).toEqual([]);
    expect(trace.header.agent_id).toBe('roo-code');
    expect(report).toMatchObject({ model_calls: 3, tool_calls: 3 });
    const m = ofType(trace, 'model.after_call')[0]?.payload;
    expect(m).toMatchObject({ model: 'claude-sonnet-4-5', usage: { prompt: 2100, completion: 80, cached: 0 } });
    expect(ofType(trace, 'tool.after_call').map((e) => [e.payload.tool_use_id, e.payload.tool, e.payload.is_error])).toEqual([
      ['toolu_01', 'edit', false], ['toolu_02', 'shell', true], ['toolu_03', 'task', false],
    ]);
    expect(trace.events[0]?.ts).toBe('2026-03-03T09:00:00.000Z');
    expect(ofType(trace, 'final_answer.after')[0]?.payload.text).toBe('Renamed; lint is clean.');
  });
  it('[I14] the task id comes from the tasks/<id>/ folder of the path; the extension folder names the agent', () => {
    const r = importTrace(readFormat(XML), { fileName: 'api_conversation_history.json', filePath: '/home/u/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/1772528400000/api_conversation_history.json' });
    expect(r.trace?.header.trace_id).toBe('1772528400000');
    expect(r.trace?.header.agent_id).toBe('roo-code');
  });
  it('[I3] order and ids', () => expectWellFormed(readFormat(ROO), ROO));
  it('[I1] a Gemini CLI recording read as Cline is refused and named', () => {
    expectWrongAgentNamed(readFormat('gemini-cli-session.jsonl'), 'cline', /Gemini CLI/);
  });
});

// [I1][I14] api_conversation_history.json is one JSON array: it streams message by message, so a 200 MB history is
// never held whole (docs/sessions.md, "Memory"). What that changes is checked here: the same events as before, a
// bad or cut message costs only itself, and the agent is still told by the first messages.
describe('Cline task history, streamed message by message', () => {
  const msg = (i: number) => [
    { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'execute_command', input: { command: `echo ${i}` } }], ts: 1772528400000 + i * 10 },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `${i}` }], ts: 1772528400005 + i * 10 },
  ];
  const task = [{ role: 'user', content: [{ type: 'text', text: '<task>\nEcho some numbers\n</task>' }], ts: 1772528400000 }, ...Array.from({ length: 40 }, (_, i) => msg(i)).flat()];

  it('[I1] a message that is not JSON is listed with its line, and every other message is read', () => {
    const text = JSON.stringify(task, null, 1);
    const lines = text.split('\n');
    // Break the 4th message (a tool result) in the middle of the file.
    const at = lines.findIndex((l) => l.includes('"t1"') && l.includes('tool_use_id'));
    lines[at] = lines[at]!.replace('"tool_use_id"', 'tool_use_id');
    const r = importTrace(lines.join('\n'), { fileName: 'api_conversation_history.json' });
    expect(r.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'not_json', message: expect.stringMatching(/element 5 of the array is not valid JSON/) })]);
    const whole = importTrace(JSON.stringify(task), { fileName: 'api_conversation_history.json' }).trace!;
    expect(ofType(r.trace!, 'tool.before_call')).toHaveLength(40);
    // The call whose result was in the broken message has no after event; all others do.
    expect(ofType(r.trace!, 'tool.after_call')).toHaveLength(39);
    expect(ofType(r.trace!, 'tool.after_call').map((e) => e.payload.tool_use_id)).not.toContain('t1');
    expect(ofType(whole, 'tool.after_call').map((e) => e.payload.tool_use_id)).toContain('t1');
  });

  it('[I1] a file cut before the closing ] keeps every message and says where it ends', () => {
    const text = JSON.stringify(task).slice(0, -1);
    const r = importTrace(text, { fileName: 'api_conversation_history.json' });
    expect(r.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'truncated', message: expect.stringMatching(/ends before the array's closing \] .* the 81 elements before it were read/) })]);
    expect(r.trace!.events.map((e) => e.payload)).toEqual(importTrace(JSON.stringify(task), { fileName: 'api_conversation_history.json' }).trace!.events.map((e) => e.payload));
  });

  it('[I14] with no folder to say so, a Roo Code sign within the first 50 messages names the agent of every event, the first ones too', () => {
    const roo = [...task];
    roo[30] = { role: 'user', content: [{ type: 'text', text: '<environment_details>\n<slug>code</slug>\n</environment_details>' }], ts: 1772528400150 };
    const r = importTrace(JSON.stringify(roo), { fileName: 'api_conversation_history.json' });
    expect(new Set(r.trace!.events.map((e) => e.agent_id))).toEqual(new Set(['roo-code']));
    expect(r.trace!.events[0]!.event_id).toMatch(/^roo:/);
    const cline = importTrace(JSON.stringify(task), { fileName: 'api_conversation_history.json' });
    expect(new Set(cline.trace!.events.map((e) => e.agent_id))).toEqual(new Set(['cline']));
  });
});
