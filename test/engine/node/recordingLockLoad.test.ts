// [P13] The recording lock of `claude-hook --record` is held by the kernel, so its correctness does not depend
// on load: a holder busy for seconds in QuickJS (its event loop blocked, no timer runs) keeps it, and a holder
// killed with kill -9 leaves it free at once. Before, the lock was a file judged stale after 4 s without a
// refresh: on a loaded machine a long code call lost its lock and failed closed (#32). Real processes only: the
// real binary, many parallel calls, two real busy processes, a real kill -9.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kernelLockName } from '../../../engine/node/serve/recordingLock.ts';
import { HOOK_INPUTS } from '../runtime/claudeHookInputs.ts';
import { BIN, ROOT, hookwire, tempDir, type CliRun } from './runCli.ts';

// Scan hashes for about a second of CPU when the command starts with "heavy" (many seconds of wall time under
// load: past the old lock's 4 s) and blocks rm; Cap is a budget of 4 calls, so the calls below end in 4 allowed
// and the rest over the budget only if every call saw every earlier one. Each call replays the recording's
// earlier events, heavy ones included, in one synchronous stretch. "hang" loops until killed (fuel 10^7 units).
const PIPELINE = {
  format: 'hookwire.pipeline',
  version: 1,
  name: 'lock under load',
  nodes: [
    { id: 'before', kind: 'event', pattern: 'tool.before_call' },
    {
      id: 'scan',
      kind: 'handler',
      name: 'Scan',
      order: 10,
      fuel: 10_000_000,
      action: {
        type: 'code',
        language: 'js',
        source: 'export default (ctx) => { const c = String(ctx.payload.tool_input.command); let h = 0; if (c === "hang") for (;;) h = (h * 31 + 1) | 0; const n = c.startsWith("heavy") ? 3000000 : 0; for (let i = 0; i < n; i++) h = (h * 31 + i) | 0; if (c.startsWith("rm")) return block("rm"); return { decision: "continue", context: "scanned " + (h & 7) }; }',
      },
    },
    { id: 'cap', kind: 'handler', name: 'Cap', order: 20, action: { type: 'budget', key: 'calls', limit: 4 } },
  ],
  wires: [
    { from: 'before', to: 'scan' },
    { from: 'before', to: 'cap' },
  ],
};

const input = (command: string, id: string) => JSON.stringify({ ...HOOK_INPUTS.PreToolUse, session_id: 'load', tool_input: { command }, tool_use_id: id });

/** One real `claude-hook --record` process, unthrottled, at the given niceness; `child` is there at once. */
function hook(pipeline: string, record: string, stdin: string, priority = 0, extra: string[] = []): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [BIN, 'claude-hook', pipeline, '--record', record, ...extra], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  if (priority !== 0) setPriority(child.pid!, priority);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  child.stdin!.end(stdin);
  return { child, done };
}

/** Whether some process holds the kernel-held lock of `record` (a bind of its name is refused). */
function held(record: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(true) : reject(err)));
    probe.listen({ path: kernelLockName(record)!, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

const burners: ChildProcess[] = [];
afterEach(() => {
  for (const b of burners.splice(0)) b.kill('SIGKILL');
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(process.platform === 'linux')('the recording lock is held by the kernel [P13]', { timeout: 600_000 }, () => {
  it('[P13] 8 parallel claude-hook --record calls, 2 of them long code calls, beside two busy processes: none fails, the recording is one intact chain, and the budget saw every call', async () => {
    const dir = tempDir({ 'p.json': JSON.stringify(PIPELINE) });
    const record = join(dir, 'session.hwtrace.jsonl');
    for (let i = 0; i < 2; i++) burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    const commands = ['heavy 1', 'ls', 'rm -rf /', 'heavy 2', 'ls', 'ls', 'ls', 'ls'];
    // Niceness 5: each call gets a small share of the two cores beside the busy processes and the other calls.
    const calls = commands.map((c, k) => hook(join(dir, 'p.json'), record, input(c, `t${k}`), 5));
    const runs = await Promise.all(calls.map((c) => c.done));
    for (const b of burners.splice(0)) b.kill('SIGKILL');
    // Every call decided (exit 0: an answer on stdout; a lost lock or a lock timeout is exit 2 with the reason).
    expect(runs.map((r) => r.code), JSON.stringify(runs.filter((r) => r.code !== 0))).toEqual(commands.map(() => 0));
    expect(runs.map((r) => r.stderr)).toEqual(commands.map(() => ''));
    const lines = readFileSync(record, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1 + commands.length);
    const events = lines.slice(1).map((l) => JSON.parse(l) as { event_id: string; payload: { command: string }; recorded: { decision: string; reason?: string } });
    expect(new Set(events.map((e) => e.event_id)).size).toBe(commands.length);
    // In recording order: rm is blocked by Scan (a blocked call does not count); the rest count, and the calls
    // past the fourth counted one are over the budget.
    let counted = 0;
    for (const e of events) {
      if (e.payload.command.startsWith('rm')) expect(e.recorded).toMatchObject({ decision: 'block_action', reason: 'rm' });
      else expect(e.recorded.decision, `call ${e.event_id} after ${counted} counted`).toBe(++counted > 4 ? 'block_action' : 'continue');
    }
    const verified = await hookwire(['verify', record]);
    expect(verified.code, verified.stdout).toBe(0);
    const check = await hookwire(['replay', '--check', join(dir, 'p.json'), record]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain(`all ${commands.length} recorded decisions match the replay`);
  });

  it('[P13] a holder killed with kill -9 in the middle of a code call leaves the lock free at once: the next call records after it (lock timeout 3 s, shorter than the old 4 s staleness)', async () => {
    const dir = tempDir({ 'p.json': JSON.stringify(PIPELINE) });
    const record = join(dir, 'session.hwtrace.jsonl');
    const first = hook(join(dir, 'p.json'), record, input('ls', 'before-kill'));
    expect((await first.done).code).toBe(0);
    const holder = hook(join(dir, 'p.json'), record, input('hang', 'hangs'));
    while (!(await held(record))) {
      expect(holder.child.exitCode).toBeNull();
      await sleep(20);
    }
    holder.child.kill('SIGKILL');
    expect((await holder.done).code).toBeNull();
    const next = await hook(join(dir, 'p.json'), record, input('ls', 'after-kill'), 0, ['--lock-timeout', '3000']).done;
    expect(next.stderr).toBe('');
    expect(next.code).toBe(0);
    const ids = readFileSync(record, 'utf8').trimEnd().split('\n').slice(1).map((l) => (JSON.parse(l) as { event_id: string }).event_id);
    // The killed call wrote nothing (it was killed before its append); the chain holds.
    expect(ids).toEqual(['cc:before-kill:before', 'cc:after-kill:before']);
    expect((await hookwire(['verify', record])).code).toBe(0);
    expect(await held(record)).toBe(false);
  });

  it('[P13] one recording has one lock whatever the spelling of its path (relative, through a symlinked folder); another recording has another', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const a = kernelLockName(join(dir, 'real', 'r.jsonl'));
    expect(a).toMatch(/^\0hookwire-recording-lock-[0-9a-f]{40}$/);
    expect(kernelLockName(join(dir, 'link', 'r.jsonl'))).toBe(a);
    expect(kernelLockName(join(dir, 'real', '..', 'real', 'r.jsonl'))).toBe(a);
    expect(kernelLockName(join(dir, 'real', 'other.jsonl'))).not.toBe(a);
    expect(kernelLockName(join(dir, 'real', 'r.jsonl'), 'darwin')).toBeNull();
  });
});
