/// <reference lib="webworker" />
import '../../zodConfig.ts';
import { compilePipeline, type CompileResult, hasCode, type Pipeline, pipelineVersionOf, readExpectation, type Sandbox, trackPrograms, withoutExpectation } from '../../../engine/app.ts';
import { exportPipelineText } from '../../model/exportPipeline.ts';
import { HookwireDb } from '../../persistence/db.ts';
import { createEventStore, type EventStore, type TraceRef } from './eventStore.ts';
import { payloadSummary } from '../model/payloadSummary.ts';
import { answerRequest, type CompileOutcome, type HandlerInfo, type ReplayHandlers, type RequestEnvelope, type RowInfo, type SessionEvent, type WorkerMessage } from './protocol.ts';
import { createReplaySession, errorText, type ReplaySession } from './replaySession.ts';
import { runNodeIn } from '../../sandbox/runNodeIn.ts';

/**
 * The replay worker: the engine, the QuickJS sandbox (loaded only for pipelines with code) and the trace's
 * events in IndexedDB, all off the page's thread, so a long trace or a slow handler never freezes the tab.
 * The page can always terminate it and start a fresh one (replayClient.ts).
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
const db = new HookwireDb();
let trace: TraceRef | null = null;
/** The open trace's events: rows are read from here even when no pipeline compiles. */
let events: EventStore | null = null;
let session: ReplaySession | null = null;
let releaseSession: () => void = () => undefined;
let sandbox: Promise<Sandbox> | null = null;
/** The search the person waits for ("next breakpoint", block, divergence); -1: none, or it was cancelled. */
let searching = -1;
/** The filter being searched; -1: none, or it was cancelled. */
let filtering = -1;

const send = (m: WorkerMessage, transfer: Transferable[] = []) => scope.postMessage(m, transfer);
const emit = (epoch: number) => (event: SessionEvent) => send({ type: 'event', epoch, event });

/** The QuickJS sandbox, loaded on first use. */
function loadSandbox(): Promise<Sandbox> {
  sandbox ??= import('../../sandbox/loadQuickJS.ts').then((m) => m.createBrowserSandbox());
  return sandbox;
}

/** The sandbox, remembering the programs each pipeline compiles so a replaced pipeline releases them. */
async function compile(doc: unknown): Promise<{ result: CompileResult; release: () => void }> {
  if (!hasCode(doc)) return { result: compilePipeline(doc), release: () => undefined };
  const base: Sandbox = await loadSandbox();
  const tracked = trackPrograms(base);
  const result = compilePipeline(doc, { sandbox: tracked.sandbox });
  const release = tracked.releaseAll;
  if (!result.ok) release();
  return { result, release };
}

function handlersOf(result: Extract<CompileResult, { ok: true }>): HandlerInfo[] {
  return result.compiled.handlers.map((h) => ({ id: h.id, name: h.name, order: h.node.order, action: h.node.action.type, enabled: h.node.enabled }));
}

/**
 * Compiles `doc` and, when it loads, replaces the session; a document with errors keeps the last good one.
 * With no session to keep (a trace just opened, a fresh worker), the first of `fallbacks` that loads (earlier
 * versions, newest first) is replayed instead, said as such; with none, the page is told plainly that
 * nothing can be replayed, never left waiting for a session that will not come.
 */
async function usePipeline(epoch: number, doc: unknown, fallbacks: readonly unknown[]): Promise<void> {
  const { result, release } = await compile(doc);
  if (result.ok) {
    startSession(epoch, result, release, false);
    return;
  }
  const failed: CompileOutcome = { ok: false, problems: result.problems };
  if (session || !trace) {
    emit(epoch)({ kind: 'compiled', outcome: failed });
    return;
  }
  for (const earlier of fallbacks) {
    const other = await compile(earlier);
    if (!other.result.ok) continue;
    emit(epoch)({ kind: 'compiled', outcome: failed });
    startSession(epoch, other.result, other.release, true);
    return;
  }
  emit(epoch)({ kind: 'compiled', outcome: { ...failed, noReplay: true } });
}

function startSession(epoch: number, result: Extract<CompileResult, { ok: true }>, release: () => void, fallback: boolean): void {
  if (!trace) {
    release();
    return;
  }
  session?.stop();
  releaseSession();
  releaseSession = release;
  const outcome: CompileOutcome = { ok: true, handlers: handlersOf(result), warnings: result.problems, ...(fallback ? { fallback: true as const } : {}) };
  emit(epoch)({ kind: 'compiled', outcome });
  session = createReplaySession(result.compiled, events ?? createEventStore(db, trace), epoch, emit(epoch), trace.compareAll ? null : pipelineVersion(result.pipeline));
}

/** Pipelines are installed in the order they were sent, even when one needs the sandbox loaded first. */
let installing: Promise<void> = Promise.resolve();
function install(work: () => Promise<void>): Promise<void> {
  installing = installing.then(work, work);
  return installing;
}

/** The open session, or the error every session request gets without one. */
function current(): ReplaySession {
  if (!session) throw new Error('no trace is open in the replay worker');
  return session;
}

/** Each request kind's answer, typed against the page's answer map (protocol.ts). */
const handlers: ReplayHandlers = {
  async open(request) {
    await install(async () => {
      session?.stop();
      session = null;
      trace = request.trace;
      events = createEventStore(db, request.trace);
      await usePipeline(request.epoch, request.doc, request.fallbacks);
    });
    return { value: null, epoch: request.epoch };
  },
  async pipeline(request) {
    await install(() => usePipeline(request.epoch, request.doc, request.fallbacks));
    return { value: null, epoch: request.epoch };
  },
  async close() {
    await install(async () => {
      session?.stop();
      session = null;
      trace = null;
      events = null;
    });
    return { value: null, epoch: -1 };
  },
  async rows(request) {
    if (!events) throw new Error('no trace is open in the replay worker');
    const list = await events.getRange(request.start, request.end);
    // A step the pipeline rewrote is summarised as the pipeline left it (a redacted secret stays redacted
    // on the timeline); the recorded summary is kept for a deliberate reveal.
    const after = (await session?.rewritten(request.start, request.start + list.length)) ?? null;
    const rows: RowInfo[] = list.map((e, k) => {
      const row: RowInfo = { type: e.type, ts: e.ts, event_id: e.event_id, summary: payloadSummary(e.type, e.payload) };
      const rewritten = after?.[k];
      if (rewritten) row.rewritten = payloadSummary(e.type, rewritten);
      const label = readExpectation(e);
      if (label.kind !== 'none') row.label = label.kind === 'ok' ? label.expectation.decision : 'unreadable';
      return row;
    });
    return { value: rows, epoch: session?.epoch ?? -1 };
  },
  async step(request) {
    const s = current();
    return { value: await s.step(request.index), epoch: s.epoch };
  },
  async find(request) {
    const s = current();
    return { value: await s.find(request.queries, request.from, request.direction), epoch: s.epoch };
  },
  async breakpoints(request) {
    const s = current();
    const list = await Promise.all(request.list.map(async ({ id, spec }) => ({ id, result: await s.breakpoint(spec) })));
    // Each answer gets its own copy of the stops: the session keeps its own for the next request.
    const out = list.map(({ id, result }) => ({ id, result: result.ok ? { ok: true as const, stops: result.stops.slice() } : result }));
    return { value: out, epoch: s.epoch, transfer: out.flatMap((x) => (x.result.ok ? [x.result.stops.buffer] : [])) };
  },
  async nextBreakpoint(request) {
    const s = current();
    // One search the person waits for at a time: this one replaces (cancels) the one before.
    searching = request.search;
    return { value: await s.nextStop(request.list, request.from, request.search, () => searching !== request.search), epoch: s.epoch };
  },
  async cancelSearch(request) {
    if (searching === request.search) searching = -1;
    if (filtering === request.search) filtering = -1;
    return { value: null, epoch: session?.epoch ?? -1 };
  },
  async marks() {
    const s = current();
    const m = await s.marks();
    const copy = { blocked: m.blocked.slice(), divergent: m.divergent.slice(), labelled: m.labelled.slice() };
    return { value: copy, epoch: s.epoch, transfer: [copy.blocked.buffer, copy.divergent.buffer, copy.labelled.buffer] };
  },
  async filter(request) {
    const s = current();
    // One filter at a time: this one replaces (cancels) the one before.
    filtering = request.search;
    const answer = await s.filter(request.filter, request.search, () => filtering !== request.search);
    const visible = answer.cancelled ? null : answer.visible;
    return { value: answer, epoch: s.epoch, ...(visible ? { transfer: [visible.buffer] } : {}) };
  },
  async compare(request) {
    const s = current();
    if (request.pinned === null) {
      await s.compare(null);
      return { value: null, epoch: s.epoch };
    }
    const { result, release } = await compile(request.pinned);
    if (!result.ok) emit(s.epoch)({ kind: 'compare', diff: null, problems: result.problems });
    else void s.compare(result.compiled).finally(release);
    return { value: null, epoch: s.epoch };
  },
  async decisions() {
    const s = current();
    return { value: await s.decisions(), epoch: s.epoch };
  },
  async runNode(request) {
    // The step as the session's replay has it: its event, the state before it and its clock time [X7].
    const s = current();
    const { step } = await s.step(request.index);
    const doc = request.doc as Pipeline;
    // The event as replay dispatched it: a step's label is never seen by handlers [R19].
    const event = withoutExpectation(step.event);
    const outcome = runNodeIn(hasCode(doc) ? await loadSandbox() : null, { doc, nodeId: request.nodeId, event, state: step.state_before, now: step.now });
    const state = {
      index: request.index,
      vars: step.state_before.vars,
      flow_sessions: step.state_before.flows?.size ?? 0,
      // Layout aside: moving a node changes no state.
      same_version: exportPipelineText(doc, { layout: false }) === exportPipelineText(s.compiled.pipeline, { layout: false }),
    };
    return { value: { outcome, state }, epoch: s.epoch };
  },
  async relabel(request) {
    events?.forget(request.index);
    session?.relabel(request.index);
    return { value: null, epoch: session?.epoch ?? -1 };
  },
};

scope.onmessage = async (e: MessageEvent<RequestEnvelope>) => {
  const { id, request } = e.data;
  try {
    const { value, transfer, epoch } = await answerRequest(handlers, request);
    send({ type: 'reply', id, epoch, ok: true, value }, transfer ?? []);
  } catch (err) {
    send({ type: 'reply', id, epoch: session?.epoch ?? -1, ok: false, error: errorText(err) });
  }
};

/**
 * The version of the pipeline the debugger replays [R17]: that of the text Export writes for it (with its layout,
 * the dialog's default) — the file `hookwire replay` or `hookwire serve` would name if it were exported. A
 * recording made with another file text names another version, and its decisions are not compared.
 */
function pipelineVersion(doc: Pipeline): string {
  return pipelineVersionOf(exportPipelineText(doc, { layout: true }));
}

