import { create } from 'zustand';
import type { Pipeline } from '../../engine/model/pipelineSchema.ts';
import type { Problem } from '../../engine/model/problem.ts';
import type { TraceCoverage } from '../../engine/replay/coverageOf.ts';
import type { PipelineDiff } from '../../engine/replay/diffPipelines.ts';
import type { ReplayTimeline } from '../../engine/replay/types.ts';
import type { ImportFileResult, ImportProgress } from '../persistence/importTraceFile.ts';
import type { StoredTrace } from '../persistence/storedTrace.ts';
import type { Breakpoint } from './model/breakpoints.ts';
import { NO_FILTER, type TimelineFilter } from './model/timelineFilter.ts';
import type { CompileOutcome, HandlerInfo, StepDetail } from './worker/protocol.ts';

/**
 * The debugger's one store: what the replay worker said (timeline, coverage, the current step), what the
 * person chose (trace, position, filters, breakpoints, pinned version) and what is in flight. Effects live
 * in debuggerController.ts; this is data and plain setters (STYLE habit 6).
 */
export type BottomTab = 'timeline' | 'breakpoints' | 'compare' | 'coverage';
export type RightTab = 'step' | 'edit';

export interface ImportView {
  id: string;
  fileName: string;
  size: number;
  progress: ImportProgress | null;
}

export interface Pinned {
  doc: Pipeline;
  name: string;
  at: number;
}

export interface DebuggerData {
  traceId: string | null;
  trace: StoredTrace | null;
  /** The epoch of the session whose answers are shown (the last pipeline that compiled). */
  activeEpoch: number;
  /** The latest compile of the open pipeline: a failure keeps the last good session running. */
  compile: CompileOutcome | null;
  handlers: HandlerInfo[];
  timeline: ReplayTimeline | null;
  coverage: TraceCoverage | null;
  progress: { phase: 'timeline' | 'analysis' | 'compare'; done: number; total: number } | null;
  position: number;
  detail: StepDetail | null;
  /** The step asked for is not answered yet. */
  stepLoading: boolean;
  filter: TimelineFilter;
  /** Steps the filter keeps (sorted); null = every step. */
  visible: Int32Array | null;
  filtering: boolean;
  breakpoints: Breakpoint[];
  pausedAt: { index: number; label: string } | null;
  playing: boolean;
  /** Steps per second while playing. */
  speed: number;
  pinned: Pinned | null;
  diff: PipelineDiff | null;
  diffProblems: Problem[];
  diffRunning: boolean;
  /** The handler "why didn't it fire?" is about (also focuses the canvas on its paths). */
  whyHandler: string | null;
  bottomTab: BottomTab;
  rightTab: RightTab;
  imports: ImportView[];
  /** The outcome of a finished import the person has to see (problems, a choice to keep the good events). */
  importResult: (ImportFileResult & { fileName: string }) | null;
  /** Something went wrong that is not a user's mistake (worker failure, storage error). */
  failure: string | null;
  /** The worker has not answered for a while. */
  busy: boolean;
}

const INITIAL: DebuggerData = {
  traceId: null,
  trace: null,
  activeEpoch: -1,
  compile: null,
  handlers: [],
  timeline: null,
  coverage: null,
  progress: null,
  position: 0,
  detail: null,
  stepLoading: false,
  filter: NO_FILTER,
  visible: null,
  filtering: false,
  breakpoints: [],
  pausedAt: null,
  playing: false,
  speed: 5,
  pinned: null,
  diff: null,
  diffProblems: [],
  diffRunning: false,
  whyHandler: null,
  bottomTab: 'timeline',
  rightTab: 'step',
  imports: [],
  importResult: null,
  failure: null,
  busy: false,
};

export interface DebuggerActions {
  set(patch: Partial<DebuggerData>): void;
  /** A new trace or a new session: everything computed for the old one goes. */
  resetReplay(patch?: Partial<DebuggerData>): void;
  updateImport(id: string, patch: Partial<ImportView>): void;
}

export const useDebugger = create<DebuggerData & DebuggerActions>()((set) => ({
  ...INITIAL,
  set: (patch) => set(patch),
  resetReplay: (patch = {}) =>
    set({ timeline: null, coverage: null, progress: null, detail: null, visible: null, diff: null, diffProblems: [], pausedAt: null, playing: false, ...patch }),
  updateImport: (id, patch) => set((s) => ({ imports: s.imports.map((v) => (v.id === id ? { ...v, ...patch } : v)) })),
}));

export type DebuggerState = DebuggerData & DebuggerActions;

export const selectTimeline = (s: DebuggerState) => s.timeline;
export const selectDetail = (s: DebuggerState) => s.detail;
export const selectPosition = (s: DebuggerState) => s.position;
export const selectTrace = (s: DebuggerState) => s.trace;
export const selectHandlers = (s: DebuggerState) => s.handlers;
export const selectVisible = (s: DebuggerState) => s.visible;
export const selectFilter = (s: DebuggerState) => s.filter;
export const selectBreakpoints = (s: DebuggerState) => s.breakpoints;
export const selectPlaying = (s: DebuggerState) => s.playing;
export const selectProgress = (s: DebuggerState) => s.progress;
export const selectWhyHandler = (s: DebuggerState) => s.whyHandler;
export const selectCompile = (s: DebuggerState) => s.compile;
