import { isJsonObject, type JsonObject, type TraceFormat, type TraceProblem, type TraceEvent, type TraceHeader } from '../../engine/app.ts';

/**
 * What one trace of the debugger's library looks like in IndexedDB: a small record (name, header, counts,
 * problems) and its events in separate chunk rows of `TRACE_CHUNK` events, so a 100,000-event trace is
 * never read whole: the replayer fetches the chunks a step needs. Plain JSON with its own envelope version
 * (STYLE habit 7).
 */
export const STORED_TRACE_FORMAT = 'hookwire.stored-trace';
export const STORED_TRACE_VERSION = 1;

/**
 * Events per chunk row. Equal to the replayer's checkpoint interval (engine DEFAULT_CHECKPOINT_EVERY), so a
 * jump fetches one row, and small enough that a row is read in a millisecond or two.
 */
export const TRACE_CHUNK = 256;

/** `importing`: rows are being written; `pending`: imported with dropped lines, waiting for the user to keep or discard it; `ready`. */
export type StoredTraceStatus = 'importing' | 'pending' | 'ready';

/** At most this many problems are kept with a trace (the reader counts the rest in one last problem). */
export const MAX_STORED_PROBLEMS = 1000;

export interface StoredTrace {
  id: string;
  format: typeof STORED_TRACE_FORMAT;
  store_version: number;
  name: string;
  status: StoredTraceStatus;
  /** The trace v1 header (imports get one from their importer). */
  header: TraceHeader;
  /** The format the file was read as. */
  source_format: TraceFormat;
  file_name: string | null;
  /** Size of the file read, in bytes (0 for the demo). */
  file_size: number;
  event_count: number;
  chunk_size: number;
  /** Events per type, in order of first appearance (for filters and summaries). */
  event_types: { type: string; count: number }[];
  /** Line-level problems and warnings of the import, as the engine reported them. */
  problems: TraceProblem[];
  /** Importer notes and warnings for people (aliases used, timestamps synthesised, unknown record kinds). */
  notes: string[];
  /** The app's own first-run trace. */
  demo?: boolean;
  created_at: number;
  updated_at: number;
  /** Set by delete; undo clears it; the next start removes the trace and its chunks for good. */
  deleted_at?: number;
}

/** One row of events: `events[k]` is event `chunk * chunk_size + k` of the trace. */
export interface TraceChunk {
  trace_id: string;
  chunk: number;
  events: TraceEvent[];
}

/** The part of an event that path completion and summaries read. */
export interface EventSampleRow {
  type: string;
  payload: JsonObject;
  meta?: JsonObject;
}

export type TraceRecordCheck = { ok: true; record: StoredTrace } | { ok: false; message: string };

/**
 * Checks a stored record before use. Version 1 is the first envelope, so there is nothing to migrate yet; a
 * record from a newer app is refused with a message and never rewritten.
 */
export function checkStoredTrace(raw: unknown): TraceRecordCheck {
  if (!isJsonObject(raw as never) || typeof (raw as { id?: unknown }).id !== 'string') return { ok: false, message: 'The stored entry is not a trace record.' };
  const r = raw as unknown as StoredTrace;
  if (r.format !== STORED_TRACE_FORMAT) return { ok: false, message: 'The stored entry is not a trace record.' };
  if (typeof r.store_version !== 'number' || r.store_version > STORED_TRACE_VERSION) {
    return { ok: false, message: `This trace was saved by a newer Hookwire (storage version ${String(r.store_version)}); open it there.` };
  }
  return { ok: true, record: r };
}
