import type { StepOutcome, StepQuery } from '../../../engine/app.ts';

/**
 * The timeline's filters as data, and their translation to the engine's step queries [R11]. Which steps
 * match is always the engine's answer (`filterHits` [R20]); this file only says what to ask.
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

/** Every engine query the filter needs; the engine keeps the steps all of them match and the text is in [R20]. */
export function filterQueries(f: TimelineFilter): StepQuery[] {
  const out: StepQuery[] = [];
  if (f.type !== null) out.push({ kind: 'event_type', type: f.type });
  if (f.decision !== null) out.push(decisionQuery(f.decision));
  if (f.handler !== null) out.push({ kind: 'fired', handler_id: f.handler });
  return out;
}
