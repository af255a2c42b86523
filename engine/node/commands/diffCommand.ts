// `hookwire diff <a.json> <b.json> <trace>`: the events on which two pipelines decide differently.
import { jsonEqual } from '../../model/json.ts';
import { decideTrace, type DecisionRow } from '../../runtime/decideTrace.ts';
import type { TraceFormat } from '../../trace/detectTraceFormat.ts';
import { cell, EXIT, table, type Io } from '../cliIo.ts';
import { compilePipelineFile } from '../loadPipelineFile.ts';
import { loadTraceForCli } from '../loadTraceForCli.ts';
import { plural } from './validateCommand.ts';

export interface DiffOptions {
  json?: boolean;
  from?: TraceFormat;
}

const side = (r: DecisionRow) => ({ decision: r.decision, reason: r.reason, decided_by: r.decided_by, payload: r.payload });

/** What differs between two decisions of one event: decision, reason, payload (in that order). */
export function differences(a: DecisionRow, b: DecisionRow): string[] {
  const out: string[] = [];
  if (a.decision !== b.decision) out.push('decision');
  if (a.reason !== b.reason) out.push('reason');
  if (!jsonEqual(a.payload, b.payload)) out.push('payload');
  return out;
}

export async function diffCommand(aPath: string, bPath: string, tracePath: string, options: DiffOptions, io: Io): Promise<number> {
  const a = await compilePipelineFile(aPath);
  try {
    const b = await compilePipelineFile(bPath);
    try {
      const { trace } = await loadTraceForCli(tracePath, io, options.from);
      const rowsB = [...decideTrace(b.compiled, trace.events)];
      const rows: string[][] = [];
      let n = 0;
      let i = 0;
      for (const ra of decideTrace(a.compiled, trace.events)) {
        const rb = rowsB[i++]!;
        const what = differences(ra, rb);
        if (what.length === 0) continue;
        n++;
        if (options.json) io.out(`${JSON.stringify({ event_id: ra.event_id, type: ra.type, differs: what, a: side(ra), b: side(rb) })}\n`);
        else rows.push([String(i), cell(ra.event_id, 36), cell(ra.type, 24), what.join('+'), `${ra.decision} (${cell(ra.decided_by ?? '-', 20)})`, `${rb.decision} (${cell(rb.decided_by ?? '-', 20)})`]);
      }
      if (!options.json) {
        if (rows.length > 0) io.out(table(['#', 'event', 'type', 'differs', `a: ${cell(aPath, 30)}`, `b: ${cell(bPath, 30)}`], rows));
        io.out(`${rows.length > 0 ? '\n' : ''}${plural(n, 'event')} of ${trace.events.length} decided differently\n`);
      }
      return n === 0 ? EXIT.ok : EXIT.failed;
    } finally {
      b.dispose();
    }
  } finally {
    a.dispose();
  }
}
