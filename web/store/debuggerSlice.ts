import type { StateCreator } from 'zustand';
import type { Pipeline, Problem, TraceCoverage, PipelineDiff, ReplayTimeline } from '../../engine/app.ts';
import type { ImportFileResult, ImportProgress } from '../persistence/importTraceFile.ts';
import type { StoredTrace } from '../persistence/storedTrace.ts';
import { breakpointId, type Breakpoint, type BreakpointSpec } from '../debugger/model/breakpoints.ts';
import { isFiltering, NO_FILTER, type TimelineFilter } from '../debugger/model/timelineFilter.ts';
import type { BreakpointResult, CompileOutcome, HandlerInfo, ScrubMarks, StepDetail } from '../debugger/worker/protocol.ts';

import type { AppState } from './appStore.ts';

/**
 * The debugger's slice of the app store: what the replay worker said (timeline, coverage, the current
 * step), what the person chose (trace, position, filters, breakpoints, pinned version) and what is in
 * flight. Every write is a named action; the effects (the worker, IndexedDB) live in the services
 * (debugger/replayService.ts and friends) that call them.
 */
export type BottomTab = 'timeline' | 'breakpoints' | 'compare' | 'coverage';
export type RightTab = 'step' | 'edit';

export interface ImportView {
  id: string;
  fileName: string;
  size: number;
  progress: ImportProgress | null;
}

export interface ImportBatch {
  total: number;
  done: number;
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
  /** Rewritten steps whose recorded payload the person chose to see on the timeline (the pipeline's result shows otherwise). */
  revealed: ReadonlySet<number>;
  breakpoints: Breakpoint[];
  /** Where each breakpoint stops in the shown session [R18] (`key`: what was asked, debugger/breakpointStops.ts). */
  breakpointStops: { key: string; byId: ReadonlyMap<string, BreakpointResult> } | null;
  /** Blocked, divergent and labelled steps of the shown session, for the scrubber. */
  marks: ScrubMarks | null;
  pausedAt: { index: number; label: string } | null;
  playing: boolean;
  /** Steps per second while playing. */
  speed: number;
  pinned: Pinned | null;
  diff: PipelineDiff | null;
  diffProblems: Problem[];
  diffRunning: boolean;
  /** The handler "why didn't it fire?" is about on the shown step (outlines its paths); a step change clears it. */
  whyHandler: string | null;
  bottomTab: BottomTab;
  /** A step whose Compare row takes the keyboard once the comparison lists it (a backtest row opened here), or null. */
  compareFocus: number | null;
  /** The label form's control (its test id) the keyboard was on when a save began, and the label saved (JSON): the form that shows that label takes the keyboard back. */
  labelFocus: { control: string; label: string } | null;
  rightTab: RightTab;
  /** Imports running now (a few at a time: the rest wait in the importer's queue). */
  imports: ImportView[];
  /** The files of the imports under way, waiting ones included, and how many of them are over; null when none is. */
  importBatch: ImportBatch | null;
  /** The outcome of a finished import the person has to see (problems, a choice to keep the good events). */
  importResult: (ImportFileResult & { fileName: string }) | null;
  /** Something went wrong that is not a user's mistake (worker failure, storage error). */
  failure: string | null;
  /** The worker has not answered for a while. */
  busy: boolean;
  /** A search the person waits for (the next breakpoint, block or divergence): how far the worker has looked; null when none runs. */
  search: StepSearch | null;
  /** The filter's search in the worker [R20]: how far it has looked; null when none runs. */
  filterSearch: FilterSearch | null;
  /** While a filter is searched: the filter whose steps the timeline still shows, restored if it is cancelled. */
  filterBefore: TimelineFilter | null;
}

/** A filter being searched in the replay worker: `id` names it to the worker (progress, cancel). */
export interface FilterSearch {
  id: number;
  done: number;
  total: number;
}

/** What a search looks for: the next breakpoint stop (C, play), the next blocked step (B), the next divergent one (D). */
export type SearchFor = 'breakpoint' | 'block' | 'divergence';

/**
 * A search in the replay worker that a person waits for: `id` names it to the worker (progress, cancel), `from`
 * is the step it searches after, `done` the step it has looked up to (of `total`). `byPlay`: play started it and
 * walks on while it runs; otherwise the debugger waits on the step it was on.
 */
export interface StepSearch {
  id: number;
  from: number;
  done: number;
  total: number;
  byPlay: boolean;
  what: SearchFor;
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
  revealed: new Set(),
  breakpoints: [],
  breakpointStops: null,
  marks: null,
  pausedAt: null,
  playing: false,
  speed: 5,
  pinned: null,
  diff: null,
  diffProblems: [],
  diffRunning: false,
  whyHandler: null,
  bottomTab: 'timeline',
  compareFocus: null,
  labelFocus: null,
  rightTab: 'step',
  imports: [],
  importBatch: null,
  importResult: null,
  failure: null,
  busy: false,
  search: null,
  filterSearch: null,
  filterBefore: null,
};

export interface DebuggerActions {
  /** A trace opens: everything about the one before goes; its first step is on its way. */
  traceOpened(trace: StoredTrace): void;
  traceClosed(): void;
  traceRenamed(id: string, name: string): void;
  /** The latest pipeline sent does not compile: the last good session keeps running (or, `noReplay`, none can). */
  compileFailed(outcome: Extract<CompileOutcome, { ok: false }>): void;
  /** A pipeline compiled and its session (`epoch`) replaces the shown one; the shown step stays until its new answer. */
  sessionStarted(epoch: number, outcome: Extract<CompileOutcome, { ok: true }>): void;
  replayProgressed(progress: NonNullable<DebuggerData['progress']>): void;
  timelineArrived(timeline: ReplayTimeline): void;
  coverageArrived(coverage: TraceCoverage): void;
  replayFailed(message: string): void;
  dismissFailure(): void;
  setBusy(busy: boolean): void;
  /** The person moves to step `index` (its answer is on its way). */
  stepChosen(index: number): void;
  stepRequested(): void;
  stepAnswered(detail: StepDetail): void;
  /** A trace without events has no step to wait for. */
  noStep(): void;
  filterChanged(filter: TimelineFilter): void;
  filterAnswered(visible: Int32Array | null): void;
  filterFailed(): void;
  filterSearchStarted(search: FilterSearch): void;
  /** Filter search `id` has looked up to step `done` (an answer about another search is dropped). */
  filterSearchProgressed(id: number, done: number, total: number): void;
  /** The filter's search was cancelled: the filter the timeline shows is the one before it, as it was. */
  filterCancelled(): void;
  /** Shows the recorded payload of a rewritten step on the timeline, or hides it again. */
  toggleReveal(index: number): void;
  versionPinned(pinned: Pinned): void;
  pinCleared(): void;
  compareStarted(): void;
  compareArrived(diff: PipelineDiff | null, problems: Problem[]): void;
  /** Adds a breakpoint unless the same one is there; returns its id. */
  addBreakpoint(spec: BreakpointSpec): string;
  removeBreakpoint(id: string): void;
  /** Changes a breakpoint's condition, hit count or enabled (its id stays; replaceBreakpoint changes its trigger). */
  updateBreakpoint(id: string, patch: Partial<Pick<Breakpoint, 'when' | 'hits' | 'enabled'>>): void;
  /**
   * Replaces a breakpoint by `next` (its trigger too) in the same place of the list; the id follows the new
   * trigger (a condition alone keeps its own). Returns the id, or null when another breakpoint already has that
   * trigger (nothing is changed: the same trigger is never there twice).
   */
  replaceBreakpoint(id: string, next: BreakpointSpec): string | null;
  /** Enables a disabled breakpoint, or disables it. */
  toggleBreakpoint(id: string): void;
  breakpointStopsArrived(stops: DebuggerData['breakpointStops']): void;
  marksArrived(marks: ScrubMarks): void;
  /** The stored breakpoints and pinned version of the open (trace, pipeline) pair. */
  sessionRestored(session: { breakpoints: Breakpoint[]; pinned: Pinned | null }): void;
  playStarted(): void;
  playStopped(): void;
  pausedOn(index: number, label: string): void;
  setSpeed(speed: number): void;
  searchStarted(search: StepSearch): void;
  /** Search `id` has looked up to step `done` (an answer about another search is dropped). */
  searchProgressed(id: number, done: number, total: number): void;
  /** Search `id` answered, was cancelled or failed. */
  searchEnded(id: number): void;
  showBottomTab(tab: BottomTab): void;
  /** Shows Compare with the keyboard on step `index`'s row once it is listed (null: the request is done). */
  focusCompareRow(index: number | null): void;
  /** Remembers (or, null, forgets) the label form's control to give the keyboard back to once a save is shown. */
  focusLabelControl(focus: { control: string; label: string } | null): void;
  showRightTab(tab: RightTab): void;
  /** The handler "why didn't it fire?" is about, or null. */
  askWhy(handler: string | null): void;
  importStarted(view: ImportView): void;
  updateImport(id: string, patch: Partial<ImportView>): void;
  importEnded(id: string): void;
  /** `count` files join the imports under way. */
  importsQueued(count: number): void;
  /** One file of them is over (imported, failed or cancelled); the last one clears the batch. */
  importSettled(): void;
  showImportResult(result: NonNullable<DebuggerData['importResult']>): void;
  closeImportResult(): void;
}

export type DebuggerSlice = DebuggerData & DebuggerActions;

/** An empty condition, the default hit count and "enabled" are stored as absent. */
function normalised(b: Breakpoint): Breakpoint {
  const next = { ...b };
  if (!next.when || Object.keys(next.when).length === 0) delete next.when;
  if (!next.hits || (next.hits.mode === 'from' && next.hits.count === 1)) delete next.hits;
  if (next.enabled !== false) delete next.enabled;
  return next;
}

/** What was computed for one session of the open trace. */
const NO_REPLAY = { timeline: null, coverage: null, progress: null, detail: null, visible: null, diff: null, diffProblems: [], pausedAt: null, playing: false, breakpointStops: null, marks: null, search: null, filterSearch: null, filterBefore: null } satisfies Partial<DebuggerData>;

export const createDebuggerSlice: StateCreator<AppState, [], [], DebuggerSlice> = (set, get) => ({
  ...INITIAL,
  traceOpened: (trace) =>
    set({
      ...NO_REPLAY, traceId: trace.id, trace, position: 0, activeEpoch: -1, compile: null, handlers: [], filter: NO_FILTER, filtering: false,
      revealed: new Set(), failure: null, stepLoading: true,
    }),
  traceClosed: () => set({ ...NO_REPLAY, revealed: new Set(), traceId: null, trace: null, activeEpoch: -1, compile: null, handlers: [], position: 0, stepLoading: false }),
  traceRenamed: (id, name) => {
    const trace = get().trace;
    if (trace?.id === id) set({ trace: { ...trace, name } });
  },
  // With no session left (`noReplay`) no step is coming: nothing may wait for one.
  compileFailed: (outcome) => set(outcome.noReplay ? { compile: outcome, stepLoading: false } : { compile: outcome }),
  sessionStarted: (epoch, outcome) =>
    set({
      ...NO_REPLAY, detail: get().detail, activeEpoch: epoch, handlers: outcome.handlers, failure: null,
      // A fallback session replays an earlier version: the problems of the one sent stay on show.
      compile: outcome.fallback ? get().compile : outcome,
    }),
  replayProgressed: (progress) => set({ progress }),
  timelineArrived: (timeline) => set({ timeline }),
  coverageArrived: (coverage) => set({ coverage, progress: null }),
  replayFailed: (failure) => set({ failure }),
  dismissFailure: () => set({ failure: null }),
  setBusy: (busy) => {
    if (busy !== get().busy) set({ busy });
  },
  stepChosen: (index) => {
    const { pausedAt, position, whyHandler } = get();
    // "Why didn't it fire?" is about the step it was asked on: another step clears it.
    set({ position: index, pausedAt: pausedAt?.index === index ? pausedAt : null, stepLoading: true, whyHandler: index === position ? whyHandler : null });
  },
  stepRequested: () => {
    if (!get().stepLoading) set({ stepLoading: true });
  },
  stepAnswered: (detail) => set({ detail, stepLoading: false }),
  noStep: () => set({ stepLoading: false }),
  filterChanged: (filter) => {
    const { filtering, filterBefore, filter: shown } = get();
    // The steps shown stay those of the last filter answered until the new one's are known.
    if (isFiltering(filter)) set({ filter, filtering: true, filterBefore: filtering ? filterBefore : shown });
    else set({ filter, filtering: false, visible: null, filterSearch: null, filterBefore: null });
  },
  filterAnswered: (visible) => set({ visible, filtering: false, filterSearch: null, filterBefore: null }),
  filterFailed: () => set({ filtering: false, filterSearch: null, filterBefore: null }),
  filterSearchStarted: (filterSearch) => set({ filterSearch }),
  filterSearchProgressed: (id, done, total) => {
    const f = get().filterSearch;
    if (f?.id === id && done > f.done) set({ filterSearch: { ...f, done, total } });
  },
  filterCancelled: () => {
    const { filterBefore, filter, visible } = get();
    const back = filterBefore ?? filter;
    // A new replay shows every step until its filter is answered: the filter shown then says so.
    set({ filter: visible === null && isFiltering(back) ? NO_FILTER : back, filtering: false, filterSearch: null, filterBefore: null });
  },
  toggleReveal: (index) => {
    const revealed = new Set(get().revealed);
    if (!revealed.delete(index)) revealed.add(index);
    set({ revealed });
  },
  versionPinned: (pinned) => set({ pinned, diff: null }),
  pinCleared: () => set({ pinned: null, diff: null, diffProblems: [], diffRunning: false }),
  compareStarted: () => set({ diffRunning: true }),
  compareArrived: (diff, diffProblems) => set({ diff, diffProblems, diffRunning: false }),
  addBreakpoint: (spec) => {
    const list = get().breakpoints;
    const id = breakpointId(spec);
    if (!list.some((b) => b.id === id)) set({ breakpoints: [...list, { ...spec, id } as Breakpoint] });
    return id;
  },
  removeBreakpoint: (id) => set({ breakpoints: get().breakpoints.filter((b) => b.id !== id) }),
  updateBreakpoint: (id, patch) => set({ breakpoints: get().breakpoints.map((b) => (b.id === id ? normalised({ ...b, ...patch } as Breakpoint) : b)) }),
  replaceBreakpoint: (id, next) => {
    const list = get().breakpoints;
    const old = list.find((b) => b.id === id);
    if (!old) return null;
    const nextId = old.kind === 'condition' && next.kind === 'condition' ? old.id : breakpointId(next);
    if (nextId !== id && list.some((b) => b.id === nextId)) return null;
    set({ breakpoints: list.map((b) => (b.id === id ? normalised({ ...next, id: nextId } as Breakpoint) : b)) });
    return nextId;
  },
  toggleBreakpoint: (id) => get().updateBreakpoint(id, { enabled: get().breakpoints.find((b) => b.id === id)?.enabled === false }),
  breakpointStopsArrived: (breakpointStops) => set({ breakpointStops }),
  marksArrived: (marks) => set({ marks }),
  sessionRestored: ({ breakpoints, pinned }) => set({ breakpoints, pinned, diff: null, diffProblems: [] }),
  playStarted: () => set({ playing: true, pausedAt: null }),
  playStopped: () => {
    if (get().playing) set({ playing: false });
  },
  pausedOn: (index, label) => set({ pausedAt: { index, label } }),
  setSpeed: (speed) => set({ speed }),
  searchStarted: (search) => set({ search }),
  searchProgressed: (id, done, total) => {
    const search = get().search;
    if (search?.id === id && done > search.done) set({ search: { ...search, done, total } });
  },
  searchEnded: (id) => {
    if (get().search?.id === id) set({ search: null });
  },
  showBottomTab: (bottomTab) => set({ bottomTab }),
  focusLabelControl: (labelFocus) => set({ labelFocus }),
  focusCompareRow: (compareFocus) => set(compareFocus === null ? { compareFocus } : { compareFocus, bottomTab: 'compare' }),
  showRightTab: (rightTab) => set({ rightTab }),
  askWhy: (whyHandler) => set({ whyHandler }),
  importStarted: (view) => set({ imports: [...get().imports, view] }),
  updateImport: (id, patch) => set({ imports: get().imports.map((v) => (v.id === id ? { ...v, ...patch } : v)) }),
  importEnded: (id) => set({ imports: get().imports.filter((v) => v.id !== id) }),
  importsQueued: (count) => {
    const b = get().importBatch;
    set({ importBatch: { total: (b?.total ?? 0) + count, done: b?.done ?? 0 } });
  },
  importSettled: () => {
    const b = get().importBatch;
    if (b) set({ importBatch: b.done + 1 >= b.total ? null : { total: b.total, done: b.done + 1 } });
  },
  showImportResult: (importResult) => set({ importResult }),
  closeImportResult: () => set({ importResult: null }),
});

export const selectTimeline = (s: AppState) => s.timeline;
export const selectDetail = (s: AppState) => s.detail;
export const selectPosition = (s: AppState) => s.position;
export const selectTrace = (s: AppState) => s.trace;
export const selectHandlers = (s: AppState) => s.handlers;
export const selectVisible = (s: AppState) => s.visible;
export const selectFilter = (s: AppState) => s.filter;
export const selectBreakpoints = (s: AppState) => s.breakpoints;
export const selectPlaying = (s: AppState) => s.playing;
export const selectProgress = (s: AppState) => s.progress;
export const selectWhyHandler = (s: AppState) => s.whyHandler;
export const selectCompile = (s: AppState) => s.compile;
/** The open pipeline does not load and no earlier version does: nothing is being replayed, nor will be until it is fixed. */
export const selectNoReplay = (s: AppState) => s.compile !== null && !s.compile.ok && s.compile.noReplay === true && s.activeEpoch < 0;
/** Said wherever a step would show when nothing can be replayed. */
export const NO_REPLAY_TEXT = 'Not replayed: the pipeline has errors and no earlier version of it loads. Fix them in Edit (the Problems panel lists them).';
