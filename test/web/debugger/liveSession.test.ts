import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readTrace } from '../../../engine/trace/traceReader.ts';
import { createLiveSession, type LiveSession } from '../../../web/debugger/liveSession.ts';
import type { ReplayService } from '../../../web/debugger/replayService.ts';
import { HookwireDb } from '../../../web/persistence/db.ts';
import { readEventRange, readTraceRecord } from '../../../web/persistence/traceLibrary.ts';
import { createPipeline } from '../../../web/persistence/library.ts';
import { createAppStore, type AppStore } from '../../../web/store/appStore.ts';
import { budgetPipeline, call, preToolUse, startServe, workDir, type ServerProcess } from '../../engine/node/serve/serveHelpers.ts';

// The live view's bookkeeping (web/debugger/liveSession.ts) against a real `hookwire serve` process: the
// followed session's steps reach the library trace once each and in order, and "last server decision" is
// the decision on the last of them, however the stream's steps interleave with the reading of the session's
// recording and the making of its trace. The replay service is a stand-in that only notes what it is asked
// (the worker it drives is the e2e tests' business, e2e/debugger-live.spec.ts).

/** mulberry32, seeded: the gaps between calls differ from round to round but not from run to run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let server: ServerProcess;
let db: HookwireDb;
let store: AppStore;
let live: LiveSession;
let connected: Promise<void>;
const opened: string[] = [];
/** The pipelines the live session added to the library (a stand-in workspace notes them). */
const added: { name: string }[] = [];
let dir = '';

beforeAll(async () => {
  dir = workDir({ 'p.json': budgetPipeline(3) });
  server = await startServe(`${dir}/p.json`, `${dir}/state`);
  db = new HookwireDb(`live-session-${Math.random()}`);
  store = createAppStore();
  const replay = { openTrace: async (id: string) => void opened.push(id), goTo: () => {}, closeTrace: () => {} } as unknown as ReplayService;
  // A stand-in workspace that stores what it is given as the library would (readPipeline must find it).
  const workspace = {
    openPipeline: async (id: string) => void store.setState({ pipelineId: id }),
    newPipeline: async (doc: Parameters<typeof createPipeline>[1]) => {
      added.push(doc);
      const id = await createPipeline(db, doc);
      store.setState({ pipelineId: id });
      return id;
    },
  };
  live = createLiveSession(store, db, replay, workspace);
  connected = live.connect(`http://127.0.0.1:${server.port}`, server.token);
  await vi.waitFor(() => expect(store.getState().live.status).toBe('live'), { timeout: 20_000 });
}, 90_000);

afterAll(async () => {
  await live?.disconnect();
  await connected;
  await server?.stop();
  db?.close();
});

describe('live session', { timeout: 120_000 }, () => {
  it('each followed session: every step once and in order, and the last server decision is the last step\'s', async () => {
    const r = rng(16);
    for (let round = 0; round < 14; round++) {
      const session = `live-${round}`;
      const n = 1 + Math.floor(r() * 6);
      for (let i = 0; i < n; i++) {
        // Gaps of 0–4 ms: the steps after the first land before, during or after the recording is read.
        const wait = Math.floor(r() * 5);
        if (wait > 0) await new Promise((res) => setTimeout(res, wait));
        const reply = await call(server, 'POST', '/v1/claude/hook', preToolUse(session, `${session}-${i}`, r() < 0.2 ? 'rm -rf /' : 'ls'));
        expect(reply.status).toBe(200);
      }
      const recording = readTrace((await call(server, 'GET', `/v1/traces/${session}/recording`)).body);
      expect(recording.events).toHaveLength(n);
      const want = recording.events.at(-1)!.recorded!.decision;

      await vi.waitFor(() => {
        const v = store.getState().live;
        expect(v.following).toBe(session);
        expect(v.received).toBe(n);
        expect(v.storedId).not.toBeNull();
      }, { timeout: 20_000 });
      const id = store.getState().live.storedId!;
      await vi.waitFor(async () => expect((await readTraceRecord(db, id))?.event_count).toBe(n), { timeout: 20_000 });
      const stored = await readEventRange(db, (await readTraceRecord(db, id))!, 0, n);
      expect(stored.map((e) => e.event_id), `${session}: each step once, in order`).toEqual(recording.events.map((e) => e.event_id));
      expect(store.getState().live.lastDecision, `${session}: the last server decision`).toBe(want);
      expect(opened).toContain(id);
      await live.keep();
      expect(store.getState().live.following).toBeNull();
    }
  });

  it('opens the server\'s own pipeline for the debugger, once per server version, named as the server\'s', async () => {
    await vi.waitFor(() => expect(store.getState().live.serverPipelineId).not.toBeNull(), { timeout: 20_000 });
    expect(added.map((d) => d.name)).toEqual([`${JSON.parse(budgetPipeline(3)).name} · from serve`]);
    expect(store.getState().pipelineId).toBe(store.getState().live.serverPipelineId);
  });

  it('a restart of serve (same state dir and port): reconnects on its own, keeps the followed trace, and the steps recorded while it was away join it in order', async () => {
    const session = 'across-restart';
    for (let i = 0; i < 2; i++) expect((await call(server, 'POST', '/v1/claude/hook', preToolUse(session, `${session}-${i}`, 'ls'))).status).toBe(200);
    await vi.waitFor(() => expect(store.getState().live.received).toBe(2), { timeout: 20_000 });
    await vi.waitFor(() => expect(store.getState().live.storedId).not.toBeNull(), { timeout: 20_000 });
    const id = store.getState().live.storedId!;
    const port = server.port;
    const token = server.token;
    await server.stop();
    await vi.waitFor(() => expect(store.getState().live.status).toBe('reconnecting'), { timeout: 20_000 });
    expect(store.getState().live.following).toBe(session);
    expect(await readTraceRecord(db, id), 'the followed trace stays in the library').not.toBeNull();
    server = await startServe(`${dir}/p.json`, `${dir}/state`, ['--port', String(port)]);
    expect(server.token, 'the same state dir keeps its token').toBe(token);
    // Recorded while the app is not connected yet (or just reconnecting): it comes from the recording.
    expect((await call(server, 'POST', '/v1/claude/hook', preToolUse(session, `${session}-2`, 'rm -rf /'))).status).toBe(200);
    await vi.waitFor(() => expect(store.getState().live.status).toBe('live'), { timeout: 30_000 });
    expect((await call(server, 'POST', '/v1/claude/hook', preToolUse(session, `${session}-3`, 'ls'))).status).toBe(200);
    await vi.waitFor(() => expect(store.getState().live.received).toBe(4), { timeout: 20_000 });
    expect(store.getState().live.storedId).toBe(id);
    await vi.waitFor(async () => expect((await readTraceRecord(db, id))?.event_count).toBe(4), { timeout: 20_000 });
    const stored = await readEventRange(db, (await readTraceRecord(db, id))!, 0, 4);
    const recording = readTrace((await call(server, 'GET', `/v1/traces/${session}/recording`)).body);
    expect(stored.map((e) => e.event_id)).toEqual(recording.events.map((e) => e.event_id));
    expect(stored.at(-2)!.recorded?.decision).toBe('block_action');
    expect(added, 'the server\'s pipeline is not added again after the restart').toHaveLength(1);
  });
});
