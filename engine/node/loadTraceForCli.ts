// Reading a trace argument of a CLI command: any importable format [I1], problems reported where they are.
import { stat } from 'node:fs/promises';
import type { TraceFormat } from '../trace/detectTraceFormat.ts';
import type { TraceProblem } from '../trace/traceProblem.ts';
import type { Trace, TraceEvent, TraceHeader } from '../trace/traceTypes.ts';
import { CliError, fileErrorText, type Io } from './cliIo.ts';
import { importTraceFile } from './readTraceFile.ts';
import type { Spill } from './spillFile.ts';
import { splitSessionPath } from './sqliteSessions.ts';

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
  return readForCli(path, io, format, undefined);
}

/**
 * Like loadTraceForCli, but hands each event to `onEvent` as it is read (a trace v1 file is streamed, so
 * memory does not grow with the trace); the returned trace has no events. `spill` keeps the ids and the records
 * an importer holds to the end of a document in a temporary file.
 */
export async function streamTraceForCli(path: string, io: Io, format: TraceFormat | undefined, onEvent: (event: TraceEvent) => void, spill?: Pick<Spill, 'index' | 'records'>, onHeader?: (header: TraceHeader) => void): Promise<LoadedTrace> {
  return readForCli(path, io, format, onEvent, spill, onHeader);
}

/** True when some lines or records were dropped: the command ends with exit 1 [P9]. */
export function isPartial(loaded: LoadedTrace): boolean {
  return loaded.problems.some((p) => p.severity === 'error');
}

async function readForCli(path: string, io: Io, format: TraceFormat | undefined, onEvent: ((event: TraceEvent) => void) | undefined, spill?: Pick<Spill, 'index' | 'records'>, onHeader?: (header: TraceHeader) => void): Promise<LoadedTrace> {
  try {
    // `<database>#<session id>` names one session of an SQLite store [I22]: the database is the file.
    const s = await stat(splitSessionPath(path).file);
    if (s.isDirectory()) throw new CliError(`cannot read trace ${path}: is a directory, not a file`);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read trace ${path}: ${fileErrorText(err)}`);
  }
  const drain = io.drain;
  const outcome = await importTraceFile(path, { ...(format ? { format } : {}), ...(onEvent ? { onEvent } : {}), ...(onEvent && drain ? { afterChunk: () => drain() } : {}), ...(spill ? { ids: spill.index, spool: spill.records } : {}), ...(onHeader ? { onHeader } : {}) });
  if (!outcome.trace || !outcome.format) {
    const why = outcome.problems.map((p) => `  ${p.message}`).join('\n') || '  nothing could be read';
    throw new CliError(`cannot read trace ${path}:\n${why}`);
  }
  for (const p of outcome.problems) io.err(`${path}: ${p.severity}: ${p.message}\n`);
  return { trace: outcome.trace, format: outcome.format, problems: outcome.problems };
}
