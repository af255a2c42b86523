import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import type { Decision } from '../model/decision.ts';
import type { JsonObject } from '../model/json.ts';
import { replaySteps, type StraightReplayOptions } from '../replay/replaySteps.ts';
import type { ReplayStep } from '../replay/types.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';

/** One event's decision as the CLI prints it: the stable `replay --json` record [P10]. */
export interface DecisionRow {
  event_id: string;
  type: string;
  decision: Decision;
  reason: string;
  decided_by: string | null;
  payload: JsonObject;
}

/** The stable record of one replay step [P10]: exactly these keys, in this order. */
export function decisionRow(step: ReplayStep): DecisionRow {
  return { event_id: step.event.event_id, type: step.event.type, decision: step.decision, reason: step.reason, decided_by: step.decided_by, payload: step.payload_after };
}

/**
 * The decision of every event of a trace, replayed in fast mode (engine/replay: state carried, clock = each
 * event's `ts`, repeats and events after a TERMINATE answered as the session answers) [P10].
 *
 * @example for (const row of decideTrace(compiled, trace.events)) console.log(row.event_id, row.decision);
 */
export function* decideTrace(compiled: CompiledPipeline, events: readonly TraceEvent[], options: StraightReplayOptions = {}): Generator<DecisionRow> {
  for (const step of replaySteps(compiled, events, { ...options, explain: false })) yield decisionRow(step);
}
