import type { Trace, TraceEvent, TraceHeader } from './traceTypes.ts';

/**
 * The header line of a trace file, with its `\n` [T1]. `format` and `version` come first so a reader (or
 * a person with `head -1`) sees them at once.
 */
export function traceHeaderLine(header: TraceHeader): string {
  const { format, version, ...rest } = header;
  return `${JSON.stringify({ format, version, ...rest })}\n`;
}

/**
 * One event line, with its `\n` [T1]. `trace_id` / `agent_id` are left out when they equal the header's
 * (the reader fills them back in [T4]); fields are written in a fixed order. Values must be JSON: the
 * runtime recorder and importers only produce JSON.
 *
 * @example traceEventLine(event, header) === '{"event_id":"e1","type":"tool.before_call",…}\n'
 */
export function traceEventLine(event: TraceEvent, header?: Pick<TraceHeader, 'trace_id' | 'agent_id'>): string {
  // The text JSON.stringify gives for the object of these members in this order, written member by member: no
  // object is made per line (an import writes one per event).
  let line = member('{', 'event_id', event.event_id);
  if (!header || event.trace_id !== header.trace_id) line = member(line, 'trace_id', event.trace_id);
  if (!header || event.agent_id !== header.agent_id) line = member(line, 'agent_id', event.agent_id);
  line = member(line, 'type', event.type);
  line = member(line, 'ts', event.ts);
  line = member(line, 'payload', event.payload);
  if (event.meta !== undefined) line = member(line, 'meta', event.meta);
  if (event.recorded !== undefined) line = member(line, 'recorded', event.recorded);
  return `${line}}\n`;
}

/** `line` (an object's JSON so far, without its `}`) with `"key":<JSON of value>`, or as it is when JSON leaves the member out. */
function member(line: string, key: string, value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) return line;
  return `${line.length === 1 ? line : `${line},`}"${key}":${json}`;
}

/** A whole trace as JSON Lines text: the header line, then one line per event [T1]. */
export function traceToJsonl(trace: Trace): string {
  const parts: string[] = [traceHeaderLine(trace.header)];
  for (const e of trace.events) parts.push(traceEventLine(e, trace.header));
  return parts.join('');
}
