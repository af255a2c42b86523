import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../engine/model/json.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { expectWellFormed, expectWrongAgentNamed, loadFixture, ofType } from './sessionImport.ts';

const NAME = 'gemini-cli-session.jsonl';

describe('Gemini CLI chat recording (gemini-cli-session.jsonl)', () => {
  it('[I12] counts by hand: 3 model calls (g1 written twice is one), 4 tool calls, 2 prompts, 1 final answer, 1 API error', () => {
    const { trace, report } = loadFixture(NAME, 'gemini-cli');
    expect(report).toMatchObject({ model_calls: 3, tool_calls: 4 });
    expect(ofType(trace, 'input.received').map((e) => e.payload.prompt)).toEqual(['Run the tests and fix the failing one', 'thanks']);
    expect(ofType(trace, 'final_answer.after').map((e) => e.payload.text)).toEqual(['Fixed the sign in sum.ts; the suite passes now.']);
    expect(ofType(trace, 'agent.error')[0]?.payload.error).toBe('[API Error: quota exceeded]');
    expect(trace.header.trace_id).toBe('5b0c2f1e-0000-4000-8000-00000000a001');
    expect(trace.header.agent_id).toBe('gemini-cli');
    expect(trace.events.at(-1)?.payload.status).toBe('incomplete');
  });

  it('[I12] the last copy of a message wins: tool results, model name, token counts', () => {
    const { trace } = loadFixture(NAME, 'gemini-cli');
    const m1 = ofType(trace, 'model.after_call')[0]?.payload as JsonObject;
    expect(m1.model).toBe('gemini-2.5-pro');
    expect(m1.usage).toEqual({ input: 1200, output: 40, cached: 0, thoughts: 12, tool: 0, total: 1252 });
    expect(m1.response).toEqual([
      { type: 'thinking', thinking: 'Plan: Run the suite first' },
      { type: 'tool_use', id: 'call-ls', name: 'run_shell_command', input: { command: 'npm test', description: 'run tests' } },
    ]);
  });

  it('[I12] success and failure: Exit Code 1 on a "success" call, status error and cancelled are is_error', () => {
    const { trace } = loadFixture(NAME, 'gemini-cli');
    const after = ofType(trace, 'tool.after_call');
    expect(after.map((e) => [e.payload.tool_use_id, e.payload.status, e.payload.is_error])).toEqual([
      ['call-ls', 'success', true],
      ['call-read', 'error', true],
      ['call-edit', 'success', false],
      ['call-fetch', 'cancelled', true],
    ]);
    expect(after[1]?.payload.tool_response).toEqual({ error: 'File not found: /src/missing.ts' });
  });

  it('[I12] portable fields: tool kind, command, file_path, url', () => {
    const { trace } = loadFixture(NAME, 'gemini-cli');
    const pick = (e: TraceEvent) => ({ tool: e.payload.tool, command: e.payload.command, file_path: e.payload.file_path, url: e.payload.url });
    expect(ofType(trace, 'tool.before_call').map(pick)).toEqual([
      { tool: 'shell', command: 'npm test', file_path: undefined, url: undefined },
      { tool: 'read', command: undefined, file_path: '/src/missing.ts', url: undefined },
      { tool: 'edit', command: undefined, file_path: '/src/sum.ts', url: undefined },
      { tool: 'fetch', command: undefined, file_path: undefined, url: 'https://example.com/changelog' },
    ]);
  });

  it('[I12] nesting: a subagent\'s tool call carries its agent id', () => {
    const { trace } = loadFixture(NAME, 'gemini-cli');
    const edit = trace.events.filter((e) => e.payload.tool_use_id === 'call-edit');
    expect(edit.map((e) => e.agent_id)).toEqual(['gemini-cli:codebase_investigator', 'gemini-cli:codebase_investigator']);
  });

  it('[I11] the truncated last line is an error (partial import); the unknown message type is kept and listed', () => {
    const { trace, problems, report } = loadFixture(NAME, 'gemini-cli');
    expect(problems.map((p) => [p.code, p.line, p.severity])).toEqual([
      ['truncated', 12, 'error'],
      ['unknown_record', 8, 'warning'],
    ]);
    expect(report?.unknown).toEqual({ compression_marker: 1 });
    const kept = trace.events.flatMap((e) => ((e.meta?.annotations as JsonObject[] | undefined) ?? [])).find((a) => a.kind === 'unknown:compression_marker');
    expect(kept?.record).toMatchObject({ id: 'x1', content: 'context compressed' });
  });

  it('[I3] order and ids: well formed and stable', () => {
    expectWellFormed(readFormat(NAME), NAME);
  });

  it('[I12] the older single-document session-*.json imports the same way', () => {
    const r = importTrace(readFormat('gemini-cli-session-legacy.json'), { fileName: 'session-2025-09-01T08-00-s-legacy.json' });
    expect(r.format).toBe('gemini-cli');
    expect(r.problems).toEqual([]);
    expect(r.trace?.events.map((e) => e.type)).toEqual([
      'agent.start', 'input.received', 'model.before_call', 'model.after_call', 'tool.before_call', 'tool.after_call',
      'model.before_call', 'model.after_call', 'final_answer.before', 'final_answer.after', 'agent.end',
    ]);
    expect(r.trace?.events.at(-1)?.payload.status).toBe('completed');
    expect(ofType(r.trace!, 'tool.before_call')[0]?.payload).toMatchObject({ tool: 'search', file_path: '/w' });
  });

  it('[I1] streamed in small chunks, the events are the same as in one push', () => {
    const text = readFormat(NAME);
    const got: TraceEvent[] = [];
    const s = createImportStream({ fileName: NAME, onEvent: (e) => got.push(e) });
    for (let i = 0; i < text.length; i += 7) s.push(text.slice(i, i + 7));
    s.end();
    expect(got).toEqual(importTrace(text, { fileName: NAME }).trace?.events);
  });

  it('[I1] a Claude Code transcript read as Gemini CLI is refused and named', () => {
    expectWrongAgentNamed(readFormat('claude-meta-and-compact.jsonl'), 'gemini-cli', /Claude Code/);
  });
});
