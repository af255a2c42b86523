// `hookwire import <file> [--from <format>] [-o <out>]`: any supported recording → trace v1 JSON Lines [I1].
import { createWriteStream } from 'node:fs';
import type { TraceFormat } from '../../trace/detectTraceFormat.ts';
import { TRACE_FORMAT_LABELS } from '../../trace/detectTraceFormat.ts';
import { traceEventLine, traceHeaderLine } from '../../trace/traceToJsonl.ts';
import type { Trace } from '../../trace/traceTypes.ts';
import { bufferedIo, CliError, EXIT, fileErrorText, type Io } from '../cliIo.ts';
import { loadTraceForCli } from '../loadTraceForCli.ts';
import { plural } from './validateCommand.ts';

export interface ImportOptions {
  from?: TraceFormat;
  output?: string;
}

/**
 * Writes the trace to stdout or a file. Exit 0 when everything was read, 1 when some lines or records were
 * dropped (the rest is written, the problems are on stderr), 2 when nothing could be imported.
 */
export async function importCommand(path: string, options: ImportOptions, io: Io): Promise<number> {
  const { trace, format, problems } = await loadTraceForCli(path, io, options.from);
  if (options.output) await writeTraceFile(options.output, trace);
  else {
    // One write per 64 Ki characters, not one per event line.
    const out = bufferedIo(io);
    out.out(traceHeaderLine(trace.header));
    for (const e of trace.events) out.out(traceEventLine(e, trace.header));
    out.flush();
  }
  const errors = problems.filter((p) => p.severity === 'error').length;
  const where = options.output ? ` to ${options.output}` : '';
  io.err(`imported ${TRACE_FORMAT_LABELS[format]}: ${plural(trace.events.length, 'event')}${where}${errors ? `; ${plural(errors, 'problem')} (see above)` : ''}\n`);
  return errors === 0 ? EXIT.ok : EXIT.failed;
}

async function writeTraceFile(path: string, trace: Trace): Promise<void> {
  const stream = createWriteStream(path, { encoding: 'utf8' });
  const done = new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', resolve);
  });
  try {
    stream.write(traceHeaderLine(trace.header));
    for (const e of trace.events) stream.write(traceEventLine(e, trace.header));
    stream.end();
    await done;
  } catch (err) {
    throw new CliError(`cannot write ${path}: ${fileErrorText(err)}`);
  }
}
