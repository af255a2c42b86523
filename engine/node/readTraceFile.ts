// Node-only file reading on top of the pure trace reader and importers (engine/trace/). The pure code takes
// decoded text; this file decodes bytes (an fs stream with an encoding keeps multi-byte characters whole
// across chunks) and turns file-system failures into problems.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { detectTraceFormat, DETECT_SAMPLE_CHARS, type TraceFormat } from '../trace/detectTraceFormat.ts';
import { importTrace, traceV1Outcome, type ImportTraceOutcome } from '../trace/importTrace.ts';
import { createTraceReader, type TraceReaderOptions, type TraceReadResult } from '../trace/traceReader.ts';
import { traceProblem } from '../trace/traceProblem.ts';
import type { TraceEvent } from '../trace/traceSchema.ts';

export interface ReadTraceFileOptions extends TraceReaderOptions {
  /** Bytes per chunk read from disk (default 1 MiB). */
  chunkBytes?: number;
  /** Awaited after each chunk: backpressure, e.g. until stdout has drained what `onEvent` wrote. */
  afterChunk?: () => Promise<void>;
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
      if (options.afterChunk) await options.afterChunk();
      // Past a fatal verdict (binary, not a trace) nothing more is read: `/dev/zero` never ends [T3].
      if (reader.done) break;
    }
  } catch (err) {
    return unreadable(path, err);
  }
  return reader.end();
}

export interface ImportTraceFileOptions {
  format?: TraceFormat;
  maxBytes?: number;
  /**
   * When given, each event is handed here in trace order and the outcome's `trace.events` is empty: a trace
   * v1 file is then streamed and never held (other formats are parsed whole first).
   */
  onEvent?: (event: TraceEvent) => void;
  /** See ReadTraceFileOptions.afterChunk (trace v1 files only). */
  afterChunk?: () => Promise<void>;
}

/**
 * Reads any supported file [I1]: detects the format from its first bytes, streams trace v1 files, and
 * reads other formats whole (up to MAX_IMPORT_BYTES) into importTrace.
 */
export async function importTraceFile(path: string, options: ImportTraceFileOptions = {}): Promise<ImportTraceOutcome> {
  const fileName = path.split(/[\\/]/).pop() ?? path;
  let head: string;
  let size: number;
  try {
    size = (await stat(path)).size;
    head = await readHead(path);
  } catch (err) {
    return { format: null, trace: null, report: null, problems: unreadable(path, err).problems };
  }
  const detected = options.format ? null : detectTraceFormat(head, fileName);
  const format = options.format ?? detected?.format ?? null;
  // Refused on the first bytes: undetectable content is never read whole (a device may never end) [T3].
  if (format === null) return importTrace(head, { fileName });
  const onEvent = options.onEvent;
  if (format === 'hookwire-trace') {
    const streamed: ReadTraceFileOptions = {};
    if (onEvent) streamed.onEvent = onEvent;
    if (options.afterChunk) streamed.afterChunk = options.afterChunk;
    return traceV1Outcome(await readTraceFile(path, streamed));
  }
  const max = options.maxBytes ?? MAX_IMPORT_BYTES;
  const tooLarge = (what: string) => ({ format, trace: null, report: null, problems: [traceProblem('too_large', 0, `${fileName} is ${what}; files in this format are read whole and the limit is ${max} bytes`, 'error', true)] });
  if (size > max) return tooLarge(`${size} bytes`);
  const chunks: string[] = [];
  try {
    // Counted while reading too: pipes and devices report a size of 0.
    let chars = 0;
    for await (const c of createReadStream(path, { encoding: 'utf8' })) {
      chunks.push(c as string);
      chars += (c as string).length;
      if (chars > max) return tooLarge(`more than ${max} characters`);
    }
  } catch (err) {
    return { format, trace: null, report: null, problems: unreadable(path, err).problems };
  }
  const importOptions: { fileName: string; format?: TraceFormat } = { fileName };
  if (format) importOptions.format = format;
  const outcome = importTrace(chunks.join(''), importOptions);
  if (onEvent && outcome.trace) {
    for (const e of outcome.trace.events) onEvent(e);
    outcome.trace = { header: outcome.trace.header, events: [] };
  }
  return outcome;
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
