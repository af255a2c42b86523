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
 * The `replay --json` line of one step [P10]: `JSON.stringify(decisionRow(step))` and a newline, written member by
 * member without the row object (one per event of a long replay); test/engine/runtime/decisionLine.test.ts holds
 * the two equal. Takes a whole step or the lean core of one (`ReplayRun.decide`), which have these fields alike.
 *
 * @example decisionLine(step) // '{"event_id":"e1","type":"tool.before_call","decision":"continue","reason":"","decided_by":null,"payload":{}}\n'
 */
export function decisionLine(step: Pick<ReplayStep, 'event' | 'decision' | 'reason' | 'decided_by' | 'payload_after'>): string {
  const by = step.decided_by === null ? 'null' : JSON.stringify(step.decided_by);
  return `{"event_id":${JSON.stringify(step.event.event_id)},"type":${JSON.stringify(step.event.type)},"decision":"${step.decision}","reason":${JSON.stringify(step.reason)},"decided_by":${by},"payload":${JSON.stringify(step.payload_after)}}\n`;
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
