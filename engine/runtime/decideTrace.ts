import type { CompiledPipeline } from '../dispatch/compilePipeline.ts';
import { createSession } from '../dispatch/session.ts';
import type { Decision } from '../model/decision.ts';
import type { JsonObject } from '../model/json.ts';
import type { TraceEvent } from '../trace/traceSchema.ts';

/** One event's decision as the CLI prints it: the stable `replay --json` record [P10]. */
export interface DecisionRow {
  event_id: string;
  type: string;
  decision: Decision;
  reason: string;
  decided_by: string | null;
  payload: JsonObject;
}

/**
 * Feeds a trace's events through a pipeline in order, state carried from event to event, each dispatched at
 * its own time (clock = the event's `ts`) [P10][E4]. Idempotent repeats and events after a TERMINATE get
 * the session's answers [E5][D4]. Handlers' audit records stay inside: nothing is sent anywhere.
 *
 * @example for (const row of decideTrace(compiled, trace.events)) console.log(row.event_id, row.decision);
 */
export function* decideTrace(compiled: CompiledPipeline, events: Iterable<TraceEvent>, initialVars?: JsonObject): Generator<DecisionRow> {
  let now = 0;
  const session = createSession(compiled, { clock: { now: () => now } }, initialVars ? { state: { vars: initialVars, breakers: {} } } : {});
  for (const event of events) {
    const parsed = Date.parse(event.ts);
    now = Number.isFinite(parsed) ? parsed : now;
    const { recorded: _recorded, ...hookEvent } = event;
    const r = session.dispatch(hookEvent);
    yield { event_id: event.event_id, type: event.type, decision: r.decision, reason: r.reason, decided_by: r.decided_by, payload: r.payload };
  }
}
