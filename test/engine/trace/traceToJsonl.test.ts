import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { traceEventLine } from '../../../engine/trace/traceToJsonl.ts';
import type { TraceEvent, TraceHeader } from '../../../engine/trace/traceTypes.ts';

// [T1][T4] An event line is the JSON of the event's members in a fixed order, trace_id / agent_id left out when they
// equal the header's. traceEventLine writes it member by member; the oracle is that object given to JSON.stringify.
function plainLine(event: Record<string, unknown>, header?: Record<string, unknown>): string {
  const line: Record<string, unknown> = { event_id: event.event_id };
  if (!header || event.trace_id !== header.trace_id) line.trace_id = event.trace_id;
  if (!header || event.agent_id !== header.agent_id) line.agent_id = event.agent_id;
  line.type = event.type;
  line.ts = event.ts;
  line.payload = event.payload;
  if (event.meta !== undefined) line.meta = event.meta;
  if (event.recorded !== undefined) line.recorded = event.recorded;
  return `${JSON.stringify(line)}\n`;
}

const value = fc.oneof(fc.constant(undefined), fc.constantFrom('t1', 'claude-code', '__proto__'), fc.string(), fc.jsonValue());
const event = fc.record({ event_id: value, trace_id: value, agent_id: value, type: value, ts: value, payload: value, meta: value, recorded: value }, { requiredKeys: [] });
const header = fc.option(fc.record({ trace_id: value, agent_id: value }), { nil: undefined });

describe('traceEventLine [T1][T4]', () => {
  it('[T1][T4] writes exactly what JSON.stringify writes for the event\'s members in order, whatever is missing or left out', () => {
    fc.assert(
      fc.property(event, header, (e, h) => {
        expect(traceEventLine(e as unknown as TraceEvent, h as unknown as TraceHeader | undefined)).toBe(plainLine(e, h));
      }),
      { numRuns: 3000 },
    );
  });

  it('[T4] leaves out the ids equal to the header\'s and keeps the others', () => {
    const e: TraceEvent = { event_id: 'e1', trace_id: 't1', agent_id: 'sub', type: 'tool.before_call', ts: '2026-01-01T00:00:00.000Z', payload: { a: [1, '"'] } };
    expect(traceEventLine(e, { trace_id: 't1', agent_id: 'main' })).toBe('{"event_id":"e1","agent_id":"sub","type":"tool.before_call","ts":"2026-01-01T00:00:00.000Z","payload":{"a":[1,"\\""]}}\n');
    expect(traceEventLine({ ...e, event_id: undefined as unknown as string })).toBe('{"trace_id":"t1","agent_id":"sub","type":"tool.before_call","ts":"2026-01-01T00:00:00.000Z","payload":{"a":[1,"\\""]}}\n');
  });
});
