// [P10] The `replay --json` line is the DecisionRow of its step as JSON, exactly: decisionLine writes it member by
// member (no object per event), so it is held here to JSON.stringify of the row on random replays and on names and
// payloads that need escaping.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compilePipeline, replayTrace, type TraceEvent } from '../../../engine/index.ts';
import { decisionLine, decisionRow } from '../../../engine/runtime/decideTrace.ts';
import { pipelineArb, traceArb } from '../replay/arbitraries.ts';

const jsonish = fc.jsonValue({ maxDepth: 3 });
/** Ids, types and payloads with quotes, backslashes, control characters, lone surrogates and `__proto__` keys. */
const oddText = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('"', '\\', '\u2028', '\ud800', '__proto__', 'é漢🎉', '\u0000\n'));

describe('decisionLine [P10]', () => {
  it('[P10] is JSON.stringify(decisionRow(step)) and a newline, for every step of random replays', () => {
    fc.assert(
      fc.property(pipelineArb, traceArb, (doc, events) => {
        const c = compilePipeline(doc);
        if (!c.ok) return;
        for (const step of replayTrace(c.compiled, events, { explain: false })) expect(decisionLine(step)).toBe(`${JSON.stringify(decisionRow(step))}\n`);
      }),
      { numRuns: 300 },
    );
  });

  it('[P10] escapes ids, reasons and payloads as JSON.stringify does', () => {
    const c = compilePipeline({ format: 'hookwire.pipeline', version: 1, name: 'p', nodes: [{ id: 'e', kind: 'event', pattern: '*' }, { id: 'h', name: 'h "\\', kind: 'handler', order: 0, action: { type: 'block', reason: 'no {{payload.k}}' } }], wires: [{ from: 'e', to: 'h' }] });
    if (!c.ok) throw new Error(JSON.stringify(c));
    fc.assert(
      fc.property(oddText, fc.dictionary(oddText, jsonish, { maxKeys: 4 }), oddText, (id, payload, k) => {
        const e: TraceEvent = { event_id: id || 'x', trace_id: 't', agent_id: 'a', type: 'tool.before_call', ts: '2026-01-01T00:00:00.000Z', payload: { ...payload, k } };
        const [step] = replayTrace(c.compiled, [e], { explain: false });
        expect(decisionLine(step!)).toBe(`${JSON.stringify(decisionRow(step!))}\n`);
      }),
      { numRuns: 300 },
    );
  });
});
