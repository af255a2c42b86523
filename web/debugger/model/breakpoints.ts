import type { StepQuery } from '../../../engine/app.ts';
import { DECISION_FILTERS, decisionQuery, type DecisionFilter } from './timelineFilter.ts';

/**
 * Breakpoints stop playback: on an event type, on a handler firing, on a decision. Each is an engine step
 * query [R11]; the worker asks the replayer for the nearest step that matches any of them.
 */
export type Breakpoint =
  | { id: string; kind: 'event_type'; type: string }
  | { id: string; kind: 'handler'; handler_id: string }
  | { id: string; kind: 'decision'; decision: DecisionFilter };

export type BreakpointSpec = Breakpoint extends infer B ? (B extends Breakpoint ? Omit<B, 'id'> : never) : never;

export function breakpointQuery(b: Breakpoint | BreakpointSpec): StepQuery {
  if (b.kind === 'event_type') return { kind: 'event_type', type: b.type };
  if (b.kind === 'handler') return { kind: 'fired', handler_id: b.handler_id };
  return decisionQuery(b.decision);
}

/** A stable id, so the same breakpoint is not added twice. */
export function breakpointId(b: BreakpointSpec): string {
  if (b.kind === 'event_type') return `type:${b.type}`;
  if (b.kind === 'handler') return `handler:${b.handler_id}`;
  return `decision:${b.decision}`;
}

/** "Event type tool.before_call", "“Redact secrets” fires", "Decision: Blocked (block, terminate, denied ask)". */
export function breakpointLabel(b: Breakpoint | BreakpointSpec, handlerName: (id: string) => string | undefined): string {
  if (b.kind === 'event_type') return `Event type ${b.type}`;
  if (b.kind === 'handler') return `“${handlerName(b.handler_id) ?? b.handler_id}” fires`;
  return `Decision: ${DECISION_FILTERS.find((d) => d.value === b.decision)?.label ?? b.decision}`;
}

/** The nearest of several search results (-1 = none) in a direction. */
export function nearestHit(hits: readonly number[], direction: 'forward' | 'backward'): number {
  const found = hits.filter((h) => h >= 0);
  if (found.length === 0) return -1;
  return direction === 'forward' ? Math.min(...found) : Math.max(...found);
}
