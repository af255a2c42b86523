import { ownGet, ownSet, type JsonObject } from '../../model/json.ts';
import type { TraceFormat } from '../detectTraceFormat.ts';
import type { TraceProblem } from '../traceProblem.ts';
import type { Trace, TraceHeader } from '../traceTypes.ts';
import type { IdIndexFactory, RecordStore } from '../../model/idIndex.ts';

/**
 * What an importer did with its source [I2]: counts per event type, what it kept as annotations, what it
 * skipped on purpose, what it did not know, and every guess it made. Nothing is dropped unreported.
 * Maps are plain JSON objects written with ownSet, so a record kind named `__proto__` is just a name.
 */
export interface ImportReport {
  format: TraceFormat;
  /** Records (lines, spans, steps, events) read from the source. */
  source_records: number;
  /** Events in the trace. */
  events: number;
  /** Events per type, e.g. { "tool.before_call": 6 }. */
  event_counts: JsonObject;
  /** tool.before_call events. */
  tool_calls: number;
  /** model.before_call events. */
  model_calls: number;
  /** Source records kept as annotations in an event's meta.annotations, by kind. */
  annotations: JsonObject;
  /** Known source record kinds that are not lifecycle events and carry nothing replay needs, by kind. */
  skipped: JsonObject;
  /** Source record kinds the importer does not know, by kind. */
  unknown: JsonObject;
  /** Things that may need a look: a tool call without a result, an unparsable argument string, ... */
  warnings: string[];
  /** How the mapping read this source: aliases used, timestamps read as UTC, ... */
  notes: string[];
  /** Events whose timestamp was synthesised because the source had none for them. */
  synthetic_timestamps: number;
}

/**
 * `problems`: every source record the importer could not turn into events, with where it was (line, span
 * or step id) and why, so nothing is dropped silently; an error problem makes the import partial.
 */
export type ImportResult = { ok: true; trace: Trace; report: ImportReport; problems?: TraceProblem[] } | { ok: false; problem: TraceProblem };

/** Options every importer takes. */
export interface ImporterOptions {
  /** The file's name, kept in the header's source and used for a trace id when the source has none. */
  fileName?: string;
  /** The file's whole path, when known (never written into the trace: only ids read from it are). */
  filePath?: string;
  /** Trace id to use when the source carries none (importTrace passes one derived from the content). */
  fallbackTraceId?: string;
  /** Where a streamed importer keeps the event ids it gave (default a Map; the CLI passes a spilled index). */
  ids?: IdIndexFactory;
  /**
   * Where an importer keeps the records it must hold to the end of the document (SWE-agent's steps and messages):
   * default memory; the CLI passes a temporary file.
   */
  spool?: RecordStore;
  /**
   * Streaming importers whose header is fixed by their first event call this with it before handing over any
   * event (see TraceBuilder.announceHeader); the others never do.
   */
  onHeader?: (header: TraceHeader) => void;
}

/**
 * An importer of a document that is an array of records, fed one element at a time (the whole document, or its
 * elements as they stream from a file), `index` 1-based; `finish` gets how many there were.
 */
export interface ElementImporter {
  record(value: unknown, index: number): void;
  finish(records: number): ImportResult;
}

/** Adds one to a count keyed by a source-chosen name. */
export function bump(counts: JsonObject, key: string, by = 1): void {
  const cur = ownGet(counts, key);
  ownSet(counts, key, (typeof cur === 'number' ? cur : 0) + by);
}

/** An empty report for a format. */
export function emptyReport(format: TraceFormat): ImportReport {
  return {
    format,
    source_records: 0,
    events: 0,
    event_counts: {},
    tool_calls: 0,
    model_calls: 0,
    annotations: {},
    skipped: {},
    unknown: {},
    warnings: [],
    notes: [],
    synthetic_timestamps: 0,
  };
}
