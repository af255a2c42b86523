// `hookwire serve` on a bad day: a full disk and a read-only disk fail every session closed, new ones included,
// and heal without a restart (the gap recorded); an unreadable recording answers 503 and is left alone.
// The disks are real: a small tmpfs, filled or remounted read-only (needs root; skipped with a message if not).
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTrace } from '../../../../engine/trace/index.ts';
import { budgetPipeline, call, claudeHook, health, metric, preToolUse, serverPool, until, verdict, workDir } from './serveHelpers.ts';

const mounts: string[] = [];
const { serve, stopAll } = serverPool();
afterAll(async () => {
  await stopAll();
  for (const m of mounts) execFileSync('umount', [m]);
});

/** A fresh tmpfs of `size` at a new folder, or null when this process may not mount (not root). */
function tmpfs(size: string): string | null {
  const at = mkdtempSync(join(tmpdir(), 'hookwire-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', at], { stdio: 'pipe' });
  } catch {
    return null;
  }
  mounts.push(at);
  return at;
}
const canMount = (() => {
  const at = tmpfs('64k');
  if (!at) return false;
  execFileSync('umount', [at]);
  mounts.pop();
  return true;
})();
if (!canMount) console.warn('faults.test.ts: SKIPPED the full-disk and read-only-disk tests: this process cannot mount a tmpfs (run as root, as CI does)');

const claude = claudeHook;
/** Fills the file system until a write fails. */
function fill(file: string): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  try {
    for (;;) appendFileSync(file, chunk);
  } catch {
    for (let n = 4096; n >= 1; n = Math.floor(n / 2)) {
      try {
        for (;;) appendFileSync(file, chunk.subarray(0, n));
      } catch {
        // smaller
      }
    }
  }
}
/** A PreToolUse whose line needs more than the page a recording's last line may still have room in. */
const big = (session: string, id: string) => preToolUse(session, id, `echo ${'y'.repeat(6000)}`);

describe('hookwire serve: disk faults fail closed and heal [SV5][SV6]', { timeout: 120_000 }, () => {
  it.skipIf(!canMount)('[SV6] a full disk: every session and every new trace is answered 503 / fail-closed; freeing space heals without a restart, budgets exact, the gap in faults.jsonl', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(3) });
    const state = tmpfs('1m')!;
    const s = await serve(join(dir, 'p.json'), state);
    for (const id of ['a', 'b']) expect(verdict(await claude(s, preToolUse(id, `${id}-1`)))).toBe('allow');
    expect((await call(s, 'POST', '/v1/traces', { trace_id: 'api' })).status).toBe(201);
    expect((await call(s, 'POST', '/v1/traces/api/events', { type: 'tool.before_call', payload: {} })).status).toBe(200);
    fill(join(state, 'filler'));
    const a = await claude(s, big('a', 'a-2'));
    expect(verdict(a)).toBe('stop');
    expect(a.json().stopReason).toMatch(/cannot write recordings \(ENOSPC/);
    // Every session fails closed now, one whose next line would still fit included, and no new trace is made.
    expect(verdict(await claude(s, preToolUse('b', 'b-2')))).toBe('stop');
    expect((await call(s, 'POST', '/v1/traces/api/events', { type: 'tool.before_call', payload: {} })).status).toBe(503);
    const fresh = await call(s, 'POST', '/v1/traces', { trace_id: 'new-on-full-disk' });
    expect(fresh.status).toBe(503);
    expect(verdict(await claude(s, preToolUse('c', 'c-1')))).toBe('stop');
    expect(await health(s)).toMatchObject({ status: 'degraded', write_fault: { reason: expect.stringMatching(/ENOSPC/) } });
    expect(await metric(s, 'hookwire_write_fault')).toBe(1);
    rmSync(join(state, 'filler'));
    const healed = await until(() => health(s), (h) => h.write_fault === null);
    expect(healed.write_fault_gaps).toHaveLength(1);
    // a: one call recorded of three, the failed one never happened: two more pass, then deny.
    expect([await claude(s, big('a', 'a-2')), await claude(s, preToolUse('a', 'a-3')), await claude(s, preToolUse('a', 'a-4'))].map(verdict)).toEqual(['allow', 'allow', 'deny']);
    expect(verdict(await claude(s, preToolUse('c', 'c-1')))).toBe('allow');
    expect((await call(s, 'POST', '/v1/traces', { trace_id: 'new-on-full-disk' })).status).toBe(201);
    for (const name of readdirSync(join(state, 'sessions')).filter((n) => n.endsWith('.hwtrace.jsonl'))) expect(readTrace(readFileSync(join(state, 'sessions', name), 'utf8')).status, name).toBe('ok');
    const gaps = readFileSync(join(state, 'faults.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ kind: 'write_fault', reason: expect.stringMatching(/ENOSPC/) });
    expect(gaps[0].refused).toBeGreaterThanOrEqual(5);
    expect(Date.parse(gaps[0].to)).toBeGreaterThanOrEqual(Date.parse(gaps[0].from));
  });

  it.skipIf(!canMount)('[SV6] a read-only disk: events of sessions that left memory and new traces are 503 / fail-closed; remounted writable, they recover without a restart', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(2) });
    const state = tmpfs('4m')!;
    const s = await serve(join(dir, 'p.json'), state, ['--idle-timeout', '1']);
    expect(verdict(await claude(s, preToolUse('r', 'r-1')))).toBe('allow');
    // Idle sessions leave memory and close their files, so the file system can be remounted read-only.
    await until(() => metric(s, 'hookwire_open_recordings'), (v) => v === 0);
    execFileSync('mount', ['-o', 'remount,ro', state]);
    try {
      const r = await claude(s, preToolUse('r', 'r-2'));
      expect(verdict(r)).toBe('stop');
      expect(r.json().stopReason).toMatch(/EROFS|read-only/i);
      expect((await call(s, 'POST', '/v1/traces', { trace_id: 'ro-new' })).status).toBe(503);
      expect(verdict(await claude(s, preToolUse('q', 'q-1')))).toBe('stop');
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', state]);
    }
    await until(() => health(s), (h) => h.write_fault === null);
    expect([await claude(s, preToolUse('r', 'r-2')), await claude(s, preToolUse('r', 'r-3'))].map(verdict)).toEqual(['allow', 'deny']);
    expect((await call(s, 'POST', '/v1/traces', { trace_id: 'ro-new' })).status).toBe(201);
    expect(readFileSync(join(state, 'faults.jsonl'), 'utf8')).toMatch(/"kind":"write_fault".*(EROFS|read-only)/i);
  });

  it('[SV5] an unreadable recording line: its session answers 503 on every route (never 404, never 201 over it), the file is left untouched, other sessions go on', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(3) });
    const state = join(dir, 'state');
    const s = await serve(join(dir, 'p.json'), state);
    for (const id of ['bad', 'good']) {
      expect((await call(s, 'POST', '/v1/traces', { trace_id: id })).status).toBe(201);
      expect((await call(s, 'POST', `/v1/traces/${id}/events`, { type: 'tool.before_call', payload: {} })).status).toBe(200);
    }
    await s.stop();
    const file = join(state, 'sessions', readdirSync(join(state, 'sessions')).find((n) => n.startsWith('bad-'))!);
    appendFileSync(file, '{"event_id":"forged", not json at all}\n');
    appendFileSync(file, '{"event_id":"bad:3","type":"tool.before_call","ts":"2026-01-01T00:00:00Z","payload":{}}\n');
    const before = readFileSync(file);
    const s2 = await serve(join(dir, 'p.json'), state);
    const open = await call(s2, 'POST', '/v1/traces', { trace_id: 'bad' });
    expect(open.status).toBe(503);
    expect(open.json().error).toContain(file);
    expect(open.json().error).toMatch(/line 3: not_json/);
    const ev = await call(s2, 'POST', '/v1/traces/bad/events', { type: 'tool.before_call', payload: {} });
    expect(ev.status).toBe(503);
    expect(ev.json().error).toMatch(/line 3/);
    expect((await call(s2, 'POST', '/v1/traces/good/events', { type: 'tool.before_call', payload: {} })).json()).toMatchObject({ index: 1 });
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect((await health(s2)).failed_sessions).toBe(1);
  });
});
