import { TRACE_FORMAT_LABELS, type TraceFormat, createImportStream, EVENTS_AT_END, type ImportStream, type ImportReport, traceProblem, type TraceProblem, type TraceHeader } from '../../engine/app.ts';
import type { HookwireDb } from './db.ts';
import { TRACE_CHUNK } from './storedTrace.ts';
import { beginTrace, createChunkWriter, finishTrace, removeTraceNow } from './traceLibrary.ts';

/**
 * Imports a trace file into the library: the byte source (the file, decoded) and the sink (IndexedDB in
 * chunks) around the engine's one import pipeline (createImportStream), which detects the format, streams
 * what streams (the file's chunks, File.stream(), go in as they are read), and buffers the whole-document formats
 * up to a cap. Events go to IndexedDB in groups as they come. Runs in the import worker; testable in Node with
 * fake-indexeddb.
 *
 * A tab has no spill file, so what a format must hold is held in the worker's memory, and a worker that runs out of
 * it takes the tab down. So the app reads less of such files than the CLI and says so, with the way on
 * (`hookwire import` writes a trace, which streams here whatever its size):
 * - a document read whole: up to APP_MAX_DOCUMENT_CHARS (the engine stops with `too_large` past it);
 * - a format whose events all come at its end (EVENTS_AT_END: spans, SWE-agent), which holds every record and then
 *   every event: a file up to APP_MAX_HELD_BYTES, refused as soon as its format is known past that.
 */
export interface ImportProgress {
  phase: 'reading' | 'converting' | 'storing';
  /** Bytes (reading) or events (storing) done so far, of `total`. */
  done: number;
  total: number;
  events: number;
}

export interface ImportFileResult {
  /** `ok`: every line read; `partial`: some lines dropped (the trace waits as `pending`); `failed`: nothing stored. */
  status: 'ok' | 'partial' | 'failed';
  traceId: string | null;
  format: TraceFormat | null;
  name: string;
  events: number;
  problems: TraceProblem[];
  notes: string[];
}

export interface ImportFileOptions {
  /** The trace id to use (the page chooses it, so it can clean up after a cancel). */
  id: string;
  onProgress?: (p: ImportProgress) => void;
  signal?: { readonly aborted: boolean };
  /** Default APP_MAX_DOCUMENT_CHARS. */
  maxDocumentChars?: number;
  /** Default APP_MAX_HELD_BYTES. */
  maxHeldBytes?: number;
}

/** A file as the importer needs it (a `File`, or a `Blob` with a name in tests). */
export interface NamedBlob {
  readonly name: string;
  readonly size: number;
  slice(start?: number, end?: number): Blob;
  stream(): ReadableStream<Uint8Array>;
}

/** Characters of a document read whole the app holds (the CLI: 256 Mi). Its parse takes ~5 times that. */
export const APP_MAX_DOCUMENT_CHARS = 64 * 1024 * 1024;
/** Bytes of a file whose records and events are all held to its end (EVENTS_AT_END) the app reads. */
export const APP_MAX_HELD_BYTES = 64 * 1024 * 1024;

/** Writes are grouped: one IndexedDB transaction per 16 chunks keeps the import fast and memory flat. */
const FLUSH_EVENTS = TRACE_CHUNK * 16;

export async function importTraceFile(db: HookwireDb, file: NamedBlob, options: ImportFileOptions): Promise<ImportFileResult> {
  const writer = createChunkWriter(db, options.id);
  const stream = createImportStream({ fileName: file.name, onEvent: (e) => writer.add(e), maxDocumentChars: options.maxDocumentChars ?? APP_MAX_DOCUMENT_CHARS });
  const maxHeld = options.maxHeldBytes ?? APP_MAX_HELD_BYTES;
  const heldTooMuch = () => stream.format !== null && EVENTS_AT_END.has(stream.format) && file.size > maxHeld;
  try {
    await readBytes(file, options, stream, async () => {
      if (writer.buffered >= FLUSH_EVENTS) await writer.flush();
      return stream.eventCount;
    }, heldTooMuch);
    if (heldTooMuch()) {
      await removeTraceNow(db, options.id);
      const label = TRACE_FORMAT_LABELS[stream.format as TraceFormat];
      const why = `${label}: every record of the file is held until its end (its events are ordered over the whole file), and this file is ${mb(file.size)}, past the ${mb(maxHeld)} the app holds; nothing was read past its first bytes`;
      return { status: 'failed', traceId: null, format: stream.format, name: stem(file.name), events: 0, problems: [traceProblem('too_large', 0, why, 'error', true)], notes: [wayOn(file.name)] };
    }
    if (stream.format !== 'hookwire-trace' && stream.format !== 'codex-rollout') options.onProgress?.({ phase: 'converting', done: 0, total: 1, events: stream.eventCount });
    const outcome = stream.end();
    const format = outcome.format;
    if (!outcome.trace) {
      await removeTraceNow(db, options.id);
      const big = outcome.problems.some((p) => p.code === 'too_large' && p.fatal);
      return { status: 'failed', traceId: null, format, name: stem(file.name), events: 0, problems: outcome.problems, notes: big ? [wayOn(file.name)] : [] };
    }
    const header: TraceHeader = outcome.trace.header;
    const name = header.title ?? stem(file.name);
    await beginTrace(db, { id: options.id, name, header, source_format: format as TraceFormat, file_name: file.name, file_size: file.size });
    // Buffered formats hand their events over at the end: store them in groups, with progress.
    const total = writer.buffered;
    while (writer.buffered >= FLUSH_EVENTS) {
      abortIfAsked(options);
      await writer.flush();
      options.onProgress?.({ phase: 'storing', done: total - writer.buffered, total, events: writer.count });
    }
    const partial = outcome.problems.some((p) => p.severity === 'error');
    const notes = outcome.report && format !== 'hookwire-trace' ? reportNotes(outcome.report) : [];
    const record = await finishTrace(db, options.id, writer, partial ? 'pending' : 'ready', outcome.problems, notes);
    return { status: partial ? 'partial' : 'ok', traceId: options.id, format, name: record.name, events: record.event_count, problems: outcome.problems, notes };
  } catch (e) {
    await removeTraceNow(db, options.id).catch(() => undefined);
    throw e;
  }
}

/** Reads the file's bytes as decoded text pieces, reporting progress and honouring a cancel between pieces. */
async function readBytes(file: NamedBlob, o: ImportFileOptions, sink: ImportStream, afterPiece: () => Promise<number>, refuse: () => boolean): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  const stream = file.stream().getReader();
  let done = 0;
  for (;;) {
    abortIfAsked(o);
    const { value, done: end } = await stream.read();
    if (end) break;
    done += value.byteLength;
    sink.push(decoder.decode(value, { stream: true }));
    const events = await afterPiece();
    o.onProgress?.({ phase: 'reading', done, total: file.size, events });
    // Binary data, a fatal problem, past the size cap (the pipeline's, or ours for what is held to the end): no more is read.
    if (sink.stopped || refuse()) {
      await stream.cancel().catch(() => undefined);
      return;
    }
  }
  const tail = decoder.decode();
  if (tail) sink.push(tail);
  await afterPiece();
}

function abortIfAsked(o: ImportFileOptions): void {
  if (o.signal?.aborted) {
    const e = new Error('import cancelled');
    e.name = 'AbortError';
    throw e;
  }
}

/** What an importer noted, in sentences: counts of records it kept aside or did not know, its warnings and notes. */
function reportNotes(r: ImportReport): string[] {
  const out: string[] = [`Read as ${TRACE_FORMAT_LABELS[r.format]}: ${r.source_records} source records → ${r.events} events (${r.tool_calls} tool calls, ${r.model_calls} model calls).`];
  const kinds = (o: object) => Object.entries(o).map(([k, n]) => `${k} ×${String(n)}`).join(', ');
  if (Object.keys(r.unknown).length) out.push(`Unknown record kinds, not imported: ${kinds(r.unknown)}.`);
  if (Object.keys(r.annotations).length) out.push(`Kept as annotations: ${kinds(r.annotations)}.`);
  if (Object.keys(r.skipped).length) out.push(`Skipped on purpose: ${kinds(r.skipped)}.`);
  if (r.synthetic_timestamps) out.push(`${r.synthetic_timestamps} timestamps were synthesised (the source has none).`);
  return [...out, ...r.warnings, ...r.notes];
}

/** The way on for a file too big for the app: the CLI, whose trace streams into the app whatever its size. */
function wayOn(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return `The command line reads it with what it holds kept on disk: npx hookwire import ${JSON.stringify(base)} -o ${JSON.stringify(`${stem(base)}.hwtrace.jsonl`)}. Import the trace file it writes here: a trace streams into the app, whatever its size.`;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

function stem(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return base.replace(/\.(traj\.json|jsonl|json|traj|hwtrace)$/i, '') || 'trace';
}
