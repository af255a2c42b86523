import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../engine/model/json.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import { detectTraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { expectWellFormed, expectWrongAgentNamed, loadFixture, ofType } from './sessionImport.ts';

const NAME = 'copilot-cli-events.jsonl';
const line = (o: JsonObject) => JSON.stringify(o);

describe('GitHub Copilot CLI session events (copilot-cli-events.jsonl)', () => {
  it('[I15] counts by hand: 4 model calls, 4 tool calls, 2 prompts, 1 final answer, 1 session error', () => {
    const { trace, report } = loadFixture(NAME, 'copilot-cli');
    expect(report).toMatchObject({ model_calls: 4, tool_calls: 4 });
    expect(ofType(trace, 'input.received').map((e) => e.payload.prompt)).toEqual(['Run the tests and fix what fails', 'also fetch the changelog']);
    expect(ofType(trace, 'final_answer.after').map((e) => e.payload.text)).toEqual(['Fixed the sign in src/sum.ts.']);
    expect(ofType(trace, 'agent.error')[0]?.payload).toMatchObject({ error: 'Rate limit exceeded', error_type: 'rate_limit' });
    expect(trace.header.trace_id).toBe('7c1e0a52-0000-4000-8000-00000000c001');
    expect(trace.header.agent_id).toBe('copilot-cli');
    expect(trace.events[0]?.payload).toMatchObject({ copilot_version: '1.0.9', model: 'claude-sonnet-4.5', cwd: '/work/app' });
    expect(trace.events.at(-1)?.payload.status).toBe('incomplete');
  });

  it('[I15] a model call carries its model, the reasoning before it, its tool requests and the usage written after it', () => {
    const { trace } = loadFixture(NAME, 'copilot-cli');
    const m1 = ofType(trace, 'model.after_call')[0]?.payload as JsonObject;
    expect(m1.model).toBe('claude-sonnet-4.5');
    expect(m1.usage).toEqual({ model: 'claude-sonnet-4.5', inputTokens: 1500, outputTokens: 60, cacheReadTokens: 0 });
    expect(m1.response).toEqual([
      { type: 'thinking', thinking: 'Start with the test suite.' },
      { type: 'tool_use', id: 'call-1', name: 'bash', input: { command: 'npm test', description: 'run tests' } },
    ]);
    expect((ofType(trace, 'model.after_call')[3]?.payload as JsonObject).usage).toMatchObject({ inputTokens: 2100, outputTokens: 12 });
  });

  it('[I15] tool results: success false is is_error with the error message; the others succeed', () => {
    const { trace } = loadFixture(NAME, 'copilot-cli');
    const after = ofType(trace, 'tool.after_call');
    expect(after.map((e) => [e.payload.tool_use_id, e.payload.is_error])).toEqual([
      ['call-1', true],
      ['call-3', false],
      ['call-2', false],
      ['call-4', false],
    ]);
    expect(after[0]?.payload).toMatchObject({ tool_response: '1 failing\n<exited with exit code 1>', error: 'Command failed with exit code 1' });
  });

  it('[I13][I15] portable fields: shell command, search path, task, edit file_path', () => {
    const { trace } = loadFixture(NAME, 'copilot-cli');
    const pick = (e: TraceEvent) => [e.payload.tool, e.payload.command ?? e.payload.file_path ?? null];
    expect(ofType(trace, 'tool.before_call').map(pick)).toEqual([
      ['shell', 'npm test'],
      ['task', null],
      ['search', '/work/app/src'],
      ['edit', '/work/app/src/sum.ts'],
    ]);
  });

  it('[I15] nesting: the subagent\'s calls (parentToolCallId of its task) carry its agent id', () => {
    const { trace } = loadFixture(NAME, 'copilot-cli');
    expect(trace.events.filter((e) => e.payload.tool_use_id === 'call-3').map((e) => e.agent_id)).toEqual(['copilot-cli:explore', 'copilot-cli:explore']);
    expect(trace.events.filter((e) => e.payload.tool_use_id === 'call-2').map((e) => e.agent_id)).toEqual(['copilot-cli', 'copilot-cli']);
  });

  it('[I11] the truncated last line is an error (partial import); the unknown event kind is kept and listed', () => {
    const { trace, problems, report } = loadFixture(NAME, 'copilot-cli');
    expect(problems.map((p) => [p.code, p.line, p.severity])).toEqual([
      ['truncated', 26, 'error'],
      ['unknown_record', 17, 'warning'],
    ]);
    expect(report?.unknown).toEqual({ 'session.future_feature': 1 });
    const kept = trace.events.flatMap((e) => ((e.meta?.annotations as JsonObject[] | undefined) ?? [])).find((a) => a.kind === 'unknown:session.future_feature');
    expect(kept?.record).toMatchObject({ id: 'e17', data: { note: 'a kind this importer does not know' } });
    expect(report?.skipped).toMatchObject({ 'session.idle': 1, 'assistant.turn_start': 1, 'assistant.turn_end': 1 });
  });

  it('[I11] a completion that answers no started call, and an event without data, are listed as unreadable', () => {
    const text = [
      line({ id: 'a', timestamp: '2026-04-07T09:00:00.000Z', parentId: null, type: 'session.start', data: { sessionId: 's1', version: 1, producer: 'copilot-agent', copilotVersion: '1.0.9', startTime: '2026-04-07T09:00:00.000Z' } }),
      line({ id: 'b', timestamp: '2026-04-07T09:00:01.000Z', parentId: 'a', type: 'tool.execution_complete', data: { toolCallId: 'nope', success: true } }),
      line({ id: 'c', timestamp: '2026-04-07T09:00:02.000Z', parentId: 'b', type: 'user.message' }),
    ].join('\n');
    const r = importTrace(text, { fileName: 'events.jsonl' });
    expect(r.format).toBe('copilot-cli');
    expect(r.problems.map((p) => [p.code, p.line, p.severity])).toEqual([
      ['unreadable_record', 2, 'error'],
      ['unreadable_record', 3, 'error'],
    ]);
    expect(r.problems[0]?.message).toMatch(/nope.*answers no tool\.execution_start/);
  });

  it('[I3] order and ids: well formed and stable', () => {
    expectWellFormed(readFormat(NAME), NAME);
  });

  it('[I1] detected from content, also as the second line of a file; the file name alone is a hint', () => {
    expect(detectTraceFormat(readFormat(NAME)).format).toBe('copilot-cli');
    expect(detectTraceFormat('', '/home/u/.copilot/session-state/abc/events.jsonl')).toMatchObject({ format: 'copilot-cli', by: 'file_name' });
  });

  it('[I1] streamed in small chunks, the events are the same as in one push', () => {
    const text = readFormat(NAME);
    const got: TraceEvent[] = [];
    const s = createImportStream({ fileName: NAME, onEvent: (e) => got.push(e) });
    for (let i = 0; i < text.length; i += 11) s.push(text.slice(i, i + 11));
    s.end();
    expect(got).toEqual(importTrace(text, { fileName: NAME }).trace?.events);
  });

  it('[I1] a Gemini CLI recording read as Copilot CLI is refused and named; a Copilot log is not taken for Claude Code', () => {
    expectWrongAgentNamed(readFormat('gemini-cli-session.jsonl'), 'copilot-cli', /Gemini CLI/);
    expectWrongAgentNamed(readFormat(NAME), 'claude-code', /Copilot CLI/);
  });
});

describe('Copilot CLI session totals (session.shutdown)', () => {
  // github/copilot-sdk nodejs/src/generated/session-events.ts ShutdownEvent (commit 01396124): each shutdown covers one
  // process's lifetime (a resumed session writes another), with per-model usage and requests, premium requests, API
  // time and code changes. The importer kept only its shutdownType: the session's token counts were dropped.
  const ev = (id: string, s: number, type: string, data: JsonObject) => line({ id, timestamp: `2026-09-18T00:00:${String(s).padStart(2, '0')}.000Z`, parentId: null, type, data });
  const shutdown = (id: string, s: number, metrics: JsonObject, extra: JsonObject = {}) => ev(id, s, 'session.shutdown', { shutdownType: 'routine', modelMetrics: metrics, ...extra });
  const text = [
    ev('e1', 0, 'session.start', { sessionId: 'cp-tot', copilotVersion: '1.2.0', producer: 'copilot-agent', selectedModel: 'gpt-5.4', startTime: '2026-09-18T00:00:00.000Z', context: { cwd: '/w' } }),
    ev('e2', 1, 'user.message', { content: 'Fix it' }),
    ev('e3', 2, 'assistant.message', { messageId: 'm1', content: 'Done.', toolRequests: [] }),
    shutdown('e4', 3, { 'gpt-5.4': { requests: { count: 2, cost: 1 }, usage: { inputTokens: 70, outputTokens: 10, reasoningTokens: 4, cacheReadTokens: 20, cacheWriteTokens: 2 } } }, { totalPremiumRequests: 1, totalApiDurationMs: 3000, codeChanges: { linesAdded: 1, linesRemoved: 0, filesModified: 1 } }),
    ev('e5', 4, 'session.resume', { resumeTime: '2026-09-18T00:00:04.000Z', eventCount: 4 }),
    ev('e6', 5, 'user.message', { content: 'And the docs' }),
    ev('e7', 6, 'assistant.message', { messageId: 'm2', content: 'Updated.', toolRequests: [] }),
    // JSON.parse makes `__proto__` an own key, as reading the file does (an object literal would set the prototype).
    shutdown('e8', 7, JSON.parse('{"gpt-5.4": {"requests": {"count": 1}, "usage": {"inputTokens": 5, "outputTokens": 1}}, "__proto__": {"usage": {"inputTokens": 3}}}') as JsonObject, { totalPremiumRequests: 1, codeChanges: { linesAdded: 2, linesRemoved: 1, filesModified: 1 } }),
  ].join('\n');

  it('[I15] agent.end carries the session\'s totals, summed over its shutdowns; a model named __proto__ is just a name', () => {
    const r = importTrace(text, { fileName: 'events.jsonl' });
    expect(r.format).toBe('copilot-cli');
    const end = r.trace!.events.at(-1)!;
    expect(end.type).toBe('agent.end');
    const usage = end.payload.usage as JsonObject;
    expect(usage).toMatchObject({
      totalPremiumRequests: 2, totalApiDurationMs: 3000,
      codeChanges: { linesAdded: 3, linesRemoved: 1, filesModified: 2 },
    });
    expect((usage.models as JsonObject)['gpt-5.4']).toEqual({ inputTokens: 75, outputTokens: 11, reasoningTokens: 4, cacheReadTokens: 20, cacheWriteTokens: 2, requests: 3 });
    expect(Object.prototype.hasOwnProperty.call(usage.models, '__proto__')).toBe(true);
    expect(JSON.stringify(usage.models)).toContain('"__proto__":{"inputTokens":3}');
    expect(Object.getPrototypeOf(usage.models)).toBe(Object.prototype);
  });
});
