import type { TraceEvent } from '../trace/traceTypes.ts';
import type { ReplayActivity } from './replayActivity.ts';
import { needsActivity, stepPredicate } from './stepQuery.ts';
import type { ReplayTimeline, StepQuery } from './types.ts';

// The debugger's timeline filter [R20]: which steps it keeps. One definition, searched a stretch at a time so a
// long search shows its progress and can stop between stretches; the app sends the filter and renders the steps.

/** What the timeline filter asks: every step search [R11] given, and a text to find in the payload. */
export interface StepFilter {
  queries: readonly StepQuery[];
  /** Found in the payload's JSON text, case-insensitively; blank: no text search. */
  text: string;
}

/** A filter ready to test steps. */
export interface CompiledStepFilter {
  readonly queries: readonly StepQuery[];
  /** The text, trimmed and lower-cased; null when there is none. */
  readonly needle: string | null;
  /** Which handlers ran is needed (a `fired` query: the explain pass's activity). */
  readonly readsActivity: boolean;
  /** The timeline is needed (any query). */
  readonly readsTimeline: boolean;
  /** The step's event is needed (a text). */
  readonly readsEvent: boolean;
}

/**
 * Compiles a filter; null when it keeps every step (no query, no text).
 * `compileStepFilter({ queries: [{ kind: 'blocked' }], text: ' Sk-Proj ' })` → needle `sk-proj`, reads the timeline and the events.
 */
export function compileStepFilter(f: StepFilter): CompiledStepFilter | null {
  const text = f.text.trim().toLowerCase();
  if (f.queries.length === 0 && text === '') return null;
  return {
    queries: f.queries,
    needle: text === '' ? null : text,
    readsActivity: f.queries.some(needsActivity),
    readsTimeline: f.queries.length > 0,
    readsEvent: text !== '',
  };
}

/** [R20] The payload's JSON text holds the needle (already trimmed and lower-cased). */
export function payloadHasText(event: TraceEvent, needle: string): boolean {
  return JSON.stringify(event.payload).toLowerCase().includes(needle);
}

/**
 * [R20] The steps of `[start, end)` the filter keeps, in order: the timeline (and activity) rule steps out first,
 * then the text is looked for in the events left. `t` (and `a`) must cover the range when the filter reads them.
 */
export function stepFilterHits(f: CompiledStepFilter, t: ReplayTimeline | null, a: ReplayActivity | null, start: number, end: number, event: (i: number) => TraceEvent): number[] {
  if (f.readsTimeline && !t) throw new Error('a filter with a step search needs the timeline');
  const tests = f.queries.map((q) => stepPredicate(t!, a, q));
  const out: number[] = [];
  for (let i = start; i < end; i++) {
    if (tests.every((test) => test(i)) && (f.needle === null || payloadHasText(event(i), f.needle))) out.push(i);
  }
  return out;
}
