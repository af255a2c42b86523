// Reading a trace argument of a CLI command: any importable format [I1], problems reported where they are.
import { stat } from 'node:fs/promises';
import type { TraceFormat } from '../trace/detectTraceFormat.ts';
import type { TraceProblem } from '../trace/traceProblem.ts';
import type { Trace } from '../trace/traceSchema.ts';
import { CliError, fileErrorText, type Io } from './cliIo.ts';
import { importTraceFile } from './readTraceFile.ts';

export interface LoadedTrace {
  trace: Trace;
  format: TraceFormat;
  /** Problems of a partial read (lines or records dropped) and warnings; already written to stderr. */
  problems: TraceProblem[];
}

/**
 * Reads a trace file in any format Hookwire imports. Nothing usable → CliError (exit 2) with the reasons;
 * a partial read → the problems go to stderr, prefixed with the file name, and the good events are used.
 */
export async function loadTraceForCli(path: string, io: Io, format?: TraceFormat): Promise<LoadedTrace> {
  try {
    const s = await stat(path);
    if (s.isDirectory()) throw new CliError(`cannot read trace ${path}: is a directory, not a file`);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read trace ${path}: ${fileErrorText(err)}`);
  }
  const outcome = await importTraceFile(path, format ? { format } : {});
  if (!outcome.trace || !outcome.format) {
    const why = outcome.problems.map((p) => `  ${p.message}`).join('\n') || '  nothing could be read';
    throw new CliError(`cannot read trace ${path}:\n${why}`);
  }
  for (const p of outcome.problems) io.err(`${path}: ${p.severity}: ${p.message}\n`);
  return { trace: outcome.trace, format: outcome.format, problems: outcome.problems };
}
