import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.ts';
import { DECISIONS, type Decision } from '../../model/decision.ts';
import { traceProblem } from '../traceProblem.ts';
import { TRACE_FORMAT, TRACE_VERSION, type TraceEvent } from '../traceSchema.ts';
import { bump, emptyReport, type ImporterOptions, type ImportResult } from './importReport.ts';

/**
 * Hookwire's own spans in OTLP/JSON (what an OpenTelemetry collector's file exporter writes: one
 * `ExportTraceServiceRequest` per line, `resourceSpans → scopeSpans → spans`, attributes as `AnyValue`s) → trace v1
 * with the decisions Hookwire made as the recording's decisions [O3]. Needs spans written with `telemetry.payloads`
 * (the event as dispatched); other spans in the file (the framework's own) are counted, not mapped.
 *
 * | span attribute                                  | trace v1                                   |
 * |-------------------------------------------------|--------------------------------------------|
 * | hookwire.event.id / .type / .ts                 | event_id / type / ts                       |
 * | hookwire.event.payload / .meta (JSON text)      | payload / meta                             |
 * | hookwire.trace_id / hookwire.agent_id           | trace_id / agent_id (header: the first's)  |
 * | hookwire.decision / hookwire.reason             | recorded {decision, reason}                |
 * | hookwire.pipeline.name / .version               | header source {pipeline, pipeline_version} |
 *
 * Events are in dispatch order: `hookwire.event.seq` (the runtime's count of dispatched events in the trace), else
 * span start time, else file order. A span after the run ended is kept with its
 * recorded TERMINATE, as the runtime recorded it.
 */
export function importHookwireOtlp(docs: unknown[], options: ImporterOptions = {}): ImportResult {
  const spans: { attrs: JsonObject; seq: number; start: bigint; index: number }[] = [];
  let other = 0;
  let total = 0;
  for (const doc of docs) {
    for (const rs of listOf(doc, 'resourceSpans')) {
      for (const ss of listOf(rs, 'scopeSpans')) {
        for (const span of listOf(ss, 'spans')) {
          total++;
          if (!isJsonObject(span)) continue;
          const attrs = attributesOf(span.attributes);
          if (typeof attrs['hookwire.event.type'] !== 'string') {
            other++;
            continue;
          }
          const seq = attrs['hookwire.event.seq'];
          spans.push({ attrs, seq: typeof seq === 'number' && Number.isFinite(seq) ? seq : Infinity, start: nanos(span.startTimeUnixNano), index: spans.length });
        }
      }
    }
  }
  if (spans.length === 0) return { ok: false, problem: traceProblem('bad_source', 0, 'no Hookwire spans (attribute hookwire.event.type) in this OTLP/JSON file', 'error', true) };
  if (!spans.some((s) => typeof s.attrs['hookwire.event.payload'] === 'string')) {
    return { ok: false, problem: traceProblem('bad_source', 0, "the Hookwire spans carry decisions but not the events: record them with telemetry: { tracer, payloads: true }", 'error', true) };
  }
  // Dispatch order: the runtime's sequence number (span clocks of different parents may disagree by a little),
  // else the start time, else the file's order.
  spans.sort((a, b) => (a.seq !== b.seq ? (a.seq < b.seq ? -1 : 1) : a.start < b.start ? -1 : a.start > b.start ? 1 : a.index - b.index));

  const report = emptyReport('hookwire-otlp');
  const first = spans[0]!.attrs;
  const traceId = str(first['hookwire.trace_id']) ?? options.fallbackTraceId ?? 'otlp';
  const agentId = str(first['hookwire.agent_id']) ?? 'agent';
  const events: TraceEvent[] = [];
  const otherTraces = new Set<string>();
  for (const { attrs } of spans) {
    const tid = str(attrs['hookwire.trace_id']) ?? traceId;
    if (tid !== traceId) {
      otherTraces.add(tid);
      continue;
    }
    const payload = parseObject(attrs['hookwire.event.payload']);
    const ts = str(attrs['hookwire.event.ts']);
    const id = str(attrs['hookwire.event.id']);
    if (!payload || !ts || !id) {
      bump(report.skipped, 'span without the event (payloads off)');
      continue;
    }
    const event: TraceEvent = { event_id: id, trace_id: tid, agent_id: str(attrs['hookwire.agent_id']) ?? agentId, type: String(attrs['hookwire.event.type']), ts, payload };
    const meta = parseObject(attrs['hookwire.event.meta']);
    if (meta) event.meta = meta;
    const decision = str(attrs['hookwire.decision']);
    if (decision && (DECISIONS as readonly string[]).includes(decision)) {
      const reason = str(attrs['hookwire.reason']);
      event.recorded = reason ? { decision: decision as Decision, reason } : { decision: decision as Decision };
    }
    events.push(event);
    bump(report.event_counts, event.type);
    if (event.type === 'tool.before_call') report.tool_calls++;
    if (event.type === 'model.before_call') report.model_calls++;
  }
  if (otherTraces.size) report.warnings.push(`${otherTraces.size} other Hookwire trace(s) in the file were left out: ${[...otherTraces].slice(0, 5).join(', ')}`);
  if (other) bump(report.skipped, 'span of the framework (not a Hookwire span)', other);
  report.source_records = total;
  report.events = events.length;
  const source: JsonObject & { kind: string } = { kind: 'hookwire-otlp', spans: total };
  const pipeline = str(first['hookwire.pipeline.name']);
  const version = str(first['hookwire.pipeline.version']);
  if (pipeline) source.pipeline = pipeline;
  if (version) source.pipeline_version = version;
  if (options.fileName) source.file_name = options.fileName;
  const header = { format: TRACE_FORMAT, version: TRACE_VERSION, trace_id: traceId, agent_id: agentId, source, created: events[0]?.ts ?? new Date(0).toISOString() } as const;
  return { ok: true, trace: { header, events }, report };
}

/** True when a text looks like OTLP/JSON holding Hookwire spans (for format detection). */
export function looksLikeHookwireOtlp(sample: string): boolean {
  return /"resourceSpans"\s*:\s*\[/.test(sample) && /"hookwire\.event\.type"/.test(sample);
}

function listOf(o: unknown, key: string): unknown[] {
  if (!isJsonObject(o)) return [];
  const v = Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
  return Array.isArray(v) ? v : [];
}

/** OTLP `KeyValue[]` → a plain map (user-named keys: own properties only, `__proto__` is a name). */
function attributesOf(list: JsonValue | undefined): JsonObject {
  const out: JsonObject = Object.create(null) as JsonObject;
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!isJsonObject(kv) || typeof kv.key !== 'string') continue;
    const v = anyValue(kv.value);
    if (v !== undefined) Object.defineProperty(out, kv.key, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function anyValue(v: JsonValue | undefined): JsonValue | undefined {
  if (!isJsonObject(v)) return undefined;
  if (typeof v.stringValue === 'string') return v.stringValue;
  if (typeof v.boolValue === 'boolean') return v.boolValue;
  if (typeof v.intValue === 'number') return v.intValue;
  if (typeof v.intValue === 'string') return Number(v.intValue);
  if (typeof v.doubleValue === 'number') return v.doubleValue;
  if (isJsonObject(v.arrayValue) && Array.isArray(v.arrayValue.values)) return v.arrayValue.values.map((x) => anyValue(x) ?? null);
  return undefined;
}

function nanos(v: JsonValue | undefined): bigint {
  if (typeof v === 'string' && /^\d{1,30}$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  return 0n;
}

function str(v: JsonValue | undefined): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function parseObject(v: JsonValue | undefined): JsonObject | undefined {
  if (typeof v !== 'string') return undefined;
  try {
    const o: unknown = JSON.parse(v);
    return isJsonObject(o as JsonValue) ? (o as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}
