import type { JsonObject, JsonValue } from '../../model/json.ts';
import { mapIdIndex, type IdIndex, type IdIndexFactory } from '../../model/idIndex.ts';
import { traceProblem, type TraceProblem } from '../traceProblem.ts';
import type { TraceFormat } from '../detectTraceFormat.ts';
import { TRACE_FORMAT, TRACE_VERSION, type TraceEvent, type TraceHeader, type TraceSource } from '../traceTypes.ts';
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

/**
 * Where an annotation goes: the event with that key, or else the event current when it was seen (`fallback`; null
 * before any event: then the first event).
 */
interface PendingAnnotation {
  key: string | null;
  fallback: TraceEvent | null;
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
  /** Where ids are kept (the keys of `keyedLater` go to an index of the same kind). */
  private readonly idIndex: IdIndexFactory;
  private readonly keyed = new Map<string, TraceEvent>();
  private readonly pending: PendingAnnotation[] = [];
  /**
   * Streaming with keys resolved later (`streamTo(sink, { keyedLater: true })`): the keys given so far, so that an
   * annotation whose event was already handed over goes to its fallback instead of waiting (kept where the ids
   * are, a spilled index in the CLI: one key per event, held to the end, was 4% of an import's CPU samples as a
   * Set and more in the garbage collector's); and the events the importer holds back (`hold`) because an
   * annotation may still come for them.
   */
  private emittedKeys: IdIndex<number> | null = null;
  /**
   * With `keyedLater`: the key of each event in `events` (null for none), side by side with it, so the held event of
   * a key is found there and goes when its event goes. It replaced a Map of keyed events pruned when it had doubled:
   * the ~1,000 handed-over events it kept alive across collections made the young generation promote 45 MB of a
   * 48 MB transcript's objects (15 MB without), and a set and a delete per keyed event were ~2% of the CPU samples.
   */
  private readonly eventKeys: (string | null)[] = [];
  /** With `keyedLater`: whether each event in `events` is held (`hold`), side by side with it like eventKeys (a Set of held events was an add and a delete per tool call). */
  private readonly eventHeld: boolean[] = [];
  /** The header promised before the first event was handed over (announceHeader), and what `finish` checks against. */
  private announce: { source: () => TraceSource; onHeader: (header: TraceHeader) => void; sent: string | null } | null = null;
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
    this.idIndex = ids ?? mapIdIndex;
    this.ids = this.idIndex<number>();
  }

  /**
   * Streams: from now on each event goes to `sink` as soon as the next one is emitted (the newest is held
   * back so that annotations seen after it still attach to it), and nothing is kept. Keyed annotations
   * reach their event only while it is held; otherwise they go to the current event.
   */
  streamTo(sink: (event: TraceEvent) => void, options: { keyedLater?: boolean } = {}): void {
    this.sink = sink;
    if (options.keyedLater) this.emittedKeys = this.idIndex<number>();
  }

  /**
   * With `keyedLater`: keeps `event` (and every event after it) from the sink until `release`, so that a keyed
   * annotation that comes later still reaches it, as it would in a whole import. Annotations are attached in the
   * order they came, as a whole import attaches them at the end: one whose key has not been emitted yet holds
   * back the events from its fallback on until the key comes (or the import ends).
   */
  hold(event: TraceEvent): void {
    this.setHeld(event, true);
  }

  release(event: TraceEvent): void {
    this.setHeld(event, false);
  }

  /** Releases every held event. */
  releaseAll(): void {
    this.eventHeld.fill(false);
  }

  /** Only `events` can be held (one handed over is gone); searched from the newest, where a just-emitted event is. */
  private setHeld(event: TraceEvent, held: boolean): void {
    if (!this.emittedKeys) return;
    const i = this.events.lastIndexOf(event);
    if (i >= 0) this.eventHeld[i] = held;
  }

  /**
   * Streaming: the importer promises that its header is fixed by its first event — the trace and agent ids then,
   * `source()` (called once, before the first event is handed over), the first event's time — so `onHeader` gets
   * it before any event and a writer can put it first without holding the events. `finish` checks the promise.
   */
  announceHeader(source: () => TraceSource, onHeader: (header: TraceHeader) => void): void {
    this.announce = { source, onHeader, sent: null };
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
    if (this.emittedKeys) {
      this.eventKeys.push(options.key ?? null);
      this.eventHeld.push(false);
    }
    if (options.key !== undefined && this.emittedKeys) {
      if (this.emittedKeys.addIfAbsent) this.emittedKeys.addIfAbsent(options.key, 1);
      else this.emittedKeys.set(options.key, 1);
    } else if (options.key !== undefined && !this.sink) this.keyed.set(options.key, event);
    bump(this.report.event_counts, type);
    if (type === 'tool.before_call') this.report.tool_calls++;
    if (type === 'model.before_call') this.report.model_calls++;
    if (this.emittedKeys && this.pending.length > 0) this.attachInOrder();
    else if (this.sink && this.pending.length > 0) this.attachAnnotations();
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
    this.pending.push({ key, fallback: this.events[this.events.length - 1] ?? null, data: { ...data, kind } });
    if (this.emittedKeys) this.attachInOrder();
    else if (this.sink) this.attachAnnotations();
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
    this.eventHeld.fill(false);
    if (this.sink) this.handOver();
    if (this.duplicateIds > 0) this.warn(`${this.duplicateIds} source ids appeared more than once; their events got ids ending in #2, #3, ...`);
    if (this.report.synthetic_timestamps > 0) {
      this.note(`${this.report.synthetic_timestamps} event timestamps were synthesised (the source has no time for them): they keep the order, not the real time`);
    }
    const report = this.report;
    report.source_records = sourceRecords;
    report.events = this.count;
    const header = this.header(source, created);
    const sent = this.announce?.sent;
    if (sent && JSON.stringify(header) !== sent) throw new Error(`importer bug: the header changed after it was announced (${sent} → ${JSON.stringify(header)})`);
    return { ok: true, trace: { header, events: this.events }, report, problems: this.problems };
  }

  private header(source: TraceSource, created?: string): TraceHeader {
    return {
      format: TRACE_FORMAT,
      version: TRACE_VERSION,
      trace_id: this.traceId,
      agent_id: this.agentId,
      source,
      created: created ?? this.firstTs ?? new Date(SYNTHETIC_EPOCH_MS).toISOString(),
    };
  }

  private firstTs: string | null = null;

  private handOver(): void {
    const sink = this.sink as (event: TraceEvent) => void;
    const n = this.emittedKeys ? this.releasable() : this.events.length;
    if (n === 0) return;
    if (this.announce && this.announce.sent === null) {
      const header = this.header(this.announce.source());
      this.announce.sent = JSON.stringify(header);
      this.announce.onHeader(header);
    }
    // The sink only writes (it never emits): the events go out in place, and the array is not copied per event.
    const events = this.events;
    for (let i = 0; i < n; i++) {
      this.handedOver++;
      sink(events[i] as TraceEvent);
    }
    if (n === events.length) {
      events.length = 0;
      this.eventKeys.length = 0;
      this.eventHeld.length = 0;
    } else {
      events.splice(0, n);
      this.eventKeys.splice(0, n);
      this.eventHeld.splice(0, n);
    }
  }

  /** With `keyedLater`: how many events at the front may go: those before a held one and before the first waiting annotation's fallback. */
  private releasable(): number {
    const waiting = this.pending[0];
    if (waiting && waiting.fallback === null) return 0;
    const stop = waiting?.fallback;
    const events = this.events;
    let n = 0;
    while (n < events.length && events[n] !== stop && !this.eventHeld[n]) n++;
    return n;
  }

  /**
   * With `keyedLater`: the held event with this key, the newest if several (one handed over no longer counts, and
   * events go in order, so an older one with the key has gone too when the newest has).
   */
  private heldByKey(key: string): TraceEvent | undefined {
    const i = this.eventKeys.lastIndexOf(key);
    return i < 0 ? undefined : this.events[i];
  }

  /**
   * With `keyedLater`: attaches waiting annotations in the order they came: each to its keyed event once that is
   * emitted, to its fallback when the key's event was already handed over (or at the end, `final`), an unkeyed one
   * to its fallback.
   */
  private attachInOrder(final = false): void {
    while (this.pending.length > 0) {
      const a = this.pending[0] as PendingAnnotation;
      let target = a.key !== null ? this.heldByKey(a.key) : undefined;
      if (!target && a.key !== null && !final && (this.emittedKeys as IdIndex<number>).get(a.key) === undefined) return; // its event may still come
      target ??= a.fallback ?? this.events[0];
      if (!target && !final) return; // no event yet: the first one takes it
      this.pending.shift();
      if (target) this.attachTo(target, a.data);
    }
  }

  private attachTo(target: TraceEvent, data: JsonObject): void {
    const meta: JsonObject = target.meta ?? {};
    const list = meta.annotations;
    if (Array.isArray(list)) list.push(data);
    else meta.annotations = [data];
    target.meta = meta;
  }

  private uniqueId(base: string): string {
    const ids = this.ids;
    let n: number | undefined;
    if (ids.addIfAbsent) n = ids.addIfAbsent(base, 1);
    else if ((n = ids.get(base)) === undefined) ids.set(base, 1);
    if (n === undefined) return base;
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
    if (this.emittedKeys) return this.attachInOrder(true);
    const pending = this.pending.splice(0);
    for (const a of pending) {
      const keyed = a.key !== null ? this.keyed.get(a.key) : undefined;
      // Without a sink every event is here; streaming, only the newest, which is the fallback of one seen now.
      const fallback = a.fallback ?? this.events[0];
      const target = (keyed && (!this.sink || this.events.includes(keyed)) ? keyed : undefined) ?? fallback;
      if (!target) {
        // Streaming, before the first event: it waits for that event, where a whole import puts it. Else no
        // events at all: the counts in the report still say what was there.
        if (this.sink) this.pending.push(a);
        continue;
      }
      this.attachTo(target, a.data);
    }
  }
}
