import type { BreakpointSpec, Decision, JsonObject, Problem, TraceCoverage, PipelineDiff, ReplayStep, ReplayTimeline, StepQuery, WhyNotFired, DecisionRow, FlowStepVerdict } from '../../../engine/app.ts';
import type { TimelineFilter } from '../model/timelineFilter.ts';
import type { TraceRef } from './eventStore.ts';
import type { NodeRunOutcome } from '../../sandbox/workerProtocol.ts';

/**
 * Messages between the page and the replay worker. The page numbers every pipeline it sends (`epoch`);
 * the worker tags what it says with the epoch of the session that said it, so the page can drop answers
 * about a pipeline that has since changed.
 */
export interface HandlerInfo {
  id: string;
  name: string;
  order: number;
  action: string;
  enabled: boolean;
}

/**
 * How a pipeline sent to the worker loaded. `fallback`: the one sent did not load and the session replays an
 * earlier version that does (the page's last one that loaded, or one from its history). `noReplay`: it did
 * not load and no session is left to show, so the trace cannot be replayed until the errors are fixed.
 */
export type CompileOutcome =
  | { ok: true; handlers: HandlerInfo[]; warnings: Problem[]; fallback?: true }
  | { ok: false; problems: Problem[]; noReplay?: true };

/** The current step with the engine's answer to "why didn't it fire?" for every handler [R14]. */
export interface StepDetail {
  step: ReplayStep;
  why: WhyNotFired[];
  /** Each flow rule's verdict on the event and the earlier step behind it [F9]. */
  flows: FlowStepVerdict[];
}

/** One timeline row's text (its decision comes from the timeline). */
export interface RowInfo {
  type: string;
  ts: string;
  event_id: string;
  summary: string;
  /** The summary of the payload after the open pipeline's rewrites, when it changed the event's value. */
  rewritten?: string;
  /** The step's label [B7]: the decision a person expects (its `meta.expect`), or `unreadable`. */
  label?: Decision | 'unreadable';
}

/** Where things happen, for the scrubber's marks: blocked and divergent steps [R11] (the engine's search) and labelled ones [B7]. */
export interface ScrubMarks {
  blocked: Int32Array;
  divergent: Int32Array;
  labelled: Int32Array;
}

/**
 * The next breakpoint stop: the step (-1: none after the step searched from) and the breakpoints that stop there,
 * or `cancelled` when the search was stopped (by the person, or by a newer search) before it was known.
 */
export type NextStop = { cancelled: false; index: number; ids: string[] } | { cancelled: true };

/** The steps a filter keeps [R20] (null: every step), or `cancelled` when it was stopped before it was known. */
export type FilterAnswer = { cancelled: false; visible: Int32Array | null } | { cancelled: true };

/** Where one breakpoint stops [R18], or why it cannot be searched (its problems, with paths into it). */
export type BreakpointResult = { ok: true; stops: Int32Array } | { ok: false; problems: Problem[] };

export type ReplayRequest =
  | { kind: 'open'; epoch: number; trace: TraceRef; doc: unknown; fallbacks: unknown[] }
  | { kind: 'pipeline'; epoch: number; doc: unknown; fallbacks: unknown[] }
  | { kind: 'close' }
  | { kind: 'step'; index: number }
  | { kind: 'rows'; start: number; end: number }
  | { kind: 'find'; queries: StepQuery[]; from: number; direction: 'forward' | 'backward' }
  | { kind: 'breakpoints'; list: { id: string; spec: BreakpointSpec }[] }
  /**
   * The first step after `from` where any of `list` stops [R18], searched a chunk at a time and answered at that
   * stop. `search` names it for `cancelSearch` and its progress events; a newer search cancels it.
   */
  | { kind: 'nextBreakpoint'; search: number; list: { id: string; spec: BreakpointSpec }[]; from: number }
  /** Stops search `search` (a next stop's or a filter's) between two chunks: it answers `cancelled`. */
  | { kind: 'cancelSearch'; search: number }
  | { kind: 'marks' }
  /**
   * The steps the filter keeps [R20], searched a chunk at a time; `search` names it for `cancelSearch` and its
   * progress events (ids shared with `nextBreakpoint`'s); a newer filter cancels it.
   */
  | { kind: 'filter'; filter: TimelineFilter; search: number }
  | { kind: 'compare'; pinned: unknown | null }
  | { kind: 'decisions' }
  /** Step `index`'s stored event was relabelled: the worker reads it again, and replays nothing [R19]. */
  | { kind: 'relabel'; index: number }
  /** Runs node `nodeId` of `doc` alone on step `index`'s event with the state the replay had before it [X7]. */
  | { kind: 'runNode'; index: number; nodeId: string; doc: unknown };

/** What each request answers. */
export interface ReplayAnswers {
  open: null;
  pipeline: null;
  close: null;
  step: StepDetail;
  rows: RowInfo[];
  find: number;
  breakpoints: { id: string; result: BreakpointResult }[];
  nextBreakpoint: NextStop;
  cancelSearch: null;
  marks: ScrubMarks;
  /** Visible steps in order (null when the filter keeps everything), or cancelled. */
  filter: FilterAnswer;
  compare: null;
  decisions: DecisionRow[];
  relabel: null;
  runNode: StepNodeRun;
}

/**
 * A node run on a step [X7]: the engine's answer, and the state it ran with — the replay's before the step
 * (`vars`, and how many sessions flow rules remembered) — with whether that replay was of the same pipeline
 * version as the one run (else it is the last one replayed, before later edits).
 */
export interface StepNodeRun {
  outcome: NodeRunOutcome;
  state: { index: number; vars: JsonObject; flow_sessions: number; same_version: boolean };
}

export type ReplayKind = ReplayRequest['kind'];
export type RequestOf<K extends ReplayKind> = Extract<ReplayRequest, { kind: K }>;

export interface RequestEnvelope {
  id: number;
  request: ReplayRequest;
}

/** The worker's answer to one request: the value of the request's kind, and the epoch of the session that answered (-1: none). */
export interface WorkerAnswer<K extends ReplayKind> {
  value: ReplayAnswers[K];
  epoch: number;
  transfer?: Transferable[];
}

/** The worker side of the protocol: one handler per request kind, typed against the same answer map as the page's client. */
export type ReplayHandlers = { [K in ReplayKind]: (request: RequestOf<K>) => Promise<WorkerAnswer<K>> };

/** Runs the handler of `request`'s kind. */
export function answerRequest(handlers: ReplayHandlers, request: ReplayRequest): Promise<WorkerAnswer<ReplayKind>> {
  // TypeScript cannot correlate the handler's and the request's kind through the union; the map's type does it for each entry.
  const handler = handlers[request.kind] as (r: ReplayRequest) => Promise<WorkerAnswer<ReplayKind>>;
  return handler(request);
}

/** What the page needs of a worker (a real `Worker`, or a fake one in unit tests). */
export interface WorkerLike {
  postMessage(message: RequestEnvelope): void;
  onmessage: ((e: MessageEvent<WorkerMessage>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
  terminate(): void;
}

export type SessionEvent =
  | { kind: 'compiled'; outcome: CompileOutcome }
  | { kind: 'progress'; phase: 'timeline' | 'analysis' | 'compare'; done: number; total: number }
  /** Search `search` has looked at the steps up to `done` (of `total`) without finding its answer yet. */
  | { kind: 'searchProgress'; search: number; done: number; total: number }
  | { kind: 'timeline'; timeline: ReplayTimeline }
  | { kind: 'coverage'; coverage: TraceCoverage }
  | { kind: 'compare'; diff: PipelineDiff | null; problems: Problem[] }
  | { kind: 'failed'; message: string };

export type WorkerMessage =
  | { type: 'reply'; id: number; epoch: number; ok: true; value: ReplayAnswers[ReplayKind] }
  | { type: 'reply'; id: number; epoch: number; ok: false; error: string }
  | { type: 'event'; epoch: number; event: SessionEvent };
