import type { HookEvent } from '../model/event.ts';
import type { JsonValue } from '../model/json.ts';
import { jsonEqual, ownGet } from '../model/json.ts';
import { STATUS_CODE, type Explanation } from '../dispatch/types.ts';
import { explainedHandler, handlerStatuses } from '../dispatch/explain/explainEvent.ts';
import type { SessionResult } from '../replay/session.ts';
import { HOOKWIRE_SPAN_ATTRIBUTES } from '../trace/importers/hookwireSpans.ts';

/**
 * OpenTelemetry for the runtime [O1]: one span per dispatched event. The engine never imports
 * `@opentelemetry/api`: the caller hands in a tracer (`trace.getTracer('hookwire')`), and these structural types
 * are the part of the OTel API that Hookwire calls, so an OTel `Tracer` fits them as it is. No tracer, no spans
 * and no OTel code loaded.
 */
export type TelemetryAttribute = string | number | boolean;
export type TelemetryAttributes = Record<string, TelemetryAttribute>;

export interface TelemetrySpan {
  setAttribute(key: string, value: TelemetryAttribute): unknown;
  addEvent(name: string, attributes?: TelemetryAttributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** The part of an OTel `Tracer` Hookwire uses. `startSpan` parents the span on the active context (OTel's default). */
export interface TelemetryTracer {
  startSpan(name: string, options?: { attributes?: TelemetryAttributes; kind?: number }): TelemetrySpan;
}

export interface RuntimeTelemetry {
  tracer: TelemetryTracer;
  /**
   * `hookwire.pipeline.version`; default the runtime's `pipelineVersion` [R17], else a content hash of the
   * pipeline's semantics (`fnv1a32:<hex>`).
   */
  pipelineVersion?: string;
  /**
   * Also put the event as dispatched (`hookwire.event.payload`, `hookwire.event.ts`, meta) on the span, so an OTLP
   * export can be imported back as a replayable trace. Off by default: payloads may hold what a rewrite redacts.
   */
  payloads?: boolean;
}

/** OTel `SpanStatusCode.ERROR` (the API's enum value, kept here so the engine does not import it). */
const STATUS_ERROR = 2;

const R = HOOKWIRE_SPAN_ATTRIBUTES;
/** The attribute names Hookwire writes; those the OTLP importer reads back come from its table (one contract). */
export const HOOKWIRE_ATTR = {
  eventType: R.eventType,
  eventId: R.eventId,
  eventTs: R.eventTs,
  eventSeq: R.eventSeq,
  payload: R.payload,
  meta: R.eventMeta,
  decision: R.decision,
  decidedBy: R.handler,
  reason: R.reason,
  traceId: R.traceId,
  agentId: R.agentId,
  pipelineName: R.pipelineName,
  pipelineVersion: R.pipelineVersion,
  eventMode: 'hookwire.event.mode',
  blocked: 'hookwire.blocked',
  duplicate: 'hookwire.duplicate',
  afterTerminate: 'hookwire.after_terminate',
  rewritten: 'hookwire.payload.rewritten',
  errors: 'hookwire.errors',
} as const;

/** The span's name: `hookwire <event type>`. */
export function eventSpanName(type: string): string {
  return `hookwire ${type}`;
}

const NO_STATUSES = new Uint8Array(0);

/**
 * Writes the span of one dispatched event: Hookwire's attributes, the GenAI attributes that describe the same
 * thing (tool name and call id, model, conversation id; never usage, which the framework's own span reports and a
 * backend would count twice), one `hookwire.handler` span event per handler that fired or failed, and the
 * decision as a `gen_ai.evaluation.result` event (GenAI semconv, development status).
 */
export function writeEventSpan(
  t: RuntimeTelemetry,
  pipeline: { name: string; version: string },
  event: HookEvent,
  r: SessionResult,
  explanation: Explanation | null,
  seq: number,
): void {
  const a: TelemetryAttributes = {
    [HOOKWIRE_ATTR.eventType]: event.type,
    [HOOKWIRE_ATTR.eventId]: event.event_id,
    [HOOKWIRE_ATTR.eventMode]: r.mode,
    [HOOKWIRE_ATTR.eventSeq]: seq,
    [HOOKWIRE_ATTR.decision]: r.decision,
    [HOOKWIRE_ATTR.blocked]: r.blocked,
    [HOOKWIRE_ATTR.reason]: r.reason,
    [HOOKWIRE_ATTR.traceId]: event.trace_id,
    [HOOKWIRE_ATTR.agentId]: event.agent_id,
    [HOOKWIRE_ATTR.pipelineName]: pipeline.name,
    [HOOKWIRE_ATTR.pipelineVersion]: pipeline.version,
    [HOOKWIRE_ATTR.rewritten]: r.payload !== event.payload && !jsonEqual(r.payload, event.payload),
    'gen_ai.conversation.id': event.trace_id,
  };
  if (r.decided_by !== null) a[HOOKWIRE_ATTR.decidedBy] = r.decided_by;
  if (r.duplicate) a[HOOKWIRE_ATTR.duplicate] = true;
  if (r.after_terminate) a[HOOKWIRE_ATTR.afterTerminate] = true;
  if (r.errors.length) a[HOOKWIRE_ATTR.errors] = r.errors.length;
  if (t.payloads) {
    a[HOOKWIRE_ATTR.eventTs] = event.ts;
    a[HOOKWIRE_ATTR.payload] = JSON.stringify(event.payload);
    if (event.meta !== undefined) a[HOOKWIRE_ATTR.meta] = JSON.stringify(event.meta);
  }
  const str = (v: JsonValue | undefined) => (typeof v === 'string' ? v : undefined);
  const toolName = str(ownGet(event.payload, 'tool_name'));
  const callId = str(ownGet(event.payload, 'tool_use_id'));
  const model = str(ownGet(event.payload, 'model'));
  if (toolName !== undefined) a['gen_ai.tool.name'] = toolName;
  if (callId !== undefined) a['gen_ai.tool.call.id'] = callId;
  if (model !== undefined && event.type.startsWith('model.')) a['gen_ai.request.model'] = model;

  const span = t.tracer.startSpan(eventSpanName(event.type), { attributes: a });
  // The handlers that ran, found by status: only their stories are built, not every handler's [X6].
  const statuses = explanation ? handlerStatuses(explanation) : NO_STATUSES;
  for (let rank = 0; rank < statuses.length; rank++) {
    if (statuses[rank] !== STATUS_CODE.fired && statuses[rank] !== STATUS_CODE.error) continue;
    const h = explainedHandler(explanation!, rank);
    if (h.status !== 'fired' && h.status !== 'error') continue;
    const e: TelemetryAttributes = { 'hookwire.handler.id': h.handler_id, 'hookwire.handler.name': h.name, 'hookwire.handler.action': h.action, 'hookwire.handler.status': h.status };
    if (h.status === 'fired') e['hookwire.handler.decision'] = h.decision;
    if (h.status === 'fired' && h.reason) e['hookwire.handler.reason'] = h.reason;
    if (h.shadow) e['hookwire.handler.shadow'] = true;
    if (h.status === 'fired' && h.ignored !== undefined) e['hookwire.handler.ignored'] = h.ignored;
    if (h.status === 'error') e['hookwire.handler.error'] = h.error.message;
    span.addEvent('hookwire.handler', e);
  }
  span.addEvent('gen_ai.evaluation.result', {
    'gen_ai.evaluation.name': 'hookwire',
    'gen_ai.evaluation.score.label': r.decision,
    ...(r.reason ? { 'gen_ai.evaluation.explanation': r.reason } : {}),
  });
  if (r.errors.length) span.setStatus({ code: STATUS_ERROR, message: r.errors.map((e) => e.message).join('; ') });
  span.end();
}

/** A short content hash of a pipeline's semantics (layout and description left out): `fnv1a32:<8 hex>`. */
export function pipelineVersionOf(doc: { name: string; event_types: unknown; nodes: unknown; wires: unknown }): string {
  const text = JSON.stringify([doc.name, doc.event_types, doc.nodes, doc.wires]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `fnv1a32:${(h >>> 0).toString(16).padStart(8, '0')}`;
}
