import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../../../engine/model/json.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { readTrace } from '../../../engine/trace/traceReader.ts';
import { traceSchemas } from '../../../engine/trace/traceSchema.ts';

const { TraceEventLineSchema, TraceHeaderSchema } = traceSchemas();
import { type Trace } from '../../../engine/trace/traceTypes.ts';
import { traceToJsonl } from '../../../engine/trace/traceToJsonl.ts';
import { FIXTURE, fileName, HAVE_FIXTURES, readFixture } from '../../shared/fixtures.ts';

const ALL = Object.values(FIXTURE);

describe.skipIf(!HAVE_FIXTURES)('importTrace on every fixture', () => {
  it.each(ALL)('[I2] %s: a valid trace v1 with unique ids, agent.start first, agent.end last, that round-trips', (rel) => {
    const r = importTrace(readFixture(rel), { fileName: fileName(rel) });
    const trace = r.trace as Trace;
    expect(TraceHeaderSchema.safeParse(trace.header).success).toBe(true);
    for (const e of trace.events) expect(TraceEventLineSchema.safeParse(e).error).toBeUndefined();
    expect(new Set(trace.events.map((e) => e.event_id)).size).toBe(trace.events.length);
    expect(trace.events[0]?.type).toBe('agent.start');
    expect(trace.events[trace.events.length - 1]?.type).toBe('agent.end');
    // Every tool.after_call answers a tool.before_call with the same name and id before it.
    const before = new Map<unknown, unknown>();
    for (const e of trace.events) {
      if (e.type === 'tool.before_call') before.set(e.payload.tool_use_id, e.payload.tool_name);
      if (e.type === 'tool.after_call') expect(before.get(e.payload.tool_use_id)).toBe(e.payload.tool_name);
    }
    const back = readTrace(traceToJsonl(trace));
    expect(back.status).toBe('ok');
    expect(jsonEqual(back.events as never, trace.events as never)).toBe(true);
    expect(r.report?.events).toBe(trace.events.length);
  });

  it('[I1] reads a trace v1 file through the same entry point, with a report', () => {
    const imported = importTrace(readFixture(FIXTURE.ccShort)).trace as Trace;
    const r = importTrace(traceToJsonl(imported), { fileName: 'x.hwtrace.jsonl' });
    expect(r.format).toBe('hookwire-trace');
    expect(r.report).toMatchObject({ tool_calls: 2, model_calls: 1, events: imported.events.length });
  });

  it('[I1] a transcript cut in the middle of a line imports the lines before it (partial, said so)', () => {
    const text = readFixture(FIXTURE.ccHeavy);
    const cut = text.slice(0, text.indexOf('toolu_01VpPeBD2ziigLLpybShAGoU'));
    const r = importTrace(cut);
    expect(r.format).toBe('claude-code');
    expect(r.problems).toEqual([expect.objectContaining({ code: 'truncated', line: 34 })]);
    expect(r.report?.tool_calls).toBe(4);
  });

  it('[I1] a bad line in a transcript is reported with its number and the rest import', () => {
    const lines = readFixture(FIXTURE.ccShort).split('\n');
    lines.splice(4, 0, '{"type": "user", oops');
    const r = importTrace(lines.join('\n'));
    expect(r.problems).toEqual([expect.objectContaining({ code: 'not_json', line: 5, severity: 'error' })]);
    expect(r.report?.tool_calls).toBe(2);
  });

  it('[I1] a truncated JSON document keeps what came before and says where it ends (a Cursor composer, an OpenHands array, a SWE-agent trajectory and an any-agent document stream)', () => {
    const cursor = JSON.stringify({ composerId: 'c1', conversation: [{ type: 1, bubbleId: 'b1', text: 'find the bug' }, { type: 2, bubbleId: 'b2', text: 'found it' }] }, null, 2);
    const r = importTrace(cursor.slice(0, 160));
    expect(r.format).toBe('cursor');
    expect(r.trace?.events.map((e) => e.type)).toEqual(['agent.start', 'input.received', 'agent.end']);
    expect(r.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'truncated' })]);
    const otel = importTrace(readFixture(FIXTURE.otelOpenai).slice(0, 5000));
    expect(otel.format).toBe('otel-genai');
    expect(otel.trace).not.toBeNull();
    expect(otel.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'truncated' })]);
    const swe = importTrace(readFixture(FIXTURE.swe).slice(0, 5000));
    expect(swe.format).toBe('swe-agent');
    expect(swe.trace).not.toBeNull();
    expect(swe.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'truncated' })]);
    const oh = importTrace(readFixture(FIXTURE.openhands).slice(0, 5000));
    expect(oh.format).toBe('openhands');
    expect(oh.trace).not.toBeNull();
    expect(oh.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'truncated' })]);
  });

  it('[I1] a syntax error in a JSON document gives its line and column', () => {
    // Read whole (its first line is a whole JSON value, and a stray line follows): the parser's line and column.
    const object = JSON.stringify({ composerId: 'c1', conversation: [{ type: 1, bubbleId: 'b1', text: 'find the bug' }] });
    const r = importTrace(`${object}\n  ]`, { format: 'cursor' });
    const bad = r.problems.find((p) => p.severity === 'error');
    expect(bad).toMatchObject({ code: 'not_json' });
    expect(bad?.line).toBeGreaterThan(1);
    expect(bad?.message).toMatch(/^line \d+: not valid JSON at column \d+/);
    // A streamed composer: the bubble that is not JSON is listed with its line; the others import.
    const cursor = JSON.stringify({ composerId: 'c1', conversation: [{ type: 1, bubbleId: 'b1', text: 'find the bug' }, { type: 2, bubbleId: 'b2', text: 'found it' }] }, null, 2);
    const c = importTrace(cursor.replace('"type": 2', '"type": two'));
    expect(c.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'not_json', line: 9, message: expect.stringMatching(/^line 9: an element of "conversation" is not valid JSON/) })]);
    expect(c.trace?.events.map((e) => e.type)).toContain('input.received');
    // A streamed document: the one span that is not JSON is listed with its line; the others import.
    const otel = importTrace(readFixture(FIXTURE.otelOpenai).replace('"kind": "internal"', '"kind": internal'));
    expect(otel.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'not_json', line: expect.any(Number), message: expect.stringMatching(/^line \d+: an element of "spans" is not valid JSON/) })]);
    expect(otel.report?.model_calls).toBeGreaterThan(0);
  });
});

describe('importTrace on bad input', () => {
  it('[I1] empty input', () => {
    expect(importTrace('').problems).toEqual([expect.objectContaining({ code: 'empty', fatal: true, message: expect.stringMatching(/empty/) })]);
  });

  it('[I1] binary garbage', () => {
    const r = importTrace('\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR\u0000\u0000');
    expect(r).toMatchObject({ format: null, trace: null });
    expect(r.problems[0]).toMatchObject({ code: 'binary', message: expect.stringMatching(/binary data/) });
  });

  it('[I1] a format Hookwire does not know', () => {
    const r = importTrace('name,age\nbob,3\n', { fileName: 'people.csv' });
    expect(r.problems[0]).toMatchObject({ code: 'unknown_format', message: expect.stringMatching(/^cannot import people.csv: the content is not a recording Hookwire reads \(it is [^)]+\); it reads: Hookwire trace/) });
  });

  it('[I1] a pipeline file is refused as a pipeline, with the way to open it', () => {
    const r = importTrace('{"format": "hookwire.pipeline", "version": 1, "name": "g", "nodes": [], "wires": []}', { fileName: 'g.pipeline.json' });
    expect(r).toMatchObject({ format: null, trace: null });
    expect(r.problems[0]).toMatchObject({ code: 'pipeline', fatal: true, message: expect.stringMatching(/^cannot import g.pipeline.json: this is a Hookwire pipeline/) });
  });

  it('[I1] a forced format that does not fit', () => {
    const r = importTrace('{"a": 1}', { format: 'swe-agent' });
    expect(r.problems[0]).toMatchObject({ code: 'bad_source' });
  });

  it('[I1] a 50 MB line in a transcript is skipped, not parsed, and the other lines import', () => {
    const ok = JSON.stringify({ type: 'user', sessionId: 's', uuid: 'u1', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'hi' } });
    const huge = `{"type":"user","sessionId":"s","uuid":"u2","message":{"content":"${'y'.repeat(50 * 1024 * 1024)}"}}`;
    const r = importTrace(`${ok}\n${huge}\n${ok.replace('u1', 'u3')}\n`);
    expect(r.problems).toEqual([expect.objectContaining({ code: 'line_too_long', line: 2 })]);
    expect(r.report?.event_counts).toMatchObject({ 'input.received': 2 });
  });

  it('[I3] duplicate source ids get distinct event ids and a warning', () => {
    const rec = JSON.stringify({ type: 'user', sessionId: 's', uuid: 'same', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'hi' } });
    const r = importTrace(`${rec}\n${rec}\n`);
    const ids = (r.trace as Trace).events.filter((e) => e.type === 'input.received').map((e) => e.event_id);
    expect(ids).toEqual(['cc:same:input', 'cc:same:input#2']);
    expect(r.report?.warnings).toEqual([expect.stringMatching(/1 source ids appeared more than once/)]);
  });
});
