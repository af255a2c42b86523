import { traceSchemas, TRACE_FORMAT, TRACE_VERSION, type TraceEvent, readTrace, type Pipeline } from '../../engine/app.ts';
import type { HookwireDb } from '../persistence/db.ts';
import type { StoredTrace } from '../persistence/storedTrace.ts';
import { beginTrace, removeTraceNow, renameTrace, writeTraceTail } from '../persistence/traceLibrary.ts';
import type { AppStore } from '../store/appStore.ts';
import type { ReplayService } from './replayService.ts';
import { checkImport } from '../model/exportPipeline.ts';
import { getSetting, readPipeline, setSetting } from '../persistence/library.ts';
import type { Workspace } from '../persistence/workspace.ts';

/**
 * The live view of a running `hookwire serve`: reads its event stream (server-sent events over fetch, since
 * EventSource cannot send the bearer token), keeps the followed session as a trace in the library that grows
 * as events arrive, and opens it in the debugger, so the timeline shows each event with the server's decision
 * (`recorded`) beside the open pipeline's replay. Pausing stops the timeline from moving (arrivals wait);
 * "keep" leaves the trace in the library; pushing the editor's pipeline to the server is a separate, explicit
 * call (the panel shows the diff first).
 */
export interface LiveSession {
  connect(server: string, token: string): Promise<void>;
  disconnect(): Promise<void>;
  setPaused(paused: boolean): void;
  /** Keeps the followed session as a trace of the library; the next session to send an event is followed. */
  keep(): Promise<void>;
  /**
   * Follows another session the server has sent events of: its whole recording so far, then what arrives
   * (the unkept trace of the one followed before is dropped).
   */
  follow(traceId: string): Promise<void>;
  /** The pipeline the server runs (for the diff shown before a push). */
  serverPipeline(): Promise<{ name: string; version: string; document: unknown }>;
  /** Replaces the server's pipeline with `doc`; rejects with the server's reason when it refuses it. */
  pushPipeline(doc: Pipeline): Promise<{ name: string; version: string }>;
}

/** A step of the session being switched to that arrived while its recording was read. */
interface Pending {
  index: number;
  event: TraceEvent;
  decision: string;
}

/** Loopback only: the server never listens elsewhere, and the app's CSP allows nothing else. */
const LOOPBACK_URL = /^http:\/\/(127\.0\.0\.1|localhost):\d{1,5}\/?$/;
/** Redraws of the timeline while events stream in, at most this often. */
const REFRESH_MS = 200;
/** Waits between attempts to reach a server that went away: doubling from the first, up to the last. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 8000;
/** Settings key of the library entry made from the server's pipeline of this version. */
const SERVER_PIPELINE_KEY = (version: string) => `live.serverPipeline.${version}`;

/**
 * `workspace` opens the server's own pipeline in the editor when the stream says which one the server runs, so
 * every live step is replayed and explained with what decided it (issue 34): a library entry "<name> · from
 * serve", made once per server version and found again afterwards (never a second copy).
 */
export function createLiveSession(store: AppStore, db: HookwireDb, replay: ReplayService, workspace: Pick<Workspace, 'openPipeline' | 'newPipeline'>): LiveSession {
  const s = () => store.getState();
  let abort: AbortController | null = null;
  let server = '';
  let token = '';
  let events: TraceEvent[] = [];
  // The server's decision on the last of `events` (what the panel shows as "last server decision"), and that
  // step's index in its session: a step the recording already brought is not added again.
  let lastDecision = '';
  let lastIndex = -1;
  let written = 0;
  let record: StoredTrace | null = null;
  let opening: Promise<StoredTrace> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chain: Promise<void> = Promise.resolve();
  // While a session's recording is fetched, its steps wait here (by index) and join after it.
  let switching: { traceId: string; pending: Pending[] } | null = null;
  // Reconnection attempts since the stream last said hello.
  let attempt = 0;

  /** The body of an authorised request; a refusal throws with the server's reason. */
  const call = async (path: string, init: RequestInit = {}): Promise<string> => {
    const res = await fetch(`${server}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
    const text = await res.text();
    if (res.ok) return text;
    let why: string | undefined;
    try {
      why = (JSON.parse(text) as { error?: string } | null)?.error;
    } catch {
      // not JSON: the status says enough
    }
    throw new Error(why ?? `the server answered ${res.status}`);
  };
  const api = async (path: string, init: RequestInit = {}) => {
    const text = await call(path, init);
    return (text ? JSON.parse(text) : null) as Record<string, unknown>;
  };

  /** Writes what arrived since the last write and shows it, unless paused. Serialised: one write at a time. */
  const flush = () => {
    timer = null;
    chain = chain.then(async () => {
      if (!record || s().live.paused || written === events.length) return;
      const at = written;
      written = events.length;
      record = await writeTraceTail(db, record, events.slice(0, written), at);
      if (s().traceId !== record.id || s().trace?.event_count !== record.event_count) await replay.openTrace(record.id);
      replay.goTo(record.event_count - 1);
    }).catch((e: unknown) => s().liveFailed(`cannot store the live events: ${e instanceof Error ? e.message : String(e)}`));
  };
  const schedule = () => {
    if (!timer) timer = setTimeout(flush, REFRESH_MS);
  };

  const begin = (traceId: string, first: TraceEvent) =>
    beginTrace(db, {
      name: `Live: ${traceId}`,
      header: { format: TRACE_FORMAT, version: TRACE_VERSION, trace_id: traceId, agent_id: first.agent_id, source: { kind: 'hookwire-serve', server }, created: first.ts },
      source_format: 'hookwire-trace',
      file_name: null,
    });

  /**
   * Starts following `traceId` from the beginning of its session: the server's recording so far (so budgets,
   * breakers and repeated ids replay as the server decided them), then the steps that arrive.
   */
  const followSession = async (traceId: string) => {
    const mine = switching?.traceId === traceId ? switching : { traceId, pending: [] as Pending[] };
    switching = mine;
    events = [];
    lastDecision = '';
    lastIndex = -1;
    written = 0;
    record = null;
    opening = null;
    s().liveFollowing(traceId);
    let earlier: TraceEvent[] = [];
    try {
      const read = readTrace(await call(`/v1/traces/${encodeURIComponent(traceId)}/recording`));
      earlier = read.events.map((e) => ({ ...e, trace_id: traceId }));
    } catch (e) {
      // Without the history the session is followed from here on, and the panel says so.
      s().toast({ tone: 'error', message: `Cannot read the recording of “${traceId}” (${e instanceof Error ? e.message : String(e)}): following it from its next event.` });
    }
    if (switching !== mine) return;
    switching = null;
    const tail = mine.pending.filter((p) => p.index >= earlier.length);
    events = [...earlier, ...tail.map((p) => p.event)];
    lastDecision = tail.at(-1)?.decision ?? earlier.at(-1)?.recorded?.decision ?? '';
    lastIndex = tail.at(-1)?.index ?? earlier.length - 1;
    if (events.length === 0) return;
    opening = begin(traceId, events[0]!);
    const r = await opening;
    if (s().live.following !== traceId) return;
    record = r;
    s().liveStored(r.id);
    const paused = s().live.paused;
    // Steps that arrived while the trace was being made are in `events` and `lastDecision` already.
    s().liveArrived(events.length, paused ? events.length : 0, lastDecision);
    if (!paused) schedule();
  };

  const onStep = (data: unknown) => {
    const d = data as { trace_id?: unknown; index?: unknown; event?: unknown; decision?: unknown };
    const check = traceSchemas().TraceEventLineSchema.safeParse(d.event);
    if (typeof d.trace_id !== 'string' || !check.success || typeof d.index !== 'number') return;
    const decision = String(d.decision ?? '');
    s().liveSeen(d.trace_id, d.index, decision);
    // Keep JSON.parse's object, not zod's copy (keys such as __proto__ are names) [V8].
    const event = { ...(d.event as TraceEvent), trace_id: d.trace_id };
    if (switching !== null) {
      if (switching.traceId === d.trace_id) switching.pending.push({ index: d.index, event, decision });
      return;
    }
    const following = s().live.following;
    if (following === null) {
      switching = { traceId: d.trace_id, pending: [{ index: d.index, event, decision }] };
      void followSession(d.trace_id);
      return;
    }
    // A step at or before the last one in hand came with the recording read when the session was opened.
    if (following !== d.trace_id || d.index <= lastIndex) return;
    events.push(event);
    lastDecision = decision;
    lastIndex = d.index;
    const paused = s().live.paused;
    s().liveArrived(events.length, paused ? events.length - written : 0, decision);
    if (!paused && record) schedule();
  };

  const read = async (body: ReadableStream<Uint8Array>, signal: AbortSignal) => {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    while (!signal.aborted) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buf.indexOf('\n\n')) !== -1) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        let name = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) name = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
        }
        if (data.length === 0) continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(data.join('\n'));
        } catch {
          continue;
        }
        if (name === 'hello') {
          const pipeline = (parsed as { pipeline: { name: string; version: string } }).pipeline;
          s().liveConnected(pipeline);
          attempt = 0;
          void openServerPipeline(pipeline.version);
        }
        else if (name === 'step') onStep(parsed);
      }
    }
  };

  /**
   * Opens the server's pipeline in the editor (so the debugger explains with it): the library entry made from
   * this version before, or a new one. A pipeline the user edited since is opened as it is now; the timeline
   * then flags each step where it decides differently from the server.
   */
  const openServerPipeline = async (version: string) => {
    try {
      const key = SERVER_PIPELINE_KEY(version);
      let id = (await getSetting<string>(db, key)) ?? null;
      if (id && !(await readPipeline(db, id))) id = null;
      if (id) {
        if (s().pipelineId !== id) await workspace.openPipeline(id);
      } else {
        const served = await api('/v1/pipeline');
        if (String(served.version) !== version) return; // changed meanwhile: its own hello follows
        const check = checkImport(JSON.stringify(served.document));
        if (!check.ok || !check.doc) throw new Error('the app cannot load the pipeline the server runs');
        id = await workspace.newPipeline({ ...check.doc, name: `${check.doc.name} · from serve` });
        if (!id) return;
        await setSetting(db, key, id);
      }
      s().liveServerPipelineOpened(id);
    } catch (e) {
      s().toast({ tone: 'error', message: `Cannot open the server's pipeline (${e instanceof Error ? e.message : String(e)}): the debugger explains with the pipeline open in the editor, which may not be the server's.` });
    }
  };

  /**
   * After a reconnection: what the followed session recorded while the stream was down is read from its
   * recording and added after the last step in hand (the stream only brings what comes next).
   */
  const catchUp = async () => {
    const following = s().live.following;
    if (following === null || switching !== null) return;
    let recorded: TraceEvent[];
    try {
      recorded = readTrace(await call(`/v1/traces/${encodeURIComponent(following)}/recording`)).events;
    } catch {
      return; // the session may be gone with the old server: its next event (if any) arrives on the stream
    }
    if (s().live.following !== following || recorded.length <= lastIndex + 1) return;
    for (const e of recorded.slice(lastIndex + 1)) events.push({ ...e, trace_id: following });
    lastIndex = recorded.length - 1;
    lastDecision = recorded.at(-1)?.recorded?.decision ?? lastDecision;
    const paused = s().live.paused;
    s().liveArrived(events.length, paused ? events.length - written : 0, lastDecision);
    if (!paused && record) schedule();
  };

  const dropUnkept = async () => {
    await chain;
    const r = record ?? (opening ? await opening.catch(() => null) : null);
    record = null;
    opening = null;
    if (!r) return;
    if (s().traceId === r.id) replay.closeTrace();
    await removeTraceNow(db, r.id);
  };

  return {
    async connect(url, secret) {
      const base = url.trim().replace(/\/$/, '');
      if (!LOOPBACK_URL.test(`${base}/`)) {
        s().liveFailed(`${url} is not a hookwire serve address on this machine (http://127.0.0.1:<port>)`);
        return;
      }
      await this.disconnect();
      server = base;
      token = secret.trim();
      abort = new AbortController();
      const signal = abort.signal;
      s().liveConnecting(server);
      attempt = 0;
      // Until disconnected: a stream that breaks (the server restarted, the network hiccuped) is opened again
      // after a wait that doubles up to RETRY_MAX_MS, keeping the followed trace and what it holds; a refusal
      // (wrong token, origin not allowed) is final: retrying would not change it.
      for (;;) {
        let why: string;
        try {
          const res = await fetch(`${server}/v1/stream`, { headers: { authorization: `Bearer ${token}` }, signal });
          if (!res.ok || !res.body) {
            const text = await res.text().then((t) => (JSON.parse(t) as { error?: string }).error ?? t).catch(() => '');
            const refused = `the server answered ${res.status}${text ? `: ${text}` : ''}`;
            if (res.status === 401 || res.status === 403 || res.status === 421) {
              s().liveFailed(refused);
              return;
            }
            throw new Error(refused);
          }
          if (attempt > 0) await catchUp();
          await read(res.body, signal);
          why = 'the server closed the stream';
        } catch (e) {
          why = e instanceof Error ? e.message : String(e);
        }
        if (signal.aborted) return;
        attempt++;
        const wait = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(attempt - 1, 10));
        s().liveReconnecting(why, attempt, Date.now() + wait);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, wait);
          signal.addEventListener('abort', () => {
            clearTimeout(t);
            resolve();
          }, { once: true });
        });
        if (signal.aborted) return;
      }
    },
    async disconnect() {
      abort?.abort();
      abort = null;
      switching = null;
      if (timer) clearTimeout(timer);
      timer = null;
      await dropUnkept();
      events = [];
      written = 0;
      if (s().live.status !== 'off') s().liveEnded();
    },
    setPaused(paused) {
      s().livePaused(paused);
      if (!paused) schedule();
    },
    async keep() {
      const following = s().live.following;
      if (!record || following === null) return;
      s().livePaused(false);
      flush();
      await chain;
      const name = `${following} (kept ${new Date().toLocaleTimeString('en-GB')})`;
      await renameTrace(db, record.id, name);
      s().traceRenamed(record.id, name);
      record = null;
      opening = null;
      events = [];
      written = 0;
      s().liveDetached();
      s().toast({ tone: 'info', message: `Kept the live session “${following}” as a trace in the library.` });
    },
    async serverPipeline() {
      const b = await api('/v1/pipeline');
      return { name: String(b.name), version: String(b.version), document: b.document };
    },
    async follow(traceId) {
      if (s().live.following === traceId && switching === null) return;
      await dropUnkept();
      await followSession(traceId);
    },
    async pushPipeline(doc) {
      const b = await api('/v1/pipeline', { method: 'PUT', body: JSON.stringify(doc) });
      const pipeline = { name: String(b.name), version: String(b.version) };
      s().livePipelinePushed(pipeline);
      return pipeline;
    },
  };
}
