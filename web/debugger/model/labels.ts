import { type HandlerStatus, type ClauseOp, isJsonObject, ownGet, type JsonValue, type StepOutcome } from '../../../engine/app.ts';

/** Words and CSS classes for what the engine returns: decisions, outcomes, handler statuses, values. */
export const OUTCOME_LABEL: Record<StepOutcome, string> = {
  continue: 'Continue',
  stop_propagation: 'Stop',
  ask: 'Ask',
  block_action: 'Block',
  terminate: 'Terminate',
  not_reached: 'Not reached',
};

export const OUTCOME_LONG: Record<StepOutcome, string> = {
  continue: 'CONTINUE',
  stop_propagation: 'STOP_PROPAGATION',
  ask: 'ASK',
  block_action: 'BLOCK_ACTION',
  terminate: 'TERMINATE',
  not_reached: 'NOT REACHED',
};

export const STATUS_LABEL: Record<HandlerStatus, string> = {
  fired: 'Fired',
  not_matched: 'Not matched',
  wrong_event_type: 'Other event type',
  not_reached: 'Not reached',
  disabled: 'Disabled',
  breaker_open: 'Breaker open',
  error: 'Error',
};

/** Keyed by the engine's operator type: a new operator does not type-check until it has a label. */
export const OP_LABEL: Record<ClauseOp, string> = {
  eq: '=', ne: '≠', in: 'in', nin: 'not in', regex: 'matches', prefix: 'starts with', suffix: 'ends with',
  contains: 'contains', exists: 'exists', gt: '>', gte: '≥', lt: '<', lte: '≤',
};

/** A JSON value as one line of text (strings quoted); `missing` for an absent value. */
export function valueLine(value: JsonValue | undefined, max = 200): string {
  if (value === undefined) return 'missing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'undefined';
  } catch {
    text = String(value);
  }
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A JSON value pretty-printed for a block of text. */
export function valueBlock(value: JsonValue | undefined): string {
  if (value === undefined) return 'missing';
  return JSON.stringify(value, null, 2) ?? 'undefined';
}

/** 0-based index → "12" (people count steps from 1, as the engine's sentences do). */
/** A step's 1-based number, with the same thousands separators as the counts beside it ("12,040 / 25,932"). */
export const stepNumber = (index: number): string => (index + 1).toLocaleString('en');

/** A clause's expected value: a regular expression as `/pattern/flags`, anything else as JSON. */
export function expectedText(op: string, expected: JsonValue, max = 160): string {
  if (op === 'regex') {
    if (typeof expected === 'string') return `/${expected}/`;
    const pattern = isJsonObject(expected) ? ownGet(expected, 'pattern') : undefined;
    const flags = isJsonObject(expected) ? ownGet(expected, 'flags') : undefined;
    if (typeof pattern === 'string') return `/${pattern}/${typeof flags === 'string' ? flags : ''}`;
  }
  return valueLine(expected, max);
}
