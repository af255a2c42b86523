import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../engine/model/json.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import { detectTraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { readFormat } from '../../shared/formatFixtures.ts';
import { expectWellFormed, expectWrongAgentNamed, loadFixture, ofType } from './sessionImport.ts';

const NAME = 'aider.chat.history.md';

describe('aider chat history (aider.chat.history.md)', () => {
  it('[I17] counts by hand: 2 runs, 5 model calls, 7 tool calls (4 edits, 3 commands), 6 prompts, 1 final answer', () => {
    const { trace, report } = loadFixture(NAME, 'aider');
    expect(report).toMatchObject({ model_calls: 5, tool_calls: 7 });
    expect(ofType(trace, 'input.received').map((e) => e.payload.prompt)).toEqual([
      'the total is off by one, fix it', '/test python -m pytest -q tests/test_edge.py', 'also handle an empty list\nand say what you changed',
      '!git log --oneline -3', 'rename total to sum_items in src/total.py', 'now write the changelog ent',
    ]);
    expect(ofType(trace, 'final_answer.after').map((e) => e.payload.text)).toEqual(['I added a guard: an empty list now totals 0.']);
    expect(trace.header.agent_id).toBe('aider');
    expect(trace.events.at(-1)?.payload).toEqual({ status: 'incomplete', runs: 2 });
    // Local times without a zone, read as UTC and said so.
    expect(trace.events[0]?.ts).toBe('2026-03-10T09:15:02.000Z');
    expect(report?.notes).toContain('aider writes local times without a time zone: they were read as UTC');
  });

  it('[I17] model calls: the model of the run, the text, the usage from the Tokens line', () => {
    const { trace } = loadFixture(NAME, 'aider');
    const calls = ofType(trace, 'model.after_call').map((e) => e.payload as JsonObject);
    expect(calls.map((c) => c.model)).toEqual(['anthropic/claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5', 'openai/gpt-5']);
    expect(calls[0]?.usage).toMatchObject({ sent: 2300, received: 118 });
    expect(calls[4]?.usage).toBeUndefined();
  });

  it('[I13][I17] edits (SEARCH/REPLACE blocks, a whole-file edit) and commands (Running, /test, !) with portable fields', () => {
    const { trace } = loadFixture(NAME, 'aider');
    const before = ofType(trace, 'tool.before_call');
    expect(before.map((e) => [e.payload.tool_name, e.payload.tool, e.payload.command ?? e.payload.file_path])).toEqual([
      ['edit', 'edit', 'src/total.py'],
      ['run', 'shell', 'python -m pytest -q'],
      ['run', 'shell', 'python -m pytest -q tests/test_edge.py'],
      ['edit', 'edit', 'src/total.py'],
      ['edit', 'edit', 'src/total.py'],
      ['run', 'shell', 'git log --oneline -3'],
      ['edit', 'edit', 'src/total.py'],
    ]);
    expect(before[0]?.payload.tool_input).toEqual({ path: 'src/total.py', search: '    for i in range(len(items) - 1):', replace: '    for i in range(len(items)):' });
  });

  it('[I17] results: applied edits succeed, a failed edit block is is_error with aider\'s reason, /test output added means it failed', () => {
    const { trace } = loadFixture(NAME, 'aider');
    const after = ofType(trace, 'tool.after_call');
    expect(after.map((e) => [e.payload.tool_name, e.payload.is_error])).toEqual([
      ['edit', false], ['run', false], ['run', true], ['edit', true], ['edit', false], ['run', false], ['edit', false],
    ]);
    expect(after[3]?.payload.tool_response).toMatch(/^The LLM did not conform to the edit format\.\n[\s\S]*# 1 SEARCH\/REPLACE block failed to match!/);
  });

  it('[I17] a later run is kept as an annotation with its start time; aider\'s other output lines are annotations', () => {
    const { trace, report } = loadFixture(NAME, 'aider');
    const notes = trace.events.flatMap((e) => ((e.meta?.annotations as JsonObject[] | undefined) ?? []));
    expect(notes.find((a) => a.kind === 'run')).toEqual({ kind: 'run', run: 2, started: '2026-03-11 16:40:00', line: 91 });
    expect(notes.some((a) => a.kind === 'output' && a.text === 'Commit 3f2a1bc fix: include the last item in the total')).toBe(true);
    expect(report?.unknown).toEqual({});
  });

  it('[I11] a cut last line is an error (partial import) and is read as it is', () => {
    const { problems } = loadFixture(NAME, 'aider');
    expect(problems.map((p) => [p.code, p.line, p.severity])).toEqual([['truncated', 112, 'error']]);
  });

  it('[I3] order and ids: well formed and stable', () => {
    expectWellFormed(readFormat(NAME), NAME);
  });

  it('[I1] streamed in small chunks, the events are the same as in one push', () => {
    const text = readFormat(NAME);
    const got: TraceEvent[] = [];
    const s = createImportStream({ fileName: NAME, onEvent: (e) => got.push(e) });
    for (let i = 0; i < text.length; i += 3) s.push(text.slice(i, i + 3));
    s.end();
    expect(got).toEqual(importTrace(text, { fileName: NAME }).trace?.events);
  });

  it('[I1] detected by content; another agent\'s file forced as aider is refused and named, and aider\'s forced as another', () => {
    expect(detectTraceFormat(readFormat(NAME)).format).toBe('aider');
    expect(detectTraceFormat('', '/p/.aider.chat.history.md')).toMatchObject({ format: 'aider', by: 'file_name' });
    expectWrongAgentNamed(readFormat('specstory-cursor.md'), 'aider', /SpecStory/);
    expectWrongAgentNamed(readFormat(NAME), 'specstory', /aider/);
  });
});
