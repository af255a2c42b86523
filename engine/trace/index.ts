// Public surface of the trace half of the engine: format v1, reading, writing, detection and importers.
export { TRACE_FORMAT, TRACE_VERSION, TraceHeaderSchema, TraceEventLineSchema, RecordedDecisionSchema, TraceSourceSchema } from './traceSchema.ts';
export type { Trace, TraceEvent, TraceEventLine, TraceHeader, TraceSource, RecordedDecision } from './traceSchema.ts';
export { createTraceReader, readTrace, readTraceChunks, DEFAULT_MAX_LINE_CHARS } from './traceReader.ts';
export type { TraceReader, TraceReaderOptions, TraceReadResult, TraceReadStatus } from './traceReader.ts';
export { traceToJsonl, traceHeaderLine, traceEventLine } from './traceToJsonl.ts';
export { TRACE_PROBLEM_CODES, traceProblem } from './traceProblem.ts';
export type { TraceProblem, TraceProblemCode } from './traceProblem.ts';
export { detectTraceFormat, TRACE_FORMATS, TRACE_FORMAT_LABELS, DETECT_SAMPLE_CHARS } from './detectTraceFormat.ts';
export type { TraceFormat, FormatDetection } from './detectTraceFormat.ts';
export { importTrace, traceV1Outcome, contentHash } from './importTrace.ts';
export type { ImportTraceOptions, ImportTraceOutcome } from './importTrace.ts';
export type { ImportReport, ImportResult, ImporterOptions } from './importers/importReport.ts';
export { importClaudeCode } from './importers/importClaudeCode.ts';
export type { JsonlRecord } from './importers/importClaudeCode.ts';
export { importOtelGenai } from './importers/importOtelGenai.ts';
export { OTEL_ALIASES } from './importers/otelAttributes.ts';
export { importSweAgent } from './importers/importSweAgent.ts';
export { importOpenHands } from './importers/importOpenHands.ts';
