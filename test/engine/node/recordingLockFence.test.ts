// [P13] The file lock (the fallback where no kernel-held lock exists, forced here with
// HOOKWIRE_RECORDING_LOCK=file) is fenced: a holder that was starved past the lock's stale time (its refresh
// timer never ran, so another hook call took the lock over) writes nothing. Real processes: the starved holder
// is a child process holding the real lock with its event loop blocked; the other writer is the real
// `hookwire claude-hook --record` binary, which takes the stale lock over and appends. The kernel-held lock,
// which is never taken from a live holder, is tested in recordingLockLoad.test.ts.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOOK_INPUTS } from '../runtime/claudeHookInputs.ts';
import { GUARD, ROOT, hookwire, tempDir } from './runCli.ts';

const LOCK = pathToFileURL(join(ROOT, 'engine', 'node', 'serve', 'recordingLock.ts')).href;

// Takes the lock, says so, then blocks its event loop (as a starved process: no timer runs) until `go` exists,
// then fences and appends a line of its own.
const HOLDER = `
import { appendFileSync, existsSync } from 'node:fs';
import { withRecordingLock } from ${JSON.stringify(LOCK)};
const [record, go] = process.argv.slice(2);
try {
  await withRecordingLock(record, 30000, async (fence) => {
    process.stdout.write('locked\\n');
    const cell = new Int32Array(new SharedArrayBuffer(4));
    while (!existsSync(go)) Atomics.wait(cell, 0, 0, 20);
    fence();
    appendFileSync(record, 'THE STARVED HOLDER WROTE THIS\\n');
  });
  process.stdout.write('wrote\\n');
} catch (err) {
  process.stdout.write('refused: ' + err.message + '\\n');
  process.exitCode = 3;
}
`;

/** Starts the holder; resolves once it holds the lock, with a promise of its exit and output (wrapped: an async function would wait for it). */
async function startHolder(dir: string, record: string, go: string): Promise<{ exited: Promise<{ code: number | null; out: string }> }> {
  const script = join(dir, 'holder.mts');
  writeFileSync(script, HOLDER);
  const child = spawn(process.execPath, ['--import', 'tsx', script, record, go], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...FILE_LOCK } });
  let out = '';
  const exited = new Promise<{ code: number | null; out: string }>((resolve) => child.on('close', (code) => resolve({ code, out })));
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('locked\n')) resolve();
    });
    void exited.then(() => reject(new Error(`the holder exited before locking: ${out}`)));
  });
  return { exited };
}

/** Both writers use the file lock. */
const FILE_LOCK = { HOOKWIRE_RECORDING_LOCK: 'file' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the file lock is fenced [P13]', () => {
  it('[P13] a holder starved past the stale time, whose lock the real CLI took over, writes nothing; the recording stays whole', async () => {
    const dir = tempDir();
    const record = join(dir, 'session.jsonl');
    const go = join(dir, 'go');
    const { exited: holder } = await startHolder(dir, record, go);
    let other;
    try {
      // The other writer: waits for the lock, finds it stale after 4 s (nobody refreshed it), takes it over, appends.
      other = await hookwire(['claude-hook', GUARD, '--record', record], { stdin: JSON.stringify({ ...HOOK_INPUTS.PreToolUse, tool_input: { command: 'ls' }, tool_use_id: 'after-takeover' }), env: FILE_LOCK });
    } finally {
      writeFileSync(go, ''); // the holder goes on (and ends) whatever happened
    }
    expect(other.stderr).toBe('');
    expect(other.code).toBe(0);
    const h = await holder;
    expect(h.out).toMatch(/refused: the lock on .* was taken over by another hook call/);
    expect(h.code).toBe(3);
    const text = readFileSync(record, 'utf8');
    expect(text).not.toContain('THE STARVED HOLDER WROTE THIS');
    expect(text.trimEnd().split('\n')).toHaveLength(2); // the header and the other call's event
    const verified = await hookwire(['verify', record]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(existsSync(`${record}.lock`)).toBe(false);
    expect(existsSync(`${record}.lock.owner`)).toBe(false);
  }, 60_000);

  it('[P13] a holder starved near the stale time writes nothing either, though nobody took its lock yet (it might have)', async () => {
    const dir = tempDir();
    const record = join(dir, 'session.jsonl');
    const go = join(dir, 'go');
    const { exited: holder } = await startHolder(dir, record, go);
    // Until the lock is past the fence's margin by its own mtime (the clock a taker-over reads): proper-lockfile
    // dates a new lock up to a second ahead (its mtime-precision probe rounds up to the next second), so a fixed
    // wait of 3.5 s may leave it 2.5 s old, still safe to write to.
    while (Date.now() - statSync(`${record}.lock`).mtimeMs < 3300) await sleep(50);
    writeFileSync(go, '');
    const h = await holder;
    expect(h.out).toMatch(/refused: the lock on .* was last refreshed \d+ ms ago/);
    expect(existsSync(record)).toBe(false);
    expect(existsSync(`${record}.lock.owner`)).toBe(false);
  }, 60_000);

  it('[P13] a holder that is not starved writes (the fence passes), and leaves no token behind', async () => {
    const dir = tempDir();
    const record = join(dir, 'session.jsonl');
    const go = join(dir, 'go');
    writeFileSync(go, '');
    const h = await (await startHolder(dir, record, go)).exited;
    expect(h.out).toContain('wrote');
    expect(readFileSync(record, 'utf8')).toBe('THE STARVED HOLDER WROTE THIS\n');
    expect(existsSync(`${record}.lock.owner`)).toBe(false);
  }, 60_000);
});
