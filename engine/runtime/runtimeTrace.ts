import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import { initialState } from '../dispatch/dispatch.ts';
import { createRepeatWindow } from '../replay/repeatWindow.ts';
import { createSession, type SessionResult } from '../replay/session.ts';
import { recordedDecision } from '../replay/recordedDecision.ts';
import type { HookEvent } from '../model/event.ts';
import { requireIsoTime } from '../model/time.ts';
import { isJsonObject, jsonEqual, JsonTooDeepError, toJson, tooDeepMessage, type JsonObject } from '../model/json.ts';
import { jsonLimitBreach, type JsonLimitBreach } from '../model/jsonLimits.ts';
import { isTraceTimestamp } from '../trace/traceSchema.ts';
import { TRACE_FORMAT, TRACE_VERSION, type TraceHeader } from '../trace/traceTypes.ts';
import { traceEventLine, traceHeaderLine } from '../trace/traceToJsonl.ts';
import { guardAction, guardToolSpec } from './guard.ts';
import { createChainWriter } from '../trace/hashChain.ts';
import { createSinkQueue, type Scheduler, type Sink, type SinkQueue } from './sinkQueue.ts';
import { ask, deniedAsyncInSyncEmit } from './approve.ts';
import { actionBlocked, deniedBy, type Approval } from '../model/approval.ts';
import type { Approver, EmitOptions, EmitResult, RuntimeQueues, RuntimeTimers, RuntimeTrace, StartTraceOptions } from './types.ts';
import { writeEventSpan, type RuntimeTelemetry } from './telemetry.ts';

export interface TraceContext {
  trace: RuntimeTrace;
  recordQueue: SinkQueue<string> | null;
  pendingAsync(): number;
}

interface OpenOptions {
  clock: { now(): number };
  trace_id: string;
  agent_id: string;
  queues: RuntimeQueues;
  /** Opens the trace's recording sink, given its header. */
  record: (header: TraceHeader) => Sink<string> | null;
  schedule: Scheduler;
  queueOptions: Parameters<typeof createSinkQueue>[2];
  onEnd: (ctx: TraceContext) => void;
  approver: Approver | undefined;
  approvalTimeoutMs: number;
  timers: RuntimeTimers | undefined;
  /** The pipeline version each recorded decision names [R17], or null when the runtime was given none. */
  pipelineVersion: string | null;
  /** Spans per dispatched event [O1]; they need the explanation (which handlers fired), so dispatch explains. */
  telemetry: (RuntimeTelemetry & { pipeline: { name: string; version: string } }) | null;
}

/** A dispatched event on its way to an answer: its session result and its place in the recording. */
interface Dispatched {
  event: HookEvent;
  r: SessionResult;
  slot: { line: string | null };
}

/**
 * One trace of the runtime [P2]: a session (state, idempotency, terminate) plus stamping, the async queue and
 * the recording. `emit` dispatches synchronously and returns; every record leaves through a sink queue.
 */
export function openTrace(compiled: CompiledPipeline, pipelineName: string, start: StartTraceOptions, o: OpenOptions): TraceContext {
  let now = 0;
  const session = createSession(compiled, { clock: { now: () => now } }, {
    state: initialState(start.state ? startState(start.state) : {}),
    sinks: { raw: o.queues.raw ? (r) => o.queues.raw!.push(r) : undefined, audit: o.queues.audit ? (r) => o.queues.audit!.push(r) : undefined },
  });
  const header: TraceHeader = {
    format: TRACE_FORMAT,
    version: TRACE_VERSION,
    trace_id: o.trace_id,
    agent_id: o.agent_id,
    source: { kind: 'runtime', pipeline: pipelineName, ...(start.source ?? {}) },
    created: requireIsoTime(Math.floor(o.clock.now())),
    ...(start.title !== undefined ? { title: start.title } : {}),
  };
  const recordSink = o.record(header);
  const recordQueue = recordSink ? createSinkQueue('record', recordSink, o.queueOptions) : null;
  // Every recording line carries the hash chain [K1]: a line edited afterwards is named by `hookwire verify`.
  const chain = createChainWriter();
  recordQueue?.push(chain.next(traceHeaderLine(header)));

  const queued: HookEvent[] = [];
  let seq = 0;
  let dispatched = 0;
  let drainScheduled = false;
  let terminated: EmitResult | null = null;

  // [P7][P14] recording lines keep dispatch order even while an ASK waits for its answer: each dispatched event
  // takes a slot, and lines leave for the sink only up to the first slot still waiting.
  const slots: { line: string | null }[] = [];
  const flushSlots = () => {
    while (slots.length > 0 && slots[0]!.line !== null) recordQueue?.push(chain.next(slots.shift()!.line!));
  };
  // [E5][P7] the answers a repeated id reuses, for the asks among the latest dispatches (the session's window).
  const approvals = createRepeatWindow<{ answer: Approval | Promise<Approval> }>();
  const pending = new Set<Promise<unknown>>();

  const run = (event: HookEvent): Dispatched => {
    now = Date.parse(event.ts);
    const t = o.telemetry;
    let r: SessionResult;
    if (t) {
      const { result, explanation } = session.explain(event);
      r = result;
      writeEventSpan(t, t.pipeline, event, r, explanation, ++dispatched);
    } else r = session.dispatch(event);
    if (!r.duplicate) {
      // A repeated id ran nothing [E5]: its records were delivered the first time.
      for (const a of r.audit) o.queues.handlerAudit?.push(a);
      for (const e of r.errors) o.queues.errors?.push(e);
    }
    if (r.mode === 'async' && !r.duplicate) {
      o.queues.async?.push({ trace_id: event.trace_id, event_id: event.event_id, event_type: event.type, payload: r.payload, errors: r.errors, audit: r.audit });
    }
    const slot = { line: null as string | null };
    if (recordQueue) slots.push(slot);
    return { event, r, slot };
  };

  /** Writes the event's recording line, with the ASK's answer when there is one [P7][P14]. */
  const record = (d: Dispatched, approval: Approval | null) => {
    const { r } = d;
    // The record shape of hookwire serve and claude-hook --record, so a replay flags another deciding handler [R6].
    const recorded = recordedDecision({ ...r, not_reached: r.after_terminate }, { approval, pipeline: o.pipelineVersion });
    d.slot.line = traceEventLine({ ...d.event, recorded }, header);
    flushSlots();
  };

  /** Whether this result needs an answer: an ASK on a sync event (a repeated id reuses the first answer) [P14]. */
  const needsAnswer = (r: SessionResult) => r.decision === 'ask' && r.mode === 'sync' && !r.after_terminate;

  const request = (d: Dispatched) => ({
    trace_id: d.r.trace_id, event_id: d.r.event_id, event_type: d.event.type, payload: d.r.payload, reason: d.r.reason, decided_by: d.r.decided_by, context: [...d.r.context],
  });

  /** Starts the answer of an ASK, or reuses the answer of the event this one repeats [E5]. */
  const answerOf = (d: Dispatched, approver: Approver | undefined): Approval | Promise<Approval> => {
    const earlier = d.r.duplicate ? approvals.get(d.event.event_id) : undefined;
    if (earlier) return earlier.answer;
    const a = ask(approver, request(d), o.approvalTimeoutMs, o.timers, o.clock);
    const kept = { answer: a };
    approvals.add(d.event.event_id, kept);
    if (a instanceof Promise) {
      pending.add(a);
      void a.then((settled) => {
        pending.delete(a);
        kept.answer = settled;
      });
    }
    return a;
  };

  const settleSync = (d: Dispatched, approver: Approver | undefined): EmitResult => {
    if (!needsAnswer(d.r)) {
      record(d, null);
      return toResult(d.r, d.event, null);
    }
    let a = answerOf(d, approver);
    a = a instanceof Promise ? deniedAsyncInSyncEmit(a) : onceEdited(d, a);
    record(d, a);
    const shown = toResult(d.r, d.event, a);
    // [AP2] the edited call goes through the pipeline again, as an event of its own; its decision counts.
    return a.edit !== undefined ? { ...emit(d.event.type, a.edit, editOptions(d, approver)), edit_of: d.event.event_id } : shown;
  };

  /** [AP2] an edit is answered once: an edit of an edited call is denied, so an approver cannot loop. */
  const onceEdited = (d: Dispatched, a: Approval): Approval => {
    if (a.edit === undefined || !isEditEvent(d.event)) return a;
    return { ...deniedBy('invalid', 'the approver edited a call that is itself an edit: an edit is answered once, so it is denied'), ...(a.at !== undefined ? { at: a.at } : {}) };
  };

  const editOptions = (d: Dispatched, approver: Approver | undefined): EmitOptions => ({
    event_id: `${d.event.event_id}:edit`,
    meta: { edit_of: d.event.event_id },
    ...(approver ? { approver } : {}),
  });

  // [P4] queued async events run in emit order, before any later event of the trace.
  const drain = () => {
    while (queued.length > 0) record(run(queued.shift()!), null);
  };

  const toResult = (r: SessionResult, event: HookEvent, approval: Approval | null): EmitResult => {
    const result: EmitResult = {
      decision: r.decision, blocked: approval ? actionBlocked(r.decision, r.mode, approval) : r.blocked, reason: r.reason, payload: r.payload, trace_id: r.trace_id, event_id: r.event_id,
      decided_by: r.decided_by, errors: r.errors, duplicate: r.duplicate, queued: false, approval, context: [...r.context],
      // dispatch returns the dispatched payload object itself when no rewrite ran: compare only when one did
      rewritten: r.payload !== event.payload && !jsonEqual(r.payload, event.payload),
    };
    if (r.decision === 'terminate' && !terminated) terminated = result;
    return result;
  };

  /** Queues an async event [P4]; returns its immediate answer, or null for a sync event. */
  const enqueue = (event: HookEvent): EmitResult | null => {
    if (compiled.modeOf(event.type) !== 'async' || terminated) return null;
    queued.push(event);
    if (!drainScheduled) {
      drainScheduled = true;
      o.schedule(() => {
        drainScheduled = false;
        drain();
      });
    }
    return { decision: 'continue', blocked: false, reason: '', payload: event.payload, trace_id: event.trace_id, event_id: event.event_id, decided_by: null, errors: [], duplicate: false, queued: true, approval: null, context: [], rewritten: false };
  };

  const emit = (type: string, payload: JsonObject, options: EmitOptions = {}): EmitResult => {
    const stamped = stamp(type, payload, options);
    if (!stamped.ok) return refused(type, stamped.problem, options);
    const event = stamped.event;
    const queuedResult = enqueue(event);
    if (queuedResult) return queuedResult;
    drain();
    return settleSync(run(event), options.approver ?? start.approver ?? o.approver);
  };

  const emitAsync = async (type: string, payload: JsonObject, options: EmitOptions = {}): Promise<EmitResult> => {
    const stamped = stamp(type, payload, options);
    if (!stamped.ok) return refused(type, stamped.problem, options);
    const event = stamped.event;
    const queuedResult = enqueue(event);
    if (queuedResult) return queuedResult;
    drain();
    const d = run(event);
    if (!needsAnswer(d.r)) return settleSync(d, undefined);
    const approver = options.approver ?? start.approver ?? o.approver;
    const a = onceEdited(d, await answerOf(d, approver));
    record(d, a);
    if (a.edit === undefined) return toResult(d.r, d.event, a);
    return { ...(await emitAsync(d.event.type, a.edit, editOptions(d, approver))), edit_of: d.event.event_id };
  };

  /**
   * The answer to input past a JSON limit [V9][V12]: nothing is dispatched or recorded (a recording could not
   * hold it), and the answer fails closed, naming the limit and the path. After TERMINATE it is TERMINATE [P8].
   */
  const refused = (type: string, problem: JsonLimitBreach, options: EmitOptions): EmitResult => {
    const event_id = options.event_id ?? `${o.trace_id}:${seq}`;
    const sync = compiled.modeOf(type) === 'sync';
    const base = { payload: {}, trace_id: o.trace_id, event_id, errors: [], duplicate: false, queued: false, approval: null, context: [], rewritten: false, problem };
    if (terminated) return { ...base, decision: 'terminate', blocked: true, reason: terminated.reason, decided_by: terminated.decided_by };
    return { ...base, decision: 'block_action', blocked: sync, reason: `input refused: ${problem.message}`, decided_by: null };
  };

  const stamp = (type: string, payload: JsonObject, options: EmitOptions): { ok: true; event: HookEvent } | { ok: false; problem: JsonLimitBreach } => {
    const time = options.ts !== undefined ? Date.parse(options.ts) : Math.floor(o.clock.now());
    if (!Number.isFinite(time)) throw new TypeError(`emit(${type}): ts ${JSON.stringify(options.ts)} is not an ISO 8601 time`);
    // A time without a zone would be read in the host's zone, and the recording could not be replayed [P3].
    if (options.ts !== undefined && !isTraceTimestamp(options.ts)) {
      throw new TypeError(`emit(${type}): ts ${JSON.stringify(options.ts)} needs a time zone (e.g. "2026-03-01T10:00:00Z" or "2026-03-01T11:00:00+01:00")`);
    }
    seq++;
    const copied = copyObject(payload, `emit(${type}): payload`);
    if (!copied.ok) return copied;
    const meta = options.meta !== undefined ? copyObject(options.meta, `emit(${type}): meta`) : undefined;
    if (meta && !meta.ok) return meta;
    const event: HookEvent = {
      event_id: options.event_id ?? `${o.trace_id}:${seq}`,
      trace_id: o.trace_id,
      agent_id: o.agent_id,
      type,
      ts: options.ts ?? requireIsoTime(time),
      payload: copied.value,
    };
    if (meta) event.meta = meta.value;
    return { ok: true, event };
  };

  const flush = async () => {
    drain();
    await Promise.all([...pending]);
    await recordQueue?.drained();
    await Promise.all(Object.values(o.queues).map((q) => q?.drained()));
  };

  const trace: RuntimeTrace = {
    trace_id: o.trace_id,
    agent_id: o.agent_id,
    get terminated() {
      return terminated;
    },
    get state() {
      drain();
      return session.state.vars;
    },
    emit,
    emitAsync,
    guard: (spec) => guardAction(trace, spec),
    guardTool: (name, input, action, options = {}) => guardAction(trace, guardToolSpec(name, input, action, options)),
    async end(payload = {}) {
      emit('agent.end', payload);
      await flush();
      o.onEnd(ctx);
    },
    flush,
  };
  const ctx: TraceContext = { trace, recordQueue, pendingAsync: () => queued.length };
  return ctx;
}

/** The caller's initial state, as JSON: past a limit it is the caller's bug (a TypeError naming it), not data. */
function startState(state: JsonObject): JsonObject {
  const c = copyObject(state, 'state');
  if (!c.ok) throw new TypeError(`startTrace: ${c.problem.message}`);
  return c.value;
}

/**
 * A JSON copy of a caller's object: what is dispatched and recorded is plain JSON [P3]. Past a JSON limit
 * [V9][V12] it is the breach (untrusted data: the answer fails closed); not an object is a caller's bug.
 */
function copyObject(value: JsonObject, what: string): { ok: true; value: JsonObject } | { ok: false; problem: JsonLimitBreach } {
  const root = what.split(': ').pop()!;
  let copy: ReturnType<typeof toJson>;
  try {
    copy = toJson(value);
  } catch (e) {
    if (e instanceof JsonTooDeepError) return { ok: false, problem: { code: 'too_deep', limit: 'depth', path: e.path, message: tooDeepMessage(root, e.path) } };
    throw e;
  }
  if (!isJsonObject(copy)) throw new TypeError(`${what} must be a JSON object (no cycles)`);
  const problem = jsonLimitBreach(copy, root);
  return problem ? { ok: false, problem } : { ok: true, value: copy };
}

/** The recording's note of the nodes the wall-clock net stopped [S14], so replay reproduces them. */
/** An event the runtime dispatched for an approver's edit [AP2] (its meta names the call it edits). */
function isEditEvent(event: HookEvent): boolean {
  return isJsonObject(event.meta) && typeof event.meta.edit_of === 'string';
}
