// `hookwire serve` over a long run: ended and idle sessions leave memory (and /health's count) and come back
// from their recordings, exact, when an event arrives later. The real binary, real HTTP on loopback.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTrace } from '../../../../engine/trace/index.ts';
import { budgetPipeline, call, claudeHook, health, metric, preToolUse, serverPool, until, verdict, workDir } from './serveHelpers.ts';

const { serve } = serverPool();

const claude = claudeHook;
const sessionEnd = (session: string) => ({ session_id: session, transcript_path: '/tmp/t.jsonl', cwd: '/work', hook_event_name: 'SessionEnd', reason: 'logout' });


describe('hookwire serve: ended and idle sessions leave memory and come back exact [SV1][SV2]', { timeout: 120_000 }, () => {
  it('[SV1] Claude Code sessions that send SessionEnd leave memory and /health; a later event brings the session back from its recording with its budget spent exactly', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(3) });
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    const ids = Array.from({ length: 20 }, (_, i) => `cc-${i}`);
    for (const id of ids) {
      for (let k = 0; k < 2; k++) expect(verdict(await claude(s, preToolUse(id, `${id}-${k}`)))).toBe('allow');
    }
    expect((await health(s)).sessions).toBe(20);
    for (const id of ids) expect((await claude(s, sessionEnd(id))).status).toBe(200);
    expect((await health(s)).sessions).toBe(0);
    expect(await metric(s, 'hookwire_sessions')).toBe(0);
    expect(await metric(s, 'hookwire_sessions_dropped_total')).toBe(20);
    // Resumed: two calls were spent of three, so one passes, then the budget denies.
    const back = [verdict(await claude(s, preToolUse('cc-7', 'cc-7-2'))), verdict(await claude(s, preToolUse('cc-7', 'cc-7-3')))];
    expect(back).toEqual(['allow', 'deny']);
    expect((await health(s)).sessions).toBe(1);
    expect(await metric(s, 'hookwire_sessions_reloaded_total')).toBe(1);
    // A repeated tool_use_id across the end is answered as the earlier step was [R5].
    const again = await claude(s, preToolUse('cc-7', 'cc-7-3'));
    expect(verdict(again)).toBe('deny');
    const file = readdirSync(join(dir, 'state', 'sessions')).find((n) => n.startsWith('cc-7-'))!;
    const rec = readTrace(readFileSync(join(dir, 'state', 'sessions', file), 'utf8'));
    expect(rec.events.map((e) => `${e.type}:${e.recorded!.decision}`)).toEqual([
      'tool.before_call:continue',
      'tool.before_call:continue',
      'agent.end:continue',
      'tool.before_call:continue',
      'tool.before_call:block_action',
      'tool.before_call:block_action',
    ]);
  });

  it('[SV2] an API trace ended with POST /end leaves memory and answers 409 after, also once it is out of memory; an agent.end event ends it the same way', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(100) });
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    for (const id of ['a', 'b']) {
      expect((await call(s, 'POST', '/v1/traces', { trace_id: id })).status).toBe(201);
      expect((await call(s, 'POST', `/v1/traces/${id}/events`, { type: 'tool.before_call', payload: {} })).status).toBe(200);
    }
    expect((await call(s, 'POST', '/v1/traces/a/end', {})).status).toBe(200);
    expect((await call(s, 'POST', '/v1/traces/b/events', { type: 'agent.end', payload: {} })).status).toBe(200);
    expect((await health(s)).sessions).toBe(0);
    for (const id of ['a', 'b']) {
      const late = await call(s, 'POST', `/v1/traces/${id}/events`, { type: 'tool.before_call', payload: {} });
      expect(late.status, id).toBe(409);
      expect(late.json().error).toMatch(/has ended/);
      // Known, not created again over its recording.
      expect((await call(s, 'POST', '/v1/traces', { trace_id: id })).json()).toEqual({ trace_id: id, created: false });
      expect((await call(s, 'GET', `/v1/traces/${id}/recording`)).status).toBe(200);
    }
    expect((await health(s)).sessions).toBe(0);
  });

  it('[SV1] with --idle-timeout, idle sessions leave memory (a restart keeps them out too) and come back with exact budgets when an event arrives', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(2) });
    const state = join(dir, 'state');
    const s = await serve(join(dir, 'p.json'), state, ['--idle-timeout', '1']);
    for (const id of ['i1', 'i2', 'i3']) expect(verdict(await claude(s, preToolUse(id, `${id}-a`)))).toBe('allow');
    expect((await call(s, 'POST', '/v1/traces', { trace_id: 'api' })).status).toBe(201);
    expect((await call(s, 'POST', '/v1/traces/api/events', { type: 'tool.before_call', payload: {} })).status).toBe(200);
    const h = await until(() => health(s), (v) => v.sessions === 0);
    expect(h.sessions).toBe(0);
    expect([verdict(await claude(s, preToolUse('i2', 'i2-b'))), verdict(await claude(s, preToolUse('i2', 'i2-c')))]).toEqual(['allow', 'deny']);
    const api = await call(s, 'POST', '/v1/traces/api/events', { type: 'tool.before_call', payload: {} });
    expect(api.json()).toMatchObject({ index: 1, event_id: 'api:2', decision: 'continue' });
    await s.stop();
    // Written more than the idle timeout ago: a restart reads the recordings but keeps none in memory.
    await new Promise((r) => setTimeout(r, 1100));
    const s2 = await serve(join(dir, 'p.json'), state, ['--idle-timeout', '1']);
    expect((await health(s2)).sessions).toBe(0);
    expect(verdict(await claude(s2, preToolUse('i1', 'i1-b')))).toBe('allow');
    expect(verdict(await claude(s2, preToolUse('i1', 'i1-c')))).toBe('deny');
  });
});

describe('hookwire serve: limits [SV3][SV4]', { timeout: 120_000 }, () => {
  it('[SV3] trace ids ".", "..", empty, over-long or with control characters are refused with 400 on every route; a Claude session id so is the fail-closed answer', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(5) });
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'));
    for (const id of ['.', '..', '', 'x'.repeat(257), 'a\nb']) {
      const r = await call(s, 'POST', '/v1/traces', { trace_id: id });
      expect(r.status, JSON.stringify(id)).toBe(400);
      expect(r.json().error).toMatch(/trace id/);
    }
    expect((await call(s, 'POST', '/v1/traces', { trace_id: 'x'.repeat(256) })).status).toBe(201);
    for (const enc of ['%2E', '%2E%2E', 'x'.repeat(300)]) {
      expect((await call(s, 'POST', `/v1/traces/${enc}/events`, { type: 'a.b', payload: {} })).status, enc).toBe(400);
      expect((await call(s, 'GET', `/v1/traces/${enc}/recording`)).status, enc).toBe(400);
    }
    const cc = await claude(s, preToolUse('..', 'dotdot-1'));
    expect(verdict(cc)).toBe('stop');
    expect(cc.json().stopReason).toMatch(/trace id "\.\."/);
    // Only the accepted 256-character id has a recording (its header, written when it was created [P17]), and its anchor [K6].
    const files = readdirSync(join(dir, 'state', 'sessions')).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(new RegExp(`^${'x'.repeat(60)}-[0-9a-f]{12}\\.hwtrace\\.jsonl$`));
    expect(files[1]).toBe(`${files[0]}.head`);
  });

  it('[SV4] --max-sessions: one live session more is a clear 503 (fail-closed for Claude Code); an ended session makes room', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(5) });
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'), ['--max-sessions', '2']);
    expect((await call(s, 'POST', '/v1/traces', { trace_id: 'one' })).status).toBe(201);
    expect(verdict(await claude(s, preToolUse('two', 'two-1')))).toBe('allow');
    const third = await call(s, 'POST', '/v1/traces', { trace_id: 'three' });
    expect(third.status).toBe(503);
    expect(third.json().error).toMatch(/2 live sessions, its limit \(--max-sessions 2\)/);
    const cc = await claude(s, preToolUse('four', 'four-1'));
    expect(verdict(cc)).toBe('stop');
    expect(cc.json().stopReason).toMatch(/--max-sessions 2/);
    expect((await claude(s, sessionEnd('two'))).status).toBe(200);
    expect((await call(s, 'POST', '/v1/traces', { trace_id: 'three' })).status).toBe(201);
  });

  it('[SV4] --max-streams: one live-stream client more is 503; closing one makes room', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(5) });
    const s = await serve(join(dir, 'p.json'), join(dir, 'state'), ['--max-streams', '2']);
    const { openStream } = await import('./serveHelpers.ts');
    const a = await openStream(s);
    const b = await openStream(s);
    expect([a.status, b.status]).toEqual([200, 200]);
    const c = await call(s, 'GET', '/v1/stream');
    expect(c.status).toBe(503);
    expect(c.json().error).toMatch(/--max-streams 2/);
    expect(await metric(s, 'hookwire_stream_clients')).toBe(2);
    a.close();
    await until(() => metric(s, 'hookwire_stream_clients'), (v) => v === 1);
    const d = await openStream(s);
    expect(d.status).toBe(200);
    b.close();
    d.close();
  });
});
