import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECISIONS } from '../../../engine/model/decision.ts';
import { jsonEqual, type JsonObject } from '../../../engine/model/json.ts';
import { createTraceReader, readTrace } from '../../../engine/trace/traceReader.ts';
import { traceToJsonl } from '../../../engine/trace/traceToJsonl.ts';
import type { Trace, TraceEvent } from '../../../engine/trace/traceTypes.ts';

const id = fc.string({ minLength: 1, maxLength: 12 });
const ts = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
const jsonObject = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 })) as fc.Arbitrary<JsonObject>;

const eventArb = (traceId: string, agentId: string): fc.Arbitrary<TraceEvent> =>
  fc
    .record({
      event_id: id,
      trace_id: fc.oneof(fc.constant(traceId), id),
      agent_id: fc.oneof(fc.constant(agentId), id),
      type: fc.constantFrom('tool.before_call', 'model.after_call', 'agent.start', 'custom.thing'),
      ts,
      payload: jsonObject,
      meta: fc.option(jsonObject, { nil: undefined }),
      recorded: fc.option(fc.record({ decision: fc.constantFrom(...DECISIONS), reason: fc.option(fc.string(), { nil: undefined }) }, { requiredKeys: ['decision'] }), { nil: undefined }),
    })
    .map((e) => {
      const out = { ...e } as TraceEvent;
      if (out.meta === undefined) delete out.meta;
      if (out.recorded === undefined) delete out.recorded;
      else if (out.recorded.reason === undefined) delete out.recorded.reason;
      return out;
    });

const traceArb: fc.Arbitrary<Trace> = fc.record({ trace_id: id, agent_id: id, created: ts, title: fc.option(fc.string(), { nil: undefined }) }).chain((h) =>
  fc.array(eventArb(h.trace_id, h.agent_id), { maxLength: 15 }).map((events) => {
    const header: Trace['header'] = { format: 'hookwire.trace', version: 1, trace_id: h.trace_id, agent_id: h.agent_id, source: { kind: 'test', n: 1 }, created: h.created };
    if (h.title !== undefined) header.title = h.title;
    return { header, events };
  }),
);

describe('trace round trip', () => {
  it('[T4] writing a trace and reading it back gives the same trace', () => {
    fc.assert(
      fc.property(traceArb, (trace) => {
        const r = readTrace(traceToJsonl(trace));
        expect(r.status).toBe('ok');
        expect(r.problems.filter((p) => p.code !== 'duplicate_event_id')).toEqual([]);
        // jsonEqual: JSON has one zero, so -0 written comes back as 0.
        expect(jsonEqual(r.header as never, trace.header as never)).toBe(true);
        expect(jsonEqual(r.events as never, trace.events as never)).toBe(true);
      }),
      { numRuns: 120 },
    );
  });

  it('[T3] any split of the input into chunks reads the same as the whole string', () => {
    const withGarbage = fc.tuple(traceArb, fc.array(fc.string(), { maxLength: 3 })).map(([t, junk]) => {
      const lines = traceToJsonl(t).split('\n');
      for (const j of junk) lines.splice(1 + (j.length % Math.max(1, lines.length - 1)), 0, j);
      return lines.join('\n');
    });
    fc.assert(
      fc.property(withGarbage, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const reader = createTraceReader();
        let at = 0;
        for (const p of [...points, text.length]) {
          reader.push(text.slice(at, p));
          at = p;
        }
        expect(reader.end()).toEqual(readTrace(text));
      }),
      { numRuns: 120 },
    );
  });
});
