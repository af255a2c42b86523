import type { JsonObject, JsonValue } from '../../model/json.ts';
import { mapIdIndex, type IdIndex, type IdIndexFactory } from '../../model/idIndex.ts';
import { traceProblem, type TraceProblem } from '../traceProblem.ts';
import type { TraceFormat } from '../detectTraceFormat.ts';
import { TRACE_FORMAT, TRACE_VERSION, type TraceEvent, type TraceSource } from '../traceTypes.ts';
import { bump, emptyReport, type ImportReport, type ImportResult } from './importReport.ts';

/** The epoch used for synthesised timestamps: obviously not a real time, one second per event [I3]. */
const SYNTHETIC_EPOCH_MS = 0;

/**
 * True for a time an importer made up [I3] (the source had none): one from the synthetic epoch's first
 * year. Readers show no date for it rather than 1970-01-01.
 */
export function isSyntheticTs(ts: string): boolean {
  const ms = Date.parse(ts);
  return Number.isFinite(ms) && ms >= SYNTHETIC_EPOCH_MS && ms < SYNTHETIC_EPOCH_MS + 365 * 24 * 3600 * 1000;
}

/** Where an annotation goes: the event with that key, or else the event current when it was seen. */
interface PendingAnnotation {
  key: string | null;
  fallback: number;
  data: JsonObject;
}

/**
 * Shared machinery of the importers: deterministic unique event ids [I3], timestamps (kept, normalised or
 * synthesised and counted), counts for the report, and annotations attached to the event they concern.
 */
export class TraceBuilder {
  /** The events built so far; with a sink, only the one held back for annotations. */
  readonly events: TraceEvent[] = [];
  /** Events handed to the sink so far (0 without one). */
  private handedOver = 0;
  private sink: ((event: TraceEvent) => void) | null = null;
  readonly report: ImportReport;
  /**
   * Every id given so far and its last repeat number [I3]: one entry per event. A streamed import over a long
   * file passes a spilled index (engine/node/spillFile.ts: 8–16 bytes an id in memory) so that memory does not
   * grow with the file; the default is a Map.
   */
  private readonly ids: IdIndex<number>;
  private readonly keyed = new Map<string, TraceEvent>();
  private readonly pending: PendingAnnotation[] = [];
  private lastTs: string | null = null;
  private duplicateIds = 0;

  constructor(
    format: TraceFormat,
    private readonly prefix: string,
    public traceId: string,
    public agentId: string,
    ids?: IdIndexFactory,
  ) {
    this.report = emptyReport(format);
    this.ids = ids ? ids<number>() : mapIdIndex<number>();
  }

  /**
   * Streams: from now on each event goes to `sink` as soon as the next one is emitted (the newest is held
   * back so that annotations seen after it still attach to it), and nothing is kept. Keyed annotations
   * reach their event only while it is held; otherwise they go to the current event.
   */
  streamTo(sink: (event: TraceEvent) => void): void {
    this.sink = sink;
  }

  /** Events emitted so far, handed over or held. */
  get count(): number {
    return this.handedOver + this.events.length;
  }

  /** The time of the newest event, or null. */
  get latestTs(): string | null {
    return this.events[this.events.length - 1]?.ts ?? this.lastTs;
  }

  /**
   * Appends an event. `idBase` comes from source ids (e.g. a tool_use id); a repeat gets `#2`, `#3`.
   * `ts` is an ISO string from the source, or null to synthesise (the previous event's time, or the epoch
   * plus one second per event when the source has no time at all).
   */
  emit(type: string, idBase: string, ts: string | null, payload: JsonObject, options: { key?: string; agentId?: string; exactId?: boolean } = {}): TraceEvent {
    const event: TraceEvent = {
      event_id: this.uniqueId(options.exactId ? idBase : `${this.prefix}:${idBase}`),
      trace_id: this.traceId,
      agent_id: options.agentId ?? this.agentId,
      type,
      ts: ts ?? this.syntheticTs(),
      payload,
    };
    if (this.firstTs === null) this.firstTs = event.ts;
    if (ts !== null) this.lastTs = ts;
    if (this.sink) this.handOver();
    this.events.push(event);
    if (options.key !== undefined && !this.sink) this.keyed.set(options.key, event);
    bump(this.report.event_counts, type);
    if (type === 'tool.before_call') this.report.tool_calls++;
    if (type === 'model.before_call') this.report.model_calls++;
    return event;
  }

  /**
   * A final answer: `final_answer.before` and `final_answer.after` of `idBase`, each with its own copy of
   * `payload` (a handler may rewrite one without touching the other). `key` is the before event's.
   */
  finalAnswer(idBase: string, ts: string | null, payload: JsonObject, options: { key?: string; agentId?: string } = {}): void {
    this.emit('final_answer.before', `${idBase}:final.before`, ts, payload, options);
    this.emit('final_answer.after', `${idBase}:final.after`, ts, { ...payload }, { agentId: options.agentId });
  }

  /** The event emitted with this key, if any. */
  byKey(key: string): TraceEvent | undefined {
    return this.keyed.get(key);
  }

  /** Keeps a source record as an annotation of the event with `key` (resolved at the end), else the current event. */
  annotate(kind: string, data: JsonObject, key: string | null = null): void {
    bump(this.report.annotations, kind);
    this.pending.push({ key, fallback: this.events.length - 1, data: { ...data, kind } });
    if (this.sink) this.attachAnnotations();
  }

  skip(kind: string): void {
    bump(this.report.skipped, kind);
  }

  unknown(kind: string): void {
    bump(this.report.unknown, kind);
  }

  /** Records the importer could not import or did not know, listed with where they were [I11]. */
  readonly problems: TraceProblem[] = [];

  /**
   * A source record of a kind this importer does not know [I11]: counted, kept whole (up to 4 KB of its
   * JSON) as an annotation of the current event, and listed as a warning with its line (0: none) or id.
   */
  unknownRecord(kind: string, line: number, record: unknown, where = ''): void {
    this.unknown(kind);
    const text = JSON.stringify(record ?? null) ?? 'null';
    this.annotate(`unknown:${kind}`, { line, record: text.length <= 4096 ? (record as JsonValue) : `${text.slice(0, 4096)}…` });
    this.listProblem('unknown_record', line, `${where}a record of unknown kind ${JSON.stringify(kind.slice(0, 100))}: kept as an annotation, not replayed`, 'warning');
  }

  /** A source record that could not be imported [I11]: listed as an error (the import is partial). */
  dropRecord(kind: string, line: number, reason: string, where = ''): void {
    bump(this.report.skipped, `(unreadable) ${kind}`);
    this.listProblem('unreadable_record', line, `${where}${reason}; the record was skipped`, 'error');
  }

  private listProblem(code: 'unknown_record' | 'unreadable_record', line: number, detail: string, severity: 'error' | 'warning'): void {
    if (this.problems.length < 1000) this.problems.push(traceProblem(code, line, detail, severity));
    else if (this.problems.length === 1000) this.problems.push(traceProblem('more_problems', 0, 'more records could not be imported than are listed', severity));
  }

  warn(message: string): void {
    if (this.report.warnings.length < 200) this.report.warnings.push(message);
  }

  note(message: string): void {
    if (!this.report.notes.includes(message)) this.report.notes.push(message);
  }

  /** Builds the trace: attaches annotations, fills the header and the report. */
  finish(source: TraceSource, sourceRecords: number, created?: string): ImportResult {
    this.attachAnnotations();
    if (this.sink) this.handOver();
    if (this.duplicateIds > 0) this.warn(`${this.duplicateIds} source ids appeared more than once; their events got ids ending in #2, #3, ...`);
    if (this.report.synthetic_timestamps > 0) {
      this.note(`${this.report.synthetic_timestamps} event timestamps were synthesised (the source has no time for them): they keep the order, not the real time`);
    }
    const report = this.report;
    report.source_records = sourceRecords;
    report.events = this.count;
    const header = {
      format: TRACE_FORMAT,
      version: TRACE_VERSION,
      trace_id: this.traceId,
      agent_id: this.agentId,
      source,
      created: created ?? this.firstTs ?? new Date(SYNTHETIC_EPOCH_MS).toISOString(),
    } as const;
    return { ok: true, trace: { header, events: this.events }, report, problems: this.problems };
  }

  private firstTs: string | null = null;

  private handOver(): void {
    const sink = this.sink as (event: TraceEvent) => void;
    for (const e of this.events.splice(0)) {
      this.handedOver++;
      sink(e);
    }
  }

  private uniqueId(base: string): string {
    const n = this.ids.get(base);
    if (n === undefined) {
      this.ids.set(base, 1);
      return base;
    }
    this.duplicateIds++;
    let k = n + 1;
    while (this.ids.get(`${base}#${k}`) !== undefined) k++;
    this.ids.set(base, k);
    this.ids.set(`${base}#${k}`, 1);
    return `${base}#${k}`;
  }

  private syntheticTs(): string {
    this.report.synthetic_timestamps++;
    if (this.lastTs !== null) return this.lastTs;
    return new Date(SYNTHETIC_EPOCH_MS + this.count * 1000).toISOString();
  }

  private attachAnnotations(): void {
    const pending = this.pending.splice(0);
    for (const a of pending) {
      const keyed = a.key !== null ? this.keyed.get(a.key) : undefined;
      const target = (keyed && (!this.sink || this.events.includes(keyed)) ? keyed : undefined) ?? this.events[Math.max(0, Math.min(a.fallback, this.events.length - 1))];
      if (!target) continue; // no events at all: the counts in the report still say what was there
      const meta: JsonObject = target.meta ?? {};
      const list = meta.annotations;
      if (Array.isArray(list)) list.push(a.data);
      else meta.annotations = [a.data];
      target.meta = meta;
    }
  }
}
