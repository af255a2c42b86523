import type { HookEvent } from '../model/event.ts';
import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import { dispatch, initialState, type DispatchEnv } from './dispatch.ts';
import { explainEvent } from './explain.ts';
import { auditRecord, rawLogRecord, type AuditRecord, type RawLogRecord } from './records.ts';
import type { DispatchResult, DispatchState, Explanation } from './types.ts';

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
 * The stateful runner of one trace around the pure `dispatch` (the xstate actor beside `transition`):
 * carries state from event to event, remembers results by event id [E5], stops after TERMINATE [D4], and
 * hands raw-log and audit records to sinks [E6].
 */
export function createSession(compiled: CompiledPipeline, env: DispatchEnv, options: { state?: DispatchState; sinks?: SessionSinks } = {}): Session {
  let state = options.state ?? initialState();
  const seen = new Map<string, SessionResult>();
  let terminated: SessionResult | null = null;
  const sinks = options.sinks ?? {};

  const run = (event: HookEvent, explain: boolean): { result: SessionResult; explanation: Explanation | null } => {
    sinks.raw?.(rawLogRecord(event));
    const previous = seen.get(event.event_id);
    if (previous) return { result: { ...previous, duplicate: true }, explanation: null };
    if (terminated) {
      const result: SessionResult = { ...terminated, event_id: event.event_id, payload: event.payload, errors: [], audit: [], duplicate: false, after_terminate: true };
      return { result, explanation: null };
    }
    let base: DispatchResult;
    let explanation: Explanation | null = null;
    if (explain) ({ result: base, explanation } = explainEvent(compiled, event, state, env));
    else base = dispatch(compiled, event, state, env);
    state = base.state;
    const result: SessionResult = {
      ...base,
      trace_id: event.trace_id,
      event_id: event.event_id,
      blocked: base.mode === 'sync' && (base.decision === 'block_action' || base.decision === 'terminate'),
      duplicate: false,
      after_terminate: false,
    };
    seen.set(event.event_id, result);
    if (result.decision === 'terminate') terminated = result;
    if (base.mode === 'sync') sinks.audit?.(auditRecord(event, base, env.clock.now()));
    return { result, explanation };
  };

  return {
    get state() {
      return state;
    },
    get terminated() {
      return terminated;
    },
    dispatch: (event) => run(event, false).result,
    explain: (event) => run(event, true),
  };
}
