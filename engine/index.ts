/**
 * Hookwire engine: the public API. Pure TypeScript, no DOM and no Node globals; the Node-only CLI and file
 * helpers live in engine/node/.
 */
export * from './model/json.ts';
export * from './model/event.ts';
export * from './model/decision.ts';
export * from './model/problem.ts';
export * from './model/pipelineTypes.ts';
export { loadPipeline, parsePipelineText, type LoadResult, type LoadOptions } from './compile/loadPipeline.ts';
export { jsonErrorMessage, parseJsonText } from './model/jsonErrorOffset.ts';
export { hasCode, isCodeNode } from './model/codeNodes.ts';
export { PIPELINE_MIGRATIONS } from './model/parsePipeline.ts';
export { compilePipeline, type CompiledPipeline, type CompileResult, type CompileEnv } from './compile/compilePipeline.ts';
export { dispatch, initialState, type DispatchEnv } from './dispatch/dispatch.ts';
export { explainEvent, explainedHandler, handlerStatuses } from './dispatch/explain/explainEvent.ts';
export { type EventNodeRun, type HandlerNodeRun, type MatcherNodeRun, type NodeRun, runNode } from './dispatch/explain/runNode.ts';
export { createSession, type Session, type SessionResult, type SessionSinks } from './replay/session.ts';
export { rawLogRecord, auditRecord, type RawLogRecord, type AuditRecord } from './dispatch/records.ts';
export * from './dispatch/types.ts';
export type { ClauseOp, ConditionExplain } from './match/types.ts';
export { parsePath, type Scope } from './match/path.ts';
export { parseEventPattern } from './model/eventPattern.ts';
export { compileRegex } from './match/regex.ts';
export { missingPathHint, nearestKeys } from './match/nearMiss.ts';
export type { HandlerContext, HandlerOutcome, Sandbox, SandboxProgram, SandboxLimits, SandboxCallResult, CodeError, CodeErrorKind } from './sandbox/types.ts';
export { createQuickJSSandbox, type QuickJSSandbox, type QuickJSSandboxOptions } from './sandbox/quickjsSandbox.ts';
export { sandboxInput, readHandlerResult, readMatcherResult } from './sandbox/codeResult.ts';
export { HANDLER_API_DTS, HANDLER_API_URI, HANDLER_API_LIB, HANDLER_TEMPLATE, MATCHER_TEMPLATE } from './sandbox/handlerApi.ts';
export { describeCondition, describeMatcher } from './model/describeCondition.ts';
export { checkWire } from './model/checkWire.ts';
export { portableFields, setPortableFields, PORTABLE_TOOLS, type PortableTool, type ToolEntry, type ToolTable } from './model/portableTool.ts';
export { OPENCODE_TOOLS } from './model/toolTables.ts';
export * from './trace/index.ts';
export * from './replay/index.ts';
export * from './runtime/index.ts';
