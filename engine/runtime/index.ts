/**
 * Hookwire production runtime: the public API (pure; Node file helpers are in engine/node/runtimeNode.ts).
 * Rules [P1]-[P13] in engine/SPEC.md.
 */
export { createRuntime } from './createRuntime.ts';
export type * from './types.ts';
export type { AuditRecord, RawLogRecord } from '../dispatch/records.ts';
export type { HandlerError } from '../dispatch/types.ts';
export { blockedResult } from './guard.ts';
export { formatProblems } from './formatProblems.ts';
export { createSinkQueue, defaultScheduler, DEFAULT_MAX_PENDING, type Sink, type Scheduler, type SinkFailure, type SinkQueue } from './sinkQueue.ts';
export { decideTrace, decisionRow, type DecisionRow } from './decideTrace.ts';
export { runGoldenTrace, ExpectationSchema, type Expectation, type GoldenCheck, type GoldenResult } from './goldenTest.ts';
export { claudeHookEvent, claudeHookAnswer, claudeHookFailClosed, claudeSessionId, CLAUDE_HOOK_EVENTS, type ClaudeHookAnswer, type ClaudeHookParse } from './claudeHook.ts';
export { writeEventSpan, eventSpanName, pipelineVersionOf, HOOKWIRE_ATTR, type RuntimeTelemetry, type TelemetryTracer, type TelemetrySpan, type TelemetryAttributes, type TelemetryAttribute } from './telemetry.ts';
