// The engine's one face for the app: everything web/ uses of the engine, and nothing else. web/ (its
// workers too) imports the engine only through this file (test/engine/layers.test.ts), so what the app
// may rely on is listed here, and a deep import cannot bring Node-only or unused code into the bundle.
// Only re-exports: bundlers keep a module only where something that is imported uses it, so the lazily
// loaded parts (the QuickJS sandbox) stay in their own chunks.

export type { Approval, ApprovalOutcome } from './model/approval.ts';
export { approvalOutcome, approvalText } from './model/approval.ts';
export { checkWire } from './model/checkWire.ts';
export { DECISIONS, type Decision } from './model/decision.ts';
export { hasCode, isCodeNode } from './model/codeNodes.ts';
export { describeCondition, describeMatcher, shortPath } from './model/describeCondition.ts';
export { EVENT_TYPE_RE, type EventMode, type HookEvent, LIFECYCLE_EVENTS } from './model/event.ts';
export { eventModes, patternMode, type PatternMode } from './model/eventModes.ts';
export { isJsonObject, type JsonObject, type JsonValue, ownGet, ownSet } from './model/json.ts';
export type { OpenManifest } from './model/openManifest.ts';
export { nodeName } from './model/nodeName.ts';
export { emptyPipeline } from './model/emptyPipeline.ts';
export { type Action, type CodeSpec, type Condition, type EventNode, type EventTypeDecl, type FlowAction, type FlowRuleKind, type FlowSelector, HANDLER_ACTION_TYPES, type HandlerNode, type MatcherNode, type Pipeline, PIPELINE_FORMAT, PIPELINE_SCHEMA_ID, PIPELINE_VERSION, type PipelineNode, type RewriteOp, type Wire } from './model/pipelineTypes.ts';
export { formatPath, type Problem } from './model/problem.ts';
export type { ClauseOp, ConditionExplain } from './match/types.ts';
export { sandboxInput } from './sandbox/codeResult.ts';
export { HANDLER_API_DTS, HANDLER_API_LIB, HANDLER_API_URI, HANDLER_TEMPLATE, MATCHER_TEMPLATE } from './sandbox/handlerApi.ts';
export { guardMemory, type HeapGuard } from './sandbox/heapGuard.ts';
export { COMPILE_TIMEOUT_MS, createQuickJSSandbox, type QuickJSSandbox, type QuickJSSandboxOptions } from './sandbox/quickjsSandbox.ts';
export { loadRenewableQuickJS } from './sandbox/renewableQuickJS.ts';
export { type CodeRunReport, type CodeSpec as CodeRunSpec, runCodeOn } from './sandbox/runCode.ts';
export { trackPrograms } from './sandbox/trackPrograms.ts';
export { DEFAULT_CODE_FUEL, DEFAULT_CODE_MEMORY_MB, DEFAULT_CODE_TIMEOUT_MS, safetyNetMs, type Sandbox, type SandboxLimits } from './sandbox/types.ts';
export { codeLimits } from './compile/codeAction.ts';
export { detectTraceFormat, TRACE_FORMAT_LABELS, type TraceFormat } from './trace/detectTraceFormat.ts';
export { placeOs, SESSION_PLACES, type SessionPlace } from './trace/sessionPlaces.ts';
export { createImportStream, EVENTS_AT_END, type ImportStream } from './trace/importStream.ts';
export type { ImportReport } from './trace/importers/importReport.ts';
export { isSyntheticTs } from './trace/importers/traceBuilder.ts';
export { traceProblem, type TraceProblem } from './trace/traceProblem.ts';
export { pipelineVersionOf } from './trace/pipelineVersion.ts';
export { readTrace } from './trace/traceReader.ts';
export { traceSchemas } from './trace/traceSchema.ts';
export { traceEventLine, traceHeaderLine, traceToJsonl } from './trace/traceToJsonl.ts';
export { type Trace, TRACE_FORMAT, TRACE_VERSION, type TraceEvent, type TraceHeader } from './trace/traceTypes.ts';
export { type CompiledPipeline, compilePipeline, type CompileResult } from './compile/compilePipeline.ts';
export { loadPipeline, type LoadResult, parsePipelineText } from './compile/loadPipeline.ts';
export { breakerOpenAt } from './dispatch/chain.ts';
export type { DispatchState, Explanation, HandlerExplain, HandlerStatus, PathExplain } from './dispatch/types.ts';
export { initialState } from './dispatch/dispatch.ts';
export { type EventNodeRun, type HandlerNodeRun, type MatcherNodeRun, type NodeRun, runNode } from './dispatch/explain/runNode.ts';
export { BACKTEST_CATEGORIES, type BacktestCategory, type BacktestDifference, createFileBacktest } from './replay/backtest.ts';
export { type BacktestFileEntry, type BacktestReport, createBacktestCorpus, topDifferences } from './replay/backtestReport.ts';
export { backtestHeadline, backtestHtml, backtestMarkdown, CATEGORY_LABELS } from './replay/backtestText.ts';
export type { TraceCoverage } from './replay/coverageOf.ts';
export { withoutExpectation } from './replay/withoutExpectation.ts';
export { type AsyncReplayer, createAsyncReplayer } from './replay/createAsyncReplayer.ts';
export { compileStepFilter, type CompiledStepFilter, type StepFilter } from './replay/stepFilter.ts';
export { compileBreakpoint, hitStops, nextStop, stopFinder, type StopFinder, type CompiledBreakpoint, EVERY_HIT, HANDLER_TRIGGERS, MATCHER_TRIGGERS, HIT_MODES, type BreakpointSpec, type BreakpointOn, type HitCount, type HitMode } from './replay/breakpoint.ts';
export { createTraceDiff, type PipelineDiff } from './replay/diffPipelines.ts';
export { type Expectation, parseExpectation, readExpectation, type StepLabel, stepLabel, withExpectation } from './replay/expectation.ts';
export { timelineStep } from './replay/timelineStep.ts';
export type { AsyncEventSource, ReplayStep, ReplayTimeline, StepOutcome, StepQuery } from './replay/types.ts';
export { type WhyNotFired, whyNotFired } from './replay/whyNotFired.ts';
export { flowStepVerdicts, flowCauseLabel, type FlowStepVerdict, type FlowStepRef } from './replay/flowExplain.ts';
export { type DecisionRow, decisionRow } from './runtime/decideTrace.ts';
export { exportForAgent, type InstallTarget, type MergeResult, installCommandLine, serveUrlProblem } from './agents/install.ts';
export { type LossItem, type LossKind, lossReport } from './agents/loss.ts';
export { AGENT_CONTRACTS } from './agents/registry.ts';
export { AGENT_IDS, type AgentContract, type AgentId, isAgentId } from './agents/types.ts';
export { type AgentLabel, eventAgent, recordingAgent } from './agents/traceAgent.ts';
