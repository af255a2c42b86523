import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';
import { decisionRow, type DecisionRow } from './decideTrace.ts';
import { checkExpectation, readExpectation, type Expectation } from '../replay/expectation.ts';
import { replaySteps } from '../replay/replaySteps.ts';

export type { Expectation } from '../replay/expectation.ts';

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
 * Runs one annotated trace through a pipeline [P11]: every event is dispatched in order, without its
 * `meta.expect` (replay takes it off [R19]: handlers never see the answers), and each expectation is compared
 * with what the pipeline decided.
 */
export function runGoldenTrace(compiled: CompiledPipeline, events: readonly TraceEvent[]): GoldenResult {
  const problems: string[] = [];
  const expectations = events.map((e): Expectation | null => {
    const read = readExpectation(e);
    if (read.kind === 'bad') problems.push(`event ${e.event_id}: ${read.message}`);
    return read.kind === 'ok' ? read.expectation : null;
  });

  const checks: GoldenCheck[] = [];
  let unchecked = 0;
  let i = 0;
  for (const step of replaySteps(compiled, events, { explain: false })) {
    const expected = expectations[i++];
    if (!expected) {
      unchecked++;
      continue;
    }
    const row = decisionRow(step);
    const failures = checkExpectation(expected, step);
    checks.push({ event_id: row.event_id, type: row.type, pass: failures.length === 0, failures, actual: row });
  }
  return { checks, unchecked, problems };
}
