import { isDecision } from '../../model/decision.ts';
import { EVENT_TYPE_RE } from '../../model/event.ts';
import { isJsonObject, ownGet, type JsonObject, type JsonValue } from '../../model/json.ts';
import type { TraceEvent } from '../traceTypes.ts';
import { parseMaybeJson } from './otelAttributes.ts';

/**
 * The span attributes Hookwire reads back from an OpenTelemetry export of its own decisions [I8]. A span
 * that carries `hookwire.event.type` is one dispatched event; the names are the contract between the
 * runtime's OpenTelemetry integration (which writes them) and this importer (which reads them):
 *
 * | attribute                  | read as                                                               |
 * |----------------------------|-----------------------------------------------------------------------|
 * | `hookwire.event.type`      | the event type (required; marks the span as Hookwire's)               |
 * | `hookwire.event.id`        | event_id (else `otel:<span id>:<type>`)                               |
 * | `hookwire.event.ts`        | ts (else the span's start)                                            |
 * | `hookwire.event.seq`       | the order of the events (the runtime's dispatch count; else start time) |
 * | `hookwire.trace_id` (`hookwire.trace.id`) | trace_id (else the OTel trace id)                      |
 * | `hookwire.agent_id` (`hookwire.agent.id`) | agent_id                                               |
 * | `hookwire.event.payload`   | payload: the payload as dispatched, a JSON object or its JSON text    |
 * | `hookwire.event.meta`      | meta: the event's own meta, as dispatched (JSON text)                 |
 * | `hookwire.decision`        | recorded.decision (`continue`, `block_action`, …; any case)           |
 * | `hookwire.reason`          | recorded.reason                                                       |
 * | `hookwire.decided_by` (`hookwire.handler`) | meta.decided_by (the deciding handler)                |
 * | `hookwire.pipeline.name`, `hookwire.pipeline.version` | meta.pipeline {name, version}              |
 *
 * The runtime writes the first name of each pair (engine/runtime/telemetry.ts, with `telemetry.payloads` on for
 * the payload, meta and ts); the second is read too.
 */
export const HOOKWIRE_SPAN_ATTRIBUTES = {
  eventType: 'hookwire.event.type',
  eventId: 'hookwire.event.id',
  eventTs: 'hookwire.event.ts',
  eventSeq: 'hookwire.event.seq',
  eventMeta: 'hookwire.event.meta',
  traceId: 'hookwire.trace_id',
  traceIdAlias: 'hookwire.trace.id',
  agentId: 'hookwire.agent_id',
  agentIdAlias: 'hookwire.agent.id',
  payload: 'hookwire.event.payload',
  decision: 'hookwire.decision',
  reason: 'hookwire.reason',
  handler: 'hookwire.decided_by',
  handlerAlias: 'hookwire.handler',
  pipelineName: 'hookwire.pipeline.name',
  pipelineVersion: 'hookwire.pipeline.version',
} as const;

const A = HOOKWIRE_SPAN_ATTRIBUTES;

/** True when the span attributes mark a span Hookwire wrote for a dispatched event. */
export function isHookwireSpan(attrs: JsonObject): boolean {
  const t = ownGet(attrs, A.eventType);
  return typeof t === 'string' && EVENT_TYPE_RE.test(t);
}

/** The parts of an event a Hookwire span gives; the caller adds ids and time. Warnings go to `warn`. */
/** `hookwire.event.seq` of a Hookwire span, or Infinity. */
export function hookwireSeq(attrs: JsonObject): number {
  const v = ownGet(attrs, A.eventSeq);
  return typeof v === 'number' && Number.isFinite(v) ? v : Infinity;
}

export function hookwireSpanEvent(attrs: JsonObject, warn: (message: string) => void): Pick<TraceEvent, 'type' | 'payload' | 'meta' | 'recorded'> & { id?: string; traceId?: string; agentId?: string; ts?: string } {
  const type = ownGet(attrs, A.eventType) as string;
  const rawPayload = ownGet(attrs, A.payload);
  const payload = rawPayload === undefined ? {} : parseMaybeJson(rawPayload).value;
  const out: ReturnType<typeof hookwireSpanEvent> = { type, payload: isJsonObject(payload) ? payload : { value: payload as JsonValue } };
  if (rawPayload !== undefined && !isJsonObject(payload)) warn(`a ${type} span's ${A.payload} is not a JSON object; kept as payload.value`);
  const str = (k: string): string | undefined => {
    const v = ownGet(attrs, k);
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const decision = str(A.decision)?.toLowerCase();
  if (decision !== undefined) {
    if (isDecision(decision)) {
      out.recorded = { decision };
      const reason = str(A.reason);
      if (reason !== undefined) out.recorded.reason = reason;
    } else warn(`a ${type} span has ${A.decision} "${decision.slice(0, 50)}", not a decision; no recorded decision kept`);
  }
  const own = ownGet(attrs, A.eventMeta);
  const ownMeta = own === undefined ? undefined : parseMaybeJson(own).value;
  const meta: JsonObject = isJsonObject(ownMeta) ? { ...ownMeta } : {};
  const handler = str(A.handler) ?? str(A.handlerAlias);
  if (handler !== undefined) meta.decided_by = handler;
  const pName = str(A.pipelineName);
  const pVersion = ownGet(attrs, A.pipelineVersion);
  if (pName !== undefined || pVersion !== undefined) meta.pipeline = { name: pName ?? null, version: (pVersion as JsonValue | undefined) ?? null };
  if (Object.keys(meta).length) out.meta = meta;
  const id = str(A.eventId);
  if (id !== undefined) out.id = id;
  const traceId = str(A.traceId) ?? str(A.traceIdAlias);
  if (traceId !== undefined) out.traceId = traceId;
  const agentId = str(A.agentId) ?? str(A.agentIdAlias);
  if (agentId !== undefined) out.agentId = agentId;
  const ts = str(A.eventTs);
  if (ts !== undefined && Number.isFinite(Date.parse(ts))) out.ts = ts;
  return out;
}
