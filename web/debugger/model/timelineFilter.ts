import type { StepOutcome, StepQuery } from '../../../engine/app.ts';

/**
 * The timeline's filters as data, and their translation to the engine's step queries [R11]. Which steps
 * match is always the engine's answer (`Replayer.stepsWhere`); this file only says what to ask.
 */
export type DecisionFilter = StepOutcome | 'blocked' | 'divergent' | 'counterfactual' | 'error' | 'duplicate';

export const DECISION_FILTERS: readonly { value: DecisionFilter; label: string }[] = [
  { value: 'blocked', label: 'Blocked (block, terminate, denied ask)' },
  { value: 'ask', label: 'Ask (approval)' },
  { value: 'block_action', label: 'Block action' },
  { value: 'terminate', label: 'Terminate' },
  { value: 'stop_propagation', label: 'Stop propagation' },
  { value: 'continue', label: 'Continue' },
  { value: 'not_reached', label: 'Not reached (run ended)' },
  { value: 'divergent', label: 'Differs from the recording' },
  { value: 'counterfactual', label: 'Counterfactual' },
  { value: 'error', label: 'Handler error' },
  { value: 'duplicate', label: 'Repeated event id' },
];

export interface TimelineFilter {
  /** Event type, exact. */
  type: string | null;
  decision: DecisionFilter | null;
  /** Steps on which this handler ran (fired or failed). */
  handler: string | null;
  /** Case-insensitive text to find in payloads. */
  text: string;
}

export const NO_FILTER: TimelineFilter = { type: null, decision: null, handler: null, text: '' };

export function isFiltering(f: TimelineFilter): boolean {
  return f.type !== null || f.decision !== null || f.handler !== null || f.text.trim() !== '';
}

/** The engine query for a decision filter (also used by decision breakpoints). */
export function decisionQuery(d: DecisionFilter): StepQuery {
  switch (d) {
    case 'blocked':
    case 'divergent':
    case 'counterfactual':
    case 'error':
    case 'duplicate':
      return { kind: d };
    default:
      return { kind: 'outcome', outcome: d };
  }
}

/** Every engine query the filter needs; the steps shown are those all of them match (and the text search). */
export function filterQueries(f: TimelineFilter): StepQuery[] {
  const out: StepQuery[] = [];
  if (f.type !== null) out.push({ kind: 'event_type', type: f.type });
  if (f.decision !== null) out.push(decisionQuery(f.decision));
  if (f.handler !== null) out.push({ kind: 'fired', handler_id: f.handler });
  return out;
}

/** Indexes in both sorted lists. */
export function intersectSorted(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.slice(0, n);
}
