import { blocksAction } from '../model/decision.ts';
import type { HookEvent } from '../model/event.ts';
import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import type { DispatchEnv } from '../dispatch/dispatch.ts';
import { auditRecord, rawLogRecord, type AuditRecord, type RawLogRecord } from '../dispatch/records.ts';
import type { DispatchResult, DispatchState, Explanation, HandlerError } from '../dispatch/types.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';
import { createRepeatWindow } from './repeatWindow.ts';
import { createReplayContext, stepEvent, type EarlierResult } from './stepEvent.ts';

/** A result as a trace sees it: the dispatch result plus what the trace added [E5][D4]. */
export interface SessionResult extends DispatchResult {
  trace_id: string;
  event_id: string;
  /** True when the action must not run (BLOCK_ACTION or TERMINATE). */
  blocked: boolean;
  /** Set when this event_id was already dispatched: the recorded result, no handler ran again [E5]. */
  duplicate: boolean;
  /** Set when an earlier TERMINATE ended the trace: no handler ran [D4]. */
  after_terminate: boolean;
}

export interface SessionSinks {
  raw?: (record: RawLogRecord) => void;
  audit?: (record: AuditRecord) => void;
}

export interface Session {
  readonly state: DispatchState;
  readonly terminated: SessionResult | null;
  dispatch(event: HookEvent): SessionResult;
  explain(event: HookEvent): { result: SessionResult; explanation: Explanation | null };
}

/**
 * The stateful runner of one live trace: a loop over replay's pure `stepEvent`, so a session and a replay
 * of its recording apply one implementation of the trace rules — repeated event ids [E5][R5], nothing
 * dispatched after TERMINATE [D4][R4] — while the session carries the state, keeps the results of its latest
 * dispatches by event id (the repeat window), and hands raw-log and audit records to sinks [E6].
 */
export function createSession(compiled: CompiledPipeline, env: DispatchEnv, options: { state?: DispatchState; sinks?: SessionSinks } = {}): Session {
  const ctx = createReplayContext(compiled, {
    clock: () => env.clock.now(),
    ...(env.timer ? { timer: env.timer } : {}),
    ...(options.state ? { initialState: options.state } : {}),
  });
  let carry = ctx.initialCarry;
  let index = 0;
  // [E5] the results a repeated id is answered from: the latest REPEAT_WINDOW dispatches, so memory is flat.
  const seen = createRepeatWindow<EarlierResult>();
  let terminated: SessionResult | null = null;
  const sinks = options.sinks ?? {};

  const run = (event: HookEvent, explain: boolean): { result: SessionResult; explanation: Explanation | null } => {
    sinks.raw?.(rawLogRecord(event));
    const earlier = seen.get(event.event_id) ?? null;
    // A live event has no recorded decision: drop one a caller may have left on it.
    const live: TraceEvent = (event as TraceEvent).recorded === undefined ? event : { ...event, recorded: undefined };
    const out = stepEvent(ctx, carry, live, index, earlier, explain);
    const step = out.step;
    carry = out.carry;
    const result: SessionResult = {
      decision: step.decision,
      reason: step.reason,
      decided_by: step.decided_by,
      payload: step.payload_after,
      state: step.state_after,
      errors: step.errors as HandlerError[],
      audit: step.audit as DispatchResult['audit'],
      mode: step.mode,
      trace_id: event.trace_id,
      event_id: event.event_id,
      // Live: an ASK is answered by the runtime's approver after the session, so only BLOCK and TERMINATE block here.
      blocked: step.not_reached || (step.mode === 'sync' && blocksAction(step.decision)),
      context: step.context as string[],
      duplicate: step.duplicate,
      after_terminate: step.not_reached,
    };
    if (!step.duplicate && !step.not_reached) {
      seen.add(event.event_id, { index, decision: step.decision, reason: step.reason, decided_by: step.decided_by, payload: step.payload_after, mode: step.mode, approval: null, context: step.context });
      if (step.decision === 'terminate') terminated = result;
    }
    // [E6][P8] every decision of a sync event is audited, the TERMINATE answers after the run ended included
    // (the audit log must show each call that was refused); a repeated id made no new decision.
    if (!step.duplicate && step.mode === 'sync') sinks.audit?.(auditRecord(event, result, step.now));
    index++;
    return { result, explanation: out.explanation };
  };

  return {
    get state() {
      return carry.state;
    },
    get terminated() {
      return terminated;
    },
    dispatch: (event) => run(event, false).result,
    explain: (event) => run(event, true),
  };
}
