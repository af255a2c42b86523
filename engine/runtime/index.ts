/**
 * Hookwire production runtime: the public API (pure; Node file helpers are in engine/node/runtimeNode.ts).
 * Rules [P1]-[P14] in engine/SPEC.md.
 */
export { createRuntime } from './createRuntime.ts';
export type * from './types.ts';
export type { AuditRecord, RawLogRecord } from '../dispatch/records.ts';
export type { HandlerError } from '../dispatch/types.ts';
export { blockedResult } from './guard.ts';
export { formatProblems, nodeLabels, nodeRef } from './formatProblems.ts';
export { createSinkQueue, defaultScheduler, DEFAULT_MAX_PENDING, type Sink, type Scheduler, type SinkFailure, type SinkQueue } from './sinkQueue.ts';
export { decideTrace, decisionRow, type DecisionRow } from './decideTrace.ts';
export { runGoldenTrace, type Expectation, type GoldenCheck, type GoldenResult } from './goldenTest.ts';
export {
  claudeHookEvent, claudeReply, claudeFailClosedReply, claudeJsonAnswer, toCommandAnswer, toHttpAnswer, claudeHookAnswer, claudeHookFailClosed, claudeSessionId, CLAUDE_COMMON_FIELDS,
  type ClaudeHookAnswer, type ClaudeHttpAnswer, type ClaudeReply, type ClaudeOutcome, type ClaudeAnswerOptions, type ClaudeHookParse,
} from './claudeHook.ts';
export { CLAUDE_EVENTS, claudeEventSpec, defaultHookTimeoutSeconds, type ClaudeEventSpec, type BlockChannel, type AskChannel, type ContextChannel } from '../agents/claudeEvents.ts';
export { DEFAULT_APPROVAL_TIMEOUT_MS } from './approve.ts';
export { actionBlocked, approvalOutcome, approvalText, type Approval, type ApprovalAnswer, type ApprovalOutcome, type ApprovalSource } from '../model/approval.ts';
export { writeEventSpan, eventSpanName, pipelineVersionOf, HOOKWIRE_ATTR, type RuntimeTelemetry, type TelemetryTracer, type TelemetrySpan, type TelemetryAttributes, type TelemetryAttribute } from './telemetry.ts';
