// Runs the real `hookwire` binary (engine/node/bin.cjs) as a subprocess, and the same CLI in-process through
// `main()` for cases where a process start adds nothing. Subprocesses are limited to two at a time: each pays
// Node and tsx start-up (~0.5-1 s of CPU) on a 2-core machine shared with other test runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../engine/node/cli.ts';

export const ROOT = join(__dirname, '..', '..', '..');
export const BIN = join(ROOT, 'engine', 'node', 'bin.cjs');
export const FIXTURES = join(__dirname, 'fixtures');
export const GUARD = join(FIXTURES, 'guard.pipeline.json');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

let running = 0;
const waiting: (() => void)[] = [];
const MAX_PARALLEL = 2;

async function slot<T>(f: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await f();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * One `node <argv>` process from the checkout's root, not throttled: `send` writes its stdin (end it, or leave
 * it open to test a hook input that never finishes arriving); resolves with exit code, stdout and stderr.
 */
export function spawnNode(argv: string[], send: (stdin: NodeJS.WritableStream) => void, options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise<CliRun>((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: options.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    send(child.stdin);
  });
}

/** One `hookwire` process (the checkout's binary), not throttled: see `spawnNode`. */
export function spawnHookwire(args: string[], send: (stdin: NodeJS.WritableStream) => void, options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return spawnNode([BIN, ...args], send, options);
}

/** `hookwire <args>` as a subprocess, with optional stdin, at most MAX_PARALLEL at a time. */
export function hookwire(args: string[], options: { stdin?: string; cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  const { stdin, ...where } = options;
  return slot(() => spawnHookwire(args, (s) => s.end(stdin ?? ''), where));
}

/** The same CLI in-process: `main(argv)` with captured output and the given stdin. */
export async function hookwireInProcess(args: string[], stdin = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'hookwire', ...args], { out: (t) => void (stdout += t), err: (t) => void (stderr += t) }, async () => stdin);
  return { code, stdout, stderr };
}

/** A fresh temporary directory with the given files written into it. */
export function tempDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-cli-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
