import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../engine/model/json.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { importClaudeCode } from '../../../engine/trace/importers/importClaudeCode.ts';
import type { Trace, TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { FIXTURE, fileName, HAVE_FIXTURES, readFixture } from '../../shared/fixtures.ts';

function load(rel: string): { trace: Trace; report: NonNullable<ReturnType<typeof importTrace>['report']> } {
  const r = importTrace(readFixture(rel), { fileName: fileName(rel) });
  expect(r.problems).toEqual([]);
  expect(r.format).toBe('claude-code');
  return { trace: r.trace as Trace, report: r.report as NonNullable<typeof r.report> };
}

const byId = (t: Trace, id: string): TraceEvent => t.events.find((e) => e.event_id === id) as TraceEvent;
const annotations = (e: TraceEvent): JsonObject[] => (e.meta?.annotations ?? []) as JsonObject[];

// Counts checked by hand with python over the fixtures: tool_use blocks, tool_result blocks, distinct
// message.id values, typed prompts (string content, not meta, not <command…>), hook_progress records.
describe.skipIf(!HAVE_FIXTURES)('Claude Code importer on real transcripts', () => {
  it('[I4] spotter_short: 2 tool calls (Bash, Glob), 1 model call, 1 prompt, 3 hook runs', () => {
    const { trace, report } = load(FIXTURE.ccShort);
    expect(report).toMatchObject({ source_records: 15, tool_calls: 2, model_calls: 1, synthetic_timestamps: 0 });
    expect(report.event_counts).toEqual({
      'agent.start': 1, 'input.received': 1, 'model.before_call': 1, 'model.after_call': 1, 'tool.before_call': 2, 'tool.after_call': 2, 'agent.end': 1,
    });
    expect(report.annotations).toEqual({ hook_progress: 3, 'user:interrupt': 1, 'system:local_command': 2 });
    expect(report.skipped).toEqual({ 'file-history-snapshot': 1 });
    expect(report.unknown).toEqual({});
    expect(trace.header).toMatchObject({ trace_id: '55604662-cf2a-4331-851a-ec234028f8ca', agent_id: 'claude-code', created: '2026-02-10T21:11:52.438Z' });
    expect(trace.header.source).toEqual({ kind: 'claude-code', session_id: '55604662-cf2a-4331-851a-ec234028f8ca', version: '2.1.38', cwd: '/home/marco/projects/spotter', git_branch: 'master', file_name: 'spotter_short.jsonl' });
  });

  it('[I4] spotter_short: the exact mapping of the prompt, the Bash call and its rejected result', () => {
    const { trace } = load(FIXTURE.ccShort);
    expect(trace.events.map((e) => e.type)).toEqual([
      'agent.start', 'input.received', 'model.before_call', 'model.after_call', 'tool.before_call', 'tool.before_call', 'tool.after_call', 'tool.after_call', 'agent.end',
    ]);
    expect(trace.events[1]).toEqual({
      event_id: 'cc:7d48cbd2-6615-4dd8-87f6-38f12b8167d6:input',
      trace_id: '55604662-cf2a-4331-851a-ec234028f8ca',
      agent_id: 'claude-code',
      type: 'input.received',
      ts: '2026-02-10T21:11:56.846Z',
      payload: { prompt: 'mix phx.server doesnt seem to start', permission_mode: 'bypassPermissions' },
    });
    const bash = byId(trace, 'cc:toolu_0116Hyi5v8ut7Ffb7d8qV1Sc:before');
    expect(bash).toMatchObject({
      type: 'tool.before_call',
      ts: '2026-02-10T21:12:01.117Z',
      payload: { tool_name: 'Bash', tool_input: { command: 'mix phx.server 2>&1 | head -80', timeout: 30000 }, tool_use_id: 'toolu_0116Hyi5v8ut7Ffb7d8qV1Sc' },
    });
    // The PreToolUse hook that really ran for this call is kept on it.
    expect(annotations(bash)).toEqual([
      { kind: 'hook_progress', hook_event: 'PreToolUse', hook_name: 'PreToolUse:Bash', command: 'cd ${CLAUDE_PLUGIN_ROOT}/hooks && bun run ./guardian.ts', tool_use_id: 'toolu_0116Hyi5v8ut7Ffb7d8qV1Sc', ts: '2026-02-10T21:12:01.124Z' },
    ]);
    expect(byId(trace, 'cc:toolu_0116Hyi5v8ut7Ffb7d8qV1Sc:after').payload).toMatchObject({
      tool_name: 'Bash',
      tool_response: 'User rejected tool use',
      is_error: true,
      content: expect.stringMatching(/^The user doesn't want to proceed with this tool use/),
    });
    // One model call: the five assistant records of msg_01MKH… with all their blocks.
    const model = byId(trace, 'cc:msg_01MKH1ccEGrZGNPvu8pYiiQa:after');
    expect((model.payload.response as JsonObject[]).map((b) => b.type)).toEqual(['text', 'thinking', 'text', 'tool_use', 'tool_use']);
    expect(model.payload).toMatchObject({ model: 'claude-opus-4-6', usage: { input_tokens: 3, output_tokens: 13 } });
    expect(annotations(trace.events[0] as TraceEvent).map((a) => a.command)).toEqual(['/home/marco/.claude/hooks/tmux-waiting.sh clear', 'bd prime']);
    expect(trace.events[8]?.payload).toEqual({ status: 'interrupted', session_id: '55604662-cf2a-4331-851a-ec234028f8ca' });
  });

  it('[I4] spotter_tool_heavy: 6 tool calls, 4 model calls, 2 prompts, 10 hook runs, no final answer', () => {
    const { trace, report } = load(FIXTURE.ccHeavy);
    expect(report).toMatchObject({ source_records: 39, tool_calls: 6, model_calls: 4 });
    expect(report.event_counts).toMatchObject({ 'input.received': 2, 'tool.after_call': 6, 'model.after_call': 4 });
    expect(report.event_counts).not.toHaveProperty('final_answer.before'); // every turn was interrupted
    // The one isMeta record (injected text, not typed) is context.added, not input [I4].
    expect(report.event_counts).toMatchObject({ 'context.added': 1 });
    expect(report.annotations).toEqual({ hook_progress: 10, 'user:interrupt': 2, 'user:local_command': 2, 'system:local_command': 2 });
    expect(report.skipped).toEqual({ 'file-history-snapshot': 3, 'queue-operation': 2 });
    const tools = trace.events.filter((e) => e.type === 'tool.before_call').map((e) => e.payload.tool_name);
    expect(tools).toEqual(['Bash', 'Bash', 'WebSearch', 'Glob', 'Read', 'WebFetch']);
    expect(trace.events.filter((e) => e.type === 'input.received').map((e) => e.payload.prompt)).toEqual([
      'start phoenix in background',
      'scrolling back in xterm.js still does not work (maybe because outer web catches it)? websearch xterm.js tmux interactions',
    ]);
  });

  it('[I4] spotter_tool_heavy: a model call spanning a tool result, structured tool_response, PostToolUse on the result', () => {
    const { trace } = load(FIXTURE.ccHeavy);
    const ids = trace.events.map((e) => e.event_id);
    // msg_019BN… streamed Read, whose result arrived before its second block (WebFetch).
    const group = byId(trace, 'cc:msg_019BN3FRqb7NU4DgBN5jdsym:after');
    expect((group.payload.response as JsonObject[]).map((b) => b.name)).toEqual(['Read', 'WebFetch']);
    expect(ids.indexOf('cc:toolu_01VpPeBD2ziigLLpybShAGoU:after')).toBeLessThan(ids.indexOf('cc:toolu_017Q5Sr8KaSgowYhbKXBnfV2:before'));
    const glob = byId(trace, 'cc:toolu_01JJds55jYrYwd9TktNGndRY:after');
    expect(glob.payload).toEqual({
      tool_name: 'Glob',
      tool_input: { pattern: 'assets/js/**/*.js' },
      tool_response: { filenames: ['/home/marco/projects/spotter/assets/js/app.js'], durationMs: 230, numFiles: 1, truncated: false },
      is_error: false,
      tool_use_id: 'toolu_01JJds55jYrYwd9TktNGndRY',
      content: '/home/marco/projects/spotter/assets/js/app.js',
      tool: 'search', // [I13]: Glob is a search; its `path` is not given, so none is named
    });
    expect(annotations(glob)).toEqual([expect.objectContaining({ hook_event: 'PostToolUse', hook_name: 'PostToolUse:Glob', command: 'callback' })]);
    const bg = byId(trace, 'cc:toolu_018GZVh9ymkrdx1TnR8reg5Y:before');
    expect(bg.payload.tool_input).toEqual({ command: 'mix phx.server', description: 'Start Phoenix server in background', run_in_background: true });
    expect(annotations(bg).map((a) => a.command)).toEqual([
      'cd ${CLAUDE_PLUGIN_ROOT}/hooks && bun run ./guardian.ts',
      '${CLAUDE_PLUGIN_ROOT}/scripts/pre-commit.sh',
      '${CLAUDE_PLUGIN_ROOT}/scripts/pre-commit-check.sh',
    ]);
  });
});

describe('Claude Code importer rules', () => {
  const base = { sessionId: 's1', cwd: '/w', version: '2.1.38', isSidechain: false };
  const rec = (line: number, value: JsonObject) => ({ line, value: { ...base, ...value } });

  it('[I4] a text-only last model call of a turn is the final answer; the next prompt starts a new turn', () => {
    const r = importClaudeCode([
      rec(1, { type: 'user', uuid: 'u1', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'hi' } }),
      rec(2, { type: 'assistant', uuid: 'a1', timestamp: '2026-01-01T00:00:01Z', message: { id: 'm1', model: 'claude-x', content: [{ type: 'text', text: 'Hello!' }], stop_reason: 'end_turn' } }),
      rec(3, { type: 'system', subtype: 'stop_hook_summary', uuid: 'y1', timestamp: '2026-01-01T00:00:02Z', hookCount: 1, preventedContinuation: false }),
      rec(4, { type: 'user', uuid: 'u2', timestamp: '2026-01-01T00:00:03Z', message: { role: 'user', content: 'again' } }),
    ]);
    if (!r.ok) throw new Error('import failed');
    expect(r.trace.events.map((e) => e.type)).toEqual(['agent.start', 'input.received', 'model.before_call', 'model.after_call', 'final_answer.before', 'final_answer.after', 'input.received', 'agent.end']);
    expect(r.trace.events[4]?.payload).toEqual({ text: 'Hello!' });
    expect(r.trace.events[5]?.meta?.annotations).toEqual([expect.objectContaining({ kind: 'system:stop_hook_summary', hookCount: 1 })]);
    expect(r.trace.events[7]?.payload.status).toBe('incomplete');
    expect(r.trace.events[3]?.payload.stop_reason).toBe('end_turn');
  });

  it('[I2] unknown record kinds are counted, not dropped silently; a tool call without result is a warning', () => {
    const r = importClaudeCode([
      rec(1, { type: 'user', uuid: 'u1', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'go' } }),
      rec(2, { type: 'assistant', uuid: 'a1', timestamp: '2026-01-01T00:00:01Z', message: { id: 'm1', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'rm -rf /' } }] } }),
      rec(3, { type: 'brand-new-kind', uuid: 'x' }),
      rec(4, { type: 'brand-new-kind', uuid: 'y' }),
      { line: 5, value: 42 },
      rec(6, { type: 'system', subtype: 'api_error', uuid: 'e1', timestamp: '2026-01-01T00:00:02Z', content: 'overloaded' }),
    ]);
    if (!r.ok) throw new Error('import failed');
    expect(r.report.unknown).toEqual({ 'brand-new-kind': 2, '(not an object)': 1 });
    expect(r.report.warnings).toEqual(['tool call t1 (Bash) has no tool_result in the transcript']);
    expect(r.trace.events.find((e) => e.type === 'agent.error')?.payload).toEqual({ error: 'overloaded' });
  });

  it('[I2] a transcript without session ids still starts and ends the run, and says where the id came from', () => {
    const r = importClaudeCode([{ line: 1, value: { type: 'user', uuid: 'u1', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'hi' } } }], { fallbackTraceId: 'claude-code-abc' });
    if (!r.ok) throw new Error('import failed');
    expect(r.trace.header.trace_id).toBe('claude-code-abc');
    expect(r.trace.events.map((e) => [e.type, e.ts])).toEqual([
      ['agent.start', '2026-01-01T00:00:00.000Z'],
      ['input.received', '2026-01-01T00:00:00.000Z'],
      ['agent.end', '2026-01-01T00:00:00.000Z'],
    ]);
    expect(r.report.warnings).toEqual(['no record carries a sessionId: the trace id was derived from the input']);
  });

  it('[I3] importing the same transcript twice gives the same trace', () => {
    if (!HAVE_FIXTURES) return;
    const text = readFixture(FIXTURE.ccHeavy);
    expect(importTrace(text)).toEqual(importTrace(text));
  });
});
