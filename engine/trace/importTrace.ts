import { detectTraceFormat, type TraceFormat } from './detectTraceFormat.ts';
import { importClaudeCode } from './importers/importClaudeCode.ts';
import { importOpenHands } from './importers/importOpenHands.ts';
import { importOtelGenai } from './importers/importOtelGenai.ts';
import { importHookwireOtlp } from './importers/importHookwireOtlp.ts';
import { bump, emptyReport, type ImporterOptions, type ImportReport, type ImportResult } from './importers/importReport.ts';
import { importSweAgent } from './importers/importSweAgent.ts';
import { parseJsonDocument, parseJsonl, quoteOtelIds } from './importers/parseSource.ts';
import { readTrace, type TraceReadResult } from './traceReader.ts';
import { traceProblem, type TraceProblem } from './traceProblem.ts';
import type { Trace } from './traceSchema.ts';

export interface ImportTraceOptions {
  /** Used for a hint when the content is unclear, in the header's source, and for a trace id. */
  fileName?: string;
  /** Skip detection and read the input as this format. */
  format?: TraceFormat;
}

export interface ImportTraceOutcome {
  /** The format read (detected or given); null when it could not be recognised. */
  format: TraceFormat | null;
  /** The trace; null when nothing usable was read (see problems). */
  trace: Trace | null;
  report: ImportReport | null;
  /** Line-level and whole-input problems. With a trace and error problems, the import is partial. */
  problems: TraceProblem[];
}

/**
 * One entry point for every format [I1]: detects the format by content (or takes `options.format`),
 * parses tolerantly and maps to trace v1. Never throws for bad input.
 *
 * @example const { trace, report, problems } = importTrace(text, { fileName: 'session.jsonl' });
 */
export function importTrace(text: string, options: ImportTraceOptions = {}): ImportTraceOutcome {
  const detected = options.format ? null : detectTraceFormat(text, options.fileName);
  const format = options.format ?? detected?.format ?? null;
  if (format === null) {
    const reason = detected?.reason ?? 'unknown';
    const code = /binary/.test(reason) ? 'binary' : text.trim() === '' ? 'empty' : 'unknown_format';
    return { format: null, trace: null, report: null, problems: [traceProblem(code, 0, `cannot import: ${reason}`, 'error', true)] };
  }
  const problems: TraceProblem[] = [];
  if (detected?.by === 'file_name') problems.push(traceProblem('unknown_format', 0, detected.reason, 'warning'));
  const importer: ImporterOptions = { fallbackTraceId: `${format}-${fileStem(options.fileName) ?? contentHash(text)}` };
  if (options.fileName !== undefined) importer.fileName = options.fileName;
  if (format === 'hookwire-trace') return fromTraceV1(text, problems);
  if (format === 'claude-code') {
    const parsed = parseJsonl(text);
    problems.push(...parsed.problems);
    if (parsed.records.length === 0) return failed(format, [...problems, traceProblem('empty', 0, 'no readable record in the transcript', 'error', true)]);
    return outcome(format, importClaudeCode(parsed.records, importer), problems);
  }
  if (format === 'hookwire-otlp') {
    // One ExportTraceServiceRequest, or JSON Lines of them (the collector's file exporter).
    const whole = parseJsonDocument(text);
    if (whole.ok) return outcome(format, importHookwireOtlp([whole.value], importer), problems);
    const parsed = parseJsonl(text);
    problems.push(...parsed.problems);
    return outcome(format, importHookwireOtlp(parsed.records.map((r) => r.value), importer), problems);
  }
  const doc = parseJsonDocument(format === 'otel-genai' ? quoteOtelIds(text) : text);
  if (!doc.ok) return failed(format, [...problems, doc.problem]);
  const result =
    format === 'otel-genai' ? importOtelGenai(doc.value, importer) : format === 'swe-agent' ? importSweAgent(doc.value, importer) : importOpenHands(doc.value, importer);
  return outcome(format, result, problems);
}

function outcome(format: TraceFormat, result: ImportResult, problems: TraceProblem[]): ImportTraceOutcome {
  if (!result.ok) return failed(format, [...problems, result.problem]);
  return { format, trace: result.trace, report: result.report, problems };
}

function failed(format: TraceFormat, problems: TraceProblem[]): ImportTraceOutcome {
  return { format, trace: null, report: null, problems };
}

/** A trace v1 file read with the tolerant reader; the report counts its events like an import's. */
function fromTraceV1(text: string, problems: TraceProblem[]): ImportTraceOutcome {
  const r = readTrace(text);
  return traceV1Outcome(r, problems);
}

/** Wraps a trace v1 read result (from `readTrace` or a streamed read) as an import outcome with a report. */
export function traceV1Outcome(r: TraceReadResult, problems: TraceProblem[] = []): ImportTraceOutcome {
  problems.push(...r.problems);
  if (!r.header) return failed('hookwire-trace', problems);
  const report = emptyReport('hookwire-trace');
  report.source_records = r.lines;
  report.events = r.eventCount;
  for (const e of r.events) {
    bump(report.event_counts, e.type);
    if (e.type === 'tool.before_call') report.tool_calls++;
    if (e.type === 'model.before_call') report.model_calls++;
  }
  return { format: 'hookwire-trace', trace: { header: r.header, events: r.events }, report, problems };
}

function fileStem(name: string | undefined): string | null {
  if (!name) return null;
  const base = name.split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\.(jsonl|json|traj|hwtrace)$/i, '');
  return stem === '' ? null : stem.slice(0, 200);
}

/** FNV-1a (32 bit) of the text, as 8 hex digits: a stable id for a source that carries none. */
export function contentHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

