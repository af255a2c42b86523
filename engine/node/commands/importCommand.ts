// `hookwire import <file> [--from <format>] [-o <out>]`: any supported recording → trace v1 JSON Lines [I1].
// The header (trace id, first time) comes first in the output. The importers that know it by their first event
// (Claude Code, Codex) say so before handing over any event, and the event lines are then written straight out,
// in 64 Ki-character writes; for the others it is known only at the end, so the event lines go to a spool file
// first and follow the header from there. Either way the events are not held in memory, nor are their ids (the
// importer keeps them in a spilled index), so a long session file imports in bounded memory (docs/sessions.md).
import { once } from 'node:events';
import { closeSync, createReadStream, createWriteStream, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { splitSessionPath } from '../sqliteSessions.ts';
import type { TraceFormat } from '../../trace/detectTraceFormat.ts';
import { TRACE_FORMAT_LABELS } from '../../trace/detectTraceFormat.ts';
import { traceEventLine, traceHeaderLine } from '../../trace/traceToJsonl.ts';
import type { TraceEvent, TraceHeader } from '../../trace/traceTypes.ts';
import { CliError, EXIT, fileErrorText, plural, type Io } from '../cliIo.ts';
import { streamTraceForCli } from '../loadTraceForCli.ts';
import { openSpill, openTempFile } from '../spillFile.ts';

export interface ImportOptions {
  from?: TraceFormat;
  output?: string;
}

/** Bytes of a read back from the spool. */
const SPOOL_CHUNK = 1 << 20;
/**
 * Characters of event lines gathered (by `+=`) before one write. 64 Ki, not more: joining 1 Mi-character
 * batches cost 4x the CPU of 64 Ki ones (230–250 ms against 60 ms per 55 MB in a micro-benchmark on this
 * machine), the text no longer staying in the processor's cache between its flattening and its encoding.
 */
const WRITE_CHARS = 1 << 16;

/**
 * Writes the trace to stdout or a file. Exit 0 when everything was read, 1 when some lines or records were
 * dropped (the rest is written, the problems are on stderr), 2 when nothing could be imported.
 */
export async function importCommand(path: string, options: ImportOptions, io: Io): Promise<number> {
  const spill = openSpill();
  const spool = openSpool();
  let direct: DirectOut | null = null;
  try {
    // Lines leave out trace_id / agent_id equal to the header's [T4]. Without an early header, lines are
    // written against the first event's, which the header has unless the importer changed them after its
    // first event; then each line is written again against the header.
    let first: Pick<TraceHeader, 'trace_id' | 'agent_id'> | null = null;
    let early: TraceHeader | null = null;
    // Written over as it is read, the input would be lost: the same file goes through the spool.
    const onHeader = sameFile(path, options.output) ? undefined : (h: TraceHeader): void => {
      early = h;
      direct = openDirect(options.output, io);
      direct.write(traceHeaderLine(h));
    };
    let read;
    try {
      read = await streamTraceForCli(path, io, options.from, (e: TraceEvent) => {
        if (direct) return direct.write(traceEventLine(e, early as TraceHeader));
        first ??= { trace_id: e.trace_id, agent_id: e.agent_id };
        spool.write(traceEventLine(e, first));
      }, spill, onHeader);
    } catch (err) {
      (direct as DirectOut | null)?.abandon();
      throw err;
    }
    const header = read.trace.header;
    const straight = direct as DirectOut | null;
    if (straight) {
      straight.end();
      const errors = read.problems.filter((p) => p.severity === 'error').length;
      io.err(`imported ${TRACE_FORMAT_LABELS[read.format]}: ${plural(straight.lines, 'event')}${options.output ? ` to ${options.output}` : ''}${errors ? `; ${plural(errors, 'problem')} (see above)` : ''}\n`);
      return errors === 0 ? EXIT.ok : EXIT.failed;
    }
    spool.flush();
    const was = first as Pick<TraceHeader, 'trace_id' | 'agent_id'> | null;
    const rewrite = was === null || (was.trace_id === header.trace_id && was.agent_id === header.agent_id) ? null : (line: string) => relineEvent(line, was, header);
    const out = options.output ? fileSink(options.output) : stdoutSink(io);
    try {
      await out.write(traceHeaderLine(header));
      // Without a rewrite the spool's bytes are the output's: copied as they are, not decoded and encoded again.
      if (!rewrite && out.writeBytes) for await (const bytes of spool.bytes()) await out.writeBytes(bytes);
      else for await (const chunk of spool.read(rewrite)) await out.write(chunk);
      await out.end();
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(`cannot write ${options.output ?? 'stdout'}: ${fileErrorText(err)}`);
    }
    const errors = read.problems.filter((p) => p.severity === 'error').length;
    const where = options.output ? ` to ${options.output}` : '';
    io.err(`imported ${TRACE_FORMAT_LABELS[read.format]}: ${plural(spool.lines, 'event')}${where}${errors ? `; ${plural(errors, 'problem')} (see above)` : ''}\n`);
    return errors === 0 ? EXIT.ok : EXIT.failed;
  } finally {
    spool.close();
    spill.close();
  }
}

/**
 * An event line written against `from` (its trace_id / agent_id left out where equal to `from`'s [T4]), written
 * again against `to`. Every importer today gives its first event the header's ids; this keeps the output right
 * if one does not.
 */
export function relineEvent(line: string, from: Pick<TraceHeader, 'trace_id' | 'agent_id'>, to: Pick<TraceHeader, 'trace_id' | 'agent_id'>): string {
  return traceEventLine({ trace_id: from.trace_id, agent_id: from.agent_id, ...(JSON.parse(line) as object) } as TraceEvent, to);
}

/** Output written as it comes, in writes of WRITE_CHARS characters: to the file named (synchronously), else to stdout. */
interface DirectOut {
  write(line: string): void;
  readonly lines: number;
  end(): void;
  /** The import failed: a file written so far is removed. */
  abandon(): void;
}

/** True when `output` names the file `input` is (or a session of it): it must not be written before it is read. */
function sameFile(input: string, output: string | undefined): boolean {
  if (!output) return false;
  const a = statSync(splitSessionPath(input).file, { throwIfNoEntry: false });
  const b = statSync(output, { throwIfNoEntry: false });
  return !!a && !!b && a.ino === b.ino && a.dev === b.dev;
}

/**
 * A write that fails (the output cannot be opened, the disk is full) is kept and thrown as a CliError when the
 * import returns (`end`): it happens inside the importer's hand-over, which must not take it for a read error.
 */
function openDirect(path: string | undefined, io: Io): DirectOut {
  let fd: number | null = null;
  let failed: unknown = null;
  if (path) {
    try {
      fd = openSync(path, 'w');
    } catch (err) {
      failed = err;
    }
  }
  let text = '';
  let lines = -1; // the header is not an event
  const flush = (): void => {
    if (text === '') return;
    const chunk = text;
    text = '';
    if (failed) return;
    if (!path) return io.out(chunk);
    try {
      writeSync(fd as number, chunk);
    } catch (err) {
      failed = err;
    }
  };
  return {
    write(line) {
      text += line;
      lines++;
      if (text.length >= WRITE_CHARS) flush();
    },
    get lines() {
      return lines;
    },
    end() {
      flush();
      if (fd !== null) closeSync(fd);
      fd = null;
      if (failed) {
        if (path) rmSync(path, { force: true });
        throw new CliError(`cannot write ${path ?? 'stdout'}: ${fileErrorText(failed)}`);
      }
    },
    abandon() {
      if (fd === null) return;
      closeSync(fd);
      fd = null;
      rmSync(path as string, { force: true });
    },
  };
}

/** Event lines appended to a temporary file, read back in chunks (or line by line through `rewrite`). */
function openSpool() {
  const file = openTempFile('hookwire-import-');
  let text = '';
  let written = 0;
  let lines = 0;
  const flush = (): void => {
    if (text === '') return;
    const bytes = Buffer.from(text, 'utf8');
    text = '';
    let done = 0;
    while (done < bytes.length) done += writeSync(file.fd, bytes, done, bytes.length - done, written + done);
    written += bytes.length;
  };
  return {
    get lines() {
      return lines;
    },
    write(line: string): void {
      text += line;
      lines++;
      if (text.length >= WRITE_CHARS) flush();
    },
    flush,
    /** The spool's bytes as written, in chunks. */
    async *bytes(): AsyncGenerator<Buffer> {
      if (written === 0) return;
      const stream = createReadStream('', { fd: file.fd, start: 0, end: written - 1, highWaterMark: SPOOL_CHUNK, autoClose: false });
      for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk;
    },
    async *read(rewrite: ((line: string) => string) | null): AsyncGenerator<string> {
      if (written === 0) return;
      const stream = createReadStream('', { fd: file.fd, start: 0, end: written - 1, encoding: 'utf8', highWaterMark: SPOOL_CHUNK, autoClose: false });
      let rest = '';
      for await (const chunk of stream as AsyncIterable<string>) {
        if (!rewrite) {
          yield chunk;
          continue;
        }
        const text = rest + chunk;
        const cut = text.lastIndexOf('\n') + 1;
        rest = text.slice(cut);
        yield text.slice(0, cut).split('\n').slice(0, -1).map(rewrite).join('');
      }
    },
    close: file.close,
  };
}

interface Sink {
  write(text: string): Promise<void>;
  /** Bytes already UTF-8, when the sink takes them as they are. */
  writeBytes?(bytes: Buffer): Promise<void>;
  end(): Promise<void>;
}

function stdoutSink(io: Io): Sink {
  const outBytes = io.outBytes?.bind(io);
  return {
    async write(text) {
      io.out(text);
      if (io.drain) await io.drain();
    },
    ...(outBytes
      ? {
          async writeBytes(bytes: Buffer) {
            outBytes(bytes);
            if (io.drain) await io.drain();
          },
        }
      : {}),
    end: async () => {},
  };
}

function fileSink(path: string): Sink {
  const stream = createWriteStream(path, { encoding: 'utf8' });
  let failed: unknown = null;
  stream.on('error', (err) => (failed = err));
  const put = async (data: string | Buffer) => {
    if (failed) throw failed;
    // events.once rejects on 'error' and removes its listeners either way.
    if (!stream.write(data)) await once(stream, 'drain');
  };
  return {
    write: put,
    writeBytes: put,
    end: () =>
      new Promise<void>((resolve, reject) => {
        if (failed) return reject(failed);
        stream.once('error', reject);
        stream.end(() => resolve());
      }),
  };
}
