// Node-only file reading on top of the pure trace reader and importers (engine/trace/). The pure code takes
// decoded text; this file decodes bytes (an fs stream with an encoding keeps multi-byte characters whole
// across chunks) and turns file-system failures into problems.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { detectTraceFormat, DETECT_SAMPLE_CHARS, type TraceFormat } from '../trace/detectTraceFormat.ts';
import { importTrace, traceV1Outcome, type ImportTraceOutcome } from '../trace/importTrace.ts';
import { createTraceReader, type TraceReaderOptions, type TraceReadResult } from '../trace/traceReader.ts';
import { traceProblem } from '../trace/traceProblem.ts';

export interface ReadTraceFileOptions extends TraceReaderOptions {
  /** Bytes per chunk read from disk (default 1 MiB). */
  chunkBytes?: number;
}

/** Foreign formats are single JSON documents that must be parsed whole: refuse past this size. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

/**
 * Streams a trace v1 file through the pure reader [T3]: the file is never held whole, and with
 * `onEvent` neither are its events. A file that cannot be read is a fatal `unreadable` problem.
 *
 * @example const r = await readTraceFile('run.hwtrace.jsonl'); if (r.status !== 'failed') replay(r.events);
 */
export async function readTraceFile(path: string, options: ReadTraceFileOptions = {}): Promise<TraceReadResult> {
  const reader = createTraceReader(options);
  try {
    const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: options.chunkBytes ?? 1024 * 1024 });
    for await (const chunk of stream) {
      reader.push(chunk as string);
      // Stop at the first fatal verdict (binary data, not a trace): `--record /dev/zero` must not read forever.
      if (reader.failed) {
        stream.destroy();
        break;
      }
    }
  } catch (err) {
    return unreadable(path, err);
  }
  return reader.end();
}

/**
 * Reads any supported file [I1]: detects the format from its first bytes, streams trace v1 files, and
 * reads other formats whole (up to MAX_IMPORT_BYTES) into importTrace.
 */
export async function importTraceFile(path: string, options: { format?: TraceFormat; maxBytes?: number } = {}): Promise<ImportTraceOutcome> {
  const fileName = path.split(/[\\/]/).pop() ?? path;
  let head: string;
  let size: number;
  try {
    size = (await stat(path)).size;
    head = await readHead(path);
  } catch (err) {
    return { format: null, trace: null, report: null, problems: unreadable(path, err).problems };
  }
  const format = options.format ?? detectTraceFormat(head, fileName).format;
  if (format === 'hookwire-trace') return traceV1Outcome(await readTraceFile(path));
  const max = options.maxBytes ?? MAX_IMPORT_BYTES;
  if (size > max) {
    const p = traceProblem('too_large', 0, `${fileName} is ${size} bytes; files in this format are read whole and the limit is ${max} bytes`, 'error', true);
    return { format, trace: null, report: null, problems: [p] };
  }
  const chunks: string[] = [];
  try {
    for await (const c of createReadStream(path, { encoding: 'utf8' })) chunks.push(c as string);
  } catch (err) {
    return { format, trace: null, report: null, problems: unreadable(path, err).problems };
  }
  const importOptions: { fileName: string; format?: TraceFormat } = { fileName };
  if (format) importOptions.format = format;
  return importTrace(chunks.join(''), importOptions);
}

async function readHead(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(DETECT_SAMPLE_CHARS);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    // A multi-byte character cut at the end decodes as U+FFFD; drop the tail so it does not look binary.
    return buf.subarray(0, bytesRead).toString('utf8').replace(/\ufffd{1,3}$/, '');
  } finally {
    await fh.close();
  }
}

function unreadable(path: string, err: unknown): TraceReadResult {
  const why = err instanceof Error ? err.message : String(err);
  return { status: 'failed', header: null, events: [], eventCount: 0, lines: 0, problems: [traceProblem('unreadable', 0, `cannot read ${path}: ${why}`, 'error', true)] };
}
