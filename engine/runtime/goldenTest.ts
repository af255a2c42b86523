import { z } from 'zod';
import { sameType, type Same } from '../model/sameType.ts';
import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import { DECISIONS, type Decision } from '../model/decision.ts';
import { isJsonObject, jsonEqual, ownGet, type JsonObject } from '../model/json.ts';
import { formatIssues } from '../trace/formatIssues.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';
import { decisionRow, type DecisionRow } from './decideTrace.ts';
import { APPROVAL_ANSWERS, type ApprovalAnswer } from '../model/approval.ts';
import { replaySteps } from '../replay/replaySteps.ts';
import type { ReplayStep } from '../replay/types.ts';

/**
 * The expectation of a golden decision test [P11], written in an event line's `meta.expect`:
 * `{"decision": "block_action", "reason_includes": "rm -rf"}`. Unknown fields are refused (a typo must not
 * turn a check into no check).
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
}

const ExpectationSchema = z.strictObject({
  decision: z.enum(DECISIONS as [Decision, ...Decision[]]),
  reason: z.string().optional(),
  reason_includes: z.string().optional(),
  decided_by: z.string().nullable().optional(),
  payload: z.custom<JsonObject>(isJsonObject, { message: 'expected a JSON object' }).optional(),
  approval: z.enum(APPROVAL_ANSWERS as [ApprovalAnswer, ...ApprovalAnswer[]]).optional(),
  context: z.array(z.string()).optional(),
});
sameType<Same<Expectation, z.infer<typeof ExpectationSchema>>>();

export interface GoldenCheck {
  event_id: string;
  type: string;
  pass: boolean;
  /** One line per mismatch: "decision: expected block_action, got continue". */
  failures: string[];
  actual: DecisionRow;
}

export interface GoldenResult {
  checks: GoldenCheck[];
  /** Events dispatched without an expectation (they still carry state to the next event). */
  unchecked: number;
  /** Bad expectations (each fails the file): "event e3: meta.expect.decision: Invalid option …". */
  problems: string[];
}

/**
 * Runs one annotated trace through a pipeline [P11]: `meta.expect` is taken off every event before it is
 * dispatched (handlers never see the answers), every event is dispatched in order, and each expectation is
 * compared with what the pipeline decided.
 */
export function runGoldenTrace(compiled: CompiledPipeline, events: readonly TraceEvent[]): GoldenResult {
  const expectations: (Expectation | null)[] = [];
  const problems: string[] = [];
  const stripped = events.map((e) => {
    const meta = e.meta;
    const raw = meta ? ownGet(meta, 'expect') : undefined;
    if (!meta || raw === undefined) {
      expectations.push(null);
      return e;
    }
    const parsed = ExpectationSchema.safeParse(raw);
    if (parsed.success) expectations.push(parsed.data);
    else {
      expectations.push(null);
      problems.push(`event ${e.event_id}: meta.expect: ${formatIssues(parsed.error.issues)}`);
    }
    const { expect: _expect, ...rest } = meta;
    const { meta: _meta, ...event } = e;
    return Object.keys(rest).length > 0 ? { ...event, meta: rest } : event;
  });

  const checks: GoldenCheck[] = [];
  let unchecked = 0;
  let i = 0;
  for (const step of replaySteps(compiled, stripped, { explain: false })) {
    const expected = expectations[i++];
    if (!expected) {
      unchecked++;
      continue;
    }
    const row = decisionRow(step);
    const failures = compare(expected, row, step);
    checks.push({ event_id: row.event_id, type: row.type, pass: failures.length === 0, failures, actual: row });
  }
  return { checks, unchecked, problems };
}

function compare(x: Expectation, row: DecisionRow, step: ReplayStep): string[] {
  const out: string[] = [];
  if (x.decision !== row.decision) out.push(`decision: expected ${x.decision}, got ${row.decision}`);
  if (x.reason !== undefined && x.reason !== row.reason) out.push(`reason: expected ${JSON.stringify(x.reason)}, got ${JSON.stringify(row.reason)}`);
  if (x.reason_includes !== undefined && !row.reason.includes(x.reason_includes)) {
    out.push(`reason: expected it to include ${JSON.stringify(x.reason_includes)}, got ${JSON.stringify(row.reason)}`);
  }
  if (x.decided_by !== undefined && x.decided_by !== row.decided_by) out.push(`decided_by: expected ${JSON.stringify(x.decided_by)}, got ${JSON.stringify(row.decided_by)}`);
  if (x.payload !== undefined && !jsonEqual(x.payload, row.payload)) out.push(`payload: expected ${JSON.stringify(x.payload)}, got ${JSON.stringify(row.payload)}`);
  if (x.approval !== undefined && x.approval !== step.approval?.answer) out.push(`approval: expected ${x.approval}, got ${step.approval ? `${step.approval.answer} (${step.approval.by})` : 'no ASK'}`);
  if (x.context !== undefined && !jsonEqual(x.context, [...step.context])) out.push(`context: expected ${JSON.stringify(x.context)}, got ${JSON.stringify(step.context)}`);
  return out;
}
