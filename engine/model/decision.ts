/**
 * The four decisions of the seed, weakest first. A decision is never downgraded by a later one [D5]:
 * the effective decision of an event is the strongest any enforcing handler returned.
 */
export type Decision = 'continue' | 'stop_propagation' | 'block_action' | 'terminate';

export const DECISIONS: readonly Decision[] = ['continue', 'stop_propagation', 'block_action', 'terminate'];

const RANK: Readonly<Record<Decision, number>> = { continue: 0, stop_propagation: 1, block_action: 2, terminate: 3 };

/** Precedence TERMINATE > BLOCK_ACTION > STOP_PROPAGATION > CONTINUE. `stronger('block_action', 'continue') === 'block_action'`. */
export function stronger(a: Decision, b: Decision): Decision {
  return RANK[b] > RANK[a] ? b : a;
}

export function decisionRank(d: Decision): number {
  return RANK[d];
}

export function isDecision(value: unknown): value is Decision {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(RANK, value);
}

/** True when the decision stops the chain of handlers for this event (everything but CONTINUE). */
export function endsChain(d: Decision): boolean {
  return d !== 'continue';
}

/** True when the event's action must not run. */
export function blocksAction(d: Decision): boolean {
  return d === 'block_action' || d === 'terminate';
}
