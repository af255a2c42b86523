// Public surface of replay: straight replays, the random-access replayer, diff, coverage, "why didn't it fire?".
export { OUTCOMES, STEP_FLAG, NO_RECORD } from './types.ts';
export type { StepOutcome, EventSource, AsyncEventSource, ReplayOptions, RunEnd, ReplayCarry, ReplayStep, ReplayTimeline, StepQuery, StepNote } from './types.ts';
export { createReplayContext, stepEvent, actionRan, type ReplayContext, type EarlierResult } from './stepEvent.ts';
export { createReplayRun, replaySteps, replayTrace, toEventSource, type ReplayRun, type StraightReplayOptions } from './replaySteps.ts';
export { createReplayer, DEFAULT_CHECKPOINT_EVERY, type Replayer, type ReplayerOptions, type FindOptions } from './createReplayer.ts';
export { createAsyncReplayer, type AsyncReplayer, type AsyncReplayerOptions, type ProgressOptions } from './createAsyncReplayer.ts';
export { outcomeAt } from './replayTimeline.ts';
export { ranAt, type ReplayActivity } from './replayActivity.ts';
export { coverageOf, type TraceCoverage, type HandlerCoverage, type EventTypeCoverage } from './coverageOf.ts';
export { traceCoverage } from './traceCoverage.ts';
export { diffPipelines, createTraceDiff, DIFF_CHANGES, transitionSentence, type PipelineDiff, type EventDiff, type DiffSide, type DiffChange, type OutcomeTransition, type DiffOptions, type TraceDiff } from './diffPipelines.ts';
export { whyNotFired, whyNotFiredIn, type WhyNotFired, type WhyReason } from './whyNotFired.ts';
export { flowStepVerdicts, flowCauseLabel, type FlowStepVerdict, type FlowStepRef } from './flowExplain.ts';
export { firstFailure, failureSentence, type ConditionFailure } from './describeFailure.ts';
export { backtestCategory, createFileBacktest, countDifference, addCounts, emptyCounts, toBacktestDifference, BACKTEST_CATEGORIES, type BacktestCategory, type BacktestCounts, type BacktestDifference, type BacktestFileResult, type FileBacktest, type FileBacktestOptions } from './backtest.ts';
export { createCoverageProbe, createCorpusCoverage, type CorpusCoverage, type FileCoverage, type UnguardedCall } from './backtestCoverage.ts';
export { createBacktestCorpus, topDifferences, BACKTEST_FORMAT, BACKTEST_VERSION, type BacktestCorpus, type BacktestFileEntry, type BacktestReport, type BacktestSkipped, type BacktestTail, type BacktestTotal, type LocatedDifference } from './backtestReport.ts';
export { backtestHeadline, backtestHtml, backtestMarkdown, escapeHtml, mdText, CATEGORY_LABELS, type BacktestTextOptions } from './backtestText.ts';
