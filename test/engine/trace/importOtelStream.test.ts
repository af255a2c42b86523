import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryRecordStore, type RecordStore } from '../../../engine/model/idIndex.ts';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import { importOtelGenai } from '../../../engine/trace/importers/importOtelGenai.ts';
import { quoteOtelIds } from '../../../engine/trace/importers/parseSource.ts';
import type { TraceFormat } from '../../../engine/trace/detectTraceFormat.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { writeWorkload } from '../../bench/formatWorkloads.ts';
import { FIXTURE, HAVE_FIXTURES, readFixture } from '../../shared/fixtures.ts';
import { pushInPieces } from '../../shared/pieces.ts';

const NAME = 'run.json';
const OPTIONS = { fileName: NAME, fallbackTraceId: 'otel-genai-run' };

/** Streams `text` cut at `cuts`, with a sink, as `hookwire import` does; `spool` as the CLI's temporary file. */
function streamed(text: string, cuts: number[], spool?: RecordStore, format?: TraceFormat) {
  const events: TraceEvent[] = [];
  const s = createImportStream({ fileName: NAME, onEvent: (e) => events.push(e), ...(format ? { format } : {}), ...(spool ? { spool } : {}) });
  pushInPieces(text, cuts, (piece) => s.push(piece));
  return { ...s.end(), events };
}

/** The whole-document import: the text parsed whole (its big numeric ids quoted first, as the import does). */
function whole(text: string) {
  return importOtelGenai(JSON.parse(quoteOtelIds(text)), OPTIONS);
}

/**
 * A document as text: pretty (`indent` 1 or 2), or as the bench writes it (indent 0): the outer object or array
 * on lines of its own and each entry of the span list compact on its line (one line in all would be spans a line).
 */
function written(doc: unknown, indent: number): string {
  if (indent > 0) return JSON.stringify(doc, null, indent);
  const list = (a: unknown[]) => `[\n${a.map((e) => JSON.stringify(e)).join(',\n')}\n]`;
  if (Array.isArray(doc)) return list(doc);
  const members = Object.entries(doc as object).map(([k, v]) => `${JSON.stringify(k)}: ${k === 'spans' && Array.isArray(v) ? list(v) : JSON.stringify(v)}`);
  return `{\n${members.join(',\n')}\n}`;
}

/** `"BIG:<digits>"` in JSON text becomes the bare number (an id past 2^53, as the Python SDK writes them). */
const bareBigIds = (text: string) => text.replace(/"BIG:(\d+)"/g, '$1');

// Random any-agent documents: spans of every kind the importer maps (agent, model, tool, final answer, unknown,
// Hookwire's own), ids as hex, small or big numbers (quoted by the import), parents that exist or not, times as
// ISO text, nanoseconds or numbers, entries of the span list that hold no span, nested lists, OTLP requests.
const spanId = fc.constantFrom('0x01', '0x02', '0x03', '0x0a', 'BIG:13687147528289423029', 'BIG:9007199254740993123', 7, null);
const time = fc.constantFrom('2026-03-02T10:00:00.000001Z', '2026-03-02T10:00:00.5Z', '2026-03-02T10:00:01Z', '1772445600000000000', 1772445601.25, 'not a time');
const messages = fc.constantFrom(
  JSON.stringify([{ role: 'user', content: 'find the bug' }]),
  JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]),
  'plain text',
);
const output = fc.constantFrom(
  JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'grep', arguments: { q: 'x' } }], finish_reason: 'tool_calls' }]),
  JSON.stringify([{ 'tool.name': 'grep', 'tool.args': '{"q":"y"}' }]),
  'the answer',
  '{"a": 1}',
);
const attributes = fc.oneof(
  { weight: 3, arbitrary: fc.record({ 'gen_ai.operation.name': fc.constantFrom('invoke_agent', 'call_llm', 'chat'), 'gen_ai.agent.name': fc.constantFrom('a', 'b'), 'gen_ai.request.model': fc.constantFrom('m1', 'm2'), 'gen_ai.input.messages': messages, 'gen_ai.output.messages': output, 'gen_ai.usage.input_tokens': fc.nat(2000), 'gen_ai.usage.output_tokens': fc.nat(50) }, { requiredKeys: ['gen_ai.operation.name'] }) },
  { weight: 3, arbitrary: fc.record({ 'gen_ai.operation.name': fc.constant('execute_tool'), 'gen_ai.tool.name': fc.constantFrom('grep', 'final_answer', 'final_output'), 'gen_ai.tool.call.id': fc.constantFrom('c1', 'c2'), 'gen_ai.tool.call.arguments': fc.constantFrom('{"q":"x"}', '{"answer":"42"}', 'not json', '[1]'), 'gen_ai.tool.call.result': fc.constantFrom('ok', '{"r":1}') }, { requiredKeys: ['gen_ai.operation.name'] }) },
  { weight: 1, arbitrary: fc.record({ 'gen_ai.operation.name': fc.constantFrom('embeddings', 'retrieve'), note: fc.string({ maxLength: 8 }) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.record({ 'hookwire.event.type': fc.constantFrom('tool.before_call', 'model.after_call'), 'hookwire.event.seq': fc.nat(5), 'hookwire.trace.id': fc.constantFrom('t1', ''), 'hookwire.event.payload': fc.constantFrom('{"tool_name":"Bash"}', '{}') }, { requiredKeys: ['hookwire.event.type'] }) },
);
const sdkSpan = fc.record({
  name: fc.constantFrom('invoke_agent a', 'call_llm m1', 'execute_tool grep'),
  context: fc.record({ trace_id: fc.constantFrom('0xabcdef0123456789abcdef0123456789', 'BIG:100927429609276267646756448943279827607'), span_id: spanId }),
  parent_id: spanId,
  start_time: time,
  end_time: time,
  status: fc.record({ status_code: fc.constantFrom('UNSET', 'OK', 'ERROR', 2), description: fc.string({ maxLength: 6 }) }, { requiredKeys: ['status_code'] }),
  attributes,
}, { requiredKeys: ['context', 'start_time'] });
const otlpRequest = fc.record({ spanId: fc.constantFrom('0b', '0c'), traceId: fc.constant('ab'.repeat(16)), name: fc.constantFrom('chat m', 'execute_tool grep'), startTimeUnixNano: fc.constantFrom('1772445600000000000', '1772445602000000000'), attributes: fc.constant([{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }]) })
  .map((span) => ({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans: [span, 'not a span'] }, 3] }] }));
const entry: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 12, arbitrary: sdkSpan },
  { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 4 }), fc.constant({ a: 1 }), fc.constant([])) },
  { weight: 1, arbitrary: fc.array(fc.oneof(sdkSpan, fc.constant(false)), { maxLength: 3 }) },
  { weight: 1, arbitrary: otlpRequest },
);
const anyAgentDoc = fc
  .record({ spans: fc.array(entry, { maxLength: 10 }), final_output: fc.oneof(fc.string({ maxLength: 10 }), fc.constant({ answer: 'x' }), fc.constant(null)), trace_id: fc.constant('BIG:100927429609276267646756448943279827607'), extra: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: ['spans'] })
  .chain((doc) => fc.shuffledSubarray(Object.keys(doc), { minLength: Object.keys(doc).length }).map((order) => Object.fromEntries(order.map((k) => [k, doc[k as keyof typeof doc]]))));
const SPAN_ITSELF = '(the document is a span)';
const document = fc.oneof(
  { weight: 6, arbitrary: anyAgentDoc },
  // A bare span array (the first entry a span, so the content says what it is).
  { weight: 3, arbitrary: fc.tuple(sdkSpan, fc.array(entry, { maxLength: 8 })).map(([first, rest]) => [first, ...rest]) },
  // Objects whose spans are not the `spans` list: read from their other members, as the whole document is.
  { weight: 1, arbitrary: fc.tuple(anyAgentDoc, otlpRequest).map(([doc, req]) => ({ spans: doc.spans, ...doc, ...req })) },
  // A document that is itself a span is that one span, whatever its `spans` holds; streamed, the span it keeps
  // (an unknown kind's annotation) lacks the `spans` list, which went by entry by entry (SPEC I1).
  { weight: 1, arbitrary: fc.tuple(anyAgentDoc, sdkSpan).map(([doc, span]) => ({ spans: doc.spans, ...span, ...doc, [SPAN_ITSELF]: true })) },
  { weight: 1, arbitrary: sdkSpan.map((span) => ({ spans: span, final_output: 'x' })) },
);

// [I1][I5][I11] An any-agent document or span array streams entry by entry: its spans are kept (in the CLI, in a
// temporary file) with what their order needs, and the events are made at the end, as from the whole document,
// with the same entries listed as holding no span.
describe('OpenTelemetry span documents, streamed [I1][I5][I11]', () => {
  it('[I1][I5][I11] any any-agent document or span array, pretty or compact, in any chunks, spooled or not: the events, header, report and problems of the whole import', () => {
    fc.assert(
      fc.property(document, fc.constantFrom(0, 1, 2), fc.array(fc.nat(), { maxLength: 10 }), fc.boolean(), (doc, indent, cuts, spooled) => {
        const spanItself = SPAN_ITSELF in (doc as object);
        const read = spanItself ? Object.fromEntries(Object.entries(doc as object).filter(([k]) => k !== SPAN_ITSELF)) : doc;
        const text = bareBigIds(written(read, indent));
        const w = whole(spanItself ? bareBigIds(JSON.stringify({ ...read, spans: undefined })) : text);
        const s = streamed(text, cuts.map((k) => k % (text.length + 1)), spooled ? memoryRecordStore() : undefined, 'otel-genai');
        expect(s.format).toBe('otel-genai');
        if (!w.ok) {
          expect(s.trace).toBeNull();
          expect(s.problems).toEqual([w.problem]);
          return;
        }
        expect(s.events).toEqual(w.trace.events);
        expect(s.trace?.header).toEqual(w.trace.header);
        expect(s.report).toEqual(w.report);
        expect(s.problems).toEqual(w.problems ?? []);
      }),
      { numRuns: 400 },
    );
  });

  it.skipIf(!HAVE_FIXTURES)('[I1][I5] the any-agent exports in chunks of 1 character, spooled: the whole import', () => {
    for (const rel of [FIXTURE.otelOpenai, FIXTURE.otelLangchain]) {
      const text = readFixture(rel);
      const w = whole(text);
      if (!w.ok) throw new Error(w.problem.message);
      const s = streamed(text, Array.from({ length: text.length }, (_, i) => i), memoryRecordStore());
      expect(s.format).toBe('otel-genai');
      expect(s.events).toEqual(w.trace.events);
      expect(s.trace?.header).toEqual(w.trace.header);
      expect(s.report).toEqual(w.report);
      expect(s.problems).toEqual([]);
    }
  });

  it('[I1][I5] a generated any-agent document, spooled: the whole import, and each span goes to the spool once', () => {
    const parts: string[] = [];
    writeWorkload('otel-genai', 300, (t) => parts.push(t));
    const text = parts.join('');
    const w = whole(text);
    if (!w.ok) throw new Error(w.problem.message);
    const spool = memoryRecordStore();
    const s = streamed(text, [1000, 70_000, 70_001], spool);
    expect(s.format).toBe('otel-genai');
    expect(s.events).toEqual(w.trace.events);
    expect(s.report).toEqual(w.report);
    expect(s.events.filter((e) => e.type === 'tool.before_call')).toHaveLength(300);
    expect(spool.read(0)).toContain('"span_id"');
    expect(spool.read(600)).toContain('invoke_agent');
    expect(spool.read(601)).toBeUndefined();
  });

  it('[I1][I11] a document cut off: the spans before the cut are imported and the cut is listed (a partial import)', () => {
    const parts: string[] = [];
    writeWorkload('otel-genai', 200, (t) => parts.push(t));
    const text = parts.join('');
    const cut = text.slice(0, Math.floor(text.length / 2));
    const s = streamed(cut, [100_000]);
    expect(s.trace).not.toBeNull();
    expect(s.problems.map((p) => p.code)).toEqual(['truncated']);
    expect(s.problems[0]?.severity).toBe('error');
    expect(s.events.filter((e) => e.type === 'tool.before_call').length).toBeGreaterThan(50);
  });

  it('[I1][I11] an entry that is not JSON costs only itself, listed with its line', () => {
    const text = '{"spans": [\n{"name": "a", "context": {"trace_id": "0x1", "span_id": "0x2"}, "start_time": "2026-03-02T10:00:00Z", "attributes": {"gen_ai.operation.name": "chat"}},\n{"name": oops},\n{"name": "b", "context": {"trace_id": "0x1", "span_id": "0x3"}, "start_time": "2026-03-02T10:00:01Z", "attributes": {"gen_ai.operation.name": "chat"}}\n]}\n';
    const s = streamed(text, []);
    expect(s.problems).toMatchObject([{ code: 'not_json', line: 3, severity: 'error' }]);
    expect(s.events.filter((e) => e.type === 'model.before_call')).toHaveLength(2);
  });
});

// [I1][I5] Span streams (OTLP/JSON Lines, spans a line) keep their spans in the spool when one is given: the same import.
describe('OpenTelemetry span streams, spooled [I1][I5]', () => {
  it('[I1][I5] OTLP/JSON Lines and spans a line, in any chunks: spooled or not, the same events, header, report and problems', () => {
    fc.assert(
      fc.property(fc.constantFrom('otlp-json', 'otel-spans-jsonl', 'otel-console') as fc.Arbitrary<'otlp-json' | 'otel-spans-jsonl' | 'otel-console'>, fc.integer({ min: 1, max: 30 }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (format, steps, cuts, junk) => {
        const parts: string[] = [];
        writeWorkload(format, steps, (t) => parts.push(t));
        if (junk) parts.splice(1, 0, format === 'otel-console' ? '"no span"\n' : '{"no": "span"}\nnot json\n');
        const text = parts.join('');
        const at = cuts.map((k) => k % (text.length + 1));
        const memory = streamed(text, at);
        const spooled = streamed(text, at, memoryRecordStore());
        expect(memory.format).toBe(format);
        expect(spooled.events).toEqual(memory.events);
        expect(spooled.trace?.header).toEqual(memory.trace?.header);
        expect(spooled.report).toEqual(memory.report);
        expect(spooled.problems).toEqual(memory.problems);
        expect(memory.events.filter((e) => e.type === 'tool.before_call')).toHaveLength(steps);
      }),
      { numRuns: 60 },
    );
  });
});
