import { OUTCOMES, STEP_FLAG, type ReplayTimeline, type StepQuery } from './types.ts';
import { ranAt, type ReplayActivity } from './replayActivity.ts';

const BLOCK = OUTCOMES.indexOf('block_action');
const TERMINATE = OUTCOMES.indexOf('terminate');
const ASK = OUTCOMES.indexOf('ask');

/** True when the query needs the explain pass (which handlers ran), not only the fast timeline. */
export function needsActivity(q: StepQuery): boolean {
  return q.kind === 'fired';
}

/**
 * A predicate over step indexes for one query [R11], reading only the timeline (and the activity for
 * `fired`). A handler id or event type the trace never has gives a predicate that is always false.
 */
export function stepPredicate(t: ReplayTimeline, a: ReplayActivity | null, q: StepQuery): (i: number) => boolean {
  switch (q.kind) {
    case 'blocked':
      // The pipeline blocked the action here: BLOCK_ACTION, TERMINATE or a denied ASK (not the steps after the run ended).
      return (i) => t.outcome[i] === BLOCK || t.outcome[i] === TERMINATE || (t.outcome[i] === ASK && (t.flags[i]! & STEP_FLAG.denied) !== 0);
    case 'outcome': {
      const code = OUTCOMES.indexOf(q.outcome);
      return (i) => t.outcome[i] === code;
    }
    case 'divergent':
      return flag(t, STEP_FLAG.divergent);
    case 'counterfactual':
      return flag(t, STEP_FLAG.counterfactual);
    case 'duplicate':
      return flag(t, STEP_FLAG.duplicate);
    case 'error':
      return flag(t, STEP_FLAG.error);
    case 'event_type': {
      const ti = t.types.indexOf(q.type);
      return (i) => ti >= 0 && t.type[i] === ti;
    }
    case 'decided_by': {
      const r = t.handler_ids.indexOf(q.handler_id);
      // Steps after the run ended and duplicates carry the handler of an earlier step, which decided there.
      const notHere = STEP_FLAG.not_reached | STEP_FLAG.duplicate;
      return (i) => r >= 0 && t.decided_by[i] === r && (t.flags[i]! & notHere) === 0;
    }
    case 'fired': {
      if (!a) throw new Error('the "fired" query needs the explain pass (activity)');
      const r = a.handler_ids.indexOf(q.handler_id);
      return (i) => r >= 0 && i < a.count && ranAt(a, i, r);
    }
    default: {
      const never: never = q;
      throw new Error(`unknown step query ${JSON.stringify(never)}`);
    }
  }
}

function flag(t: ReplayTimeline, bit: number): (i: number) => boolean {
  return (i) => (t.flags[i]! & bit) !== 0;
}
