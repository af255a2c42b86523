// The trace reader's hand check of an event line (surelyValidEventLine) against the schema it stands in for
// (TraceEventLineSchema) [T1][T6]: it must never pass a line the schema refuses (the reader would then keep a bad
// event without a `schema` problem), and it should pass the lines the schema accepts (else the reader pays for
// zod on every line and nothing is gained). A refused line's message is always the schema's.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isTraceTimestamp, surelyValidEventLine, surelyValidHeader, traceSchemas } from '../../../engine/trace/traceSchema.ts';

const { TraceEventLineSchema, TraceHeaderSchema } = traceSchemas();
import { readTrace } from '../../../engine/trace/traceReader.ts';
import { formatIssues } from '../../../engine/trace/formatIssues.ts';
import type { JsonObject } from '../../../engine/model/json.ts';

/** Values a field may take: good ones and near misses (bounds, wrong types, names that are prototype keys). */
const anyJson = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 3 }), fc.constant([]), fc.constant({}), fc.constant(['a']));
const ids = fc.oneof(fc.constantFrom('e1', 'x', '', 'a'.repeat(1000), 'a'.repeat(1001), '__proto__'), fc.string({ maxLength: 8 }), anyJson);
const types = fc.oneof(fc.constantFrom('tool.before_call', 'agent.start', 'a', '_x.y-z', 'A'.repeat(200), 'A'.repeat(201), '1abc', 'a..b', 'a.', '', 'tool before'), anyJson);
const tss = fc.oneof(
  fc.constantFrom('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00Z', '2024-02-29T23:59:59.5+02:00', '2023-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-04-31T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:00:00', '2026-01-01T00:00:00+24:00', '2026-01-01T00:00:00-23:59', '2026-01-01 00:00:00Z', '2026-01-01T00:00:00.Z', ' 2026-01-01T00:00:00Z'),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  anyJson,
);
const objects = fc.oneof(fc.constantFrom<unknown>({}, { a: 1 }, JSON.parse('{"__proto__":{"x":1}}')), anyJson);
const texts = (max: number) => fc.oneof(fc.constantFrom('', 'x', 'a'.repeat(max), 'a'.repeat(max + 1)), anyJson);
const approval = fc.dictionary(
  fc.constantFrom('answer', 'by', 'reason', 'who', 'at', 'edit', 'extra', '__proto__'),
  fc.oneof(fc.constantFrom<unknown>('allow', 'deny', 'deferred', 'approver', 'timeout', 'late', 'maybe'), texts(200), tss, objects),
  { maxKeys: 6 },
);
const recorded = fc.dictionary(
  fc.constantFrom('decision', 'reason', 'approval', 'context', 'pipeline', 'wall_clock', 'extra', 'constructor'),
  fc.oneof(
    fc.constantFrom<unknown>('continue', 'block_action', 'ask', 'terminate', 'stop_propagation', 'allow', [], ['a', 'b'], [1], [''], ['a'.repeat(201)], Array.from({ length: 1001 }, () => 'h')),
    texts(200),
    approval,
    anyJson,
  ),
  { maxKeys: 6 },
);
const chains = fc.oneof(fc.constantFrom('a'.repeat(64), '0123456789abcdef'.repeat(4), 'A'.repeat(64), 'a'.repeat(63), 'g'.repeat(64)), anyJson);

/** An event line: each field present or not, good or a near miss, sometimes an unknown key. */
const lines = fc
  .record(
    { event_id: ids, trace_id: ids, agent_id: ids, type: types, ts: tss, payload: objects, meta: objects, recorded, chain: chains, extra: anyJson },
    { requiredKeys: [] },
  )
  .map((r) => JSON.parse(JSON.stringify(r)) as JsonObject);

/** Lines the schema accepts, as writers make them (the hand check must pass these). */
const goodLines = fc
  .record(
    {
      event_id: fc.string({ minLength: 1, maxLength: 40 }),
      trace_id: fc.string({ minLength: 1, maxLength: 20 }),
      agent_id: fc.string({ minLength: 1, maxLength: 20 }),
      type: fc.constantFrom('tool.before_call', 'tool.after_call', 'input.received', 'agent.end', 'custom.thing-1'),
      ts: fc.date({ min: new Date('1970-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }).map((d) => d.toISOString()),
      payload: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })),
      meta: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 })),
      recorded: fc.record(
        {
          decision: fc.constantFrom('continue', 'stop_propagation', 'ask', 'block_action', 'terminate'),
          reason: fc.string({ maxLength: 30 }),
          approval: fc.record({ answer: fc.constantFrom('allow', 'deny', 'deferred'), by: fc.constantFrom('approver', 'no_approver', 'timeout'), who: fc.string({ minLength: 1, maxLength: 10 }), at: fc.constant('2026-01-01T00:00:00.000Z') }, { requiredKeys: ['answer', 'by'] }),
          context: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
          pipeline: fc.constant('sha256:0123456789abcdef'),
          wall_clock: fc.array(fc.string({ minLength: 1, maxLength: 10 }), { maxLength: 3 }),
        },
        { requiredKeys: ['decision'] },
      ),
      chain: fc.constant('0123456789abcdef'.repeat(4)),
    },
    { requiredKeys: ['event_id', 'type', 'ts', 'payload'] },
  )
  .map((r) => JSON.parse(JSON.stringify(r)) as JsonObject);

/** A good line with one or two fields replaced by a near miss (or removed, or an unknown key added). */
const fieldValues: Record<string, fc.Arbitrary<unknown>> = { event_id: ids, trace_id: ids, agent_id: ids, type: types, ts: tss, payload: objects, meta: objects, recorded, chain: chains, extra: anyJson, ['__proto__']: anyJson };
const subValues: Record<string, fc.Arbitrary<unknown>> = { decision: fc.oneof(fc.constantFrom('continue', 'allow', 'Continue'), anyJson), reason: texts(10_000), context: fc.oneof(fc.constantFrom([], ['a'], [1], [null]), anyJson), pipeline: texts(200), wall_clock: fc.oneof(fc.constantFrom([], ['a'], [''], ['a'.repeat(201)], Array.from({ length: 1001 }, () => 'h')), anyJson), approval, extra: anyJson };
const approvalValues: Record<string, fc.Arbitrary<unknown>> = { answer: fc.oneof(fc.constantFrom('allow', 'deny', 'deferred', 'yes'), anyJson), by: fc.oneof(fc.constantFrom('approver', 'host', 'unrecorded', 'me'), anyJson), reason: texts(10_000), who: texts(200), at: tss, edit: objects, extra: anyJson };
const mutation = (values: Record<string, fc.Arbitrary<unknown>>) =>
  fc.constantFrom(...Object.keys(values)).chain((key) => fc.tuple(fc.constant(key), fc.option(values[key]!, { nil: undefined, freq: 4 })));
const mutated = fc
  .tuple(goodLines, fc.array(mutation(fieldValues), { minLength: 1, maxLength: 2 }), fc.option(mutation(subValues), { nil: null }), fc.option(mutation(approvalValues), { nil: null }))
  .map(([line, changes, sub, appr]) => {
    const out: Record<string, unknown> = JSON.parse(JSON.stringify(line));
    // A copy of the value: the arbitraries' constants ({}, [], …) are shared, and a later change written into one
    // would reach every line made from it (once, a circle: a shared {} given itself as a field).
    const set = (o: Record<string, unknown>, [k, v]: [string, unknown]) => (v === undefined ? delete o[k] : Object.defineProperty(o, k, { value: JSON.parse(JSON.stringify(v)) as unknown, enumerable: true, writable: true, configurable: true }));
    for (const c of changes) set(out, c);
    const rec = out.recorded as Record<string, unknown> | undefined;
    if (sub && rec && typeof rec === 'object' && !Array.isArray(rec)) set(rec, sub);
    const ap = rec && typeof rec === 'object' ? (rec.approval as Record<string, unknown> | undefined) : undefined;
    if (appr && ap && typeof ap === 'object' && !Array.isArray(ap)) set(ap, appr);
    return JSON.parse(JSON.stringify(out)) as JsonObject;
  });

describe('the reader\'s hand check of an event line', () => {
  it('[T1][T6] property: a writer\'s line with one or two fields changed passes it exactly when the schema accepts it', () => {
    fc.assert(
      fc.property(mutated, (line) => {
        expect(surelyValidEventLine(line)).toBe(TraceEventLineSchema.safeParse(line).success);
      }),
      { numRuns: 5000 },
    );
  });


  it('[T1][T6] property: it passes only lines the schema accepts, and on these generated lines exactly those', () => {
    fc.assert(
      fc.property(lines, (line) => {
        expect(surelyValidEventLine(line)).toBe(TraceEventLineSchema.safeParse(line).success);
      }),
      { numRuns: 3000 },
    );
  });

  it('[T1] property: every line a writer makes passes it (the reader does not fall back to the schema for them)', () => {
    fc.assert(
      fc.property(goodLines, (line) => {
        expect(TraceEventLineSchema.safeParse(line).success).toBe(true);
        expect(surelyValidEventLine(line)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('[T6][V8] a refused line gets the schema\'s message; `__proto__` is an unknown key, as the schema has it', () => {
    const header = '{"format":"hookwire.trace","version":1,"trace_id":"t","agent_id":"a","source":{"kind":"test"},"created":"2026-01-01T00:00:00Z"}';
    const bad = ['{"event_id":"e1","type":"tool.before_call","ts":"2026-02-30T00:00:00Z","payload":{}}', '{"event_id":"e2","type":"x","ts":"2026-01-01T00:00:00Z","payload":{},"__proto__":{}}', '{"event_id":"e3","type":"x","ts":"2026-01-01T00:00:00Z","payload":{},"recorded":{"decision":"allow"}}'];
    const r = readTrace([header, ...bad, '{"event_id":"e4","type":"x","ts":"2026-01-01T00:00:00Z","payload":{"__proto__":1}}'].join('\n'));
    expect(r.events.map((e) => e.event_id)).toEqual(['e4']);
    expect(Object.hasOwn(r.events[0]!.payload, '__proto__')).toBe(true);
    expect(r.problems.map((p) => [p.line, p.code])).toEqual([[2, 'schema'], [3, 'schema'], [4, 'schema']]);
    for (const p of r.problems) {
      const check = TraceEventLineSchema.safeParse(JSON.parse(bad[p.line - 2]!));
      expect(check.success).toBe(false);
      expect(p.message).toBe(`line ${p.line}: not a valid event (${formatIssues(check.error!.issues)})`);
    }
    expect(r.problems[0]!.message).toContain('ts');
    expect(r.problems[1]!.message).toContain('__proto__');
    expect(r.problems[2]!.message).toContain('recorded.decision');
  });
});

/** A header as writers make it, with fields replaced by near misses, removed, or unknown keys added. */
const goodHeader = fc.record(
  {
    format: fc.constant('hookwire.trace'),
    version: fc.constant(1),
    trace_id: fc.string({ minLength: 1, maxLength: 20 }),
    agent_id: fc.string({ minLength: 1, maxLength: 20 }),
    source: fc.record({ kind: fc.string({ minLength: 1, maxLength: 10 }), session: fc.string({ maxLength: 5 }) }, { requiredKeys: ['kind'] }),
    created: fc.date({ min: new Date('1970-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }).map((d) => d.toISOString()),
    title: fc.string({ maxLength: 30 }),
    recorder: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: ['format', 'version', 'trace_id', 'agent_id', 'source', 'created'] },
);
const sources = fc.oneof(fc.constantFrom<unknown>({ kind: 'cli' }, { kind: '' }, { kind: 1 }, { other: 'x' }, { kind: 'a', extra: [1] }, JSON.parse('{"__proto__":{"kind":"x"}}')), anyJson);
const headerValues: Record<string, fc.Arbitrary<unknown>> = {
  format: fc.oneof(fc.constantFrom('hookwire.trace', 'hookwire.pipeline', 'Hookwire.trace'), anyJson),
  version: fc.oneof(fc.constantFrom(1, 1.5, 0, 2, '1'), anyJson),
  trace_id: ids,
  agent_id: ids,
  source: sources,
  created: tss,
  title: texts(1000),
  extra: anyJson,
  ['__proto__']: anyJson,
  constructor: anyJson,
};
const headers = fc.tuple(goodHeader, fc.array(mutation(headerValues), { maxLength: 3 })).map(([h, changes]) => {
  const out: Record<string, unknown> = JSON.parse(JSON.stringify(h));
  for (const [k, v] of changes) {
    if (v === undefined) delete out[k];
    else Object.defineProperty(out, k, { value: JSON.parse(JSON.stringify(v)) as unknown, enumerable: true, writable: true, configurable: true });
  }
  return JSON.parse(JSON.stringify(out)) as JsonObject;
});

describe('the reader\'s hand check of the header', () => {
  it('[T1] property: a writer\'s header, as made or with fields changed, passes it exactly when the schema accepts it', () => {
    fc.assert(
      fc.property(headers, (h) => {
        expect(surelyValidHeader(h)).toBe(TraceHeaderSchema.safeParse(h).success);
      }),
      { numRuns: 5000 },
    );
  });

  it('[T1] a refused header gets the schema\'s message, and the reader stops there', () => {
    const event = '{"event_id":"e1","type":"x","ts":"2026-01-01T00:00:00Z","payload":{}}';
    for (const [header, field] of [['{"format":"hookwire.trace","version":1,"trace_id":"","agent_id":"a","source":{"kind":"t"},"created":"2026-01-01T00:00:00Z"}', 'trace_id'], ['{"format":"hookwire.trace","version":1,"trace_id":"t","agent_id":"a","source":{"kind":"t"},"created":"2026-02-30T00:00:00Z"}', 'created'], ['{"format":"hookwire.trace","version":1,"trace_id":"t","agent_id":"a","source":{},"created":"2026-01-01T00:00:00Z","title":null}', 'source.kind']] as const) {
      const r = readTrace(`${header}\n${event}\n`);
      const check = TraceHeaderSchema.safeParse(JSON.parse(header));
      expect(r.status).toBe('failed');
      expect(r.events).toEqual([]);
      expect(r.problems.map((p) => p.code)).toEqual(['bad_header']);
      expect(r.problems[0]!.message).toBe(`line 1: the header is not valid (${formatIssues(check.error!.issues)})`);
      expect(r.problems[0]!.message).toContain(field);
    }
    // Unknown keys (and `__proto__`) are kept, as the schema's loose object keeps them.
    const r = readTrace(`{"format":"hookwire.trace","version":1,"trace_id":"t","agent_id":"a","source":{"kind":"t","x":1},"created":"2026-01-01T00:00:00+02:00","recorder":"me","__proto__":{"a":1}}\n${event}\n`);
    expect(r.status).toBe('ok');
    expect(Object.hasOwn(r.header!, '__proto__')).toBe(true);
    expect(r.header!.recorder).toBe('me');
  });
});

describe('[T4] isTraceTimestamp is the timestamp rule of the schema', () => {
  it('says yes exactly where IsoTs does, on timestamps and near misses', () => {
    const { IsoTs } = traceSchemas();
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    const stamp = fc.record({
      y: fc.integer({ min: 0, max: 9999 }), mo: fc.integer({ min: 0, max: 13 }), d: fc.integer({ min: 0, max: 32 }),
      h: fc.integer({ min: 0, max: 25 }), mi: fc.integer({ min: 0, max: 61 }), s: fc.integer({ min: 0, max: 61 }),
      frac: fc.option(fc.integer({ min: 0, max: 999999 }).map(String), { nil: undefined }),
      zone: fc.constantFrom('Z', 'z', '+02:00', '-05:30', '+0200', '+24:00', '', ' Z'),
      sep: fc.constantFrom('T', 't', ' '),
    }).map((t) => `${pad(t.y, 4)}-${pad(t.mo, 2)}-${pad(t.d, 2)}${t.sep}${pad(t.h, 2)}:${pad(t.mi, 2)}:${pad(t.s, 2)}${t.frac === undefined ? '' : `.${t.frac}`}${t.zone}`);
    fc.assert(fc.property(fc.oneof(stamp, fc.string({ maxLength: 30 })), (ts) => {
      expect(isTraceTimestamp(ts)).toBe(IsoTs.safeParse(ts).success);
    }), { numRuns: 3000 });
    expect(isTraceTimestamp('2026-02-10T21:11:52.438Z')).toBe(true);
    expect(isTraceTimestamp('2026-02-10T21:11:52')).toBe(false);
  });
});
