import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../engine/model/json.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import { detectTraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { expectWellFormed, expectWrongAgentNamed, loadFixture, ofType } from './sessionImport.ts';

const NAME = 'qwen-code-session.jsonl';

describe('Qwen Code chat recording (qwen-code-session.jsonl): Claude Code-like records with Gemini parts', () => {
  it('[I19] detected as Qwen Code, not Claude Code, even when the first record has no message', () => {
    expect(detectTraceFormat(readFormat(NAME)).format).toBe('qwen-code');
    expect(detectTraceFormat(readFormat('claude-meta-and-compact.jsonl')).format).toBe('claude-code');
    expectWrongAgentNamed(readFormat(NAME), 'claude-code', /Qwen Code/);
    expectWrongAgentNamed(readFormat('claude-meta-and-compact.jsonl'), 'qwen-code', /Claude Code/);
  });

  it('[I19] counts by hand: 3 model calls, 2 tool calls, 1 prompt, 1 final answer; model, usage, thinking', () => {
    const { trace, report } = loadFixture(NAME, 'qwen-code');
    expect(report).toMatchObject({ model_calls: 3, tool_calls: 2 });
    expect(ofType(trace, 'input.received').map((e) => e.payload.prompt)).toEqual(['Why does the build fail?']);
    expect(ofType(trace, 'final_answer.after').map((e) => e.payload.text)).toEqual(['The build fails on a strict null check in src/a.ts.']);
    const m1 = ofType(trace, 'model.after_call')[0]?.payload as JsonObject;
    expect(m1).toMatchObject({ model: 'qwen3-coder-plus', usage: { promptTokenCount: 900, candidatesTokenCount: 30, totalTokenCount: 930 } });
    expect((m1.response as JsonObject[])[0]).toEqual({ type: 'thinking', thinking: 'Check the build first.' });
    expect(trace.header).toMatchObject({ trace_id: '9d2e4c10-0000-4000-8000-00000000e001', agent_id: 'qwen-code' });
  });

  it('[I13][I19] tool results: Exit Code 2 is is_error; portable fields from Gemini CLI\'s tool names; the subagent\'s calls are nested', () => {
    const { trace } = loadFixture(NAME, 'qwen-code');
    const after = ofType(trace, 'tool.after_call');
    expect(after.map((e) => [e.payload.tool, e.payload.command ?? e.payload.file_path, e.payload.is_error, e.agent_id])).toEqual([
      ['shell', 'npm run build', true, 'qwen-code'],
      ['read', '/w/tsconfig.json', false, 'qwen-code:explore-7f3c'],
    ]);
  });

  it('[I11] the truncated last line is an error; an unknown record type is kept and listed; a result without its call is unreadable', () => {
    const { problems, report } = loadFixture(NAME, 'qwen-code');
    expect(problems.map((p) => [p.code, p.line, p.severity])).toEqual([['truncated', 9, 'error'], ['unknown_record', 7, 'warning']]);
    expect(report?.unknown).toEqual({ checkpoint: 1 });
    expect(report?.annotations).toMatchObject({ 'system:session_source': 1 });
    const orphan = JSON.stringify({ uuid: 'x', parentUuid: null, sessionId: 's', timestamp: '2026-11-02T08:00:00.000Z', type: 'tool_result', cwd: '/', version: '1', message: { role: 'user', parts: [{ functionResponse: { id: 'nope', name: 'x', response: {} } }] } });
    const r = importTrace(orphan, { fileName: 'q.jsonl' });
    expect(r.format).toBe('qwen-code');
    expect(r.problems.map((p) => [p.code, p.line])).toEqual([['unreadable_record', 1]]);
  });

  it('[I3][I1] well formed, stable, the same in small chunks', () => {
    const text = readFormat(NAME);
    expectWellFormed(text, NAME);
    const got: TraceEvent[] = [];
    const s = createImportStream({ fileName: NAME, onEvent: (e) => got.push(e) });
    for (let i = 0; i < text.length; i += 13) s.push(text.slice(i, i + 13));
    s.end();
    expect(got).toEqual(importTrace(text, { fileName: NAME }).trace?.events);
  });
});
