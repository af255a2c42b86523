// A real `hookwire serve` process on an ephemeral loopback port, and a plain node:http client for it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { kernelLockName } from '../../../../engine/node/serve/recordingLock.ts';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { parseMetrics } from '../../../../engine/node/serve/metrics.ts';
import { BIN, GUARD, ROOT } from '../runCli.ts';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  token: string;
  stderr: () => string;
  stop(): Promise<void>;
}

/** The guard pipeline plus a budget of `limit` tool calls per session and a "halt" command that terminates. */
export function budgetPipeline(limit: number, name = 'guard'): string {
  const doc = JSON.parse(readFileSync(GUARD, 'utf8'));
  doc.name = name;
  doc.nodes.push({ id: 'calls', kind: 'handler', name: 'Tool call budget', order: 50, action: { type: 'budget', key: 'tool_calls', limit, reason: 'tool call {{state.tool_calls}} > ' + limit } });
  doc.nodes.push({ id: 'halt', kind: 'matcher', when: { 'payload.tool_input.command': { eq: 'halt' } } });
  doc.nodes.push({ id: 'stop-run', kind: 'handler', name: 'Halt', order: 5, action: { type: 'terminate', reason: 'halted' } });
  doc.wires.push({ from: 'before', to: 'calls' }, { from: 'before', to: 'halt' }, { from: 'halt', to: 'stop-run' });
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function workDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-serve-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Starts `hookwire serve` (the real binary) and waits for its "listening" and "token" lines. */
export function startServe(pipeline: string, stateDir: string, extra: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', pipeline, '--port', '0', '--state-dir', stateDir, ...extra], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}\n${err}`)), 60_000);
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}\n${err}`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const token = /token (\S+) \(also in/.exec(out)?.[1];
      if (url && token && /rebuilt/.test(out)) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve({
          child,
          url,
          port: Number(new URL(url).port),
          token,
          stderr: () => err,
          stop: () =>
            new Promise<void>((r) => {
              if (child.exitCode !== null || child.signalCode !== null) return r();
              child.once('exit', () => r());
              child.kill('SIGTERM');
            }),
        });
      }
    });
  });
}

export interface Reply {
  status: number;
  body: string;
  json: () => any;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** One HTTP request on loopback; `headers` override the defaults (token, JSON content type, Host). */
export function call(server: { port: number; token: string }, method: string, path: string, body?: unknown, headers: Record<string, string | undefined> = {}): Promise<Reply> {
  const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const h: Record<string, string> = {};
  const all = { authorization: `Bearer ${server.token}`, 'content-type': data !== undefined ? 'application/json' : undefined, ...headers };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) h[k] = v;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers: h, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, json: () => JSON.parse(text) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });
}

export const preToolUse = (session: string, id: string, command = 'ls') => ({
  session_id: session,
  transcript_path: '/tmp/t.jsonl',
  cwd: '/work',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: id,
});

/** The hook answer of one call: "allow" (empty body), "deny" or "stop". */
export function verdict(r: Reply): 'allow' | 'deny' | 'stop' {
  if (r.status !== 200) throw new Error(`status ${r.status}: ${r.body}`);
  if (r.body.trim() === '') return 'allow';
  const j = r.json();
  if (j.continue === false) return 'stop';
  if (j.hookSpecificOutput?.permissionDecision === 'deny') return 'deny';
  return 'allow';
}

/** Opens the live stream (its own connection); resolves once the status line is in. */
export function openStream(server: { port: number; token: string }): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method: 'GET', path: '/v1/stream', headers: { authorization: `Bearer ${server.token}` }, agent: false }, (res) => {
      res.on('data', () => undefined);
      res.on('error', () => undefined);
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The servers one test file starts, all stopped after it. Call once at the file's top level. `stopAll` may be
 * called earlier (a file that must unmount a disk after its servers are gone); it stops each server once.
 */
export function serverPool(): { serve: typeof startServe; stopAll: () => Promise<void> } {
  const running: ServerProcess[] = [];
  const stopAll = async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()));
  };
  afterAll(stopAll);
  const serve: typeof startServe = async (pipeline, stateDir, extra = []) => {
    const s = await startServe(pipeline, stateDir, extra);
    running.push(s);
    return s;
  };
  return { serve, stopAll };
}

/** A Claude Code hook call on serve's Claude route. */
export const claudeHook = (s: ServerProcess, input: unknown): Promise<Reply> => call(s, 'POST', '/v1/claude/hook', input);
/** /health, parsed. */
export const health = async (s: ServerProcess): Promise<any> => (await call(s, 'GET', '/health')).json();
/** One metric's value from /metrics. */
export const metric = async (s: ServerProcess, name: string) => parseMetrics((await call(s, 'GET', '/metrics')).body).get(name);

/** Polls every 100 ms until `check` holds (serve's sweeps run on timers); returns the last value after `tries`. */
export async function until<T>(read: () => Promise<T>, check: (v: T) => boolean, tries = 100): Promise<T> {
  let v = await read();
  for (let i = 0; i < tries && !check(v); i++) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  return v;
}

/**
 * Holds the kernel-held lock of a recording from this process, as another hook call would (docs/serve.md); the
 * returned function releases it.
 */
export function holdRecordingLock(record: string): Promise<() => Promise<void>> {
  return new Promise((resolve, reject) => {
    const holder = createNetServer();
    holder.once('error', reject);
    holder.listen({ path: kernelLockName(record)!, exclusive: true }, () => resolve(() => new Promise<void>((done) => holder.close(() => done()))));
  });
}

/** The recordings in a folder of serve's (their anchors `<name>.head` [K6] left out), by file name. */
export function recordingsIn(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.endsWith('.hwtrace.jsonl'));
}
