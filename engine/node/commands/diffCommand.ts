// `hookwire diff <a.json> <b.json> <trace>`: the events on which two pipelines decide differently, from
// engine/replay's pipeline diff (outcome, reason or final payload). Exit 1 when any event differs.
import { diffPipelines, type DiffSide } from '../../replay/diffPipelines.ts';
import type { TraceFormat } from '../../trace/detectTraceFormat.ts';
import { cell, EXIT, table, type Io } from '../cliIo.ts';
import { compilePipelineFile } from '../loadPipelineFile.ts';
import { isPartial, loadTraceForCli } from '../loadTraceForCli.ts';

export interface DiffOptions {
  json?: boolean;
  from?: TraceFormat;
}

const brief = (s: DiffSide) => `${s.outcome} (${cell(s.decided_by ?? '-', 20)})`;

export async function diffCommand(aPath: string, bPath: string, tracePath: string, options: DiffOptions, io: Io): Promise<number> {
  const a = await compilePipelineFile(aPath);
  try {
    const b = await compilePipelineFile(bPath);
    try {
      const read = await loadTraceForCli(tracePath, io, options.from);
      const trace = read.trace;
      const d = diffPipelines(a.compiled, b.compiled, trace.events);
      if (options.json) {
        for (const e of d.changed) io.out(`${JSON.stringify({ event_id: e.event_id, type: e.type, changes: e.changes, a: e.before, b: e.after })}\n`);
      } else {
        const rows = d.changed.map((e) => [String(e.index + 1), cell(e.event_id, 36), cell(e.type, 24), e.changes.join('+'), brief(e.before), brief(e.after)]);
        if (rows.length > 0) io.out(`${table(['#', 'event', 'type', 'changes', `a: ${cell(aPath, 30)}`, `b: ${cell(bPath, 30)}`], rows)}\n`);
        io.out(`${d.changed_count} of ${d.events} events differ${d.summary.length ? `:\n${d.summary.map((s) => `  ${s}`).join('\n')}` : ''}\n`);
      }
      return d.changed_count === 0 && !isPartial(read) ? EXIT.ok : EXIT.failed;
    } finally {
      b.dispose();
    }
  } finally {
    a.dispose();
  }
}
