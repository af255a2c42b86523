// The decision a person (or a golden test file) expects of an event, written in its `meta.expect` [P11][B7]:
// `{"decision": "block_action", "note": "never delete the build cache"}`. One reading and one check, used by
// `hookwire test` (runtime/goldenTest.ts) and by a backtest's labels (backtest.ts), so a label the app writes is
// a golden test as it stands.
import { z } from 'zod';
import { APPROVAL_ANSWERS, type ApprovalAnswer } from '../model/approval.ts';
import { DECISIONS, type Decision } from '../model/decision.ts';
import { isJsonObject, jsonEqual, ownGet, type JsonObject } from '../model/json.ts';
import { sameType, type Same } from '../model/sameType.ts';
import { formatIssues } from '../trace/formatIssues.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';
import type { ReplayStep } from './types.ts';
import { withoutExpect } from './withoutExpectation.ts';

/**
 * The expectation of one event. Unknown fields are refused (a typo must not turn a check into no check).
 */
export interface Expectation {
  decision: Decision;
  /** The exact reason. */
  reason?: string;
  /** A part the reason must contain. */
  reason_includes?: string;
  /** Id of the handler whose decision won (null: none). */
  decided_by?: string | null;
  /** The whole payload after rewrites. */
  payload?: JsonObject;
  /** For an ASK: the answer replay gives (the recorded one, else deny). */
  approval?: ApprovalAnswer;
  /** The texts for the model, in order. */
  context?: string[];
  /** Why, for people (a label's note); never checked. */
  note?: string;
}

const ExpectationSchema = z.strictObject({
  decision: z.enum(DECISIONS as [Decision, ...Decision[]]),
  reason: z.string().optional(),
  reason_includes: z.string().optional(),
  decided_by: z.string().nullable().optional(),
  payload: z.custom<JsonObject>(isJsonObject, { message: 'expected a JSON object' }).optional(),
  approval: z.enum(APPROVAL_ANSWERS as [ApprovalAnswer, ...ApprovalAnswer[]]).optional(),
  context: z.array(z.string()).optional(),
  note: z.string().optional(),
});
sameType<Same<Expectation, z.infer<typeof ExpectationSchema>>>();

/** An event's `meta.expect`: none, one that reads, or why it does not. */
export type ReadExpectation = { kind: 'none' } | { kind: 'ok'; expectation: Expectation } | { kind: 'bad'; message: string };

/** Reads an event's `meta.expect`. `readExpectation(e)` → `{kind: 'ok', expectation: {decision: 'block_action'}}` */
export function readExpectation(event: TraceEvent): ReadExpectation {
  const raw = event.meta ? ownGet(event.meta, 'expect') : undefined;
  if (raw === undefined) return { kind: 'none' };
  const parsed = ExpectationSchema.safeParse(raw);
  return parsed.success ? { kind: 'ok', expectation: parsed.data } : { kind: 'bad', message: `meta.expect: ${formatIssues(parsed.error.issues)}` };
}

export { withoutExpectation } from './withoutExpectation.ts';

/**
 * What of `x` the replayed step does not meet, one line each ("decision: expected block_action, got continue");
 * empty when it meets all.
 */
export function checkExpectation(x: Expectation, step: ReplayStep): string[] {
  const out: string[] = [];
  if (x.decision !== step.decision) out.push(`decision: expected ${x.decision}, got ${step.decision}`);
  if (x.reason !== undefined && x.reason !== step.reason) out.push(`reason: expected ${JSON.stringify(x.reason)}, got ${JSON.stringify(step.reason)}`);
  if (x.reason_includes !== undefined && !step.reason.includes(x.reason_includes)) {
    out.push(`reason: expected it to include ${JSON.stringify(x.reason_includes)}, got ${JSON.stringify(step.reason)}`);
  }
  if (x.decided_by !== undefined && x.decided_by !== step.decided_by) out.push(`decided_by: expected ${JSON.stringify(x.decided_by)}, got ${JSON.stringify(step.decided_by)}`);
  if (x.payload !== undefined && !jsonEqual(x.payload, step.payload_after)) out.push(`payload: expected ${JSON.stringify(x.payload)}, got ${JSON.stringify(step.payload_after)}`);
  if (x.approval !== undefined && x.approval !== step.approval?.answer) out.push(`approval: expected ${x.approval}, got ${step.approval ? `${step.approval.answer} (${step.approval.by})` : 'no ASK'}`);
  if (x.context !== undefined && !jsonEqual(x.context, [...step.context])) out.push(`context: expected ${JSON.stringify(x.context)}, got ${JSON.stringify(step.context)}`);
  return out;
}

/** Reads an expectation given as a value (a label the app writes), with the same schema as `meta.expect`. */
export function parseExpectation(raw: unknown): { ok: true; expectation: Expectation } | { ok: false; message: string } {
  const parsed = ExpectationSchema.safeParse(raw);
  return parsed.success ? { ok: true, expectation: parsed.data } : { ok: false, message: formatIssues(parsed.error.issues) };
}

/**
 * `event` labelled with `x` (its `meta.expect`) [B7], or with its label removed (`null`); the rest of `meta`
 * is kept, and a `meta` left empty is dropped. A label is written only if it reads back: an expectation the
 * schema refuses throws, so a label the app stores is a golden test `hookwire test` runs as it stands.
 * `withExpectation(e, {decision: 'block_action', note: 'never'}).meta.expect.decision === 'block_action'`
 */
export function withExpectation(event: TraceEvent, x: Expectation | null): TraceEvent {
  // Own entries only, copied as data: a payload's `__proto__` key stays a plain name.
  if (x === null) return withoutExpect(event);
  const rest = Object.entries(event.meta ?? {}).filter(([k]) => k !== 'expect');
  const read = parseExpectation(x);
  if (!read.ok) throw new Error(`not a label: ${read.message}`);
  return { ...event, meta: Object.fromEntries([...rest, ['expect', read.expectation as unknown as JsonObject]]) as JsonObject };
}

/** A replayed step's label as the debugger shows it [B7]: none, one that does not read (why), or the label and what the step does not meet (empty: met). */
export type StepLabel = { kind: 'none' } | { kind: 'bad'; message: string } | { kind: 'ok'; expectation: Expectation; failures: string[] };

/** The label of `step` checked on it, as `hookwire test` and a backtest check it. */
export function stepLabel(step: ReplayStep): StepLabel {
  const read = readExpectation(step.event);
  if (read.kind !== 'ok') return read;
  return { kind: 'ok', expectation: read.expectation, failures: checkExpectation(read.expectation, step) };
}
