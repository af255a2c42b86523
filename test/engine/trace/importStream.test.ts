import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import { importTrace } from '../../../engine/trace/importTrace.ts';
import { readTrace } from '../../../engine/trace/traceReader.ts';
import { traceToJsonl } from '../../../engine/trace/traceToJsonl.ts';
import type { Trace, TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { FORMAT_FIXTURES, formatFiles, readFormat } from '../../shared/formatFixtures.ts';
import { FIXTURE_FILES, HAVE_FIXTURES, readFixture, fileName } from '../../shared/fixtures.ts';

/** Feeds text through the pipeline cut at the given points; returns the outcome and the streamed events. */
function streamed(text: string, cuts: number[], name: string) {
  const events: TraceEvent[] = [];
  const s = createImportStream({ fileName: name, onEvent: (e) => events.push(e) });
  let at = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    s.push(text.slice(at, c));
    at = c;
  }
  s.push(text.slice(at));
  return { outcome: s.end(), events };
}

const allInputs: [string, string][] = [
  ...formatFiles().map((f) => [f, readFormat(f)] as [string, string]),
  ...(HAVE_FIXTURES ? FIXTURE_FILES.map((f) => [fileName(f), readFixture(f)] as [string, string]) : []),
];

describe('the import pipeline', () => {
  it('[I1] a forced format on a file of another format is refused and says what the file looks like', () => {
    const r = importTrace(readFormat(FORMAT_FIXTURES.codex), { format: 'openhands' });
    expect(r.trace).toBeNull();
    expect(r.problems).toEqual([expect.objectContaining({ code: 'format_mismatch', fatal: true, message: expect.stringMatching(/not OpenHands event stream .*looks like Codex CLI session rollout/) })]);
  });

  it('[I1] a forced format on content no format claims, where nothing fits, is refused with a description', () => {
    const r = importTrace('[{"a": 1}, {"b": 2}]', { format: 'openhands', fileName: 'x.json' });
    expect(r.trace).toBeNull();
    expect(r.problems.at(-1)).toMatchObject({ code: 'format_mismatch', message: expect.stringContaining('a JSON array of objects with keys a') });
  });

  it('[I1] forcing one OpenTelemetry flavour on another reads it as what it is', () => {
    const r = importTrace(readFormat(FORMAT_FIXTURES.otlp), { format: 'otel-genai' });
    expect(r.format).toBe('otlp-json');
    expect(r.report?.tool_calls).toBe(1);
  });

  it('[I1] binary data stops the stream at the first verdict: nothing more is read', () => {
    const s = createImportStream({ fileName: 'x.bin' });
    s.push('\u0000\u0001\u0002'.repeat(30000));
    expect(s.stopped).toBe(true);
    s.push('{"format":"hookwire.trace"}');
    expect(s.end().problems).toEqual([expect.objectContaining({ code: 'binary', fatal: true })]);
  });

  it('[I1] a document read whole past the stated cap stops with too_large', () => {
    const s = createImportStream({ fileName: 'composer.json', maxDocumentChars: 10_000 });
    // A Cursor composer on one line within the first 64 KB (read whole: its first line is a whole JSON value).
    const conversation = Array.from({ length: 400 }, (_, i) => ({ type: 1, bubbleId: `u${i}`, text: `prompt ${i}` }));
    const doc = JSON.stringify({ composerId: 'c1', conversation });
    expect(doc.length).toBeGreaterThan(10_000);
    for (let i = 0; i < doc.length && !s.stopped; i += 8192) s.push(doc.slice(i, i + 8192));
    expect(s.end().problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'too_large', fatal: true })]);
  });

  it('[I1][I14][I20] a Cline or Roo Code task file that is an object is refused from its first characters: nothing more is read', () => {
    const doc = JSON.stringify({ messages: Array.from({ length: 4000 }, () => ({ role: 'user', content: '<task>find the bug</task>' })) }, null, 1);
    for (const fileName of ['api_conversation_history.json', 'ui_messages.json']) {
      const s = createImportStream({ fileName });
      let pushed = 0;
      for (; pushed < doc.length && !s.stopped; pushed += 8192) s.push(doc.slice(pushed, pushed + 8192));
      // Stopped once the format is known, from the first 64 KB.
      expect(s.stopped).toBe(true);
      expect(pushed).toBeLessThan(80_000);
      expect(doc.length).toBeGreaterThan(200_000);
      const out = s.end();
      expect(out.trace).toBeNull();
      expect(out.problems.filter((p) => p.severity === 'error')).toEqual([expect.objectContaining({ code: 'bad_source', fatal: true, message: expect.stringMatching(/^not a Cline \/ Roo Code .*: Cline and Roo Code write that file as one JSON array of messages, and this one is a JSON object; nothing was read$/) })]);
    }
  });

  it('[I1] a span stream with a bad value reports it by line and imports the rest', () => {
    const text = readFormat(FORMAT_FIXTURES.spansJsonl).replace(/\n/, '\n{"broken": \n');
    const r = importTrace(text, { fileName: 'spans.jsonl' });
    expect(r.report?.tool_calls).toBe(1);
    expect(r.problems.some((p) => p.severity === 'error')).toBe(true);
  });

  it('[I1][T3] any split of any format into chunks imports the same events as the whole text', () => {
    for (const [name, text] of allInputs) {
      const whole = importTrace(text, { fileName: name });
      fc.assert(
        fc.property(fc.array(fc.nat({ max: text.length }), { maxLength: 6 }), (cuts) => {
          const { outcome, events } = streamed(text, cuts, name);
          expect(outcome.problems).toEqual(whole.problems);
          expect(events).toEqual(whole.trace?.events ?? []);
          expect(outcome.trace?.header).toEqual(whole.trace?.header);
        }),
        { numRuns: 15 },
      );
    }
  });

  it('[I2][T4] import → export trace v1 → re-read gives the same events, for every format', () => {
    for (const [name, text] of allInputs) {
      const imported = importTrace(text, { fileName: name }).trace as Trace;
      const back = readTrace(traceToJsonl(imported));
      expect(back.status, name).toBe('ok');
      expect(back.events).toEqual(imported.events);
      const again = importTrace(traceToJsonl(imported), { fileName: 'x.hwtrace.jsonl' });
      expect(again.format).toBe('hookwire-trace');
      expect(again.trace?.events).toEqual(imported.events);
    }
  });
});

/** Random OTLP exports: an agent span with children, times cut to milliseconds (many ties), zero-length spans. */
const spanTree = fc.array(
  fc.record({ kind: fc.constantFrom('chat', 'execute_tool'), start: fc.nat({ max: 20 }), len: fc.constantFrom(0, 0, 1, 3), parentIsAgent: fc.boolean() }),
  { minLength: 1, maxLength: 8 },
);

function otlpDoc(spans: { kind: string; start: number; len: number; parentIsAgent: boolean }[], shuffle: number[]): string {
  const base = 1772445600000n * 1000000n;
  const ms = (n: number) => String(base + BigInt(n) * 1000000n);
  const end = Math.max(...spans.map((s) => s.start + s.len));
  const attr = (k: string, v: string) => ({ key: k, value: { stringValue: v } });
  const list = spans.map((s, i) => ({
    traceId: 'ab'.repeat(16),
    spanId: (i + 2).toString(16).padStart(16, '0'),
    parentSpanId: s.parentIsAgent || i === 0 ? '0000000000000001' : (i + 1).toString(16).padStart(16, '0'),
    name: s.kind,
    startTimeUnixNano: ms(s.start),
    endTimeUnixNano: ms(s.start + s.len),
    attributes: s.kind === 'chat' ? [attr('gen_ai.operation.name', 'chat')] : [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', `t${i}`)],
  }));
  list.push({ traceId: 'ab'.repeat(16), spanId: '0000000000000001', parentSpanId: '', name: 'agent', startTimeUnixNano: ms(0), endTimeUnixNano: ms(end), attributes: [attr('gen_ai.operation.name', 'invoke_agent')] });
  const order = list.map((_, i) => i).sort((a, b) => (shuffle[a % shuffle.length] ?? 0) - (shuffle[b % shuffle.length] ?? 0) || a - b);
  return order.map((i) => JSON.stringify({ resourceSpans: [{ resource: {}, scopeSpans: [{ scope: {}, spans: [list[i]] }] }] })).join('\n');
}

describe('OpenTelemetry ordering', () => {
  it('[I5] whatever the ties and the file order: every span starts before it ends, times never go back, agent.end is last', () => {
    fc.assert(
      fc.property(spanTree, fc.array(fc.nat(), { minLength: 1, maxLength: 9 }), (spans, shuffle) => {
        const r = importTrace(otlpDoc(spans, shuffle), { fileName: 'x.jsonl' });
        const t = r.trace as Trace;
        expect(r.format).toBe('otlp-json');
        const ts = t.events.map((e) => e.ts);
        expect([...ts].sort()).toEqual(ts);
        expect(t.events[0]?.type).toBe('agent.start');
        expect(t.events.at(-1)?.type).toBe('agent.end');
        const seen = new Set<string>();
        for (const e of t.events) {
          const span = e.event_id.split(':')[1] as string;
          if (e.type.endsWith('before_call')) seen.add(span);
          if (e.type.endsWith('after_call')) expect(seen.has(span)).toBe(true);
        }
        expect(r.report?.model_calls).toBe(spans.filter((s) => s.kind === 'chat').length);
        expect(r.report?.tool_calls).toBe(spans.filter((s) => s.kind === 'execute_tool').length);
      }),
      { numRuns: 200 },
    );
  });
});
