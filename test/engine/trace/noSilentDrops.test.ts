import { describe, expect, it } from 'vitest';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { readFormat } from '../../shared/formatFixtures.ts';

const codes = (text: string, fileName: string) => importTrace(text, { fileName }).problems.map((p) => [p.code, p.line, p.severity]);

describe('[I11] nothing dropped silently', () => {
  it('OTLP/JSON: a span entry that is not an object and a line without spans are listed as errors with their line', () => {
    const lines = readFormat('otlp-file-exporter.jsonl').trimEnd().split('\n');
    const batch = JSON.parse(lines[0] as string);
    batch.resourceSpans[0].scopeSpans[0].spans.push('not a span');
    const text = [JSON.stringify(batch), ...lines.slice(1), '{"hello":"world"}'].join('\n');
    const r = importTrace(text, { fileName: 'otlp.jsonl' });
    expect(r.trace).not.toBeNull();
    expect(r.problems.map((p) => [p.code, p.line, p.severity])).toEqual([
      ['unreadable_record', 1, 'error'],
      ['unreadable_record', lines.length + 1, 'error'],
    ]);
    expect(r.problems[0]?.message).toMatch(/spans\[\d+\] is a string, not a span object/);
  });
  it('any-agent spans: an entry that is not a span is listed', () => {
    const doc = { spans: [{ name: 'invoke_agent a', context: { trace_id: '0x1', span_id: '0x2' }, parent_id: null, start_time: '2026-01-01T00:00:00Z', end_time: '2026-01-01T00:00:01Z', attributes: { 'gen_ai.operation.name': 'invoke_agent' } }, 42] };
    expect(codes(JSON.stringify(doc), 'run_trace.json').map(([c, , s]) => [c, s])).toEqual([['unreadable_record', 'error']]);
  });
  it('mini-swe-agent: a message that is not an object, an output with no action and an unknown role are listed', () => {
    const doc = JSON.parse(readFormat('slugify.traj.json'));
    doc.messages.splice(2, 0, 'garbage', { role: 'oracle', content: 'hm' });
    const r = importTrace(JSON.stringify(doc), { fileName: 'x.traj.json' });
    expect(r.trace).not.toBeNull();
    expect(r.problems.map((p) => [p.code, p.severity])).toEqual([['unreadable_record', 'error'], ['unknown_record', 'warning']]);
    expect(r.problems[0]?.message).toMatch(/messages\[2\] is not a JSON object/);
  });
});
