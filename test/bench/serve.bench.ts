/**
 * `npm run bench -- serve`: one Claude Code PreToolUse hook round trip, three ways, side by side —
 *   http:        a POST to a running `hookwire serve` (what Claude Code's `http` hook does);
 *   forwarding:  `hookwire claude-hook --server URL` (a process per call that forwards to the server);
 *   standalone:  `hookwire claude-hook pipeline.json --record FILE` (today's process per call, replaying the recording).
 * Each contender runs in its own process (the server is a child; every command call is a child). Wall-clock
 * latency p50/p99 per call, and CPU time per call read from /proc (the server's utime+stime for http; the
 * child's own, from this process's cutime/cstime, for the commands). Then the throughput of one server with
 * 50 sessions in flight and its memory per session. Rounds are interleaved so machine load falls on all alike.
 * Prints numbers and ratios; asserts nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { table } from './measure.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'engine', 'node', 'bin.mjs');
const GUARD = join(ROOT, 'test', 'engine', 'node', 'fixtures', 'guard.pipeline.json');
const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

function cpuOf(pid: number | 'self'): { own: number; children: number } {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // Fields after the name: state is [0], utime [11], stime [12], cutime [13], cstime [14].
  return { own: (Number(f[11]) + Number(f[12])) * TICK_MS, children: (Number(f[13]) + Number(f[14])) * TICK_MS };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

function pipelineWithBudget(): string {
  const doc = JSON.parse(readFileSync(GUARD, 'utf8'));
  doc.nodes.push({ id: 'calls', kind: 'handler', name: 'Tool call budget', order: 50, action: { type: 'budget', key: 'tool_calls', limit: 1_000_000, reason: 'too many tool calls' } });
  doc.wires.push({ from: 'before', to: 'calls' });
  return JSON.stringify(doc);
}

const input = (session: string, id: string) =>
  JSON.stringify({ session_id: session, transcript_path: '/tmp/t.jsonl', cwd: '/work', permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `ls /tmp/${id}` }, tool_use_id: id });

interface Server {
  pid: number;
  port: number;
  token: string;
  stop(): void;
}

function startServer(pipeline: string, state: string): Promise<Server> {
  const child = spawn(process.execPath, [BIN, 'serve', pipeline, '--port', '0', '--state-dir', state, '--no-watch'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.on('exit', (c) => reject(new Error(`serve exited ${c}`)));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      const token = /token (\S+) \(also in/.exec(out)?.[1];
      if (port && token && out.includes('rebuilt')) {
        child.removeAllListeners('exit');
        resolve({ pid: child.pid!, port: Number(port), token, stop: () => child.kill('SIGTERM') });
      }
    });
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
function post(s: Server, path: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, method: 'POST', path, agent, headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' } }, (res) => {
      let t = '';
      res.setEncoding('utf8').on('data', (d: string) => (t += d));
      res.on('end', () => (res.statusCode === 200 ? resolve(t) : reject(new Error(`${res.statusCode} ${t}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}
/** The resident memory of a process (bytes), from /proc. */
export function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/** One command process; resolves with its wall time and its own CPU time (ms). */
function runCommand(args: string[], stdin: string): Promise<{ wall: number; cpu: number }> {
  const before = cpuOf('self').children;
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`exit ${code}: ${err}`));
      else resolve({ wall: performance.now() - t0, cpu: cpuOf('self').children - before });
    });
    child.stdin.end(stdin);
  });
}

interface Sample {
  wall: number[];
  cpu: number[];
}

export async function runServeBench(options: { httpCalls?: number; commandCalls?: number; rounds?: number } = {}): Promise<void> {
  const httpCalls = options.httpCalls ?? 400;
  const commandCalls = options.commandCalls ?? 15;
  const rounds = options.rounds ?? 3;
  execFileSync(process.execPath, [join(ROOT, 'engine', 'node', 'buildCli.mjs')]);
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-bench-serve-'));
  const pipeline = join(dir, 'p.json');
  writeFileSync(pipeline, pipelineWithBudget());
  const state = join(dir, 'state');
  const server = await startServer(pipeline, state);
  const samples: Record<'http' | 'forwarding' | 'standalone', Sample> = { http: { wall: [], cpu: [] }, forwarding: { wall: [], cpu: [] }, standalone: { wall: [], cpu: [] } };
  let n = 0;
  // Warm-up: the server's JIT and the page cache for the CLI bundle.
  for (let i = 0; i < 200; i++) await post(server, '/v1/claude/hook', input('warm', `w${i}`));
  await runCommand(['claude-hook', '--server', `http://127.0.0.1:${server.port}`, '--state-dir', state], input('warm', 'wf'));

  for (let r = 0; r < rounds; r++) {
    const c0 = cpuOf(server.pid).own;
    for (let i = 0; i < httpCalls; i++) {
      const t0 = performance.now();
      await post(server, '/v1/claude/hook', input(`http-${r}`, `h${n++}`));
      samples.http.wall.push(performance.now() - t0);
    }
    const serverCpuPerCall = (cpuOf(server.pid).own - c0) / httpCalls;
    samples.http.cpu.push(serverCpuPerCall);
    for (let i = 0; i < commandCalls; i++) {
      const f = await runCommand(['claude-hook', '--server', `http://127.0.0.1:${server.port}`, '--state-dir', state], input(`fwd-${r}`, `f${n++}`));
      samples.forwarding.wall.push(f.wall);
      samples.forwarding.cpu.push(f.cpu);
      // The standalone command's recording grows by one event per call, as in a real session.
      const s = await runCommand(['claude-hook', pipeline, '--record', join(dir, `standalone-${r}.jsonl`)], input(`std-${r}`, `s${n++}`));
      samples.standalone.wall.push(s.wall);
      samples.standalone.cpu.push(s.cpu);
    }
  }
  console.log(`One PreToolUse round trip (${rounds} rounds; http ${httpCalls} calls/round, commands ${commandCalls} calls/round; CPU: http = the server's per call, commands = the child's own)`);
  const base = samples.standalone;
  const rows: (string | number)[][] = [['mode', 'p50 ms', 'p99 ms', 'CPU ms/call (median)', 'p50 vs standalone', 'CPU vs standalone']];
  for (const [name, s] of Object.entries(samples)) {
    rows.push([name, quantile(s.wall, 0.5).toFixed(2), quantile(s.wall, 0.99).toFixed(2), quantile(s.cpu, 0.5).toFixed(2), `${(quantile(base.wall, 0.5) / quantile(s.wall, 0.5)).toFixed(1)}x faster`, `${(quantile(base.cpu, 0.5) / Math.max(0.01, quantile(s.cpu, 0.5))).toFixed(1)}x less`]);
  }
  table(rows);

  // Throughput: 50 sessions, each a closed loop of calls (one in flight per session, 50 in flight in all).
  const perSession = 60;
  const c0 = cpuOf(server.pid).own;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 50 }, async (_, k) => {
    for (let i = 0; i < perSession; i++) await post(server, '/v1/claude/hook', input(`tp-${k}`, `tp-${k}-${i}`));
  }));
  const secs = (performance.now() - t0) / 1000;
  const events = 50 * perSession;
  console.log(`\nThroughput, 50 concurrent sessions × ${perSession} calls: ${(events / secs).toFixed(0)} events/s wall; server CPU ${((cpuOf(server.pid).own - c0) / events).toFixed(3)} ms/event (${(events / ((cpuOf(server.pid).own - c0) / 1000)).toFixed(0)} events per CPU-second)`);

  // Memory per session: RSS growth over 2000 new sessions of 5 events each (RSS includes garbage not yet collected: an upper bound).
  const m0 = rssOf(server.pid);
  for (let b = 0; b < 20; b++) {
    await Promise.all(Array.from({ length: 100 }, async (_, k) => {
      for (let i = 0; i < 5; i++) await post(server, '/v1/claude/hook', input(`mem-${b}-${k}`, `m-${b}-${k}-${i}`));
    }));
  }
  const m1 = rssOf(server.pid);
  console.log(`Memory: RSS +${((m1 - m0) / 1024 / 1024).toFixed(1)} MiB for 2000 sessions of 5 events: ~${((m1 - m0) / 2000 / 1024).toFixed(1)} KiB per session (upper bound; RSS, not heap after GC)`);
  server.stop();
  agent.destroy();
}

if (process.argv[1] === import.meta.filename) await runServeBench();
