import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../engine/model/json.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import { detectTraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { expectWellFormed, expectWrongAgentNamed, loadFixture, ofType } from './sessionImport.ts';

const V2 = 'specstory-cursor.md';
const V1 = 'specstory-legacy.md';
const pick = (e: TraceEvent) => [e.payload.tool_name, e.payload.tool, e.payload.command ?? e.payload.file_path ?? null];

describe('SpecStory Markdown v2.1 export of a Cursor chat (specstory-cursor.md)', () => {
  it('[I16] counts by hand: 7 model calls, 6 tool calls, 2 prompts, 1 final answer; agent and session from the header', () => {
    const { trace, report } = loadFixture(V2, 'specstory');
    expect(report).toMatchObject({ model_calls: 7, tool_calls: 6 });
    expect(ofType(trace, 'input.received').map((e) => e.payload.prompt)).toEqual(['The build fails, please fix it', 'thanks, now run the tests']);
    expect(ofType(trace, 'final_answer.after').map((e) => e.payload.text)).toEqual(['The build passes now: `count` is parsed as a number.']);
    expect(trace.header.trace_id).toBe('3f0c9a1e-0000-4000-8000-00000000d001');
    expect(trace.header.agent_id).toBe('cursor');
    expect(trace.events[0]).toMatchObject({ ts: '2026-05-04T14:00:00.000Z', payload: { provider: 'Cursor', markdown_version: 'v2.1.0' } });
    expect(trace.events.at(-1)?.payload.status).toBe('incomplete');
  });

  it('[I16] the agent messages up to a tool result are one model call: model, thinking, text, tool_use', () => {
    const { trace } = loadFixture(V2, 'specstory');
    const first = ofType(trace, 'model.after_call')[0]?.payload as JsonObject;
    expect(first.model).toBe('claude-4-sonnet');
    expect(first.response).toEqual([
      { type: 'thinking', thinking: 'Run the build first to see the error.' },
      { type: 'text', text: 'Let me run the build.' },
      { type: 'tool_use', id: 't1', name: 'run_terminal_cmd', input: { command: 'npm run build' } },
    ]);
  });

  it('[I13][I16] tool arguments as SpecStory shows them: command, read path, Input list, Parameters JSON; portable fields', () => {
    const { trace } = loadFixture(V2, 'specstory');
    expect(ofType(trace, 'tool.before_call').map(pick)).toEqual([
      ['run_terminal_cmd', 'shell', 'npm run build'],
      ['read_file', 'read', 'src/total.ts'],
      ['edit_file', 'edit', 'src/total.ts'],
      ['mcp_github_create_issue', 'mcp', null],
      ['grep', 'search', 'src'],
      ['run_terminal_cmd', 'shell', 'npm test'],
    ]);
    expect(ofType(trace, 'tool.before_call')[3]?.payload.tool_input).toEqual({ title: 'Build broke on main' });
  });

  it('[I16] results and failures: the code block after the command or Result, Error sections and Status error are is_error', () => {
    const { trace, report } = loadFixture(V2, 'specstory');
    const after = ofType(trace, 'tool.after_call');
    expect(after.map((e) => [e.payload.tool_use_id, e.payload.is_error])).toEqual([['t1', false], ['t3', false], ['t4', true], ['t5', false]]);
    expect(after[0]?.payload.tool_response).toBe("src/total.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.");
    expect(after[2]?.payload.tool_response).toBe('{\n  "error": "not authorized"\n}');
    // A block that shows no result is said, not invented.
    expect(report?.warnings).toEqual(['tool call t2 (read_file) shows no result in the export', 'tool call t6 (run_terminal_cmd) shows no result in the export']);
  });

  it('[I16] nesting: sidechain (subagent) messages carry their own agent id', () => {
    const { trace } = loadFixture(V2, 'specstory');
    expect(trace.events.filter((e) => e.payload.tool_use_id === 't5').map((e) => e.agent_id)).toEqual(['cursor:sidechain', 'cursor:sidechain']);
  });

  it('[I11] a cut last line is an error (partial import, read as it is); a message of an unknown role is kept and listed', () => {
    const { trace, problems, report } = loadFixture(V2, 'specstory');
    expect(problems.map((p) => [p.code, p.line, p.severity])).toEqual([
      ['truncated', 117, 'error'],
      ['unknown_record', 103, 'warning'],
    ]);
    expect(report?.unknown).toEqual({ 'message System': 1 });
    const kept = trace.events.flatMap((e) => ((e.meta?.annotations as JsonObject[] | undefined) ?? [])).find((a) => a.kind === 'unknown:message System');
    expect(kept?.record).toEqual({ role: 'System', text: 'Checkpoint created.' });
  });

  it('[I3] order and ids: well formed and stable', () => {
    expectWellFormed(readFormat(V2), V2);
    expectWellFormed(readFormat(V1), V1);
  });

  it('[I1] streamed in small chunks, the events are the same as in one push', () => {
    const text = readFormat(V2);
    const got: TraceEvent[] = [];
    const s = createImportStream({ fileName: V2, onEvent: (e) => got.push(e) });
    for (let i = 0; i < text.length; i += 5) s.push(text.slice(i, i + 5));
    s.end();
    expect(got).toEqual(importTrace(text, { fileName: V2 }).trace?.events);
  });

  it('[I1] detected by content (header, or message headers alone); another agent\'s file forced as SpecStory is refused and named', () => {
    expect(detectTraceFormat(readFormat(V1)).format).toBe('specstory');
    expect(detectTraceFormat('_**User (2026-05-04 14:00:00Z)**_\n\nhi\n\n---\n\n_**Agent (gpt-5)**_\n\nhello\n').format).toBe('specstory');
    expect(detectTraceFormat('# Notes\n\nplain markdown\n').format).toBeNull();
    expectWrongAgentNamed(readFormat('copilot-cli-events.jsonl'), 'specstory', /Copilot CLI/);
    expectWrongAgentNamed(readFormat(V2), 'gemini-cli', /SpecStory/);
  });

  it('[I16] a Claude Code session exported by SpecStory is claude-code, its tools read with Claude Code names', () => {
    const text = [
      '<!-- Generated by SpecStory, Markdown v2.1.0 -->', '', '<!-- Claude Code Session 5c7d-1 (2026-07-13 13:40:49Z) -->', '',
      '_**User (2026-07-13 13:40:49Z)**_', '', 'clean up', '', '---', '', '_**Agent (claude-opus-4 2026-07-13 13:40:56Z)**_', '',
      '<tool-use data-tool-type="shell" data-tool-name="Bash"><details>', '<summary>Tool use: **Bash**</summary>', 'Remove the build', '',
      '```bash', 'rm -rf dist', '```', '', '```text', 'done', '```', '</details></tool-use>', '',
    ].join('\n');
    const r = importTrace(text, { fileName: 'x.md' });
    expect(r.trace?.header.agent_id).toBe('claude-code');
    expect(ofType(r.trace!, 'tool.before_call').map(pick)).toEqual([['Bash', 'shell', 'rm -rf dist']]);
    expect(ofType(r.trace!, 'tool.after_call')[0]?.payload.tool_response).toBe('done');
  });
});

describe('SpecStory export of the older extension (specstory-legacy.md)', () => {
  it('[I16] details blocks, "Read file:" lines and code-only messages become tool calls; the rest is text', () => {
    const { trace, problems } = loadFixture(V1, 'specstory');
    expect(problems).toEqual([]);
    expect(ofType(trace, 'tool.before_call').map(pick)).toEqual([
      ['grep_search', 'search', null],
      ['read_file', 'read', 'src/date.ts'],
      ['run_terminal_cmd', 'shell', 'npm test -- date'],
    ]);
    expect(ofType(trace, 'tool.after_call').map((e) => e.payload.tool_response)).toEqual([
      expect.stringContaining('parseDate(s: string)'),
      'FAIL src/date.test.ts',
    ]);
    expect(ofType(trace, 'final_answer.after')[0]?.payload.text).toBe('The zone was cut off; I fixed the regex in src/date.ts.');
    expect(trace.header.trace_id).toBe('specstory-specstory-legacy');
  });
});
