import type { JsonObject, ReplayStep, TraceEvent } from '../../../engine/index.ts';

const T0 = Date.UTC(2026, 0, 1);

/** A trace event with an explicit id; time `i` seconds after 2026-01-01 unless `ts` is given. */
export function te(id: string, type: string, payload: JsonObject = {}, extra: Partial<TraceEvent> & { at?: number } = {}): TraceEvent {
  const { at, ...rest } = extra;
  const n = at ?? Number(/\d+$/.exec(id)?.[0] ?? 0);
  return { event_id: id, trace_id: 't1', agent_id: 'agent-1', type, ts: new Date(T0 + n * 1000).toISOString(), payload, ...rest };
}

/** The time of `te(…, { at })`. */
export const at = (n: number) => T0 + n * 1000;

/** A step with its explanation's handler durations zeroed (code handlers report wall time) for comparisons. */
export function comparable(s: ReplayStep): unknown {
  return JSON.parse(JSON.stringify(s, (k, v) => (k === 'duration_ms' ? 0 : v)));
}

/** Outcome letters for compact assertions: c(ontinue) s(top) a(sk) b(lock) t(erminate) n(ot reached). */
export function outcomes(steps: readonly ReplayStep[]): string {
  return steps.map((s) => ({ continue: 'c', stop_propagation: 's', ask: 'a', block_action: 'b', terminate: 't', not_reached: 'n' })[s.outcome]).join('');
}
