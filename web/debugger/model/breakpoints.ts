import { describeCondition, EVERY_HIT, type BreakpointSpec as EngineBreakpoint, type HitCount, type JsonObject } from '../../../engine/app.ts';
import type { Pipeline } from '../../../engine/app.ts';
import { nodeName } from '../../model/nodeName.ts';
import { DECISION_FILTERS, decisionQuery, type DecisionFilter } from './timelineFilter.ts';

/**
 * Breakpoints stop playback and "next breakpoint": on an event type, a handler that fires, blocks or
 * rewrites, a matcher the event passes, a decision, or only a condition over the event; each may add a
 * condition and a hit count. Which steps they stop at is the engine's answer [R18] (`compileBreakpoint`,
 * `Replayer.breakpointSteps`); this file says what to ask and how to name it.
 */
export type HandlerTrigger = 'fires' | 'blocks' | 'rewrites';

interface Common {
  id: string;
  /** A disabled breakpoint stays in the list and stops nothing (default: enabled). */
  enabled?: boolean;
  /** A condition [C1]-[C9] over the event as recorded and the state before the step. */
  when?: JsonObject;
  /** Which hits stop (default: every one). */
  hits?: HitCount;
}

export type Breakpoint = Common & (
  | { kind: 'event_type'; type: string }
  /** `on` defaults to `fires`. */
  | { kind: 'handler'; handler_id: string; on?: HandlerTrigger }
  | { kind: 'matcher'; matcher_id: string }
  | { kind: 'decision'; decision: DecisionFilter }
  /** Only the condition. */
  | { kind: 'condition' }
);

type Distribute<B> = B extends Breakpoint ? Omit<B, 'id'> : never;
export type BreakpointSpec = Distribute<Breakpoint>;

export const HANDLER_TRIGGER_LABEL: Readonly<Record<HandlerTrigger, string>> = { fires: 'fires', blocks: 'blocks', rewrites: 'rewrites the event' };

export const isEnabled = (b: Breakpoint): boolean => b.enabled !== false;

/** What the engine searches for [R18]. */
export function engineBreakpoint(b: Breakpoint | BreakpointSpec): EngineBreakpoint {
  const out: EngineBreakpoint = {};
  if (b.kind === 'event_type') out.step = { kind: 'event_type', type: b.type };
  if (b.kind === 'decision') out.step = decisionQuery(b.decision);
  if (b.kind === 'handler') out.node = { id: b.handler_id, on: b.on ?? 'fires' };
  if (b.kind === 'matcher') out.node = { id: b.matcher_id, on: 'matches' };
  if (b.when) out.when = b.when;
  if (b.hits) out.hits = b.hits;
  return out;
}

let made = 0;

/** The node a breakpoint is on (a handler's or a matcher's), or null: its dot on the canvas. */
export function breakpointNode(b: Breakpoint | BreakpointSpec): string | null {
  return b.kind === 'handler' ? b.handler_id : b.kind === 'matcher' ? b.matcher_id : null;
}

/** What stops, as a form edits it: the kind, its value (a decision, a node id, an event type) and a handler's `on`. */
export interface TriggerChoice {
  kind: Breakpoint['kind'];
  value: string;
  on: HandlerTrigger;
}

/** A breakpoint's trigger as the form's fields. */
export function triggerChoice(b: Breakpoint | BreakpointSpec): TriggerChoice {
  const value = b.kind === 'event_type' ? b.type : b.kind === 'decision' ? b.decision : breakpointNode(b) ?? '';
  return { kind: b.kind, value, on: b.kind === 'handler' ? b.on ?? 'fires' : 'fires' };
}

/** The trigger the fields say (no condition, no hit count), or null when a kind that needs a value has none. */
export function triggerSpec(t: TriggerChoice): BreakpointSpec | null {
  if (t.kind === 'condition') return { kind: 'condition' };
  if (t.value === '') return null;
  if (t.kind === 'decision') return DECISION_FILTERS.some((d) => d.value === t.value) ? { kind: 'decision', decision: t.value as DecisionFilter } : null;
  if (t.kind === 'handler') return { kind: 'handler', handler_id: t.value, ...(t.on !== 'fires' ? { on: t.on } : {}) };
  if (t.kind === 'matcher') return { kind: 'matcher', matcher_id: t.value };
  return { kind: 'event_type', type: t.value };
}

/** A stable id, so the same trigger is not added twice (a condition alone is always a new one). */
export function breakpointId(b: BreakpointSpec): string {
  if (b.kind === 'event_type') return `type:${b.type}`;
  if (b.kind === 'handler') return b.on && b.on !== 'fires' ? `handler:${b.handler_id}:${b.on}` : `handler:${b.handler_id}`;
  if (b.kind === 'matcher') return `matcher:${b.matcher_id}`;
  if (b.kind === 'decision') return `decision:${b.decision}`;
  return `condition:${Date.now().toString(36)}.${(made++).toString(36)}`;
}

/** The trigger in words: "Event type tool.before_call", "“Redact secrets” fires", "Decision: Blocked (…)". */
export function triggerLabel(b: Breakpoint | BreakpointSpec, nodeName: (id: string) => string | undefined): string {
  if (b.kind === 'event_type') return `Event type ${b.type}`;
  if (b.kind === 'handler') return `“${nodeName(b.handler_id) ?? b.handler_id}” ${HANDLER_TRIGGER_LABEL[b.on ?? 'fires']}`;
  if (b.kind === 'matcher') return `“${nodeName(b.matcher_id) ?? b.matcher_id}” matches`;
  if (b.kind === 'decision') return `Decision: ${DECISION_FILTERS.find((d) => d.value === b.decision)?.label ?? b.decision}`;
  return 'Condition';
}

/** "the 3rd hit", "from the 3rd hit", "every 3rd hit"; null for every hit. */
export function hitsLabel(h: HitCount | undefined): string | null {
  if (!h || (h.mode === 'from' && h.count === 1)) return null;
  const nth = ordinal(h.count);
  if (h.mode === 'at') return `the ${nth} hit only`;
  if (h.mode === 'from') return `from the ${nth} hit`;
  return h.count === 1 ? 'every hit' : `every ${nth} hit`;
}

/** The whole breakpoint in one line: trigger, condition, hit count. */
export function breakpointLabel(b: Breakpoint | BreakpointSpec, nodeName: (id: string) => string | undefined): string {
  const parts = [b.kind === 'condition' && b.when ? `When ${describeCondition(b.when, 80)}` : triggerLabel(b, nodeName)];
  if (b.kind !== 'condition' && b.when) parts.push(`when ${describeCondition(b.when, 80)}`);
  const hits = hitsLabel(b.hits);
  if (hits) parts.push(`(${hits})`);
  return parts.join(' ');
}

export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** Names nodes as the canvas does (a handler's name, a matcher's label), for the labels above. */
export function nodeNamer(doc: Pipeline | null): (id: string) => string | undefined {
  return (id) => {
    const n = doc?.nodes.find((x) => x.id === id);
    return n ? nodeName(n) : undefined;
  };
}

export { EVERY_HIT };
