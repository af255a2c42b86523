import type { Decision } from '../model/decision.ts';
import type { JsonValue } from '../model/json.ts';
import type { StepOutcome } from './types.ts';

/**
 * Small wording helpers shared by replay's sentences (divergence, notes, diff summaries, "why didn't it
 * fire?"). Display only. Steps are numbered from 1 in sentences (the UI's numbering); indexes stay 0-based.
 */

/** `block_action` → `BLOCK_ACTION`, `not_reached` → `NOT REACHED`. */
export function decisionWord(d: StepOutcome): string {
  return d === 'not_reached' ? 'NOT REACHED' : d.toUpperCase();
}

/** Cuts text to `max` characters with an ellipsis. */
export function clip(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

/** A JSON value as short text (strings quoted), for sentences. */
export function valueText(value: JsonValue | undefined, max = 80): string {
  if (value === undefined) return 'missing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return clip(text, max);
}

/** 1-based step number for sentences. */
export function stepNo(index: number): string {
  return `step ${index + 1}`;
}

/** `“name”` for sentences, or the id when the name is unknown. */
export function quoteName(name: string | null | undefined, fallback = 'a handler'): string {
  return name ? `“${clip(name, 80)}”` : fallback;
}

/** `BLOCK_ACTION` with its reason, when there is one: `BLOCK_ACTION (“reason”)`. */
export function decisionWithReason(d: Decision, reason: string | undefined): string {
  return reason ? `${decisionWord(d)} (${clip(reason, 100)})` : decisionWord(d);
}
