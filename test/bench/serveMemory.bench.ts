/**
 * `npm run bench -- serve-memory`: does `hookwire serve` keep flat memory over a long run? One server (the real
 * binary, a child process) is sent `sessions` Claude Code sessions of `perSession` events each — PreToolUse
 * calls, the last one SessionEnd — `inFlight` sessions at a time, each a closed loop of HTTP calls. The
 * server's resident memory (VmRSS from /proc) is sampled after the first `warm` sessions (the baseline: code
 * compiled, pools and heap grown to their working size) and after every tenth of the run. Prints the samples
 * and the growth from the baseline to the end and to the highest sample; asserts nothing.
 * RSS counts garbage not yet collected, so the figures are an upper bound of what the server keeps.
 * Run alone: `npx tsx test/bench/serveMemory.bench.ts [sessions] [perSession]` (default 10000 × 100 = 1M events).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rssOf } from './serve.bench.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'engine', 'node', 'bin.mjs');
const GUARD = join(ROOT, 'test', 'engine', 'node', 'fixtures', 'guard.pipeline.json');

function pipeline(): string {
  const doc = JSON.parse(readFileSync(GUARD, 'utf8'));
  doc.nodes.push({ id: 'calls', kind: 'handler', name: 'Tool call budget', order: 50, action: { type: 'budget', key: 'tool_calls', limit: 1_000_000, reason: 'too many tool calls' } });
  doc.wires.push({ from: 'before', to: 'calls' });
  return JSON.stringify(doc);
}

const hook = (session: string, k: number, last: boolean) =>
  JSON.stringify(
    last
      ? { session_id: session, transcript_path: '/tmp/t.jsonl', cwd: '/work', hook_event_name: 'SessionEnd', reason: 'other' }
      : { session_id: session, transcript_path: '/tmp/t.jsonl', cwd: '/work', permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `ls /tmp/${session}/${k}` }, tool_use_id: `${session}-${k}` },
  );

/** The real `hookwire serve` binary in a child process, on a fresh state dir. */
async function startServer(): Promise<{ child: ReturnType<typeof spawn>; port: number; token: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-serve-mem-'));
  writeFileSync(join(dir, 'p.json'), pipeline());
  const child = spawn(process.execPath, [BIN, 'serve', join(dir, 'p.json'), '--port', '0', '--state-dir', join(dir, 'state'), '--no-watch'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const { port, token } = await new Promise<{ port: number; token: string }>((resolve, reject) => {
    let out = '';
    child.on('exit', (c) => reject(new Error(`serve exited ${c}`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const p = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      const t = /token (\S+) \(also in/.exec(out)?.[1];
      if (p && t && out.includes('rebuilt')) resolve({ port: Number(p), token: t });
    });
  });
  return { child, port, token, dir };
}

/** POSTs a Claude Code hook input; rejects on any answer but 200. */
const poster = (agent: Agent, port: number, token: string) => (body: string) =>
  new Promise<void>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/claude/hook', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });

export async function runServeMemoryBench(sessions = 10_000, perSession = 100, inFlight = 64): Promise<void> {
  const { child, port, token } = await startServer();
  const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
  const post = poster(agent, port, token);
  const warm = Math.min(500, Math.floor(sessions / 10));
  const samples: { sessions: number; events: number; rss: number }[] = [];
  let next = 0;
  let done = 0;
  const t0 = performance.now();
  const sample = () => samples.push({ sessions: done, events: done * perSession, rss: rssOf(child.pid!) });
  await Promise.all(Array.from({ length: inFlight }, async () => {
    for (let n = next++; n < sessions; n = next++) {
      const id = `mem-${n}`;
      for (let k = 0; k < perSession; k++) await post(hook(id, k, k === perSession - 1));
      done++;
      if (done === warm || (done > warm && done % Math.max(1, Math.floor(sessions / 10)) === 0)) sample();
    }
  }));
  sample();
  const secs = (performance.now() - t0) / 1000;
  child.kill('SIGTERM');
  agent.destroy();
  const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
  console.log(`hookwire serve, ${sessions} sessions × ${perSession} events (the last SessionEnd), ${inFlight} in flight: ${((sessions * perSession) / secs).toFixed(0)} events/s`);
  for (const s of samples) console.log(`  after ${String(s.sessions).padStart(6)} sessions (${String(s.events).padStart(8)} events): RSS ${mb(s.rss)} MiB`);
  const base = samples[0]!.rss;
  const max = Math.max(...samples.map((s) => s.rss));
  console.log(`RSS growth from the baseline (after ${warm} sessions): ${mb(samples.at(-1)!.rss - base)} MiB at the end, ${mb(max - base)} MiB at the highest sample`);
}

/**
 * One very long session: `events` PreToolUse calls of ONE Claude Code session (no SessionEnd), `inFlight` at a
 * time (the server takes a session's events one after another). VmRSS after the first tenth (the baseline)
 * and after every further tenth. What grows here is what a session keeps per event.
 * `npx tsx test/bench/serveMemory.bench.ts long [events]` (default 1M).
 */
export async function runServeLongSessionBench(events = 1_000_000, inFlight = 8): Promise<void> {
  const { child, port, token, dir } = await startServer();
  const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
  const post = poster(agent, port, token);
  const samples: { events: number; rss: number }[] = [];
  const tenth = Math.max(1, Math.floor(events / 10));
  let next = 0;
  let done = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    for (let k = next++; k < events; k = next++) {
      await post(hook('long-session', k, false));
      if (++done % tenth === 0) samples.push({ events: done, rss: rssOf(child.pid!) });
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  child.kill('SIGTERM');
  agent.destroy();
  const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
  console.log(`hookwire serve, one session of ${events} events, ${inFlight} in flight: ${(events / secs).toFixed(0)} events/s (state in ${dir})`);
  for (const x of samples) console.log(`  after ${String(x.events).padStart(8)} events: RSS ${mb(x.rss)} MiB`);
  const base = samples[0]!.rss;
  console.log(`RSS growth from the first tenth to the end: ${mb(samples.at(-1)!.rss - base)} MiB (${(((samples.at(-1)!.rss - base) / (events - samples[0]!.events)) || 0).toFixed(1)} bytes per event)`);
}

if (process.argv[1] === import.meta.filename) {
  if (process.argv[2] === 'long') await runServeLongSessionBench(Number(process.argv[3] ?? 1_000_000));
  else await runServeMemoryBench(Number(process.argv[2] ?? 10_000), Number(process.argv[3] ?? 100));
}
