import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import { initialState } from '../dispatch/dispatch.ts';
import { createSession, type SessionResult } from '../replay/session.ts';
import type { HookEvent } from '../model/event.ts';
import { requireIsoTime } from '../model/time.ts';
import { isJsonObject, toJson, type JsonObject } from '../model/json.ts';
import { TRACE_FORMAT, TRACE_VERSION, type TraceHeader } from '../trace/traceSchema.ts';
import { traceEventLine, traceHeaderLine } from '../trace/traceToJsonl.ts';
import { guardAction, guardToolSpec } from './guard.ts';
import { createSinkQueue, type Scheduler, type Sink, type SinkQueue } from './sinkQueue.ts';
import type { EmitOptions, EmitResult, RuntimeQueues, RuntimeTrace, StartTraceOptions } from './types.ts';

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
}

/**
 * One trace of the runtime [P2]: a session (state, idempotency, terminate) plus stamping, the async queue and
 * the recording. `emit` dispatches synchronously and returns; every record leaves through a sink queue.
 */
export function openTrace(compiled: CompiledPipeline, pipelineName: string, start: StartTraceOptions, o: OpenOptions): TraceContext {
  let now = 0;
  const session = createSession(compiled, { clock: { now: () => now } }, {
    state: initialState(start.state ? copyObject(start.state, 'state') : {}),
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
  recordQueue?.push(traceHeaderLine(header));

  const queued: HookEvent[] = [];
  let seq = 0;
  let drainScheduled = false;
  let terminated: EmitResult | null = null;

  const run = (event: HookEvent): SessionResult => {
    now = Date.parse(event.ts);
    const r = session.dispatch(event);
    if (!r.duplicate) {
      // A repeated id ran nothing [E5]: its records were delivered the first time.
      for (const a of r.audit) o.queues.handlerAudit?.push(a);
      for (const e of r.errors) o.queues.errors?.push(e);
    }
    if (r.mode === 'async' && !r.duplicate) {
      o.queues.async?.push({ trace_id: event.trace_id, event_id: event.event_id, event_type: event.type, payload: r.payload, errors: r.errors, audit: r.audit });
    }
    const recorded = r.reason ? { decision: r.decision, reason: r.reason } : { decision: r.decision };
    recordQueue?.push(traceEventLine({ ...event, recorded }, header));
    return r;
  };

  // [P4] queued async events run in emit order, before any later event of the trace.
  const drain = () => {
    while (queued.length > 0) run(queued.shift()!);
  };

  const toResult = (r: SessionResult, queuedFlag: boolean): EmitResult => {
    const result: EmitResult = {
      decision: r.decision, blocked: r.blocked, reason: r.reason, payload: r.payload, trace_id: r.trace_id, event_id: r.event_id,
      decided_by: r.decided_by, errors: r.errors, duplicate: r.duplicate, queued: queuedFlag,
    };
    if (r.decision === 'terminate' && !terminated) terminated = result;
    return result;
  };

  const emit = (type: string, payload: JsonObject, options: EmitOptions = {}): EmitResult => {
    const event = stamp(type, payload, options);
    if (compiled.modeOf(type) === 'async' && !terminated) {
      queued.push(event);
      if (!drainScheduled) {
        drainScheduled = true;
        o.schedule(() => {
          drainScheduled = false;
          drain();
        });
      }
      return { decision: 'continue', blocked: false, reason: '', payload: event.payload, trace_id: event.trace_id, event_id: event.event_id, decided_by: null, errors: [], duplicate: false, queued: true };
    }
    drain();
    return toResult(run(event), false);
  };

  const stamp = (type: string, payload: JsonObject, options: EmitOptions): HookEvent => {
    const time = options.ts !== undefined ? Date.parse(options.ts) : Math.floor(o.clock.now());
    if (!Number.isFinite(time)) throw new TypeError(`emit(${type}): ts ${JSON.stringify(options.ts)} is not an ISO 8601 time`);
    seq++;
    const event: HookEvent = {
      event_id: options.event_id ?? `${o.trace_id}:${seq}`,
      trace_id: o.trace_id,
      agent_id: o.agent_id,
      type,
      ts: options.ts ?? requireIsoTime(time),
      payload: copyObject(payload, `emit(${type}): payload`),
    };
    if (options.meta !== undefined) event.meta = copyObject(options.meta, `emit(${type}): meta`);
    return event;
  };

  const flush = async () => {
    drain();
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

/** A JSON copy of a caller's object: what is dispatched and recorded is plain JSON [P3]. */
function copyObject(value: JsonObject, what: string): JsonObject {
  const copy = toJson(value);
  if (!isJsonObject(copy)) throw new TypeError(`${what} must be a JSON object (no cycles)`);
  return copy;
}
