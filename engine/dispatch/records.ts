import type { HookEvent } from '../model/event.ts';
import { ownGet, type JsonObject } from '../model/json.ts';
import type { Decision } from '../model/decision.ts';
import { requireIsoTime } from '../model/time.ts';
import type { DispatchResult, HandlerError } from './types.ts';

/** The raw log record every dispatched event leaves, matched or not [E6]. */
export interface RawLogRecord {
  trace_id: string;
  event_id: string;
  agent_id: string;
  event_type: string;
  ts: string;
  payload: JsonObject;
  meta?: JsonObject;
}

/** The audit record of a decision, with the seed's fields [E6]. */
export interface AuditRecord {
  trace_id: string;
  agent_id: string;
  user_id: string | null;
  event_type: string;
  tool_name: string | null;
  decision: Decision;
  reason: string;
  timestamp: string;
  event_id: string;
  decided_by: string | null;
}

/** `rawLogRecord(event)`: the event as received. */
export function rawLogRecord(event: HookEvent): RawLogRecord {
  return {
    trace_id: event.trace_id,
    event_id: event.event_id,
    agent_id: event.agent_id,
    event_type: event.type,
    ts: event.ts,
    payload: event.payload,
    ...(event.meta ? { meta: event.meta } : {}),
  };
}

/** `auditRecord(event, result, clock.now())`: who, what, which decision and why. */
export function auditRecord(event: HookEvent, result: DispatchResult, now: number): AuditRecord {
  const user = event.meta ? ownGet(event.meta, 'user_id') : undefined;
  const tool = ownGet(result.payload, 'tool_name') ?? ownGet(event.payload, 'tool_name');
  return {
    trace_id: event.trace_id,
    agent_id: event.agent_id,
    user_id: typeof user === 'string' ? user : null,
    event_type: event.type,
    tool_name: typeof tool === 'string' ? tool : null,
    decision: result.decision,
    reason: result.reason,
    timestamp: requireIsoTime(now),
    event_id: event.event_id,
    decided_by: result.decided_by,
  };
}

/**
 * The code nodes the wall-clock safety net stopped during a dispatch [S14] (a matcher's id when the code on a
 * handler's path failed, else the handler's), for the recording: replay reproduces their timeout.
 */
export function wallClockStopped(errors: readonly HandlerError[]): string[] | undefined {
  let out: string[] | undefined;
  for (const e of errors) {
    if (e.kind !== 'timeout') continue;
    const id = e.matcher_id ?? e.handler_id;
    if (!(out ??= []).includes(id)) out.push(id);
  }
  return out;
}
