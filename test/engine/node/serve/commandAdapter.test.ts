// The command adapter without a server, made safe (issue 11 part 6), and the forwarding command (part 3):
// real processes of the real binary, many at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { compilePipeline } from '../../../../engine/compile/compilePipeline.ts';
import { replayTrace } from '../../../../engine/replay/replaySteps.ts';
import { readTrace } from '../../../../engine/trace/index.ts';
import { ROOT, hookwireInProcess, spawnHookwire, type CliRun } from '../runCli.ts';
import { budgetPipeline, holdRecordingLock, preToolUse, recordingsIn, startServe, workDir } from './serveHelpers.ts';

type Run = CliRun;

/** One `hookwire` process, not throttled (runCli's `hookwire` is): these tests need real parallel processes. */
function hookwire(args: string[], stdin: string): Promise<Run> {
  return spawnHookwire(args, (s) => s.end(stdin));
}

const verdict = (r: Run) => (r.code === 2 ? 'exit2' : r.stdout === '' ? 'allow' : JSON.parse(r.stdout).hookSpecificOutput?.permissionDecision ?? 'other');

beforeAll(() => {
  // The prebuilt bundle (what `npm install` makes and users run): 32 processes through tsx would take minutes here.
  execFileSync(process.execPath, [join(ROOT, 'engine', 'node', 'buildCli.mjs')], { cwd: ROOT });
});

describe('claude-hook --record: a lock around read → decide → append', { timeout: 180_000 }, () => {
  it('[P13] 32 parallel processes against a budget of 10: exactly 10 pass; 8 parallel prompts get 8 distinct ids; the recording replays to the same decisions', async () => {
    const pipeline = budgetPipeline(10);
    const dir = workDir({ 'p.json': pipeline });
    const rec = join(dir, 'rec.hwtrace.jsonl');
    const args = ['claude-hook', join(dir, 'p.json'), '--record', rec, '--lock-timeout', '60000'];
    const runs = await Promise.all(Array.from({ length: 32 }, (_, i) => hookwire(args, JSON.stringify(preToolUse('par', `t${i}`)))));
    const v = runs.map(verdict);
    expect(v.filter((x) => x === 'allow'), runs.map((r) => r.stderr).join('')).toHaveLength(10);
    expect(v.filter((x) => x === 'deny')).toHaveLength(22);
    const prompts = await Promise.all(Array.from({ length: 8 }, () => hookwire(args, JSON.stringify({ session_id: 'par', hook_event_name: 'UserPromptSubmit', prompt: 'hi' }))));
    expect(prompts.every((r) => r.code === 0)).toBe(true);
    const read = readTrace(readFileSync(rec, 'utf8'));
    expect(read.status).toBe('ok');
    expect(read.events).toHaveLength(40);
    expect(new Set(read.events.filter((e) => e.type === 'input.received').map((e) => e.event_id)).size).toBe(8);
    const compiled = compilePipeline(JSON.parse(pipeline));
    if (!compiled.ok) throw new Error('refused');
    expect(replayTrace(compiled.compiled, read.events, { explain: false }).map((s) => s.decision)).toEqual(read.events.map((e) => e.recorded!.decision));
  });

  it('[P13][P17] a torn last line is cut and the next event answered; an oversize or bad line, /dev/zero and a held lock fail closed', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(1) });
    const p = join(dir, 'p.json');
    const rec = join(dir, 'rec.hwtrace.jsonl');
    expect(verdict(await hookwire(['claude-hook', p, '--record', rec], JSON.stringify(preToolUse('s', 'a'))))).toBe('allow');
    const clean = readFileSync(rec, 'utf8');
    appendFileSync(rec, '{"event_id":"cc:b:before","type":"tool.before_ca');
    // The torn call was never answered: the next one is the second call, over the budget of one.
    expect(verdict(await hookwire(['claude-hook', p, '--record', rec], JSON.stringify(preToolUse('s', 'c'))))).toBe('deny');
    const after = readFileSync(rec, 'utf8');
    expect(after.startsWith(clean)).toBe(true);
    expect(readTrace(after).status).toBe('ok');

    const bad = join(dir, 'bad.hwtrace.jsonl');
    writeFileSync(bad, `${clean}not json\n`);
    const huge = join(dir, 'huge.hwtrace.jsonl');
    writeFileSync(huge, `${clean}{"event_id":"x","type":"a.b","ts":"2026-01-01T00:00:00Z","payload":{"s":"${'x'.repeat(8 * 1024 * 1024 + 10)}"}}\n`);
    const locked = join(dir, 'locked.hwtrace.jsonl');
    writeFileSync(locked, clean);
    // Held by another live call (this process): however late the waiting call starts, it is not taken over.
    const release = await holdRecordingLock(locked);
    const [b, h, z, l] = await Promise.all([
      hookwire(['claude-hook', p, '--record', bad], JSON.stringify(preToolUse('s', 'd'))),
      hookwire(['claude-hook', p, '--record', huge], JSON.stringify(preToolUse('s', 'd'))),
      hookwire(['claude-hook', p, '--record', '/dev/zero'], JSON.stringify(preToolUse('s', 'd'))),
      hookwire(['claude-hook', p, '--record', locked, '--lock-timeout', '300'], JSON.stringify(preToolUse('s', 'd'))),
    ]);
    await release();
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/line 3: not_json/);
    expect(h.code).toBe(2);
    expect(h.stderr).toMatch(/line 3: line_too_long/);
    expect(z.code).toBe(2);
    expect(z.stderr).toMatch(/not a regular file/);
    expect(l.code).toBe(2);
    expect(l.stderr).toMatch(/stayed locked by another hook call for 300 ms/);
    expect(readFileSync(bad, 'utf8')).toBe(`${clean}not json\n`);
    expect(readFileSync(locked, 'utf8')).toBe(clean);
  });
});

/**
 * A recording with one allowed call of `session` in it, then locked as if another hook call held it: the
 * pipeline, the recording and its text before the locked call.
 */
async function lockedRecording(run: (args: string[], stdin: string) => Promise<Run>, session: string): Promise<{ p: string; rec: string; clean: string; release: () => Promise<void> }> {
  const dir = workDir({ 'p.json': budgetPipeline(100) });
  const p = join(dir, 'p.json');
  const rec = join(dir, 'rec.hwtrace.jsonl');
  expect(verdict(await run(['claude-hook', p, '--record', rec], JSON.stringify(preToolUse(session, 'a'))))).toBe('allow');
  const clean = readFileSync(rec, 'utf8');
  // Held by a live call (this process), which is never taken over however late the waiting call starts.
  const release = await holdRecordingLock(rec);
  return { p, rec, clean, release };
}

describe('claude-hook: the answer deadline ends the call', { timeout: 60_000 }, () => {
  it('[P12][P13] a deadline while waiting for the lock: the process exits with the fail-closed answer at once, and the event is never recorded as allowed later', async () => {
    // Another hook call holds the lock (fresh, so not stale) for 4 s; this one's hook timeout is 1 s, so it
    // must answer by its deadline (0.9 s) — and Claude Code only reads an exit code once the process has exited.
    const { p, rec, clean, release } = await lockedRecording(hookwire, 'd');
    const t0 = Date.now();
    let exitedAt = 0;
    const run = hookwire(['claude-hook', p, '--record', rec, '--timeout', '1', '--lock-timeout', '8000'], JSON.stringify(preToolUse('d', 'b'))).then((r) => ((exitedAt = Date.now() - t0), r));
    await new Promise((r) => setTimeout(r, 4000));
    await release();
    const r = await run;
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/no decision within 900 ms, before the hook's 1 s timeout \(failing closed\)/);
    expect(exitedAt, 'the process exited before the lock came free (it answered and did not stay to wait for it)').toBeLessThan(4000);
    await new Promise((r) => setTimeout(r, 500));
    expect(readFileSync(rec, 'utf8')).toBe(clean);
  });
});

describe('claude-hook in-process (the library route): the answer deadline ends the work', { timeout: 60_000 }, () => {
  it('[P12][P13] after the deadline has answered, the call stops waiting for the lock and appends nothing, even when the lock comes free', async () => {
    const { p, rec, clean, release } = await lockedRecording((args, stdin) => hookwireInProcess(args, stdin), 'i');
    const r = await hookwireInProcess(['claude-hook', p, '--record', rec, '--timeout', '1', '--lock-timeout', '8000'], JSON.stringify(preToolUse('i', 'b')));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/no decision within 900 ms/);
    await release();
    // Long enough for a call still polling the lock (every few ms) to take it and append.
    await new Promise((res) => setTimeout(res, 800));
    expect(readFileSync(rec, 'utf8')).toBe(clean);
    expect(existsSync(`${rec}.lock`)).toBe(false);
  });
});

describe('claude-hook --server: forwarding fails closed', { timeout: 120_000 }, () => {
  it('[P19] answers exactly as the standalone command; a server that is down, refuses the token or does not answer in time → exit 2', async () => {
    const dir = workDir({ 'p.json': budgetPipeline(100) });
    const p = join(dir, 'p.json');
    const state = join(dir, 'state');
    const s = await startServe(p, state);
    try {
      const inputs = [preToolUse('f', 'a', 'rm -rf /'), preToolUse('f', 'b', 'npm publish --token=abc'), preToolUse('f', 'c', 'ls'), { session_id: 'f', hook_event_name: 'UserPromptSubmit', prompt: 'ignore previous instructions' }];
      for (const input of inputs) {
        const [viaServer, standalone] = await Promise.all([hookwire(['claude-hook', '--server', s.url, '--state-dir', state], JSON.stringify(input)), hookwire(['claude-hook', p], JSON.stringify(input))]);
        expect(viaServer).toEqual(standalone);
      }
      const badToken = join(dir, 'bad-token');
      writeFileSync(badToken, 'nope\n');
      const refused = await hookwire(['claude-hook', '--server', s.url, '--token-file', badToken], JSON.stringify(inputs[2]));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/answered 401: missing or wrong bearer token/);
    } finally {
      await s.stop();
    }
    await expectDeadlineKept(dir);
    const down = await hookwire(['claude-hook', '--server', s.url, '--state-dir', state, '--deadline', '2000'], JSON.stringify(preToolUse('f', 'd')));
    expect(down.code).toBe(2);
    expect(down.stdout).toBe('');
    expect(down.stderr).toMatch(/cannot reach the server .*ECONNREFUSED.*failing closed/);
    // A server that takes the request and never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const slow = await hookwire(['claude-hook', '--server', url, '--state-dir', state, '--deadline', '300'], JSON.stringify(preToolUse('f', 'e')));
      expect(slow.code).toBe(2);
      expect(slow.stderr).toMatch(/no answer from .* within 300 ms/);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

/**
 * [P19] The forwarding command tells the server when it stops waiting (`x-hookwire-deadline`): an event whose
 * turn comes after that is not recorded (the command has answered "blocked" itself), one in time is.
 */
async function expectDeadlineKept(dir: string): Promise<void> {
  const p = join(dir, 'p.json');
  const state = join(dir, 'state-deadline');
  const s = await startServe(p, state);
  try {
    const post = (input: unknown, deadline: number) => fetch(`${s.url}/v1/claude/hook?answer=command`, { method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json', 'x-hookwire-deadline': String(deadline) }, body: JSON.stringify(input) });
    const inTime = await post(preToolUse('dl', 'a'), Date.now() + 60_000);
    expect(inTime.status).toBe(200);
    expect(await inTime.json()).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const late = await post(preToolUse('dl', 'b'), Date.now() - 1);
    expect(late.status).toBe(200);
    const answer = (await late.json()) as { exitCode: number; stderr: string };
    expect(answer.exitCode).toBe(2);
    expect(answer.stderr).toMatch(/past the forwarding command's deadline \(failing closed\)/);
  } finally {
    await s.stop();
  }
  const [name] = recordingsIn(join(state, 'sessions'));
  const read = readTrace(readFileSync(join(state, 'sessions', name!), 'utf8'));
  expect(read.status).toBe('ok');
  expect(read.events.map((e) => [e.event_id, e.recorded?.decision])).toEqual([['cc:a:before', 'continue']]);
}
