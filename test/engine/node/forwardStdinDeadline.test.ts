// [P12] The forwarding command (`claude-hook --server`, `hook --agent … --server`) reads stdin under the hook's
// deadline: an agent that keeps stdin open (after the input, or without writing any) gets the fail-closed answer of
// its transport, not a process that waits for the agent's own timeout. Real binary, real processes, stdin held open
// by the test: a socket pair (what Node's spawn gives a child, as an agent written in Node does) and a FIFO (a
// shell pipe's). With the input closed, the same reader reads what the stream reader reads.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, spawnNode, tempDir, type CliRun } from './runCli.ts';

// Port 9 (discard) on loopback: nothing listens, so a call that read its input would fail closed with "cannot reach".
const SERVER = 'http://127.0.0.1:9';
const INPUT = '{"hook_event_name":"PreToolUse","session_id":"held","tool_name":"Bash","tool_input":{"command":"ls"}}';
const env = { HOOKWIRE_TOKEN: 'test-token' };

/** The binary with stdin from `stdin` ('pipe': a socket pair the test writes `input` to and never ends), until it exits. */
function heldOpen(args: string[], input: string, stdin: 'pipe' | number = 'pipe'): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: [stdin, 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      child.stdin?.destroy();
      resolve({ code, stdout, stderr });
    });
    if (child.stdin && input) child.stdin.write(input);
  });
}

const DEADLINE_SAID = /reading the hook input: stdin did not end before the hook's deadline \(\d+ bytes read\)/;

describe('[P12] the forwarding command reads stdin under its deadline', { timeout: 120_000 }, () => {
  it('[P12] claude-hook --server: a stdin left open after the input is answered exit 2 (blocks), naming why', async () => {
    const r = await heldOpen(['claude-hook', '--server', SERVER, '--deadline', '1500'], INPUT);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(DEADLINE_SAID);
    expect(r.stderr).toContain(`(${Buffer.byteLength(INPUT)} bytes read)`);
    expect(r.stdout).toBe('');
  });

  it('[P12][AG4] hook --agent copilot --server: a stdin never written and never closed gets Copilot\'s JSON deny', async () => {
    const r = await heldOpen(['hook', '--agent', 'copilot', '--server', SERVER, '--deadline', '1500'], '');
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { permissionDecision: string; permissionDecisionReason: string };
    expect(answer.permissionDecision).toBe('deny');
    expect(answer.permissionDecisionReason).toMatch(DEADLINE_SAID);
    expect(answer.permissionDecisionReason).toContain('(0 bytes read)');
  });

  it('[P12] a FIFO held open by its writer (a shell pipe) ends the same way', async () => {
    const dir = tempDir({});
    const fifo = join(dir, 'stdin.fifo');
    const made = spawnSync('mkfifo', [fifo]);
    expect(made.status, String(made.stderr)).toBe(0);
    // Read-write: the open does not wait for a reader, and this process stays a writer while the binary runs.
    const writer = openSync(fifo, 'r+');
    const reader = openSync(fifo, 'r');
    try {
      writeSync(writer, INPUT);
      const r = await heldOpen(['claude-hook', '--server', SERVER, '--deadline', '1500'], '', reader);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(DEADLINE_SAID);
    } finally {
      closeSync(reader);
      closeSync(writer);
    }
  });

  it('[P12] an input that is closed is read whole and forwarded (here to a server that is not there: "cannot reach")', async () => {
    const r = await spawnNode([BIN, 'claude-hook', '--server', SERVER, '--deadline', '3000'], (s) => s.end(INPUT), { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('cannot reach the server at http://127.0.0.1:9');
    expect(r.stderr).not.toMatch(DEADLINE_SAID);
  });
});

describe('readStdinBlocking with a deadline', { timeout: 60_000 }, () => {
  it('reads what the stream reader reads, in pieces with pauses, through the non-blocking loop', async () => {
    const dir = tempDir({});
    const reader = JSON.stringify(join(ROOT, 'engine', 'node', 'readStdinBlocking.ts'));
    const file = join(dir, 'deadline.mjs');
    writeFileSync(file, `import { readStdinBlocking } from ${reader};\nprocess.stdout.write(JSON.stringify({ text: await readStdinBlocking(1 << 20, Date.now() + 30000) }));\n`);
    const text = `${INPUT.slice(0, -1)},"note":"é漢字🙂"}\n`;
    const bytes = Buffer.from(text, 'utf8');
    // Cut inside the four bytes of 🙂 and inside é, with pauses between the pieces: the reader finds stdin empty.
    const cuts = [bytes.subarray(0, bytes.indexOf('é') + 1), bytes.subarray(bytes.indexOf('é') + 1, bytes.length - 4), bytes.subarray(bytes.length - 4, bytes.length - 2), bytes.subarray(bytes.length - 2)];
    const r = await spawnNode(['--import', 'tsx', file], (stdin) => {
      let i = 0;
      const next = () => (i === cuts.length ? stdin.end() : (stdin.write(cuts[i++]!), setTimeout(next, 60)));
      next();
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ text });
  });
});
