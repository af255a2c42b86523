// The sessions of one `hookwire serve` process. A live session owns what its decisions need and nothing more:
// a replay run (the engine's pure step function with its carry: state, time, the run's end, repeated ids), the
// recording's header and size, and a serial queue, so its events are dispatched one at a time in arrival order
// and budgets, breakers, TERMINATE and repeated ids are exact under any number of parallel calls [P15]. An
// event enters the state only after its line is in the recording, so the state is always what replaying the
// recording gives. That is also why a session can leave memory at any time it is not busy — when it ends, or
// when it has been idle past the timeout — and come back from its recording, exact, when an event arrives
// later [SV1][SV2]: memory holds the live sessions only, however long the server runs.
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { HookEvent } from '../../model/event.ts';
import type { Approval } from '../../model/approval.ts';
import { createReplayRun, type ReplayRun } from '../../replay/replaySteps.ts';
import type { ReplayStep } from '../../replay/types.ts';
import { recordedDecision } from '../../replay/recordedDecision.ts';
import { TRACE_FORMAT, TRACE_VERSION, type TraceEvent, type TraceHeader } from '../../trace/traceTypes.ts';
import { traceEventLine, traceHeaderLine } from '../../trace/traceToJsonl.ts';
import { createChainWriter, type ChainWriter, type PreparedLines } from '../../trace/hashChain.ts';
import { Integrity, anchorOf, readmitRecording, type ReadmitOutcome } from './integrity.ts';
import type { PipelineStore, PipelineVersion } from './pipelineStore.ts';
import { checkLineLength, IntegrityError, readRecording, RecordingError, type FlushPolicy, type RecordingContents } from './recordingFile.ts';
import { anchorPathOf, readAnchor, writeAnchor, type Anchor } from './recordingAnchor.ts';
import { traceIdProblem } from './limits.ts';
import { WriteFault } from './writeFault.ts';
import { WriterPool } from './writerPool.ts';

/** One dispatched event, as the live stream and the metrics see it. */
export interface LiveStep {
  trace_id: string;
  index: number;
  /** The event as recorded (with `recorded.decision`, `reason`, `pipeline`). */
  event: TraceEvent;
  step: ReplayStep;
}

export type DispatchOutcome =
  | { ok: true; step: ReplayStep; event: TraceEvent; index: number; version: string }
  /** The session cannot decide: the caller answers with its fail-closed answer. `status`: the HTTP status. */
  | { ok: false; status: number; reason: string };

/** Opening a session: created (201), known (200), or refused with a status and reason (nothing changed). */
export type OpenOutcome = { ok: true; created: boolean } | { ok: false; status: number; reason: string };

/** Makes the session's next event, given its 1-based number; a string refuses it (nothing changes). */
export type MakeEvent = (seq: number) => HookEvent | string;

export interface DispatchOptions {
  /**
   * The transport's answer to an ASK, made before the line is written so the recording holds it [P7][R15]
   * (the agent mapping's; null: the step's own). Called once per recorded event.
   */
  approvalOf?: (step: ReplayStep, event: HookEvent) => Approval | null;
  /**
   * Asked just before the line is written: a reason when the caller has already given up on the answer (the
   * forwarding command's deadline has passed, so it answered "blocked" itself). The event is then neither
   * recorded nor part of the session's state, so the recording never holds an answer nobody was given.
   */
  expired?: () => string | null;
}

export interface SessionLimits {
  /** A session with no event for this long leaves memory (ms; it comes back from its recording). */
  idleMs: number;
  /** Live sessions at most; one more is refused with 503 until some end or go idle. */
  maxSessions: number;
  /** Recording files kept open at once. */
  maxOpenFiles: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 15 * 60_000, maxSessions: 10_000, maxOpenFiles: 256 };

/** The event that ends a trace: after it an API trace answers 409; a hook session leaves memory and may resume. */
export const END_EVENT = 'agent.end';

/**
 * What a live session holds. Everything a decision depends on is in `run` (its carry is rebuilt by replaying
 * the recording); the rest is how to append to the recording and when the session may leave memory.
 */
interface Session {
  trace_id: string;
  file: string;
  header: TraceHeader;
  run: ReplayRun | null;
  version: string;
  /** The recording's size as this session wrote it: after a failed write the file is cut back to it [SV6]. */
  bytes: number;
  /** A write failed: repair the file (cut it to `bytes`) before the next line. */
  dirty: boolean;
  /** The end of the session's queue, and how many events are in it. */
  tail: Promise<unknown>;
  pending: number;
  lastUsed: number;
  /** An API trace that ended (answers 409); a hook session that ended just leaves memory. */
  ended: boolean;
  /** The type of the last event taken (a hook session whose last event ended it leaves memory). */
  lastType: string | null;
  /** The recording's hash chain [K1][K3], and its non-blank lines (its anchor says both after every append) [K6]. */
  chain: ChainWriter;
  lines: number;
}

export interface SessionSummary {
  trace_id: string;
  events: number;
  terminated: boolean;
  ended: boolean;
  failed: string | null;
  pipeline: string;
}

type Loaded = { ok: true; session: Session | null; created: boolean } | { ok: false; status: number; reason: string };

export class SessionHost {
  private readonly live = new Map<string, Session>();
  /** Loads in progress, so two events of a session that is not in memory load it once. */
  private readonly loading = new Map<string, Promise<Loaded>>();
  private readonly writers: WriterPool;
  private sweeper: ReturnType<typeof setInterval> | null = null;
  readonly dir: string;
  readonly fault: WriteFault;
  readonly integrity: Integrity;
  divergent = 0;
  /** Sessions that left memory, and came back from their recordings (for /metrics). */
  dropped = 0;
  reloaded = 0;
  /** Sessions whose recording could not be read when asked for (answered 503, the file left alone), by trace id. */
  readonly unreadable = new Map<string, string>();

  constructor(
    private readonly store: PipelineStore,
    stateDir: string,
    policy: FlushPolicy,
    private readonly onStep: (s: LiveStep) => void,
    private readonly log: (line: string) => void,
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.dir = join(stateDir, 'sessions');
    this.writers = new WriterPool(policy, limits.maxOpenFiles);
    this.fault = new WriteFault(this.dir, stateDir, log);
    this.integrity = Integrity.ofStateDir(stateDir);
  }

  /**
   * Reads every recording at start: a torn last line is cut, a bad recording is counted (its session answers 503
   * when asked for). Sessions that have not ended and were written within the idle timeout stay in memory.
   */
  async rebuild(): Promise<{ sessions: number; events: number; failed: number; cut: number }> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.integrity.start();
    let events = 0;
    let cut = 0;
    let failed = 0;
    for (const name of (await readdir(this.dir)).filter((n) => n.endsWith('.hwtrace.jsonl')).sort()) {
      const file = join(this.dir, name);
      try {
        const s = await this.fromRecording(file, null);
        if (!s) continue;
        if (s.cut > 0) {
          cut++;
          this.log(`hookwire serve: ${file}: cut a torn last line of ${s.cut} bytes (that event was never answered)`);
        }
        events += s.session.run?.count ?? 0;
        const idle = this.now() - (await stat(file)).mtimeMs >= this.limits.idleMs;
        if (!s.session.ended && !s.endedHook && !idle && this.live.size < this.limits.maxSessions) this.live.set(s.session.trace_id, s.session);
      } catch (err) {
        failed++;
        this.log(`hookwire serve: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.startSweeper();
    return { sessions: this.live.size, events, failed, cut };
  }

  /** Whether the trace is live or has a recording. */
  async known(trace_id: string): Promise<boolean> {
    if (this.live.has(trace_id)) return true;
    return (await stat(this.fileOf(trace_id)).catch(() => null))?.isFile() === true;
  }

  /**
   * Opens a session: created when it has neither a live state nor a recording; known (200) otherwise. A live
   * session (every event of a hook session after its first) is known at once, without a promise.
   */
  open(trace_id: string, agent_id: string, source: Record<string, string>, title?: string): OpenOutcome | Promise<OpenOutcome> {
    if (this.live.has(trace_id)) return KNOWN;
    return this.acquire(trace_id, { agent_id, source, ...(title !== undefined ? { title } : {}) }).then((r) => (r.ok ? { ok: true, created: r.created } : r));
  }

  /**
   * Queues one event of a session; resolves when it is recorded and decided (or refused). The outcome itself,
   * without a promise, when the event was taken at once: a live session with nothing queued, whose line was
   * written synchronously (`--flush write`, its file open) — the common case, and the answer can leave in the
   * same tick as the request's body arrived.
   */
  dispatch(trace_id: string, make: MakeEvent, options: DispatchOptions = {}): DispatchOutcome | Promise<DispatchOutcome> {
    const live = this.live.get(trace_id);
    return live !== undefined && !live.ended ? this.enqueue(live, make, options) : this.dispatchLoaded(trace_id, make, options);
  }

  /** {@link dispatch} of a session that is not live: loaded from its recording first (or refused). */
  private async dispatchLoaded(trace_id: string, make: MakeEvent, options: DispatchOptions): Promise<DispatchOutcome> {
    let s: Session;
    for (;;) {
      const r = await this.acquire(trace_id, null);
      if (!r.ok) return r;
      if (!r.session) return { ok: false, status: 404, reason: `no trace "${trace_id.slice(0, 100)}": start it first (POST /v1/traces)` };
      if (r.session.ended) return { ok: false, status: 409, reason: `trace "${trace_id.slice(0, 100)}" has ended` };
      s = r.session;
      // It may have left memory while this call waited for it: then it is loaded again, never used twice.
      if (this.live.get(trace_id) === s) break;
    }
    return this.enqueue(s, make, options);
  }

  /** The event's turn in its session's queue: at once when the session is idle, else after the events before it [P15]. */
  private enqueue(s: Session, make: MakeEvent, options: DispatchOptions): DispatchOutcome | Promise<DispatchOutcome> {
    const idle = s.pending === 0;
    s.pending++;
    s.lastUsed = this.now();
    let turn: DispatchOutcome | Promise<DispatchOutcome>;
    if (idle) {
      try {
        turn = this.step(s, make, options);
      } catch (err) {
        turn = Promise.reject(err);
      }
      // Done at once: the turn is over before anything else could queue behind it.
      if (!(turn instanceof Promise)) {
        this.settle(s);
        return turn;
      }
    } else turn = s.tail.then(() => this.step(s, make, options));
    const settle = () => this.settle(s);
    s.tail = turn.then(settle, settle);
    return turn;
  }

  summaries(): SessionSummary[] {
    const live = [...this.live.values()].map((s): SessionSummary => ({ trace_id: s.trace_id, events: s.run?.count ?? 0, terminated: s.run?.carry.ended != null, ended: s.ended, failed: null, pipeline: s.version }));
    const bad = [...this.unreadable].map(([trace_id, failed]): SessionSummary => ({ trace_id, events: 0, terminated: false, ended: false, failed, pipeline: '' }));
    return [...live, ...bad];
  }

  /** Live sessions (in memory). */
  get size(): number {
    return this.live.size;
  }

  /** Events waiting in the sessions' queues (beside the one being decided in each). */
  queued(): number {
    let n = 0;
    for (const s of this.live.values()) n += Math.max(0, s.pending - 1);
    return n;
  }

  get openFiles(): number {
    return this.writers.size;
  }

  fileOf(trace_id: string): string {
    // Session ids are untrusted: a readable prefix plus a hash, so no id can name another path or collide.
    const safe = trace_id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60);
    return join(this.dir, `${safe}-${createHash('sha256').update(trace_id).digest('hex').slice(0, 12)}.hwtrace.jsonl`);
  }

  /** Drops every idle session (no event for the idle timeout, none queued) from memory. */
  sweep(): void {
    const t = this.now();
    for (const s of this.live.values()) if (s.pending === 0 && t - s.lastUsed >= this.limits.idleMs) void this.drop(s);
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.fault.close();
    await Promise.all([...this.live.values()].map((s) => s.tail));
    await this.writers.closeAll();
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.min(this.limits.idleMs / 4, 30_000)));
    this.sweeper.unref();
  }

  /** The live session, loaded from its recording when it is not in memory, or created when `create` is given. */
  private acquire(trace_id: string, create: { agent_id: string; source: Record<string, string>; title?: string } | null): Promise<Loaded> {
    const s = this.live.get(trace_id);
    if (s) return Promise.resolve({ ok: true, session: s, created: false });
    const bad = traceIdProblem(trace_id);
    if (bad) return Promise.resolve({ ok: false, status: 400, reason: bad });
    const busy = this.loading.get(trace_id);
    if (busy) return busy.then((r) => (r.ok && !r.session && create ? this.acquire(trace_id, create) : r.ok ? { ...r, created: false } : r));
    const p = this.load(trace_id, create).finally(() => this.loading.delete(trace_id));
    this.loading.set(trace_id, p);
    return p;
  }

  private async load(trace_id: string, create: { agent_id: string; source: Record<string, string>; title?: string } | null): Promise<Loaded> {
    const file = this.fileOf(trace_id);
    let found: Awaited<ReturnType<SessionHost['fromRecording']>>;
    try {
      found = await this.fromRecording(file, trace_id);
    } catch (err) {
      // The file is left as it is: a person decides what to do with it (a 201 must never write over it).
      const reason = err instanceof Error ? err.message : String(err);
      this.unreadable.set(trace_id, reason);
      return { ok: false, status: 503, reason };
    }
    this.unreadable.delete(trace_id);
    if (found) {
      if (found.cut > 0) this.log(`hookwire serve: ${file}: cut a torn last line of ${found.cut} bytes (that event was never answered)`);
      if (found.session.ended) return { ok: true, session: found.session, created: false };
      const full = this.full();
      if (full) return full;
      this.reloaded++;
      this.live.set(trace_id, found.session);
      return { ok: true, session: found.session, created: false };
    }
    if (!create) return { ok: true, session: null, created: false };
    if (!(await this.fault.canCreate())) return { ok: false, status: 503, reason: this.fault.refusal() };
    const full = this.full();
    if (full) return full;
    const header: TraceHeader = {
      format: TRACE_FORMAT,
      version: TRACE_VERSION,
      trace_id,
      agent_id: create.agent_id,
      source: { kind: 'hookwire-serve', pipeline: this.store.current.name, ...create.source },
      created: new Date(this.now()).toISOString(),
      ...(create.title !== undefined ? { title: create.title } : {}),
    };
    const s = this.newSession(trace_id, file, header, 0);
    const failed = await this.writeHeader(s);
    if (failed) return failed;
    this.live.set(trace_id, s);
    return { ok: true, session: s, created: true };
  }

  /**
   * Writes a new session's header before the session is answered as created [P17]: a trace that got its 201
   * survives a crash before its first event. A failed write removes what it may have left and fails closed
   * like an event's (503) [SV6]; the session is not made.
   */
  private async writeHeader(s: Session): Promise<Loaded | null> {
    const out = s.chain.prepare(traceHeaderLine(s.header));
    const bytes = Buffer.byteLength(out.text, 'utf8');
    try {
      await this.writers.append(s.file, out.text, bytes, anchorAfter(s, out, bytes));
    } catch (err) {
      await this.writers.close(s.file);
      await rm(s.file, { force: true }).catch(() => undefined);
      await rm(anchorPathOf(s.file), { force: true }).catch(() => undefined);
      return { ok: false, status: 503, reason: `${this.fault.enter(err)} (session "${s.trace_id.slice(0, 100)}")` };
    }
    s.bytes += bytes;
    out.commit();
    s.lines += out.lines.length;
    return null;
  }

  private full(): Loaded | null {
    if (this.live.size < this.limits.maxSessions) return null;
    this.sweep();
    return { ok: false, status: 503, reason: `the server holds ${this.live.size} live sessions, its limit (--max-sessions ${this.limits.maxSessions}): end sessions (POST /v1/traces/<id>/end, SessionEnd) or wait for idle ones to leave memory` };
  }

  /** A session rebuilt from its recording (null: none yet); throws RecordingError when it cannot be read. */
  private async fromRecording(file: string, trace_id: string | null): Promise<{ session: Session; cut: number; endedHook: boolean } | null> {
    let rec: RecordingContents | null;
    try {
      rec = await readRecording(file);
    } catch (err) {
      // [K6] lines that were answered are gone: refused, the file left as it is, until re-admitted.
      if (err instanceof IntegrityError) throw new IntegrityError(`${err.message}; re-admit it deliberately with POST /v1/traces/<id>/readmit`);
      throw err;
    }
    if (!rec) return null;
    const anchor = await readAnchor(file);
    const broken = await this.integrity.problem(file, rec.chain, anchor !== null);
    if (broken) throw new IntegrityError(broken);
    if (trace_id !== null && rec.header.trace_id !== trace_id) throw new RecordingError(`the recording ${file} belongs to trace "${rec.header.trace_id.slice(0, 100)}", not "${trace_id.slice(0, 100)}", so the session fails closed`);
    const s = this.newSession(rec.header.trace_id, file, rec.header, (await stat(file)).size);
    // Appends continue the file's hash chain [K3].
    s.chain = createChainWriter(rec.chain.tail);
    s.lines = rec.chain.lines;
    for (const e of rec.events) {
      await this.useVersion(s, e.recorded?.pipeline ?? this.store.current.version);
      const step = s.run!.push(e);
      if (e.recorded && step.decision !== e.recorded.decision) this.divergent++;
    }
    // [K6] The anchor reaches the recording's end: lines written after the last anchor (a crash between the
    // append and the anchor) are in the state from now on, and a recording of an older server gets its anchor.
    // Best effort: an anchor left behind only protects fewer lines (a disk that takes no writes fails the session's
    // next event anyway [SV6]).
    const end = anchorOf(rec);
    if (end && (anchor?.bytes !== end.bytes || anchor.head !== end.head)) {
      try {
        writeAnchor(file, end);
      } catch (err) {
        this.log(`hookwire serve: could not write the anchor of ${file}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const last = rec.events.at(-1);
    s.lastType = last?.type ?? null;
    const endedHook = last?.type === END_EVENT && isHookSession(rec.header);
    s.ended = last?.type === END_EVENT && !isHookSession(rec.header);
    return { session: s, cut: rec.cut, endedHook };
  }

  private newSession(trace_id: string, file: string, header: TraceHeader, bytes: number): Session {
    return { trace_id, file, header, run: null, version: '', bytes, dirty: false, tail: Promise.resolve(), pending: 0, lastUsed: this.now(), ended: false, lastType: null, chain: createChainWriter(), lines: 0 };
  }

  /** After an event's turn: a session with nothing queued that has ended leaves memory. */
  private settle(s: Session): void {
    s.pending--;
    if (s.pending === 0 && (s.ended || s.lastType === END_EVENT)) void this.drop(s);
  }

  private async drop(s: Session): Promise<void> {
    if (this.live.get(s.trace_id) !== s) return;
    this.live.delete(s.trace_id);
    this.dropped++;
    await this.writers.close(s.file);
  }

  /** Dispatches the session's next events with this pipeline version (state carries over). */
  private async useVersion(s: Session, version: string): Promise<void> {
    if (s.run && s.version === version) return;
    const v = version === this.store.current.version ? this.store.current : await this.store.get(version);
    if (s.run) s.run.setPipeline(v.loaded.compiled);
    else s.run = createReplayRun(v.loaded.compiled, { explain: false });
    s.version = version;
  }

  /**
   * One event's turn. Synchronous from the event's making to its answer when nothing needs waiting for (no write
   * fault to probe, no other pipeline version to load, no file to repair or open, no sync to wait for); else
   * the same steps continue in a promise.
   */
  private step(s: Session, make: MakeEvent, options: DispatchOptions): DispatchOutcome | Promise<DispatchOutcome> {
    if (s.ended) return { ok: false, status: 409, reason: `trace "${s.trace_id.slice(0, 100)}" has ended` };
    if (this.fault.current !== null) return this.fault.writable().then((ok) => (ok ? this.stepWritable(s, make, options) : { ok: false, status: 503, reason: this.fault.refusal() }));
    return this.stepWritable(s, make, options);
  }

  private stepWritable(s: Session, make: MakeEvent, options: DispatchOptions): DispatchOutcome | Promise<DispatchOutcome> {
    // Read `current` now, at this event's turn: a reload lands between two events of every session [hot reload].
    const current = this.store.current;
    if (s.run === null || s.version !== current.version) {
      return this.useVersion(s, current.version).then(
        () => this.decide(s, make, options, current),
        (err): DispatchOutcome => ({ ok: false, status: 503, reason: `session "${s.trace_id.slice(0, 100)}" fails closed: ${err instanceof Error ? err.message : String(err)}` }),
      );
    }
    return this.decide(s, make, options, current);
  }

  private decide(s: Session, make: MakeEvent, options: DispatchOptions, current: PipelineVersion): DispatchOutcome | Promise<DispatchOutcome> {
    const run = s.run!;
    const made = make(run.count + 1);
    if (typeof made === 'string') return { ok: false, status: 400, reason: made };
    const preview = run.preview(made);
    const { step } = preview;
    // [R6][R15][S14][R17] the one record shape; the agent's own answer to an ASK when its mapping made one.
    const recorded = recordedDecision(step, { approval: options.approvalOf?.(step, made) ?? step.approval, pipeline: current.version });
    // Copied, then `recorded` added: `{ ...made, recorded }` is ~4 µs in Node 20's V8 (a spread followed by a
    // property makes a new hidden class each time); the event's fields are the mapping's own names.
    const event: TraceEvent = Object.assign({}, made);
    event.recorded = recorded;
    let out: PreparedLines;
    try {
      const line = traceEventLine(event, s.header);
      // The header was written when the session was created. Chained before the length check: the check must
      // see the line as written [K1].
      out = s.chain.prepare(line);
      checkLineLength(out.lines.at(-1)!);
    } catch (err) {
      // Refused before anything was written: the session stays as it was.
      if (err instanceof RecordingError) return { ok: false, status: 413, reason: err.message };
      throw err;
    }
    const taken: Taken = { made, event, step, preview, out, bytes: Buffer.byteLength(out.text, 'utf8'), version: current.version };
    if (s.dirty) return this.repair(s).then(() => this.write(s, options, taken), (err) => this.writeFailed(s, err));
    return this.write(s, options, taken);
  }

  /** [K6] the line, then its anchor, then the answer: an answered line cut off later is seen. */
  private write(s: Session, options: DispatchOptions, t: Taken): DispatchOutcome | Promise<DispatchOutcome> {
    let pending: Promise<void> | null;
    try {
      const gone = options.expired?.() ?? null;
      if (gone !== null) return { ok: false, status: 504, reason: gone };
      pending = this.writers.append(s.file, t.out.text, t.bytes, anchorAfter(s, t.out, t.bytes));
    } catch (err) {
      return this.writeFailed(s, err);
    }
    if (pending !== null) return pending.then(() => this.take(s, t), (err) => this.writeFailed(s, err));
    return this.take(s, t);
  }

  /**
   * A failed write may have left part of a line behind: the file is cut back before the next line, and the
   * whole server fails closed until the disk takes writes again [SV6].
   */
  private async writeFailed(s: Session, err: unknown): Promise<DispatchOutcome> {
    s.dirty = true;
    await this.writers.close(s.file);
    return { ok: false, status: 503, reason: `${this.fault.enter(err)} (session "${s.trace_id.slice(0, 100)}")` };
  }

  /** The line is written: the event enters the session's state and is answered. */
  private take(s: Session, t: Taken): DispatchOutcome {
    s.bytes += t.bytes;
    t.out.commit();
    s.lines += t.out.lines.length;
    t.preview.commit();
    s.lastType = t.made.type;
    if (t.made.type === END_EVENT && !isHookSession(s.header)) s.ended = true;
    const index = s.run!.count - 1;
    this.onStep({ trace_id: s.trace_id, index, event: t.event, step: t.step });
    return { ok: true, step: t.step, event: t.event, index, version: t.version };
  }

  /**
   * Re-admits a recording refused for its integrity, deliberately: the operator's reason and the overridden
   * error go to readmissions.jsonl, and the session is rebuilt from the recording as it now is [SV8].
   */
  async readmit(trace_id: string, reason: string): Promise<ReadmitOutcome> {
    if (this.live.has(trace_id)) return { ok: false, status: 409, reason: `trace "${trace_id.slice(0, 100)}" is live: its recording was not refused` };
    const file = this.fileOf(trace_id);
    const r = await readmitRecording(this.integrity, file, { trace_id, reason, at: new Date(this.now()).toISOString() });
    if (!r.ok) return r.status === 404 ? { ok: false, status: 404, reason: `no trace "${trace_id.slice(0, 100)}"` } : r;
    this.unreadable.delete(trace_id);
    this.log(`hookwire serve: re-admitted ${file} (${reason}); it was refused with: ${r.problem}`);
    return r;
  }

  /** Cuts the recording back to what this session wrote (a failed write's partial line, or a line never answered). */
  private async repair(s: Session): Promise<void> {
    await truncate(s.file, s.bytes).catch((err) => {
      if ((err as { code?: string }).code !== 'ENOENT' || s.bytes !== 0) throw err;
    });
    s.dirty = false;
  }
}

/** What `open` answers for a live session. */
const KNOWN: OpenOutcome = Object.freeze({ ok: true, created: false });

/** An event decided and its line made, waiting for the line to be written. */
interface Taken {
  made: HookEvent;
  event: TraceEvent;
  step: ReplayStep;
  preview: ReturnType<ReplayRun['preview']>;
  out: PreparedLines;
  bytes: number;
  version: string;
}

/** A session opened by a hook route (Claude Code, an agent's hook) rather than the JSON API. */
function isHookSession(header: TraceHeader): boolean {
  return typeof header.source.hook === 'string';
}

/** The anchor after `out` (`bytes` long) is appended to the session's recording [K6]; undefined for an unchained recording. */
function anchorAfter(s: Session, out: PreparedLines, bytes: number): Anchor | undefined {
  return out.head !== null ? { lines: s.lines + out.lines.length, bytes: s.bytes + bytes, head: out.head } : undefined;
}

