// `hookwire serve`: the HTTP front of the session host (node:http, loopback only). Every request passes the
// same gate before anything else runs: Host must name this server on loopback (DNS rebinding), Origin, when a
// browser sends one, must be on the allow list, the bearer token must match, and a body must be JSON within
// the size limit. A refused request gets a 4xx with a reason and changes no state.
import { useNativeSha256 } from '../nativeSha256.ts';
import { jsonLimitBreach } from '../../model/jsonLimits.ts';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, open, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { EVENT_TYPE_RE, type HookEvent } from '../../model/event.ts';
import { isJsonObject, ownGet, type JsonObject } from '../../model/json.ts';
import type { ReplayStep } from '../../replay/types.ts';
import { FORWARD_DEADLINE_HEADER } from './forwardHook.ts';
import { claudeEventNumbered, claudeFailClosedReply, claudeHookEvent, claudeReply, claudeSessionId, toCommandAnswer, toHttpAnswer, type ClaudeHookParse, type ClaudeReply } from '../../runtime/claudeHook.ts';
import { CHECK_INTERVAL_MS, DEFAULT_MAX_STREAMS, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, traceIdProblem } from './limits.ts';
import { Metrics } from './metrics.ts';
import { agentHookRoute } from './agentRoute.ts';
import { agentList } from '../../agents/listing.ts';
import { OPENAPI } from './openapi.ts';
import { PipelineStore } from './pipelineStore.ts';
import { isoTimestamp } from './timestamp.ts';
import type { FlushPolicy } from './recordingFile.ts';
import { DEFAULT_SESSION_LIMITS, END_EVENT, SessionHost, type DispatchOutcome, type LiveStep } from './sessionHost.ts';

export interface ServeOptions {
  pipelinePath: string;
  stateDir: string;
  /** 0: any free port. */
  port: number;
  host?: string;
  flush?: FlushPolicy;
  /** Largest request body in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Browser origins allowed to call the server (the debugger's), e.g. "http://127.0.0.1:4173". */
  allowOrigins?: string[];
  /** Watch the pipeline file and reload it (default true). */
  watch?: boolean;
  /** Claude Code: send a rewritten tool input with "allow" instead of "ask" (as `claude-hook --allow-rewrites`). */
  allowRewrites?: boolean;
  /** A session with no event for this long leaves memory and comes back from its recording (ms, default 15 min). */
  idleMs?: number;
  /** Live sessions at most (default 10,000); one more is answered 503. */
  maxSessions?: number;
  /** Live-stream (SSE) clients at most (default 32); one more is answered 503. */
  maxStreams?: number;
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  tokenFile: string;
  rebuilt: Awaited<ReturnType<SessionHost['rebuild']>>;
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY = 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** An answer: status, content type, body. */
type Answer = [number, string, string];

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  // Every recorded line is chained [K1]: node:crypto's SHA-256, the same digests as the portable one.
  useNativeSha256();
  const host = o.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) throw new Error(`--host ${host} is not a loopback address; hookwire serve listens on 127.0.0.1, ::1 or localhost only`);
  const log = o.log ?? ((l: string) => void process.stderr.write(`${l}\n`));
  const maxBody = o.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const allowOrigins = new Set(o.allowOrigins ?? []);
  const allowRewrites = o.allowRewrites === true;
  await mkdir(o.stateDir, { recursive: true, mode: 0o700 });

  const store = new PipelineStore(o.pipelinePath, join(o.stateDir, 'pipelines'), log);
  await store.start();
  const metrics = new Metrics();
  const streams = new Set<ServerResponse>();
  const maxStreams = o.maxStreams ?? DEFAULT_MAX_STREAMS;
  const limits = { ...DEFAULT_SESSION_LIMITS, ...(o.idleMs !== undefined ? { idleMs: o.idleMs } : {}), ...(o.maxSessions !== undefined ? { maxSessions: o.maxSessions } : {}) };
  let streamId = 0;
  const broadcast = (s: LiveStep) => {
    metrics.count(s.step.decision);
    if (streams.size === 0) return;
    const data = `id: ${++streamId}\nevent: step\ndata: ${JSON.stringify(liveJson(s))}\n\n`;
    for (const res of streams) {
      // A reader that does not keep up is dropped rather than buffered without bound.
      if (res.writableLength > 4 * 1024 * 1024) res.destroy();
      else res.write(data);
    }
  };
  const sessions = new SessionHost(store, o.stateDir, o.flush ?? 'write', broadcast, log, limits);
  const rebuilt = await sessions.rebuild();

  const tokenFile = join(o.stateDir, 'token');
  // The token of the state dir survives a restart, so a printed `hookwire ui --live` address and a connected app
  // stay good; delete the file for a new one. A file that is not a token we made (or readable by others) is replaced.
  const token = (await keptToken(tokenFile)) ?? randomBytes(32).toString('base64url');
  await writePrivate(tokenFile, `${token}\n`);
  const tokenBuf = Buffer.from(`Bearer ${token}`);
  const started = Date.now();

  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  let hosts = allowedHosts();

  const readJson = async (req: IncomingMessage): Promise<unknown> => {
    const raw = req.headers['content-type'];
    // The common header as it is, else its media type without parameters, in any case.
    const type = raw === 'application/json' ? raw : (raw ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') throw new HttpError(415, 'the body must be JSON (Content-Type: application/json)');
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > maxBody) throw new HttpError(413, `the body is ${declared} bytes, past the limit of ${maxBody}`);
    const body = await readBody(req, maxBody);
    try {
      return JSON.parse(body.toString('utf8'));
    } catch (err) {
      throw new HttpError(400, `the body is not JSON: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`);
    }
  };

  const outcomeJson = (r: DispatchOutcome & { ok: true }) => ({
    trace_id: r.event.trace_id,
    event_id: r.event.event_id,
    index: r.index,
    decision: r.step.decision,
    blocked: r.step.blocked,
    reason: r.step.reason,
    decided_by: r.step.decided_by,
    payload: r.step.payload_after,
    duplicate: r.step.duplicate,
    pipeline: r.version,
  });

  /**
   * The Claude Code hook route. One promise, for the body; past it the answer is made in the same tick when the
   * session's turn was taken at once (SessionHost.dispatch), else when it has been.
   */
  const claudeHook = (req: IncomingMessage, asCommand: boolean): Promise<Answer> => {
    // Past the trust gate, every refusal of a Claude Code hook body is the fail-closed answer in a 200: Claude Code
    // takes a non-2xx answer as a non-blocking error and would run the action (a Write bigger than --max-body, a
    // hook input of a newer Claude Code that the mapping refuses, input past a JSON limit [V12]) [P16].
    const failClosed = (hook: string | null, reason: string): Answer => {
      metrics.failClosed++;
      const closed = claudeFailClosedReply(hook, reason);
      return [200, 'application/json', asCommand ? JSON.stringify(toCommandAnswer(closed)) : toHttpAnswer(closed).body];
    };
    // A bug or a broken dependency (the log, the live stream) must not become a 500: Claude Code would run the action.
    const internal = (input: unknown, err: unknown): Answer => {
      const why = err instanceof Error ? err.message : String(err);
      try {
        log(`hookwire serve: internal error on the Claude Code hook route: ${err instanceof Error ? (err.stack ?? why) : why}`);
      } catch {
        // the log is what failed
      }
      const named = isJsonObject(input) ? ownGet(input, 'hook_event_name') : undefined;
      return failClosed(typeof named === 'string' ? named : null, `internal error: ${why}`);
    };
    return readJson(req).then(
      (input) => {
        try {
          const out = decideClaudeHook(req, input, asCommand, failClosed);
          return out instanceof Promise ? out.catch((err: unknown) => internal(input, err)) : out;
        } catch (err) {
          return internal(input, err);
        }
      },
      (err: unknown) => {
        if (err instanceof HttpError) return failClosed(null, err.message);
        throw err;
      },
    );
  };

  /** One Claude Code hook input → its answer, as a dispatched event of its session [P12][P15]. */
  const decideClaudeHook = (req: IncomingMessage, input: unknown, asCommand: boolean, failClosed: (hook: string | null, reason: string) => Answer): Answer | Promise<Answer> => {
    const session = claudeSessionId(input);
    const ts = isoTimestamp();
    // Checked before the session is opened, so a bad input leaves no trace behind.
    const probe = claudeHookEvent(input, { ts, seq: 1 });
    if (!probe.ok) return failClosed(probe.hook, probe.reason);
    const opened = sessions.open(session, 'claude-code', { hook: 'claude-code-http' });
    if (opened instanceof Promise) return opened.then((o) => (o.ok ? dispatchClaude(req, input, asCommand, session, ts, probe) : failClosed(probe.hook, o.reason)));
    if (!opened.ok) return failClosed(probe.hook, opened.reason);
    return dispatchClaude(req, input, asCommand, session, ts, probe);
  };

  const dispatchClaude = (req: IncomingMessage, input: unknown, asCommand: boolean, session: string, ts: string, probe: ClaudeHookParse & { ok: true }): Answer | Promise<Answer> => {
    // The forwarding command says when it stops waiting and fails closed itself (ms since the epoch; the same
    // clock, it runs on this host): past that, or once it has hung up, its event is not recorded.
    const until = forwardDeadline(req);
    let hook = probe.hook;
    let reply: ClaudeReply | null = null;
    // Mapped once: the checked event is the session's next one unless its id is made from its number [P12].
    const numbered = claudeEventNumbered(probe.event);
    const r = sessions.dispatch(session, (seq) => {
      const m = seq === 1 || !numbered ? probe : claudeHookEvent(input, { ts, seq });
      if (!m.ok) return m.reason;
      hook = m.hook;
      return m.event;
    }, {
      // The one Claude mapping answers before the line is written, so the recording holds its answer to an ASK.
      approvalOf: (step, event) => {
        reply = claudeReply(hook, event, { decision: step.decision, reason: step.reason, payload: step.payload_after, context: [...step.context] }, { allowRewrites });
        return reply.approval;
      },
      ...(until === null ? {} : { expired: () => (req.socket.destroyed ? 'the forwarding command stopped waiting for the answer' : Date.now() >= until ? 'past the forwarding command\'s deadline' : null) }),
    });
    const answer = (r: DispatchOutcome): Answer => {
      let made = reply as ClaudeReply | null;
      if (!r.ok || !made) {
        metrics.failClosed++;
        made = claudeFailClosedReply(hook, r.ok ? 'no answer was made' : r.reason);
      }
      return [200, 'application/json', asCommand ? JSON.stringify(toCommandAnswer(made)) : toHttpAnswer(made).body];
    };
    return r instanceof Promise ? r.then(answer) : answer(r);
  };

  // [AG5] every other coding agent's hook input, answered in its own form (engine/node/serve/agentRoute.ts).
  const agentHook = agentHookRoute({ sessions, metrics, allowRewrites, readJson, deadline: forwardDeadline, log, statusOf: (err) => (err instanceof HttpError ? err.status : null) });

  const emit = async (trace_id: string, body: unknown, end: boolean): Promise<[number, string, string]> => {
    if (!isJsonObject(body)) throw new HttpError(400, 'the body must be a JSON object');
    const badId = traceIdProblem(trace_id);
    if (badId) throw new HttpError(400, badId);
    // agent.end ends an API trace however it is sent (POST /end or as an event): later events get 409 [SV2].
    const type = end ? END_EVENT : ownGet(body, 'type');
    const payload = ownGet(body, 'payload') ?? {};
    const event_id = ownGet(body, 'event_id');
    const meta = ownGet(body, 'meta');
    const ts = ownGet(body, 'ts');
    if (typeof type !== 'string' || type.length > 200 || !EVENT_TYPE_RE.test(type)) throw new HttpError(400, 'type must be a dotted event type such as "tool.before_call"');
    if (!isJsonObject(payload)) throw new HttpError(400, 'payload must be a JSON object');
    if (event_id !== undefined && (typeof event_id !== 'string' || event_id === '' || event_id.length > 1000)) throw new HttpError(400, 'event_id must be a string of 1 to 1000 characters');
    if (meta !== undefined && !isJsonObject(meta)) throw new HttpError(400, 'meta must be a JSON object');
    // The body limit bounds the size; depth and the other JSON limits as emit has them [V9][V12].
    const big = jsonLimitBreach(payload, 'payload') ?? (meta !== undefined ? jsonLimitBreach(meta, 'meta') : null);
    if (big) throw new HttpError(400, `input refused: ${big.message}`);
    if (ts !== undefined && (typeof ts !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(ts) || !Number.isFinite(Date.parse(ts)))) {
      throw new HttpError(400, 'ts must be an ISO 8601 time with a zone');
    }
    const stamp = isoTimestamp();
    const r = await sessions.dispatch(trace_id, (seq): HookEvent => ({
      event_id: (event_id as string | undefined) ?? `${trace_id}:${seq}`,
      trace_id,
      agent_id: 'agent',
      type,
      ts: (ts as string | undefined) ?? stamp,
      payload,
      ...(meta !== undefined ? { meta: meta as JsonObject } : {}),
    }));
    if (!r.ok) {
      metrics.failClosed++;
      throw new HttpError(r.status, r.reason);
    }
    return [200, 'application/json', JSON.stringify(outcomeJson(r))];
  };

  /** The route of a request that passed the gate; null when it answered itself (the live stream). */
  const route = (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<Answer | null> => {
    // The hook route first, without an async function's own promise around the route's.
    if (req.method === 'POST' && path === '/v1/claude/hook') return claudeHook(req, query.get('answer') === 'command');
    return otherRoute(req, res, path, query);
  };

  const otherRoute = async (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<Answer | null> => {
    const method = req.method ?? 'GET';
    const is = (m: string, p: string) => method === m && path === p;
    if (is('GET', '/health')) {
      const fault = sessions.fault.current;
      const degraded = store.reloadError !== null || sessions.unreadable.size > 0 || rebuilt.failed > 0 || fault !== null;
      return json(200, {
        status: degraded ? 'degraded' : 'ok',
        pipeline: { name: store.current.name, version: store.current.version, loaded_at: store.current.loadedAt, reloads: store.reloads },
        reload_error: store.reloadError,
        sessions: sessions.size,
        max_sessions: limits.maxSessions,
        idle_timeout_s: limits.idleMs / 1000,
        failed_sessions: sessions.unreadable.size,
        write_fault: fault ? { reason: fault.reason, since: new Date(fault.since).toISOString(), refused: fault.refused } : null,
        write_fault_gaps: sessions.fault.gaps,
        rebuilt,
        divergent_on_rebuild: sessions.divergent,
        flush: o.flush ?? 'write',
        uptime_s: Math.round((Date.now() - started) / 1000),
      });
    }
    if (is('GET', '/metrics')) {
      const text = metrics.text({
        sessions: sessions.size,
        maxSessions: limits.maxSessions,
        sessionsDropped: sessions.dropped,
        sessionsReloaded: sessions.reloaded,
        unreadableRecordings: sessions.unreadable.size,
        queued: sessions.queued(),
        streamClients: streams.size,
        maxStreamClients: maxStreams,
        openRecordings: sessions.openFiles,
        writeFaultOpen: sessions.fault.current !== null,
        writeFaults: sessions.fault.total,
        divergentOnRebuild: sessions.divergent,
        rssBytes: process.memoryUsage().rss,
      });
      return [200, 'text/plain; version=0.0.4; charset=utf-8', text];
    }
    if (is('GET', '/openapi.json')) return json(200, OPENAPI);
    if (is('GET', '/v1/agents')) return json(200, { agents: agentList() });
    const agentPath = method === 'POST' ? /^\/v1\/agents\/([^/]+)\/hook$/.exec(path) : null;
    if (agentPath) return agentPath[1] === 'claude' ? claudeHook(req, query.get('answer') === 'command') : agentHook(req, agentPath[1]!, query);
    if (is('GET', '/v1/traces')) return json(200, { traces: sessions.summaries() });
    if (is('POST', '/v1/traces')) {
      const body = await readJson(req);
      if (!isJsonObject(body)) throw new HttpError(400, 'the body must be a JSON object');
      const id = ownGet(body, 'trace_id') ?? `t-${randomBytes(8).toString('hex')}`;
      const agent = ownGet(body, 'agent_id') ?? 'agent';
      const title = ownGet(body, 'title');
      if (typeof id !== 'string') throw new HttpError(400, 'trace_id must be a string');
      const badId = traceIdProblem(id);
      if (badId) throw new HttpError(400, badId);
      if (typeof agent !== 'string' || agent === '' || agent.length > 1000) throw new HttpError(400, 'agent_id must be a string of 1 to 1000 characters');
      if (title !== undefined && (typeof title !== 'string' || title.length > 1000)) throw new HttpError(400, 'title must be a string of at most 1000 characters');
      const opened = await sessions.open(id, agent, {}, title);
      if (!opened.ok) throw new HttpError(opened.status, opened.reason);
      return json(opened.created ? 201 : 200, { trace_id: id, created: opened.created });
    }
    const m = /^\/v1\/traces\/([^/]+)(\/events|\/end|\/recording|\/readmit)?$/.exec(path);
    if (m) {
      let id: string;
      try {
        id = decodeURIComponent(m[1]!);
      } catch {
        throw new HttpError(400, 'the trace id in the path is not valid percent-encoding');
      }
      if (method === 'POST' && m[2] === '/events') return emit(id, await readJson(req), false);
      if (method === 'POST' && m[2] === '/end') return emit(id, await readJson(req), true);
      if (method === 'POST' && m[2] === '/readmit') {
        // An operator's deliberate act: a recording refused for its integrity is taken as it now is [SV8].
        const body = await readJson(req);
        const reason = isJsonObject(body) ? ownGet(body, 'reason') : undefined;
        if (typeof reason !== 'string' || reason.trim() === '' || reason.length > 1000) throw new HttpError(400, 'reason must say why the recording is re-admitted (1 to 1000 characters): it is recorded in readmissions.jsonl');
        const badId = traceIdProblem(id);
        if (badId) throw new HttpError(400, badId);
        const r = await sessions.readmit(id, reason);
        if (!r.ok) throw new HttpError(r.status, r.reason);
        return json(200, { trace_id: id, readmitted: true, problem: r.problem });
      }
      if (method === 'GET' && m[2] === '/recording') {
        const badId = traceIdProblem(id);
        if (badId) throw new HttpError(400, badId);
        if (!(await sessions.known(id))) throw new HttpError(404, `no trace "${id.slice(0, 100)}"`);
        const text = await readFile(sessions.fileOf(id), 'utf8').catch(() => '');
        return [200, 'application/x-ndjson', text];
      }
    }
    if (is('GET', '/v1/pipeline')) return json(200, { name: store.current.name, version: store.current.version, document: JSON.parse(store.current.text) });
    if (is('PUT', '/v1/pipeline')) {
      const body = await readJson(req);
      try {
        const v = await store.replaceFile(`${JSON.stringify(body, null, 2)}\n`);
        return json(200, { name: v.name, version: v.version });
      } catch (err) {
        throw new HttpError(422, err instanceof Error ? err.message : String(err));
      }
    }
    if (is('GET', '/v1/stream')) {
      if (streams.size >= maxStreams) throw new HttpError(503, `the server has ${streams.size} live-stream clients, its limit (--max-streams ${maxStreams}): close one and try again`);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', ...corsHeaders(req) });
      res.write(`event: hello\ndata: ${JSON.stringify({ pipeline: { name: store.current.name, version: store.current.version }, traces: sessions.summaries() })}\n\n`);
      streams.add(res);
      // A stream is counted when it ends (the other answers as they are sent).
      res.once('finish', () => metrics.request('stream', res.statusCode));
      const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
      res.on('close', () => {
        clearInterval(beat);
        streams.delete(res);
      });
      return null;
    }
    throw new HttpError(404, `no endpoint ${method} ${path} (see GET /openapi.json)`);
  };

  const corsHeaders = (req: IncomingMessage): Record<string, string> => {
    const origin = req.headers.origin;
    return origin && allowOrigins.has(origin) ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {};
  };

  /**
   * One request: the gate, its route, the answer. Not an async function: the hook route's answer is sent from the
   * body's promise (one) when its session's turn was taken at once.
   */
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const t0 = performance.now();
    // The raw path, not WHATWG URL's: that resolves `%2E` and `..` segments away, so /v1/traces/%2E/events
    // would reach another route instead of being refused as a trace id [SV3].
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const path = q === -1 ? raw : raw.slice(0, q);
    const kind = routeKind(path);
    const send = (status: number, type: string, body: string) => {
      // A content-length: the answer goes out as one write(2) of head and body, not chunked (npm run bench -- speed).
      const headers: Record<string, string | number> = { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
      const origin = req.headers.origin;
      if (origin && allowOrigins.has(origin)) {
        headers['access-control-allow-origin'] = origin;
        headers.vary = 'Origin';
      }
      // Counted as the answer is handed to the socket (metrics.ts); not when the socket is gone (a body past the
      // limit destroys the request), as no answer reaches the client then.
      const gone = res.socket === null || res.socket.destroyed;
      res.writeHead(status, headers);
      res.end(body);
      if (gone) return;
      metrics.request(kind, status);
      // Refusals of a decision route are answers too: the histogram counts every one.
      if (kind === 'claude_hook' || kind === 'agent_hook' || kind === 'events' || kind === 'end') metrics.latency((performance.now() - t0) / 1000);
    };
    const fail = (err: unknown): void => {
      const status = err instanceof HttpError ? err.status : 500;
      if (!(err instanceof HttpError)) log(`hookwire serve: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      if (status === 413) {
        // Discard the rest of the body (not kept) so the client can read the answer, then close the connection.
        req.resume();
        res.setHeader('connection', 'close');
      }
      if (!res.headersSent) send(status, 'application/json', JSON.stringify({ error: err instanceof Error ? err.message : String(err) }));
      else res.end();
    };
    const answer = (out: Answer | null): void => {
      try {
        if (out) send(out[0], out[1], out[2]);
      } catch (err) {
        fail(err);
      }
    };
    try {
      // DNS rebinding: a page on evil.example that resolves to 127.0.0.1 still sends its own Host.
      if (!hosts.has((req.headers.host ?? '').toLowerCase())) throw new HttpError(421, `Host "${(req.headers.host ?? '').slice(0, 100)}" is not this server (expected 127.0.0.1:${port})`);
      const origin = req.headers.origin;
      if (origin !== undefined && !allowOrigins.has(origin)) throw new HttpError(403, `Origin ${origin.slice(0, 100)} is not allowed (start the server with --allow-origin ${origin.slice(0, 100)})`);
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { ...corsHeaders(req), 'access-control-allow-methods': 'GET, POST, PUT', 'access-control-allow-headers': 'authorization, content-type', 'access-control-max-age': '600' });
        res.end();
        metrics.request(kind, 204);
        return;
      }
      const auth = Buffer.from(req.headers.authorization ?? '');
      if (auth.length !== tokenBuf.length || !timingSafeEqual(auth, tokenBuf)) throw new HttpError(401, `missing or wrong bearer token (Authorization: Bearer <the token in ${tokenFile}>)`);
      route(req, res, path, q === -1 ? NO_QUERY : new URLSearchParams(raw.slice(q + 1))).then(answer, fail);
    } catch (err) {
      fail(err);
    }
  };

  // A client that trickles its request (head or body) is closed: Node checks the two timeouts every
  // CHECK_INTERVAL_MS, so such a socket lives at most REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS [SV4].
  const server: Server = createServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: CHECK_INTERVAL_MS }, handle);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  hosts = allowedHosts();
  if (o.watch !== false) store.watch();
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    port,
    token,
    tokenFile,
    rebuilt,
    async close() {
      store.close();
      for (const s of streams) s.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await sessions.close();
    },
  };
}

/** The query of a request without one (read, never changed). */
const NO_QUERY = new URLSearchParams();

/** The route a request is counted under in /metrics: a fixed set, never the (untrusted) path itself. */
function routeKind(path: string): string {
  if (path === '/v1/claude/hook') return 'claude_hook';
  if (path.startsWith('/v1/agents/') && path.endsWith('/hook')) return 'agent_hook';
  if (path.startsWith('/v1/traces/')) return path.endsWith('/events') ? 'events' : path.endsWith('/end') ? 'end' : path.endsWith('/recording') ? 'recording' : path.endsWith('/readmit') ? 'readmit' : 'other';
  const known: Record<string, string> = { '/health': 'health', '/metrics': 'metrics', '/openapi.json': 'openapi', '/v1/traces': 'traces', '/v1/stream': 'stream', '/v1/pipeline': 'pipeline' };
  return Object.hasOwn(known, path) ? known[path]! : 'other';
}

function json(status: number, body: unknown): [number, string, string] {
  return [status, 'application/json', JSON.stringify(body)];
}

/** What the live stream sends per event: the recorded event plus the server's decision. */
function liveJson(s: LiveStep): JsonObject {
  const st: ReplayStep = s.step;
  return {
    trace_id: s.trace_id,
    index: s.index,
    event: s.event as unknown as JsonObject,
    decision: st.decision,
    blocked: st.blocked,
    reason: st.reason,
    decided_by: st.decided_by,
    payload: st.payload_after,
    duplicate: st.duplicate,
    not_reached: st.not_reached,
  };
}

/** The token a previous start wrote to `path`, when it is one (43 base64url characters, owner-only); else null. */
async function keptToken(path: string): Promise<string | null> {
  try {
    const fh = await open(path, 'r');
    try {
      if (((await fh.stat()).mode & 0o077) !== 0) return null;
      const text = (await fh.readFile('utf8')).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(text) ? text : null;
    } finally {
      await fh.close();
    }
  } catch {
    return null;
  }
}

/** Writes a file only its owner can read (the token). */
async function writePrivate(path: string, text: string): Promise<void> {
  const fh = await open(path, 'w', 0o600);
  try {
    await fh.chmod(0o600);
    await fh.writeFile(text);
  } finally {
    await fh.close();
  }
  await chmod(path, 0o600);
}

/** What an answer on loopback is given to travel back to the forwarding command before its deadline (ms). */
const ANSWER_TRAVEL_MS = 20;

/** The forwarding command's deadline, less the time its answer needs to travel back; null when none was sent. */
function forwardDeadline(req: IncomingMessage): number | null {
  const raw = req.headers[FORWARD_DEADLINE_HEADER];
  if (typeof raw !== 'string' || !/^[0-9]{1,16}$/.test(raw)) return null;
  return Number(raw) - ANSWER_TRAVEL_MS;
}

/**
 * The request body, with the same outcomes as `for await (const c of req)` had (413 past the limit, the request
 * then destroyed; a reset or early close rejects), through 'data' and 'end' listeners: the async iterator cost
 * about a twentieth of serve's CPU per event (a promise, its wrapper objects and end-of-stream watching).
 */
function readBody(req: IncomingMessage, maxBody: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // Settled once; the listeners are not taken off (the request is done with, and a later event finds it settled).
    const settle = (err: Error | null): void => {
      if (settled) return;
      settled = true;
      if (err === null) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      else reject(err);
    };
    const onData = (c: Buffer): void => {
      if (settled) return;
      size += c.length;
      if (size > maxBody) {
        settle(new HttpError(413, `the body is past the limit of ${maxBody} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    };
    const onEnd = (): void => settle(null);
    // A request's 'close' also comes after its answer: the error is made only when the body never ended.
    const onClose = (): void => {
      if (!settled) settle(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', settle);
  });
}
