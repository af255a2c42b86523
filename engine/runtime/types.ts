import type { JsonLimitBreach } from '../model/jsonLimits.ts';
import type { Decision } from '../model/decision.ts';
import type { Approval } from '../model/approval.ts';
import type { JsonObject } from '../model/json.ts';
import type { Problem } from '../model/problem.ts';
import type { AuditRecord, RawLogRecord } from '../dispatch/records.ts';
import type { HandlerError } from '../dispatch/types.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { TraceHeader } from '../trace/traceTypes.ts';
import type { Scheduler, Sink, SinkFailure, SinkQueue } from './sinkQueue.ts';
import type { RuntimeTelemetry } from './telemetry.ts';

/** The result of an async event, handed to the `async` sink once it has been dispatched [P4]. */
export interface AsyncEventRecord {
  trace_id: string;
  event_id: string;
  event_type: string;
  /** The payload after rewrites (an audit handler may log a redacted copy [D7]). */
  payload: JsonObject;
  errors: HandlerError[];
  audit: JsonObject[];
}

/** Where records go [P5]. Every sink is optional; none is called during `emit`. */
export interface RuntimeSinks {
  /** One record per event, matched or not [E6]. */
  raw?: Sink<RawLogRecord>;
  /** One record per decision of a sync event, with the seed's fields [E6]. */
  audit?: Sink<AuditRecord>;
  /** Records written by audit handlers [H5]. */
  handlerAudit?: Sink<JsonObject>;
  /** Every handler error, of sync and async events alike [E1][E2]. */
  errors?: Sink<HandlerError>;
  /** The result of each async event once dispatched [P4]. */
  async?: Sink<AsyncEventRecord>;
}

/** What the approver is asked [P14]: the event, the payload as the handlers left it, and the ASK's reason. */
export interface ApprovalRequest {
  trace_id: string;
  event_id: string;
  event_type: string;
  /** The payload after every enforced rewrite: what will run if the person allows it. */
  payload: JsonObject;
  /** The reason of the handler that asked (its `reason` template filled in). */
  reason: string;
  /** The handler that asked. */
  decided_by: string | null;
  /** Texts for the model the handlers added [H11]. */
  context: string[];
}

/** An approver's answer: `"allow"`, `"deny"`, or either with a reason. Anything else denies [P14]. */
export type ApproverAnswer = 'allow' | 'deny' | { answer: 'allow' | 'deny'; reason?: string; who?: string; edit?: JsonObject };

/** Asks a person [P14]. Sync or async; a throw, a rejection, a timeout or an answer that is not one denies. */
export type Approver = (request: ApprovalRequest) => ApproverAnswer | PromiseLike<ApproverAnswer>;

/** Timers for the approval timeout, injected so the runtime stays pure (loadRuntime passes Node's). */
export interface RuntimeTimers {
  set(ms: number, run: () => void): unknown;
  clear(handle: unknown): void;
}

export interface RuntimeOptions {
  /** Answers ASK decisions [P14]; without one every ASK is denied (fail closed). A trace or an emit may bring its own. */
  approver?: Approver;
  /** How long an asynchronous approver may take before the ASK is denied (default 300 000 ms; needs `timers`). */
  approvalTimeoutMs?: number;
  /** Timers for `approvalTimeoutMs`; without them an asynchronous approver is awaited without a time limit. */
  timers?: RuntimeTimers;
  /** Runs code handlers and code matchers; a pipeline with code is refused without one (`no_sandbox`). */
  sandbox?: Sandbox | null;
  /** Milliseconds since the epoch. Default `Date.now`. Each event is stamped and dispatched at this time [P3]. */
  clock?: { now(): number };
  /** Makes trace ids. Default: `trace-<time>-<n>`. */
  newTraceId?: () => string;
  /** agent_id of traces that do not name one. Default `"agent"`. */
  agentId?: string;
  sinks?: RuntimeSinks;
  /** Opens the recording of a trace [P7]: returns the sink its JSONL lines go to, or null to not record it. */
  record?: (header: TraceHeader) => Sink<string> | null;
  /** How deferred work is scheduled (sink deliveries, async dispatch). Default: a microtask. */
  schedule?: Scheduler;
  /** Records queued per sink before new ones are dropped (default 10 000) [P5]. */
  maxPending?: number;
  /** Told when a sink throws, rejects or drops a record. Decisions are never affected [P5]. */
  onSinkError?: (failure: SinkFailure) => void;
  /**
   * The version of the pipeline file, `sha256:<16 hex>` of its text (`pipelineVersionOf` in
   * engine/trace/pipelineVersion.ts): each recorded decision names it, so `hookwire replay` checks the decisions
   * of its own version by default [R17]. `loadRuntime` passes its file's. Absent: recordings name none.
   */
  pipelineVersion?: string;
  /** OpenTelemetry: one span per dispatched event, on the tracer given here [O1]. Absent: no spans, no OTel code. */
  telemetry?: RuntimeTelemetry;
}

/** What `emit` returns [P3]: the seed's readable answer plus what a caller may want to log. */
export interface EmitResult {
  decision: Decision;
  /** True when the action must not run: BLOCK_ACTION or TERMINATE on a sync event. */
  blocked: boolean;
  reason: string;
  /** The payload after every enforced rewrite. */
  payload: JsonObject;
  trace_id: string;
  event_id: string;
  decided_by: string | null;
  errors: HandlerError[];
  /** This event id was dispatched before in the trace: the recorded result, no handler ran again [E5]. */
  duplicate: boolean;
  /** An async event: queued, dispatched later, observe only [P4]. */
  queued: boolean;
  /** For an ASK: the answer and where it came from [P14]; `blocked` follows it. Null for every other decision. */
  approval: Approval | null;
  /** Texts for the model the handlers added, in order [H11]. */
  context: string[];
  /** The final payload differs (as JSON) from the payload as emitted: an enforced rewrite changed it [P3]. */
  rewritten: boolean;
  /**
   * Approved with an edit [AP2]: this is the result of the edited call, dispatched as its own event
   * (`<event_id>:edit`), and `edit_of` is the id of the call the approver was shown.
   */
  edit_of?: string;
  /**
   * Only on input refused before dispatch: the payload or meta passed a JSON limit [V9][V12] (`too_deep`,
   * `too_large`, with the limit and the path). The answer fails closed: BLOCK_ACTION, blocked on a sync event.
   */
  problem?: JsonLimitBreach;
}

export interface EmitOptions {
  /** Default `<trace_id>:<n>`. Reusing an id returns the first result [E5]. */
  event_id?: string;
  /** ISO 8601 time of the event; default: the clock's now. The event is dispatched at this time. */
  ts?: string;
  meta?: JsonObject;
  /** The approver for this event, instead of the trace's or the runtime's [P14]. */
  approver?: Approver;
}

export interface StartTraceOptions {
  /** The approver of this trace's ASKs, instead of the runtime's [P14]. */
  approver?: Approver;
  trace_id?: string;
  agent_id?: string;
  /** Initial trace state (`state.*` paths). */
  state?: JsonObject;
  /** Extra header fields for the recording (title, source details). */
  title?: string;
  source?: JsonObject;
  /** Record this trace to this sink instead of asking `RuntimeOptions.record`; `null`: do not record it. */
  record?: Sink<string> | null;
}

/** The readable answer when a guarded action is blocked [P6]: status, reason, trace id. */
export interface BlockedResult {
  status: 'blocked';
  /** Blocked before the action ran, or after (it ran; its result is withheld). */
  stage: 'before' | 'after';
  decision: 'block_action' | 'terminate' | 'ask';
  reason: string;
  /** For a denied ASK: the answer, with the approver's reason [P14]. */
  approval?: Approval;
  trace_id: string;
  event_id: string;
  decided_by: string | null;
  /** One line for a person or a model: "Blocked by Hookwire: <reason> (trace t1, event e4)". */
  message: string;
}

export interface AllowedResult<R> {
  status: 'ok';
  /** The action's result, or what the after event's handlers rewrote it to. */
  value: R;
  rewritten: boolean;
  before: EmitResult;
  after: EmitResult;
}

export type GuardResult<R> = AllowedResult<R> | BlockedResult;

/** A guarded action between a before and an after event [P6]. */
export interface GuardSpec<R> {
  before: { type: string; payload: JsonObject };
  after: {
    type: string;
    /** The after event's payload from the action's result and the before payload as the handlers left it. */
    payload: (result: R, before: JsonObject) => JsonObject;
    /** The after event's payload when the action throws (the error is rethrown afterwards). */
    error: (error: unknown, before: JsonObject) => JsonObject;
    /** Reads the (possibly rewritten) result back from the after payload. */
    value: (after: JsonObject, result: R) => R;
  };
  /** The action, given the before payload as rewritten by the handlers. */
  run: (payload: JsonObject) => R | PromiseLike<R>;
  /** Base event id; the events get `<id>:before` and `<id>:after`. */
  event_id?: string;
  meta?: JsonObject;
  /** The approver for the guard's events, instead of the trace's or the runtime's [P14]. */
  approver?: Approver;
  /**
   * The before event's result when the caller dispatched it already (an adapter that decides at a framework's
   * approval hook, before the framework runs the action) [P6]: it is not emitted again.
   */
  dispatched?: EmitResult | PromiseLike<EmitResult>;
}

export interface RuntimeTrace {
  readonly trace_id: string;
  readonly agent_id: string;
  /** The TERMINATE result once the trace was terminated [D4][P8]. */
  readonly terminated: EmitResult | null;
  /** The trace's state variables (`state.*`), after any queued async events (reading it dispatches them). */
  readonly state: JsonObject;
  /**
   * Dispatches one event and returns at once [P3]. An ASK is answered by a synchronous approver; an approver
   * that returns a promise cannot be waited for here, so the ASK is denied (`async_in_sync_emit`): use
   * `emitAsync` or `guard` with asynchronous approvers.
   */
  emit(type: string, payload: JsonObject, options?: EmitOptions): EmitResult;
  /** `emit` that waits for an asynchronous approver (with the approval timeout) [P14]. */
  emitAsync(type: string, payload: JsonObject, options?: EmitOptions): Promise<EmitResult>;
  guard<R>(spec: GuardSpec<R>): Promise<GuardResult<R>>;
  /**
   * `guard` with the canonical tool payloads: tool.before_call → run(tool_input) → tool.after_call. The events'
   * base id is `event_id`, else `tool_use_id` (an adapter whose framework repeats call ids gives each call its own).
   */
  guardTool<R>(tool_name: string, tool_input: JsonObject, run: (input: JsonObject) => R | PromiseLike<R>, options?: { tool_use_id?: string; event_id?: string; meta?: JsonObject; approver?: Approver; dispatched?: EmitResult | PromiseLike<EmitResult> }): Promise<GuardResult<R>>;
  /** Emits `agent.end` with the payload, waits for every queued event and record of the trace, and releases it from the runtime. */
  end(payload?: JsonObject): Promise<void>;
  /** Dispatches queued async events now and waits for the trace's records to be delivered. */
  flush(): Promise<void>;
}

export interface Runtime {
  /** The pipeline's name. */
  readonly name: string;
  /** Warnings found when loading (never errors: a pipeline with errors is refused). */
  readonly warnings: readonly Problem[];
  startTrace(options?: StartTraceOptions): RuntimeTrace;
  /** Waits until every trace's queued events are dispatched and every sink has its records. */
  flush(): Promise<void>;
  stats(): { traces: number; pending: number; dropped: number; sinkFailures: number };
}

export type RuntimeLoad = { ok: true; runtime: Runtime } | { ok: false; problems: Problem[] };

/** The runtime-wide queues, one per configured sink. */
export interface RuntimeQueues {
  raw: SinkQueue<RawLogRecord> | null;
  audit: SinkQueue<AuditRecord> | null;
  handlerAudit: SinkQueue<JsonObject> | null;
  errors: SinkQueue<HandlerError> | null;
  async: SinkQueue<AsyncEventRecord> | null;
}
