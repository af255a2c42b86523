import { detectTraceFormat, DETECT_SAMPLE_CHARS, TRACE_FORMAT_LABELS, type TraceFormat } from '../../engine/trace/detectTraceFormat.ts';
import { importTrace } from '../../engine/trace/importTrace.ts';
import type { ImportReport } from '../../engine/trace/importers/importReport.ts';
import { traceProblem, type TraceProblem } from '../../engine/trace/traceProblem.ts';
import { createTraceReader } from '../../engine/trace/traceReader.ts';
import type { TraceHeader } from '../../engine/trace/traceSchema.ts';
import type { HookwireDb } from './db.ts';
import { TRACE_CHUNK } from './storedTrace.ts';
import { beginTrace, createChunkWriter, finishTrace, removeTraceNow } from './traceLibrary.ts';

/**
 * Imports a trace file into the library. The format is recognised by content (the engine's
 * detectTraceFormat on the first 64 KB). Trace v1 files stream: bytes are decoded and read line by line by
 * the engine's tolerant reader, and events go to IndexedDB in chunks as they come, so a file of any size is
 * never in memory whole. The other formats are JSON documents that the engine's importers map as a whole.
 * Runs in the import worker; pure enough to test in Node with fake-indexeddb.
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
}

/** A file as the importer needs it (a `File`, or a `Blob` with a name in tests). */
export interface NamedBlob {
  readonly name: string;
  readonly size: number;
  slice(start?: number, end?: number): Blob;
  stream(): ReadableStream<Uint8Array>;
}

/** Writes are grouped: one IndexedDB transaction per 16 chunks keeps the import fast and memory flat. */
const FLUSH_EVENTS = TRACE_CHUNK * 16;

export async function importTraceFile(db: HookwireDb, file: NamedBlob, options: ImportFileOptions): Promise<ImportFileResult> {
  const sample = await file.slice(0, DETECT_SAMPLE_CHARS * 4).text();
  const detected = detectTraceFormat(sample, file.name);
  const base = { traceId: null, name: stem(file.name), events: 0, notes: [] as string[] };
  if (!detected.format) {
    const code = /binary/.test(detected.reason) ? 'binary' : sample.trim() === '' ? 'empty' : 'unknown_format';
    return { ...base, status: 'failed', format: null, problems: [traceProblem(code, 0, `cannot import ${file.name}: ${detected.reason}`, 'error', true)] };
  }
  const early: TraceProblem[] = detected.by === 'file_name' ? [traceProblem('unknown_format', 0, detected.reason, 'warning')] : [];
  if (detected.format === 'hookwire-trace') return streamTraceV1(db, file, options, early);
  return importDocument(db, file, detected.format, options, early);
}

async function streamTraceV1(db: HookwireDb, file: NamedBlob, o: ImportFileOptions, early: TraceProblem[]): Promise<ImportFileResult> {
  const writer = createChunkWriter(db, o.id);
  const reader = createTraceReader({ onEvent: (e) => writer.add(e) });
  let begun = false;
  const begin = async (header: TraceHeader) => {
    begun = true;
    await beginTrace(db, { id: o.id, name: header.title ?? stem(file.name), header, source_format: 'hookwire-trace', file_name: file.name, file_size: file.size });
  };
  try {
    await readBytes(file, o, (text) => reader.push(text), async () => {
      if (!begun && reader.header) await begin(reader.header);
      if (begun && writer.buffered >= FLUSH_EVENTS) await writer.flush();
      return reader.eventCount;
    });
    const r = reader.end();
    const problems = [...early, ...r.problems];
    if (r.status === 'failed' || !r.header) {
      if (begun) await removeTraceNow(db, o.id);
      return { status: 'failed', traceId: null, format: 'hookwire-trace', name: stem(file.name), events: 0, problems, notes: [] };
    }
    if (!begun) await begin(r.header);
    const record = await finishTrace(db, o.id, writer, r.status === 'ok' ? 'ready' : 'pending', problems);
    return { status: r.status, traceId: o.id, format: 'hookwire-trace', name: record.name, events: record.event_count, problems, notes: [] };
  } catch (e) {
    if (begun) await removeTraceNow(db, o.id).catch(() => undefined);
    throw e;
  }
}

async function importDocument(db: HookwireDb, file: NamedBlob, format: TraceFormat, o: ImportFileOptions, early: TraceProblem[]): Promise<ImportFileResult> {
  const parts: string[] = [];
  await readBytes(file, o, (text) => parts.push(text), async () => 0);
  o.onProgress?.({ phase: 'converting', done: 0, total: 1, events: 0 });
  const outcome = importTrace(parts.join(''), { fileName: file.name, format });
  parts.length = 0;
  const problems = [...early, ...outcome.problems];
  if (!outcome.trace) return { status: 'failed', traceId: null, format, name: stem(file.name), events: 0, problems, notes: [] };
  const trace = outcome.trace;
  const notes = outcome.report ? reportNotes(outcome.report) : [];
  const name = trace.header.title ?? stem(file.name);
  await beginTrace(db, { id: o.id, name, header: trace.header, source_format: format, file_name: file.name, file_size: file.size });
  const writer = createChunkWriter(db, o.id);
  try {
    for (let i = 0; i < trace.events.length; i++) {
      writer.add(trace.events[i]!);
      if (writer.buffered >= FLUSH_EVENTS) {
        abortIfAsked(o);
        await writer.flush();
        o.onProgress?.({ phase: 'storing', done: i + 1, total: trace.events.length, events: i + 1 });
      }
    }
    const partial = problems.some((p) => p.severity === 'error');
    const record = await finishTrace(db, o.id, writer, partial ? 'pending' : 'ready', problems, notes);
    return { status: partial ? 'partial' : 'ok', traceId: o.id, format, name: record.name, events: record.event_count, problems, notes };
  } catch (e) {
    await removeTraceNow(db, o.id).catch(() => undefined);
    throw e;
  }
}

/** Reads the file's bytes as decoded text pieces, reporting progress and honouring a cancel between pieces. */
async function readBytes(file: NamedBlob, o: ImportFileOptions, onText: (text: string) => void, afterPiece: () => Promise<number>): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  const stream = file.stream().getReader();
  let done = 0;
  for (;;) {
    abortIfAsked(o);
    const { value, done: end } = await stream.read();
    if (end) break;
    done += value.byteLength;
    onText(decoder.decode(value, { stream: true }));
    const events = await afterPiece();
    o.onProgress?.({ phase: 'reading', done, total: file.size, events });
  }
  const tail = decoder.decode();
  if (tail) onText(tail);
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

function stem(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return base.replace(/\.(jsonl|json|traj|hwtrace)$/i, '') || 'trace';
}
