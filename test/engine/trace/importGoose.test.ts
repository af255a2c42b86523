import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../engine/model/json.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import { detectTraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { expectWellFormed, expectWrongAgentNamed, loadFixture, ofType } from './sessionImport.ts';

// #29: goose sessions, from our own synthetic files written from block/goose's message.rs, legacy.rs and
// session_manager.rs (the legacy JSON Lines file and `goose session export`; sessions.db is assembled into
// the export's shape by engine/node/sqliteSessions.ts and tested in test/engine/node/sqliteSessions.test.ts).
const LEGACY = 'goose-session.jsonl';
const EXPORT = 'goose-export.json';

describe('goose sessions', () => {
  it('[I21] counts by hand (legacy file): 5 model calls, 5 tool calls, 2 prompts, 1 final answer; the session totals on agent.end', () => {
    const { trace, report } = loadFixture(LEGACY, 'goose');
    expect(report).toMatchObject({ model_calls: 5, tool_calls: 5, synthetic_timestamps: 0 });
    expect(ofType(trace, 'input.received').map((e) => e.payload.prompt)).toEqual(['The sum test fails; fix it', 'thanks, also list the files']);
    expect(ofType(trace, 'final_answer.after').map((e) => e.payload.text)).toEqual(['Fixed the sign in src/sum.ts; the changelog could not be fetched.']);
    expect(trace.header.agent_id).toBe('goose');
    // The metadata line has no time: agent.start takes the first message's (2025-12-29T09:20:00Z = 1767000000 s).
    expect(trace.events[0]).toMatchObject({ type: 'agent.start', ts: '2025-12-29T09:20:00.000Z', payload: { working_dir: '/work/app', name: 'fix the failing test' } });
    expect(trace.events.at(-1)?.payload).toMatchObject({ status: 'incomplete', usage: { accumulated_total_tokens: 9100, input_tokens: 5000 } });
  });

  it('[I21] a model call carries its thinking, text and tool requests; the tool calls their arguments and results', () => {
    const { trace } = loadFixture(LEGACY, 'goose');
    expect(ofType(trace, 'model.after_call')[0]?.payload.response).toEqual([
      { type: 'thinking', thinking: 'Run the tests first.' },
      { type: 'text', text: 'Let me run the tests.' },
      { type: 'tool_use', id: 'toolu_1', name: 'developer__shell', input: { command: 'npm test' } },
    ]);
    const after = ofType(trace, 'tool.after_call');
    expect(after.map((e) => [e.payload.tool_use_id, e.payload.is_error, e.payload.tool_response])).toEqual([
      ['toolu_1', true, '1 failing: sum(1,2) expected 3, got -1'], // CallToolResult isError
      ['toolu_2', false, 'export const sum = (a, b) => a - b;'], // the legacy bare content list
      ['toolu_3', false, 'The file /work/app/src/sum.ts has been edited'],
      ['toolu_4', true, '-32603: request timed out'], // toolResult status error
    ]);
    expect(after[3]?.payload.error).toBe('-32603: request timed out');
  });

  it('[I13][I21] portable fields: the tool after its extension; text_editor view reads, str_replace edits', () => {
    const { trace } = loadFixture(LEGACY, 'goose');
    const pick = (e: TraceEvent) => [e.payload.tool, e.payload.command ?? e.payload.file_path ?? e.payload.url ?? null, e.payload.extension ?? null];
    expect(ofType(trace, 'tool.before_call').map(pick)).toEqual([
      ['shell', 'npm test', 'developer'],
      ['read', '/work/app/src/sum.ts', 'developer'],
      ['edit', '/work/app/src/sum.ts', 'developer'],
      ['fetch', 'https://example.com/changelog', 'computercontroller'],
      ['other', null, null],
    ]);
  });

  it('[I21] a tool call goose could not parse keeps its error and is listed as having no response', () => {
    const { trace, report } = loadFixture(LEGACY, 'goose');
    expect(ofType(trace, 'tool.before_call')[4]?.payload).toMatchObject({ tool_name: '(invalid tool call)', error: '-32602: could not parse the arguments' });
    expect(report?.warnings).toContain('tool call toolu_5 ((invalid tool call)) has no tool response in the session');
  });

  it('[I11][I21] the truncated last line is an error (partial import); the unknown content kind is kept and listed', () => {
    const { trace, problems, report } = loadFixture(LEGACY, 'goose');
    expect(problems.map((p) => [p.code, p.line, p.severity])).toEqual([
      ['truncated', 12, 'error'],
      ['unknown_record', 7, 'warning'],
    ]);
    expect(report?.unknown).toEqual({ 'content futureContent': 1 });
    const kept = trace.events.flatMap((e) => (e.meta?.annotations as JsonObject[] | undefined) ?? []).find((a) => a.kind === 'unknown:content futureContent');
    expect(kept?.record).toMatchObject({ payload: 'a content kind this importer does not know' });
  });

  it('[I21] goose session export: the session id, model and provider; a sub-agent session is goose:subagent', () => {
    const { trace, report, problems } = loadFixture(EXPORT, 'goose');
    expect(problems).toEqual([]);
    expect(report).toMatchObject({ model_calls: 2, tool_calls: 1, annotations: { systemNotification: 1 } });
    expect(trace.header.trace_id).toBe('20260301_4');
    expect(new Set(trace.events.map((e) => e.agent_id))).toEqual(new Set(['goose:subagent']));
    expect(trace.events[0]?.payload).toMatchObject({ model: 'claude-sonnet-4-5', provider: 'anthropic', session_type: 'sub_agent', name: 'explore the repo' });
    expect(ofType(trace, 'model.before_call').map((e) => e.payload.model)).toEqual(['claude-sonnet-4-5', 'claude-sonnet-4-5']);
    expect(trace.events.at(-1)?.payload.status).toBe('completed');
  });

  it('[I21] a response that answers no request, a message without content and a non-object message are unreadable records', () => {
    // Keys in serde's order (message.rs): id, role, created, content, metadata.
    const msg = (o: JsonObject) => JSON.stringify({ id: null, role: 'user', created: 1767000000, ...o, metadata: { userVisible: true, agentVisible: true } });
    const text = [
      msg({ content: [{ type: 'text', text: 'hi' }] }),
      msg({ content: [{ type: 'toolResponse', id: 'nope', toolResult: { status: 'success', value: { content: [], isError: false } } }] }),
      JSON.stringify({ id: null, role: 'assistant', created: 1767000001 }),
      '42',
    ].join('\n');
    const r = importTrace(`${text}\n`, { fileName: 'g.jsonl' });
    expect(r.format).toBe('goose');
    expect(r.problems.map((p) => [p.code, p.line, p.severity])).toEqual([
      ['unreadable_record', 2, 'error'],
      ['unreadable_record', 3, 'error'],
      ['unreadable_record', 4, 'error'],
    ]);
    expect(r.problems[0]?.message).toMatch(/answers no tool request/);
  });

  it('[I1][I21] detected from content, not the name: legacy file, a file of messages only, the pretty export', () => {
    expect(detectTraceFormat(readFormat(LEGACY), 'x.txt').format).toBe('goose');
    expect(detectTraceFormat(readFormat(LEGACY).split('\n').slice(1).join('\n'), 'x.txt').format).toBe('goose');
    expect(detectTraceFormat(readFormat(EXPORT), 'x.txt')).toMatchObject({ format: 'goose', by: 'content' });
    expect(detectTraceFormat(readFormat('opencode-export.json'), 'x').format).toBe('opencode');
    expect(detectTraceFormat(readFormat('claude-meta-and-compact.jsonl'), 'x').format).toBe('claude-code');
  });

  it('[I11][I21] a file of another agent read as goose is refused and named', () => {
    expectWrongAgentNamed(readFormat('copilot-cli-events.jsonl'), 'goose', /looks like GitHub Copilot CLI/);
  });

  it('[I3][I21] well formed: start first, end last, times in order, before before after, ids unique and stable', () => {
    expectWellFormed(readFormat(LEGACY), LEGACY);
    expectWellFormed(readFormat(EXPORT), EXPORT);
  });

  it('[I1][I21] streamed in any split, the legacy file gives the same events as read whole', () => {
    const text = readFormat(LEGACY);
    const whole = importTrace(text, { fileName: LEGACY }).trace!.events;
    const got: TraceEvent[] = [];
    const s = createImportStream({ fileName: LEGACY, onEvent: (e) => got.push(e) });
    for (let i = 0; i < text.length; i += 37) s.push(text.slice(i, i + 37));
    const out = s.end();
    expect(out.format).toBe('goose');
    expect(got).toEqual(whole);
  });
});
