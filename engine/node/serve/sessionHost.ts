// The sessions of one `hookwire serve` process. Each session owns its state in memory (a replay run: the
// engine's pure step function with its carry) and a serial queue: its events are dispatched one at a time in
// arrival order, so budgets, breakers, TERMINATE and repeated ids are exact under any number of parallel
// calls. An event is taken into the state only after its line is in the recording, so the state is always
// what replaying the recording gives — also after kill -9 and a restart, which rebuilds every session.
import { createHash } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { HookEvent } from '../../model/event.ts';
import { createReplayRun, type ReplayRun } from '../../replay/replaySteps.ts';
import type { ReplayStep } from '../../replay/types.ts';
import { TRACE_FORMAT, TRACE_VERSION, type RecordedDecision, type TraceEvent, type TraceHeader } from '../../trace/traceTypes.ts';
import { traceEventLine, traceHeaderLine } from '../../trace/traceToJsonl.ts';
import { createChainWriter, type ChainWriter } from '../../trace/hashChain.ts';
import type { PipelineStore } from './pipelineStore.ts';
import { checkLineLength, openRecordingWriter, readRecording, RecordingError, type FlushPolicy, type RecordingWriter } from './recordingFile.ts';

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

/** Makes the session's next event, given its 1-based number; a string refuses it (nothing changes). */
export type MakeEvent = (seq: number) => HookEvent | string;

export interface DispatchOptions {
  /** The event ends the trace (POST /end): nothing is dispatched after it. */
  end?: boolean;
  /** What the transport adds to the recorded decision (the Claude mapping's answer to an ASK) [P7][R15]. */
  annotate?: (step: ReplayStep, event: HookEvent) => Partial<RecordedDecision>;
  /**
   * Asked just before the line is written: a reason when the caller has already given up on the answer (the
   * forwarding command's deadline has passed, so it answered "blocked" itself). The event is then neither
   * recorded nor part of the session's state, so the recording never holds an answer nobody was given.
   */
  expired?: () => string | null;
}

interface Session {
  trace_id: string;
  file: string;
  header: TraceHeader;
  run: ReplayRun | null;
  version: string;
  writer: RecordingWriter | null;
  /** The end of the session's queue. */
  tail: Promise<unknown>;
  /** Set when the session cannot be trusted any more (bad recording, failed write): it fails closed. */
  failed: string | null;
  ended: boolean;
  /** A header still to be written before the first event (a new session). */
  newFile: boolean;
  /** The recording's hash chain [K1][K3]. */
  chain: ChainWriter;
}

export interface SessionSummary {
  trace_id: string;
  events: number;
  terminated: boolean;
  ended: boolean;
  failed: string | null;
  pipeline: string;
}

export class SessionHost {
  private readonly sessions = new Map<string, Session>();
  /** Recordings that could not be read at start, by file: their session fails closed when it comes back. */
  private readonly badFiles = new Map<string, string>();
  readonly dir: string;
  divergent = 0;

  constructor(
    private readonly store: PipelineStore,
    stateDir: string,
    private readonly policy: FlushPolicy,
    private readonly onStep: (s: LiveStep) => void,
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.dir = join(stateDir, 'sessions');
  }

  /** Rebuilds every session from its recording (a torn last line is cut; a bad recording fails its session closed). */
  async rebuild(): Promise<{ sessions: number; events: number; failed: number; cut: number }> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    let events = 0;
    let cut = 0;
    for (const name of (await readdir(this.dir)).filter((n) => n.endsWith('.hwtrace.jsonl')).sort()) {
      const file = join(this.dir, name);
      try {
        const rec = await readRecording(file);
        if (!rec) continue;
        if (rec.cut > 0) {
          cut++;
          this.log(`hookwire serve: ${file}: cut a torn last line of ${rec.cut} bytes (that event was never answered)`);
        }
        const s = this.newSession(rec.header.trace_id, file, rec.header, false);
        // Appends continue the file's hash chain [K3] (what serve does about a broken one is its own rule).
        s.chain = createChainWriter(rec.chain.tail);
        for (const e of rec.events) {
          await this.useVersion(s, e.recorded?.pipeline ?? this.store.current.version);
          const step = s.run!.push(e);
          if (e.recorded && step.decision !== e.recorded.decision) this.divergent++;
        }
        events += rec.events.length;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        this.badFiles.set(file, message);
        this.log(`hookwire serve: ${message}`);
      }
    }
    return { sessions: this.sessions.size, events, failed: this.badFiles.size, cut };
  }

  has(trace_id: string): boolean {
    return this.sessions.has(trace_id);
  }

  /** Opens a session (idempotent): false when one with this id is known already. */
  open(trace_id: string, agent_id: string, source: Record<string, string>, title?: string): boolean {
    if (this.sessions.has(trace_id)) return false;
    const header: TraceHeader = {
      format: TRACE_FORMAT,
      version: TRACE_VERSION,
      trace_id,
      agent_id,
      source: { kind: 'hookwire-serve', pipeline: this.store.current.name, ...source },
      created: new Date(this.now()).toISOString(),
      ...(title !== undefined ? { title } : {}),
    };
    this.newSession(trace_id, this.fileOf(trace_id), header, true);
    return true;
  }

  /** Queues one event of a session; resolves when it is recorded and decided (or refused). */
  dispatch(trace_id: string, make: MakeEvent, options: DispatchOptions = {}): Promise<DispatchOutcome> {
    const s = this.sessions.get(trace_id);
    if (!s) return Promise.resolve({ ok: false, status: 404, reason: `no trace "${trace_id.slice(0, 100)}": start it first (POST /v1/traces)` });
    const turn = s.tail.then(() => this.step(s, make, options));
    s.tail = turn.catch(() => undefined);
    return turn;
  }

  summaries(): SessionSummary[] {
    return [...this.sessions.values()].map((s) => ({
      trace_id: s.trace_id,
      events: s.run?.count ?? 0,
      terminated: s.run?.carry.ended != null,
      ended: s.ended,
      failed: s.failed,
      pipeline: s.version,
    }));
  }

  get size(): number {
    return this.sessions.size;
  }

  failedCount(): number {
    return [...this.sessions.values()].filter((s) => s.failed !== null).length;
  }

  fileOf(trace_id: string): string {
    // Session ids are untrusted: a readable prefix plus a hash, so no id can name another path or collide.
    const safe = trace_id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60);
    return join(this.dir, `${safe}-${createHash('sha256').update(trace_id).digest('hex').slice(0, 12)}.hwtrace.jsonl`);
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map(async (s) => {
      await s.tail;
      await s.writer?.close();
    }));
  }

  private newSession(trace_id: string, file: string, header: TraceHeader, newFile: boolean): Session {
    const s: Session = { trace_id, file, header, run: null, version: '', writer: null, tail: Promise.resolve(), failed: this.badFiles.get(file) ?? null, ended: false, newFile, chain: createChainWriter() };
    this.sessions.set(trace_id, s);
    return s;
  }

  /** Dispatches the session's next events with this pipeline version (state carries over). */
  private async useVersion(s: Session, version: string): Promise<void> {
    if (s.run && s.version === version) return;
    const v = version === this.store.current.version ? this.store.current : await this.store.get(version);
    if (s.run) s.run.setPipeline(v.loaded.compiled);
    else s.run = createReplayRun(v.loaded.compiled, { explain: false });
    s.version = version;
  }

  private async step(s: Session, make: MakeEvent, options: DispatchOptions): Promise<DispatchOutcome> {
    if (s.failed) return { ok: false, status: 503, reason: s.failed };
    if (s.ended) return { ok: false, status: 409, reason: `trace "${s.trace_id.slice(0, 100)}" has ended` };
    // Read `current` now, at this event's turn: a reload lands between two events of every session [hot reload].
    const current = this.store.current;
    try {
      await this.useVersion(s, current.version);
    } catch (err) {
      return this.fail(s, err);
    }
    const run = s.run!;
    const made = make(run.count + 1);
    if (typeof made === 'string') return { ok: false, status: 400, reason: made };
    const preview = run.preview(made);
    const { step } = preview;
    const recorded: RecordedDecision = {
      decision: step.decision,
      ...(step.reason ? { reason: step.reason } : {}),
      ...(step.approval && step.mode === 'sync' ? { approval: step.approval } : {}),
      ...(step.context.length > 0 ? { context: [...step.context] } : {}),
      ...options.annotate?.(step, made),
      pipeline: current.version,
    };
    const event: TraceEvent = { ...made, recorded };
    try {
      const line = traceEventLine(event, s.header);
      // Chained before the length check: the check must see the line as written [K1].
      const out = s.newFile ? s.chain.prepare(traceHeaderLine(s.header), line) : s.chain.prepare(line);
      checkLineLength(out.lines.at(-1)!);
      if (!s.writer) s.writer = await openRecordingWriter(s.file, this.policy);
      const gone = options.expired?.() ?? null;
      if (gone !== null) return { ok: false, status: 504, reason: gone };
      // The header goes out with the first event in one write, so a file never holds a header alone.
      await s.writer.append(out.text);
      out.commit();
      s.newFile = false;
    } catch (err) {
      // Refused before anything was written: the session stays as it was. A failed write may have left part of a
      // line behind: the session fails closed until a restart cuts it off.
      if (err instanceof RecordingError) return { ok: false, status: 413, reason: err.message };
      return this.fail(s, err);
    }
    preview.commit();
    if (options.end) {
      s.ended = true;
      await s.writer?.close();
      s.writer = null;
    }
    const index = run.count - 1;
    this.onStep({ trace_id: s.trace_id, index, event, step });
    return { ok: true, step, event, index, version: current.version };
  }

  private fail(s: Session, err: unknown): DispatchOutcome {
    s.failed = `session "${s.trace_id.slice(0, 100)}" fails closed: ${err instanceof Error ? err.message : String(err)}`;
    this.log(`hookwire serve: ${s.failed}`);
    return { ok: false, status: 503, reason: s.failed };
  }
}
