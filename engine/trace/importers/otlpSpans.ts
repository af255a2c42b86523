import { isJsonObject, ownSet, type JsonObject, type JsonValue } from '../../model/json.ts';

/**
 * The OpenTelemetry span shapes Hookwire reads, all brought to one: the Python SDK's `span.to_json()`
 * shape (`{name, context: {trace_id, span_id}, parent_id | parent, start_time, end_time, status:
 * {status_code}, attributes: {…}}`), which the any-agent exports and the console exporter write, and which
 * importOtelGenai maps. OTLP/JSON (the protobuf JSON mapping the collector's file exporter writes:
 * `resourceSpans[].scopeSpans[].spans[]` with `traceId`/`spanId` in hex, `startTimeUnixNano` as a decimal
 * string and attributes as `[{key, value: {stringValue | intValue | …}}]`) is converted to it.
 * Sources: opentelemetry-proto `trace.proto` and the OTLP spec's JSON mapping; the Python SDK's
 * `ReadableSpan.to_json`.
 */

/** An OTLP `AnyValue` as plain JSON (intValue is a decimal string in OTLP/JSON: read as a number when exact). */
export function otlpAnyValue(v: unknown): JsonValue {
  if (!isJsonObject(v)) return null;
  if ('stringValue' in v) return typeof v.stringValue === 'string' ? v.stringValue : String(v.stringValue);
  if ('boolValue' in v) return v.boolValue === true;
  if ('intValue' in v) {
    const n = typeof v.intValue === 'number' ? v.intValue : Number(v.intValue);
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if ('doubleValue' in v) return typeof v.doubleValue === 'number' ? v.doubleValue : Number(v.doubleValue);
  if ('arrayValue' in v) {
    const values = isJsonObject(v.arrayValue) && Array.isArray(v.arrayValue.values) ? v.arrayValue.values : [];
    return values.map(otlpAnyValue);
  }
  if ('kvlistValue' in v) return otlpAttributes(isJsonObject(v.kvlistValue) ? v.kvlistValue.values : undefined);
  if ('bytesValue' in v) return typeof v.bytesValue === 'string' ? v.bytesValue : null;
  return null;
}

/** `[{key, value}]` → `{key: value}`; keys are names (`__proto__` included). */
export function otlpAttributes(list: unknown): JsonObject {
  const out: JsonObject = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) if (isJsonObject(kv) && typeof kv.key === 'string') ownSet(out, kv.key, otlpAnyValue(kv.value));
  return out;
}

/** OTLP status codes: 0 unset, 1 ok, 2 error (also written as the enum names). */
function otlpStatus(status: unknown): JsonObject {
  if (!isJsonObject(status)) return { status_code: 'UNSET' };
  const code = status.code;
  const name = code === 2 || code === 'STATUS_CODE_ERROR' ? 'ERROR' : code === 1 || code === 'STATUS_CODE_OK' ? 'OK' : 'UNSET';
  const out: JsonObject = { status_code: name };
  if (typeof status.message === 'string' && status.message !== '') out.description = status.message;
  return out;
}

/** One OTLP span (with its resource and scope) in the SDK's to_json shape. */
export function fromOtlpSpan(span: JsonObject, resource: JsonObject, scope: JsonValue): JsonObject {
  const hex = (v: unknown) => (typeof v === 'string' && v !== '' ? `0x${v}` : null);
  const parent = hex(span.parentSpanId);
  return {
    name: typeof span.name === 'string' ? span.name : '(no name)',
    context: { trace_id: hex(span.traceId), span_id: hex(span.spanId) },
    parent: parent === null ? null : { span_id: parent },
    start_time: String(span.startTimeUnixNano ?? '0'),
    end_time: String(span.endTimeUnixNano ?? span.startTimeUnixNano ?? '0'),
    status: otlpStatus(span.status),
    attributes: otlpAttributes(span.attributes),
    resource: { attributes: resource },
    scope,
  };
}

/** True for an OTLP span object (not an SDK one). */
function isOtlpSpan(v: JsonObject): boolean {
  return typeof v.spanId === 'string' && ('startTimeUnixNano' in v || 'traceId' in v);
}

/** True for a span in the SDK's to_json shape. */
function isSdkSpan(v: JsonObject): boolean {
  return isJsonObject(v.context) && 'span_id' in v.context;
}

/**
 * Every span in one top-level JSON value, in the SDK shape: an OTLP export request (`resourceSpans`), an
 * array of them, one OTLP span, one SDK span, an array of spans, or any-agent's `{spans}`. Returns what the
 * value was, for the report (`null` when it holds no span).
 */
export function spansOfValue(value: unknown, out: JsonObject[], bad: string[] = []): 'otlp' | 'sdk' | null {
  if (Array.isArray(value)) {
    let kind: 'otlp' | 'sdk' | null = null;
    value.forEach((v, i) => {
      const entry = spansOfEntry(v, i, out, bad);
      kind = entry.kind ?? kind;
      if (entry.notSpan !== null && value.length > 1) bad.push(entry.notSpan);
    });
    return kind;
  }
  if (!isJsonObject(value)) return null;
  if (Array.isArray(value.resourceSpans)) {
    value.resourceSpans.forEach((rs, i) => {
      if (!isJsonObject(rs)) return void bad.push(`resourceSpans[${i}] is ${describeEntry(rs)}, not an object`);
      const resource = otlpAttributes(isJsonObject(rs.resource) ? rs.resource.attributes : undefined);
      const scopes = Array.isArray(rs.scopeSpans) ? rs.scopeSpans : Array.isArray(rs.instrumentationLibrarySpans) ? rs.instrumentationLibrarySpans : [];
      scopes.forEach((ss: unknown, j: number) => {
        if (!isJsonObject(ss)) return void bad.push(`resourceSpans[${i}].scopeSpans[${j}] is ${describeEntry(ss)}, not an object`);
        const scope = (ss.scope ?? ss.instrumentationLibrary ?? null) as JsonValue;
        (Array.isArray(ss.spans) ? ss.spans : []).forEach((span, k) => {
          if (isJsonObject(span)) out.push(fromOtlpSpan(span, resource, scope));
          else bad.push(`resourceSpans[${i}].scopeSpans[${j}].spans[${k}] is ${describeEntry(span)}, not a span object`);
        });
      });
    });
    return 'otlp';
  }
  if (isOtlpSpan(value)) {
    out.push(fromOtlpSpan(value, {}, null));
    return 'otlp';
  }
  if (isSdkSpan(value)) {
    out.push(value);
    return 'sdk';
  }
  if (Array.isArray(value.spans)) return spansOfValue(value.spans, out, bad);
  return null;
}

/**
 * One entry of a span list (the list read whole, or streamed entry by entry): its spans go to `out`, what in it
 * holds no span to `bad`. `notSpan` is the entry's own message when it holds no span at all, listed [I11] only when
 * the list has more than one entry (a list of one such entry holds no span: the import is refused instead).
 */
export function spansOfEntry(v: unknown, i: number, out: JsonObject[], bad: string[]): { kind: 'otlp' | 'sdk' | null; notSpan: string | null } {
  const before = out.length;
  const kind = spansOfValue(v, out, bad);
  return { kind, notSpan: kind === null && out.length === before ? `entry ${i} of a span list is ${describeEntry(v)}, not a span` : null };
}

/** What an entry that holds no span is, for its message. */
export function describeEntry(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : isJsonObject(v) ? 'an object without span fields' : typeof v === 'string' ? 'a string' : `a ${typeof v}`;
}
