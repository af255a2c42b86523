import { isJsonObject, type JsonObject } from '../../model/json.ts';
import type { TraceFormat } from '../detectTraceFormat.ts';
import type { TraceEvent } from '../traceTypes.ts';
import type { ImporterOptions, ImportResult } from './importReport.ts';
import { TraceBuilder } from './traceBuilder.ts';

/**
 * What the streamed JSON-record importers (Gemini CLI, Qwen Code, Copilot CLI, goose) share: a builder that
 * streams to `onEvent` when given, a count of the records read, and the head of the record loop — a record
 * that is not a JSON object cannot be read and is listed as such [I11]. Subclasses read the objects.
 */
export abstract class RecordImporter {
  protected readonly b: TraceBuilder;
  /** Records handed in so far (what the report's `source_records` says). */
  protected records = 0;

  constructor(
    format: TraceFormat,
    /** The event id prefix, e.g. `gemini` for `gemini:<id>`. */
    prefix: string,
    /** The agent id (and the trace id when neither the source nor the options give one). */
    agent: string,
    protected readonly options: ImporterOptions,
    onEvent?: (event: TraceEvent) => void,
  ) {
    this.b = new TraceBuilder(format, prefix, options.fallbackTraceId ?? agent, agent, options.ids);
    if (onEvent) this.b.streamTo(onEvent);
  }

  /** One parsed record: a JSON Lines line, or a whole document as line 1. */
  record(value: unknown, line: number): void {
    this.records++;
    if (!isJsonObject(value)) return this.b.dropRecord('(not an object)', line, 'not a JSON object');
    this.object(value, line);
  }

  /** One record that is a JSON object. */
  protected abstract object(value: JsonObject, line: number): void;

  /** Ends the import: what is still held is emitted, then `agent.end`, the header and the report. */
  abstract finish(lines?: number): ImportResult;

  /** The header's source: `kind`, the file name when known, and what the importer read of the session. */
  protected source(kind: string, fields: JsonObject = {}): JsonObject & { kind: string } {
    const source: JsonObject & { kind: string } = { kind, ...fields };
    if (this.options.fileName) source.file_name = this.options.fileName;
    return source;
  }
}
