import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flowExamples } from '../../web/demo/flowExamples.ts';
import { exportPipelineText } from '../../web/model/exportPipeline.ts';
import { call, serverPool, workDir, type ServerProcess } from '../engine/node/serve/serveHelpers.ts';
import { cliReplay, flowCalls, inCallOrder, runtimeDecides, type Call, type Decided, type Session } from './flowSessions.ts';

// Conformance of flow rules through `hookwire serve` [F3][F6][P17]: the real server, its events API on loopback,
// killed (SIGKILL) in the middle of both sessions and started again on the same state dir, so the flow memory of
// the events before the kill exists only in the recordings it rebuilds from. Right after the restart the first
// event is delivered again (same id): it gets its first answer and counts once. For each of the five worked
// examples, every answer of serve equals the runtime's (createRuntime given the same events, ids and times), and
// `hookwire replay` of serve's recordings decides every event as serve answered it.

const { serve } = serverPool();

/** Sends one event; a session is started (POST /v1/traces) right before its first event. */
async function send(s: ServerProcess, c: Call, started: Set<string>): Promise<Decided & { duplicate: boolean }> {
  if (!started.has(c.session)) {
    expect((await call(s, 'POST', '/v1/traces', { trace_id: c.session })).status).toBe(201);
    started.add(c.session);
  }
  const r = await call(s, 'POST', `/v1/traces/${c.session}/events`, { type: c.type, payload: c.payload, event_id: c.event_id, ts: c.ts });
  expect(r.status, r.body).toBe(200);
  const j = r.json();
  return { decision: j.decision, reason: j.reason ?? '', duplicate: j.duplicate };
}

describe('flow rules: serve, with a restart mid-session, decides as the runtime and the CLI [F3][F6][P17]', { timeout: 180_000 }, () => {
  for (const doc of flowExamples()) {
    it(doc.name, async () => {
      const { calls, restartAt } = flowCalls(doc.name, true);
      const dir = workDir({ 'p.json': exportPipelineText(doc, { layout: false }) });
      const state = join(dir, 'state');
      let s = await serve(join(dir, 'p.json'), state);
      // A session is started right before its first event (a started one survives the kill with its header alone
      // too: test/engine/node/serve/emptyTraceKill.test.ts).
      const started = new Set<string>();
      const answers: (Decided & { duplicate: boolean })[] = [];
      for (const c of calls.slice(0, restartAt)) answers.push(await send(s, c, started));
      s.child.kill('SIGKILL');
      await new Promise((r) => s.child.once('exit', r));
      s = await serve(join(dir, 'p.json'), state);
      const health = (await call(s, 'GET', '/health')).json();
      expect(health.divergent_on_rebuild).toBe(0);
      expect(health.failed_sessions).toBe(0);
      for (const c of calls.slice(restartAt)) answers.push(await send(s, c, started));

      // The re-delivered first event, after the restart: its first answer, marked a duplicate.
      expect(answers[restartAt]).toEqual({ ...answers[0], duplicate: true });
      expect(answers.filter((a) => a.duplicate)).toHaveLength(1);
      const decided = answers.map(({ decision, reason }) => ({ decision, reason }));
      expect(decided.some((x) => x.decision !== 'continue'), 'the sessions set the rule off').toBe(true);
      // The memory from before the kill decides after it: without it, some answer after the restart would differ.
      const runtime = await runtimeDecides(doc, calls);
      expect(decided).toEqual(runtime.decided);
      // The test can tell memory lost in the kill: the events after the restart alone decide otherwise.
      const fresh = await runtimeDecides(doc, calls.slice(restartAt + 1));
      expect(fresh.decided.map((d) => d.decision), 'the events after the restart alone decide the same').not.toEqual(decided.slice(restartAt + 1).map((d) => d.decision));
      // Without the re-delivery the same decisions (reasons name steps, and the re-delivered event is a step).
      const unsent = await runtimeDecides(doc, calls.filter((_, i) => i !== restartAt));
      expect(decided.filter((_, i) => i !== restartAt).map((d) => d.decision)).toEqual(unsent.decided.map((d) => d.decision));

      // The CLI's replay of serve's own recordings decides each event as serve answered it.
      const replayed = new Map<Session, Decided[]>();
      for (const id of ['A', 'B'] as const) {
        const rec = await call(s, 'GET', `/v1/traces/${id}/recording`);
        expect(rec.status).toBe(200);
        const file = join(dir, `${id}.jsonl`);
        writeFileSync(file, rec.body);
        replayed.set(id, cliReplay(join(dir, 'p.json'), file));
      }
      expect(inCallOrder(calls, replayed)).toEqual(decided);
      await s.stop();
    });
  }
});
