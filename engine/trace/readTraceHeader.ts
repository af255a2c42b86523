import { isJsonObject } from '../model/json.ts';
import { detectTraceFormat, TRACE_FORMAT_LABELS } from './detectTraceFormat.ts';
import { formatIssues, jsonErrorDetail } from './formatIssues.ts';
import { looksBinary } from './looksBinary.ts';
import { traceProblem, type TraceProblem } from './traceProblem.ts';
import { surelyValidHeader, traceSchemas } from './traceSchema.ts';
import { TRACE_FORMAT, TRACE_VERSION, type TraceHeader } from './traceTypes.ts';

export type HeaderReadResult = { ok: true; header: TraceHeader } | { ok: false; problem: TraceProblem };

/**
 * Reads the header line of a trace [T1]. Every failure is fatal and says why: not JSON, another format
 * (named, with a hint to import it), a newer version, or a bad field.
 */
export function readTraceHeader(text: string, lineNo: number, terminated = true): HeaderReadResult {
  const fatal = (code: Parameters<typeof traceProblem>[0], detail: string): HeaderReadResult => ({
    ok: false,
    problem: traceProblem(code, lineNo, detail, 'error', true),
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    if (looksBinary(text)) return fatal('binary', 'this is binary data, not a JSON Lines trace');
    if (!terminated) return fatal('truncated', `the input ends inside the header line (${jsonErrorDetail(err)})`);
    return fatal('not_a_trace', `${otherFormatHint(text)}the header line is not valid JSON (${jsonErrorDetail(err)})`);
  }
  if (!isJsonObject(value)) return fatal('not_a_trace', `${otherFormatHint(text)}a trace starts with a header object, found ${Array.isArray(value) ? 'an array' : typeof value}`);
  if (value.format !== TRACE_FORMAT) {
    const found = typeof value.format === 'string' ? `format "${value.format.slice(0, 100)}"` : 'no "format" field';
    return fatal('not_a_trace', `${otherFormatHint(text)}expected format "${TRACE_FORMAT}" in the header, found ${found}`);
  }
  const version = value.version;
  if (typeof version === 'number' && Number.isInteger(version) && version > TRACE_VERSION) {
    return fatal('future_version', `this trace is version ${version}; this Hookwire reads version ${TRACE_VERSION}. Update Hookwire to open it.`);
  }
  // The hand check passes a header as writers make it; anything it is not sure of is the schema's to accept or name.
  if (!surelyValidHeader(value)) {
    const check = traceSchemas().TraceHeaderSchema.safeParse(value);
    if (!check.success) return fatal('bad_header', `the header is not valid (${formatIssues(check.error.issues)})`);
  }
  // Keep JSON.parse's object (zod's copy would drop keys such as `__proto__`).
  return { ok: true, header: value as unknown as TraceHeader };
}

function otherFormatHint(text: string): string {
  const d = detectTraceFormat(text);
  if (d.format && d.format !== 'hookwire-trace') return `this looks like a ${TRACE_FORMAT_LABELS[d.format]}, not a Hookwire trace: import it instead; `;
  return '';
}
