// `hookwire replay <pipeline.json> <trace>`: the decision of every event, as a table or as JSON Lines [P10].
import type { Decision } from '../../model/decision.ts';
import { jsonEqual } from '../../model/json.ts';
import { decideTrace, type DecisionRow } from '../../runtime/decideTrace.ts';
import type { TraceFormat } from '../../trace/detectTraceFormat.ts';
import { cell, EXIT, table, type Io } from '../cliIo.ts';
import { compilePipelineFile } from '../loadPipelineFile.ts';
import { loadTraceForCli } from '../loadTraceForCli.ts';
import { plural } from './validateCommand.ts';

export interface ReplayOptions {
  json?: boolean;
  from?: TraceFormat;
}

/** The stable `--json` line [P10]: exactly these keys, in this order. */
export function decisionLine(r: DecisionRow): string {
  return `${JSON.stringify({ event_id: r.event_id, type: r.type, decision: r.decision, reason: r.reason, decided_by: r.decided_by, payload: r.payload })}\n`;
}

export async function replayCommand(pipelinePath: string, tracePath: string, options: ReplayOptions, io: Io): Promise<number> {
  const loaded = await compilePipelineFile(pipelinePath);
  try {
    const { trace } = await loadTraceForCli(tracePath, io, options.from);
    const rows: string[][] = [];
    const counts = new Map<Decision, number>();
    let differs = 0;
    let i = 0;
    for (const row of decideTrace(loaded.compiled, trace.events)) {
      const recorded = trace.events[i++]?.recorded;
      counts.set(row.decision, (counts.get(row.decision) ?? 0) + 1);
      const changed = recorded !== undefined && recorded.decision !== row.decision;
      if (changed) differs++;
      if (options.json) io.out(decisionLine(row));
      else {
        const mark = recorded === undefined ? '' : changed ? `≠ ${recorded.decision}` : '=';
        const rewritten = jsonEqual(row.payload, trace.events[i - 1]!.payload) ? '' : 'rewritten';
        rows.push([String(i), cell(row.event_id, 36), cell(row.type, 24), row.decision, cell(row.decided_by ?? '-', 24), rewritten, mark, cell(row.reason, 80)]);
      }
    }
    if (!options.json) {
      const hasRecorded = trace.events.some((e) => e.recorded !== undefined);
      const head = ['#', 'event', 'type', 'decision', 'decided by', 'payload', 'recorded', 'reason'];
      const keep = (r: string[]) => (hasRecorded ? r : r.filter((_, j) => j !== 6));
      io.out(table(keep(head), rows.map(keep)));
      const tally = [...counts].map(([d, n]) => `${n} ${d}`).join(', ');
      const recordedNote = hasRecorded ? `; ${plural(differs, 'decision')} differ from the recording` : '';
      io.out(`\n${plural(trace.events.length, 'event')}${tally ? `: ${tally}` : ''}${recordedNote}\n`);
    }
    return EXIT.ok;
  } finally {
    loaded.dispose();
  }
}
