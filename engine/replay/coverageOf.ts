import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import { HANDLER_STATUSES, type HandlerStatus } from '../dispatch/types.ts';
import type { ReplayActivity } from './replayActivity.ts';
import { STEP_FLAG, type ReplayTimeline } from './types.ts';

export interface HandlerCoverage {
  handler_id: string;
  name: string;
  /** Steps where it ran and returned a result (shadow runs included). */
  fired: number;
  /** Steps where it ran and failed. */
  errors: number;
  /** Steps whose decision it made. */
  decided: number;
  /** Steps per explanation status. */
  statuses: Record<HandlerStatus, number>;
}

export interface EventTypeCoverage {
  type: string;
  /** Steps of this type in the trace. */
  events: number;
  /** Enabled handlers with a path whose event node selects the type. */
  live_handlers: number;
}

/** Coverage of a pipeline over a trace [R13]. */
export interface TraceCoverage {
  steps: number;
  /** Steps where the pipeline ran (not duplicates, not after the run ended). */
  dispatched: number;
  duplicates: number;
  not_reached: number;
  /** Every handler, in execution order. */
  handlers: HandlerCoverage[];
  /** Ids of handlers that ran at least once (fired or failed). */
  fired: string[];
  /** Ids of handlers that never ran on this trace. */
  never_fired: string[];
  /** Event types in order of first appearance. */
  event_types: EventTypeCoverage[];
  /** Event types of the trace that no enabled handler listens to. */
  uncovered_types: string[];
}

/**
 * Coverage from a complete timeline and activity [R13]. Handler counts come from the explanations; which
 * handlers listen to a type comes from the compiled pipeline's own plan for that type.
 */
export function coverageOf(compiled: CompiledPipeline, t: ReplayTimeline, a: ReplayActivity): TraceCoverage {
  const width = HANDLER_STATUSES.length;
  const decided = new Int32Array(compiled.handlers.length);
  const perType = new Int32Array(t.types.length);
  let duplicates = 0;
  let notReached = 0;
  for (let i = 0; i < t.count; i++) {
    perType[t.type[i]!]!++;
    const f = t.flags[i]!;
    if (f & STEP_FLAG.duplicate) duplicates++;
    else if (f & STEP_FLAG.not_reached) notReached++;
    else if (t.decided_by[i]! >= 0) decided[t.decided_by[i]!]!++;
  }
  const handlers = compiled.handlers.map((h, r): HandlerCoverage => {
    const statuses = Object.fromEntries(HANDLER_STATUSES.map((s, k) => [s, a.status_counts[r * width + k]!])) as Record<HandlerStatus, number>;
    return { handler_id: h.id, name: h.name, fired: statuses.fired, errors: statuses.error, decided: decided[r]!, statuses };
  });
  const eventTypes = t.types.map((type, k) => ({ type, events: perType[k]!, live_handlers: compiled.plan(type).liveCount }));
  return {
    steps: t.count,
    dispatched: t.count - duplicates - notReached,
    duplicates,
    not_reached: notReached,
    handlers,
    fired: handlers.filter((h) => h.fired + h.errors > 0).map((h) => h.handler_id),
    never_fired: handlers.filter((h) => h.fired + h.errors === 0).map((h) => h.handler_id),
    event_types: eventTypes,
    uncovered_types: eventTypes.filter((e) => e.live_handlers === 0).map((e) => e.type),
  };
}
