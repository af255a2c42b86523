/**
 * The decisions, weakest first: the seed's four plus ASK ("a person must approve this action") [D9]. A
 * decision is never downgraded by a later one [D5]: the effective decision of an event is the strongest any
 * enforcing handler returned.
 */
export type Decision = 'continue' | 'stop_propagation' | 'ask' | 'block_action' | 'terminate';

export const DECISIONS: readonly Decision[] = ['continue', 'stop_propagation', 'ask', 'block_action', 'terminate'];

const RANK: Readonly<Record<Decision, number>> = { continue: 0, stop_propagation: 1, ask: 2, block_action: 3, terminate: 4 };

/** Precedence TERMINATE > BLOCK_ACTION > ASK > STOP_PROPAGATION > CONTINUE. `stronger('block_action', 'ask') === 'block_action'`. */
export function stronger(a: Decision, b: Decision): Decision {
  return RANK[b] > RANK[a] ? b : a;
}

export function decisionRank(d: Decision): number {
  return RANK[d];
}

export function isDecision(value: unknown): value is Decision {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(RANK, value);
}

/**
 * True when a handler's own decision stops the chain of handlers for this event [D2]-[D4][D9]: everything but
 * CONTINUE and ASK. ASK lets later handlers run so that a later block still wins before anyone is asked.
 */
export function endsChain(d: Decision): boolean {
  return d !== 'continue' && d !== 'ask';
}

/** True when the event's action must not run whatever anyone answers (BLOCK_ACTION, TERMINATE). */
export function blocksAction(d: Decision): boolean {
  return d === 'block_action' || d === 'terminate';
}
