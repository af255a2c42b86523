// [S14][P17] `hookwire serve` and the wall-clock safety net: when the net stops a code handler live, serve's
// recording names it (`recorded.wall_clock`), a restart after kill -9 rebuilds the session without timing it
// again (no divergence), and `hookwire replay` of serve's recording reproduces the recorded outcome even with a
// pipeline whose net is far — where running the code again would complete, patch the state and block the next
// event. Real serve processes and the real CLI.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookwire } from '../runCli.ts';
import { call, health, serverPool, workDir, type ServerProcess } from './serveHelpers.ts';

const { serve } = serverPool();

/** A code handler that works for tens of ms, then marks the state; a second handler blocks once it is marked. */
function pipelineWithNet(timeoutMs: number): string {
  return `${JSON.stringify({
    format: 'hookwire.pipeline',
    version: 1,
    name: 'net',
    nodes: [
      { id: 'ev', kind: 'event', pattern: 'tool.before_call' },
      { id: 'h-code', kind: 'handler', name: 'slow mark', order: 10, timeout_ms: timeoutMs, on_error: 'continue', action: { type: 'code', language: 'js', source: 'export default (ctx) => { let h = 0; for (let i = 0; i < 300000; i++) h = (h * 31 + i) | 0; return { decision: "continue", state_patch: { ran: true } }; }' } },
      { id: 'm-ran', kind: 'matcher', when: { 'state.ran': { eq: true } } },
      { id: 'h-after', kind: 'handler', name: 'after the mark', order: 20, action: { type: 'block', reason: 'the code ran before' } },
    ],
    wires: [{ from: 'ev', to: 'h-code' }, { from: 'ev', to: 'm-ran' }, { from: 'm-ran', to: 'h-after' }],
  }, null, 2)}\n`;
}

const tool = (s: ServerProcess, command: string) => call(s, 'POST', '/v1/traces/net-1/events', { type: 'tool.before_call', payload: { tool_name: 'Bash', tool_input: { command } } });

describe('hookwire serve: the wall-clock net as recorded [S14]', { timeout: 180_000 }, () => {
  it('[S14] serve records the nodes the net stopped; kill -9 and restart rebuild without re-timing (0 divergent); hookwire replay with a far net reproduces the recorded outcome (check passes)', async () => {
    const dir = workDir({ 'p.json': pipelineWithNet(1), 'far.json': pipelineWithNet(60_000) });
    const state = join(dir, 'state');
    let s = await serve(join(dir, 'p.json'), state);
    expect((await call(s, 'POST', '/v1/traces', { trace_id: 'net-1' })).status).toBe(201);
    // A 1 ms net stops the code (tens of ms of work) each time: the error policy lets the call through, the state is never marked.
    for (const command of ['a', 'b']) {
      const r = await tool(s, command);
      expect(r.status, r.body).toBe(200);
      expect(r.json()).toMatchObject({ decision: 'continue' });
    }
    const file = join(state, 'sessions', readdirSync(join(state, 'sessions')).find((n) => n.endsWith('.hwtrace.jsonl'))!);
    const recorded = () => readFileSync(file, 'utf8').trim().split('\n').slice(1).map((l) => (JSON.parse(l) as { recorded: { decision: string; wall_clock?: string[] } }).recorded);
    expect(recorded().map((r) => [r.decision, r.wall_clock])).toEqual([['continue', ['h-code']], ['continue', ['h-code']]]);

    s.child.kill('SIGKILL');
    await new Promise((r) => s.child.once('exit', r));
    s = await serve(join(dir, 'p.json'), state);
    const h = await health(s);
    expect([h.divergent_on_rebuild, h.failed_sessions]).toEqual([0, 0]);
    expect((await tool(s, 'c')).json()).toMatchObject({ decision: 'continue' });

    // The far net would let the code finish: run again, it would mark the state and block every later call.
    // Replay gives each recorded stop instead (the table says so), so it agrees with what serve decided.
    const far = await hookwire(['replay', '--check', join(dir, 'far.json'), file]);
    expect(far.code, far.stdout + far.stderr).toBe(0);
    expect(far.stdout).toContain('wall-clock net as recorded');
    expect(far.stdout).toContain('Check: all 3 recorded decisions match the replay');
    // Without the recorded stops (a copy of the recording as if nothing had been stopped) the far net lets the
    // code run (it marks the state at once), and the replay no longer agrees: the recorded stop made the difference.
    const bare = readFileSync(file, 'utf8').split('\n').map((l) => l.replace(/,"wall_clock":\["h-code"\]/, '').replace(/,"chain":"[0-9a-f]{64}"/, '')).join('\n');
    writeFileSync(join(dir, 'bare.jsonl'), bare);
    const rerun = await hookwire(['replay', '--check', join(dir, 'far.json'), join(dir, 'bare.jsonl')]);
    expect(rerun.code).toBe(1);
    expect(rerun.stdout).toContain('Check failed: 3 of 3 recorded decisions differ from the replay');
    expect(rerun.stdout).toMatch(/#1 net-1:1 \(tool\.before_call\): recorded CONTINUE \[by pipeline sha256:[0-9a-f]{16}\]; replayed BLOCK_ACTION \(the code ran before\) by h-after/);
  });
});
