import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryRecordStore, type RecordStore } from '../../../engine/model/idIndex.ts';
import { createImportStream } from '../../../engine/trace/importStream.ts';
import type { TraceEvent } from '../../../engine/trace/traceTypes.ts';
import { pushInPieces } from '../../shared/pieces.ts';

// An OTLP request written as one pretty value streams a span at a time (otlpRequestStream.ts). Its oracle is the
// same values written compact, one a line, at the lines the pretty values start on: JSON Lines are read a whole
// value at a time (spansOfValue on the parsed value), as every span stream value was before [I1][I5][I11].

function imported(text: string, cuts: number[], spool?: RecordStore) {
  const events: TraceEvent[] = [];
  const s = createImportStream({ fileName: 'request.json', format: 'otlp-json', onEvent: (e) => events.push(e), ...(spool ? { spool } : {}) });
  pushInPieces(text, cuts, (piece) => s.push(piece));
  return { ...s.end(), events };
}

/** The values pretty, one after another, and the same values compact, each on the line its pretty form starts on. */
function writtenBoth(values: unknown[], indent: number): { pretty: string; compact: string } {
  const pretty: string[] = [];
  const compact: string[] = [];
  let line = 1;
  for (const v of values) {
    const text = JSON.stringify(v, null, indent);
    while (compact.length < line - 1) compact.push('');
    compact.push(JSON.stringify(v));
    pretty.push(text);
    line += text.split('\n').length;
  }
  return { pretty: pretty.join('\n'), compact: compact.join('\n') };
}

/** Members in a drawn order (the request's writer chooses it; a span may come before its resource or scope). */
const ordered = (members: [string, unknown][], order: number[]) =>
  Object.fromEntries(members.map((m, i) => [m, order[i] ?? i] as const).sort((a, b) => a[1] - b[1]).map(([m]) => m));

const id = fc.constantFrom('a1a1a1a1a1a1a1a1', 'b2b2b2b2b2b2b2b2', 'c3c3c3c3c3c3c3c3', 'd4d4d4d4d4d4d4d4');
const nanos = fc.constantFrom('1772445600000000000', '1772445600500000000', '1772445601000000000', '1772445601000000000');
const op = fc.constantFrom('invoke_agent', 'chat', 'execute_tool', 'something_else');
const span = fc.record({ spanId: id, parentSpanId: fc.option(id), name: op, start: nanos, end: nanos, op, tool: fc.constantFrom('grep', 'final_answer') }).map((s) => ({
  traceId: '0123456789abcdef0123456789abcdef',
  spanId: s.spanId,
  ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
  name: s.name,
  startTimeUnixNano: s.start < s.end ? s.start : s.end,
  endTimeUnixNano: s.start < s.end ? s.end : s.start,
  attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: s.op } }, { key: 'gen_ai.tool.name', value: { stringValue: s.tool } }],
}));
const notAnObject = fc.constantFrom<unknown>(7, 'text', null, [1]);
const order = fc.array(fc.nat(9), { minLength: 4, maxLength: 4 });
const scopeSpans = fc
  .record({ scope: fc.option(fc.constantFrom({ name: 'agents' }, null), { nil: undefined }), library: fc.option(fc.constant({ name: 'old' }), { nil: undefined }), spans: fc.array(fc.oneof({ weight: 6, arbitrary: span }, { weight: 1, arbitrary: notAnObject }), { maxLength: 5 }), order })
  .map((s) => ordered([...(s.scope !== undefined ? [['scope', s.scope] as [string, unknown]] : []), ...(s.library ? [['instrumentationLibrary', s.library] as [string, unknown]] : []), ['spans', s.spans]], s.order));
const scopeList = fc.array(fc.oneof({ weight: 5, arbitrary: scopeSpans }, { weight: 1, arbitrary: notAnObject }), { maxLength: 3 });
const resourceSpans = fc
  .record({
    resource: fc.option(fc.constantFrom({ attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] }, null, 3), { nil: undefined }),
    scopeSpans: fc.option(fc.oneof({ weight: 5, arbitrary: scopeList }, { weight: 1, arbitrary: fc.constant(null) }), { nil: undefined }),
    ils: fc.option(scopeList, { nil: undefined }),
    order,
  })
  .map((r) => ordered([...(r.resource !== undefined ? [['resource', r.resource] as [string, unknown]] : []), ...(r.scopeSpans !== undefined ? [['scopeSpans', r.scopeSpans] as [string, unknown]] : []), ...(r.ils ? [['instrumentationLibrarySpans', r.ils] as [string, unknown]] : [])], r.order));
const request = fc
  .record({ list: fc.array(fc.oneof({ weight: 6, arbitrary: resourceSpans }, { weight: 1, arbitrary: notAnObject }), { maxLength: 3 }), extra: fc.boolean(), order })
  .map((r) => ordered([['resourceSpans', r.list], ...(r.extra ? [['schemaUrl', 'x'] as [string, unknown]] : [])], r.order));
// Besides requests, a stream may hold other values: one OTLP span, an object without spans, `{"resourceSpans": null}`.
const otherValue = fc.oneof(span, fc.constant({ note: 'no spans here' }), fc.constant({ resourceSpans: null, spans: 'none' }));
// The first request starts with resourceSpans, as writers do: content detection (which a forced span format defers
// to) reads the first members, and this test is about how the values are read, not which span format they are named.
const firstRequest = fc.record({ list: fc.array(resourceSpans, { minLength: 1, maxLength: 3 }), extra: fc.boolean() }).map((r) => ({ resourceSpans: r.list, ...(r.extra ? { schemaUrl: 'x' } : {}) }));
const values = fc.tuple(firstRequest, fc.array(fc.oneof({ weight: 3, arbitrary: request }, { weight: 1, arbitrary: otherValue }), { maxLength: 2 })).map(([first, rest]) => [first, ...rest]);

describe('an OTLP request written over many lines streams', () => {
  it('[I1][I5][I11] any requests (members in any order, resource or scope after the spans, instrumentationLibrarySpans, entries that hold no span), pretty, in any chunks, spooled or not: the events, header, report and problems of reading each value whole', () => {
    fc.assert(
      fc.property(values, fc.integer({ min: 1, max: 3 }), fc.array(fc.nat(20_000), { maxLength: 8 }), fc.boolean(), (vs, indent, cuts, spool) => {
        const { pretty, compact } = writtenBoth(vs, indent);
        const whole = imported(compact, [1]);
        const streamed = imported(pretty, cuts, spool ? memoryRecordStore() : undefined);
        expect(streamed).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('[I1] a request of 3,000 spans hands its spans to the spool a span at a time: no part of it is held whole', () => {
    const spans = Array.from({ length: 3000 }, (_, i) => ({
      traceId: '0123456789abcdef0123456789abcdef',
      spanId: (i + 1).toString(16).padStart(16, '0'),
      name: 'chat',
      startTimeUnixNano: `${1772445600000000000 + i * 1000}`,
      endTimeUnixNano: `${1772445600000000000 + i * 1000 + 500}`,
      attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }],
    }));
    const text = JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans }] }] }, null, 2);
    const appended: number[] = [];
    const store = memoryRecordStore();
    const spool: RecordStore = { append: (t) => (appended.push(t.length), store.append(t)), read: (h) => store.read(h) };
    // A limit of 2,000 characters for one part: the request (~700 KB) streams only if no level holds its whole text.
    const events: TraceEvent[] = [];
    const s = createImportStream({ fileName: 'big.json', onEvent: (e) => events.push(e), spool, maxDocumentChars: 2000 });
    pushInPieces(text, Array.from({ length: 200 }, (_, i) => i * 3571), (piece) => s.push(piece));
    const out = s.end();
    expect(out.problems).toEqual([]);
    expect(appended.length).toBe(3000);
    expect(out.report?.model_calls).toBe(3000);
  });

  it('[I1] a request cut off imports the spans before the cut, and says where the input ended', () => {
    const text = JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans: [1, 2, 3].map((n) => ({ traceId: 'ab', spanId: `${n}`.padStart(16, '0'), name: 'chat', startTimeUnixNano: `${n}000000000`, endTimeUnixNano: `${n}000000001`, attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }] })) }] }] }, null, 2);
    const cut = text.slice(0, text.lastIndexOf('"spanId"'));
    const out = imported(cut, []);
    expect(out.report?.model_calls).toBe(2);
    expect(out.problems.map((p) => p.code)).toContain('truncated');
  });
});
