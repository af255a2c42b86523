// The forwarding command's stdin reader (engine/node/readStdinBlocking.ts), in real processes: what it reads
// with blocking read(2)s is what the stream reader (readStdin.ts) reads — a pipe written in pieces, a UTF-8
// character split between writes, a stdin that is non-blocking (read on as a stream from where the blocking reads
// stopped), nothing at all — and past the limit it refuses as the stream reader does.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, spawnNode, tempDir, type CliRun } from './runCli.ts';

const READER = pathInEngine('readStdinBlocking.ts');
const STREAM = pathInEngine('readStdin.ts');
function pathInEngine(file: string): string {
  return JSON.stringify(join(ROOT, 'engine', 'node', file));
}

/** A script that reads stdin with `read` (after `before`) and prints it as JSON, or the error's message. */
function script(dir: string, name: string, read: string, before = ''): string {
  const file = join(dir, name);
  writeFileSync(file, `import { readStdinBlocking } from ${READER};\nimport { readStdin } from ${STREAM};\n${before}\ntry { process.stdout.write(JSON.stringify({ text: await ${read} })); } catch (err) { process.stdout.write(JSON.stringify({ error: err.message })); }\n`);
  return file;
}

/** Writes `pieces` to the child's stdin with a pause between them, then ends it. */
const inPieces = (pieces: (string | Buffer)[]) => (stdin: NodeJS.WritableStream) => {
  let i = 0;
  const next = () => {
    if (i === pieces.length) return void stdin.end();
    stdin.write(pieces[i++]!);
    setTimeout(next, 40);
  };
  next();
};

/** `sh -c command` with its stdin fed by `send` once the command says `ready` on stderr. */
function spawnShell(command: string, send: (stdin: NodeJS.WritableStream) => void): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (!stderr.includes('ready') && (stderr + d).includes('ready')) send(child.stdin);
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const text = `{"hook_event_name":"PreToolUse","tool_input":{"command":"echo é漢字🙂"}}\n`;
const bytes = Buffer.from(text, 'utf8');
// Cut inside the four bytes of 🙂, and inside é.
const cut = [bytes.subarray(0, bytes.indexOf('é') + 1), bytes.subarray(bytes.indexOf('é') + 1, bytes.length - 4), bytes.subarray(bytes.length - 4, bytes.length - 2), bytes.subarray(bytes.length - 2)];

describe('readStdinBlocking', { timeout: 60_000 }, () => {
  it('reads what the stream reader reads: a pipe in pieces, a character split between writes, an empty stdin', async () => {
    const dir = tempDir({});
    const blocking = script(dir, 'blocking.mjs', 'readStdinBlocking()');
    const stream = script(dir, 'stream.mjs', 'readStdin()');
    for (const pieces of [[text], cut, []]) {
      const [a, b] = await Promise.all([spawnNode(['--import', 'tsx', blocking], inPieces(pieces)), spawnNode(['--import', 'tsx', stream], inPieces(pieces))]);
      expect(a.code, a.stderr).toBe(0);
      expect(JSON.parse(a.stdout)).toEqual({ text: pieces.length ? text : '' });
      expect(a.stdout).toBe(b.stdout);
    }
  });

  it('a non-blocking stdin (EAGAIN) is read on as a stream from where the blocking reads stopped', async () => {
    const dir = tempDir({});
    // Touching process.stdin makes Node set a pipe(2) non-blocking (a socket pair of Node's spawn stays blocking for
    // read(2), hence `cat |`); the input arrives in pieces after the reader starts.
    const file = script(dir, 'nonblocking.mjs', 'readStdinBlocking()', "process.stdin.pause();\nprocess.stderr.write('ready');");
    const r = await spawnShell(`cat | ${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(file)}`, (stdin) => setTimeout(() => inPieces(cut)(stdin), 100));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ text });
  });

  it('past its limit it refuses, as the stream reader does', async () => {
    const dir = tempDir({});
    const [a, b] = await Promise.all([script(dir, 'a.mjs', 'readStdinBlocking(10)'), script(dir, 'b.mjs', 'readStdin(10)')].map((f) => spawnNode(['--import', 'tsx', f], inPieces([text]))));
    expect(JSON.parse(a!.stdout)).toEqual({ error: 'stdin is larger than 10 bytes' });
    expect(a!.stdout).toBe(b!.stdout);
  });
});
