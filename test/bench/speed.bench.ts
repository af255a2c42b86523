// `npm run bench -- speed`: the speed a user feels (issue 36), each path beside the floor it is measured
// against, as ratios. Not a test: nothing here asserts a time.
//   hook        one `claude-hook` call from a checkout (bin.cjs on its prebuilt bundles), an allowed call, standalone
//               and forwarding to `serve`  vs  `node -e 0`
//   replay      `hookwire replay --json`, 100k events × 100 handlers  vs  a script that reads the file in chunks,
//               JSON.parses each line and writes one small line per event
//   import      `hookwire import` of a ~50 MB Claude Code transcript and of a Codex rollout  vs  read in chunks +
//               JSON.parse per line + one line out per tool call
//   serve       `hookwire serve`, events per CPU-second at 50 sessions and p50 at one client  vs  a bare node:http
//               server that parses the body and answers fixed JSON
// Method: every contender is its own process; CPU time = user + system of that whole process, from
// process.resourceUsage() at its exit (a --require preload, the same for every contender, the floor included)
// or, for servers, from /proc/<pid>/stat; contenders take turns round after round and the figure is the median.
// The load average is printed beside the figures: the machine may be shared.
// Run: npx tsx test/bench/speed.bench.ts [rounds] [--quick] [hook] [serve] [replay] [import] [--base <checkout>]
//      [--bin <file>]
// --base: another checkout (built with `npm run prepare`, e.g. a `git worktree` of main) runs as a contender of its
// own beside this one, interleaved in every table: a before/after on the same machine load. A file instead of a
// checkout is that binary. --bin: a binary in place of this checkout's bin.cjs. So an installed package's two
// entries: `--bin <project>/node_modules/hookwire/dist/cli/bin.cjs --base <the same>/bin.js`.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeWorkload } from './formatWorkloads.ts';
import { table } from './measure.ts';
import { makeEvents, makePipeline } from './workload.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// `--bin <file>`: another binary in its place, e.g. an installed package's node_modules/hookwire/dist/cli/bin.cjs.
const binAt = process.argv.indexOf('--bin');
const BIN = binAt === -1 ? join(ROOT, 'engine', 'node', 'bin.cjs') : process.argv[binAt + 1]!;
const GUARD = join(ROOT, 'test', 'engine', 'node', 'fixtures', 'guard.pipeline.json');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');

interface Usage {
  cpu: number; // ms
  wall: number; // ms
  rss: number; // MB
}

/** One process: `node <args>`, stdin from `input`, stdout discarded; its own CPU, wall and peak RSS. */
function runProcess(args: string[], input: string, dir: string, env: Record<string, string> = {}): Usage {
  const hook = join(dir, 'usage.cjs');
  writeFileSync(hook, "process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write('\\nUSAGE ' + JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1000, rss: u.maxRSS / 1024 }) + '\\n'); });\n");
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', hook, ...args], { cwd: ROOT, input, stdio: ['pipe', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, ...env } });
  const wall = performance.now() - t0;
  const m = /USAGE (\{.*\})/.exec(r.stderr ?? '');
  if (!m || (r.status !== 0 && r.status !== 2)) throw new Error(`node ${args.join(' ')}: exit ${r.status}: ${(r.stderr ?? '').slice(0, 500)}`);
  const u = JSON.parse(m[1]!) as { cpu: number; rss: number };
  return { cpu: u.cpu, wall, rss: u.rss };
}

/** Contenders in turn, `rounds` times; medians of CPU and wall, highest peak RSS. The first is the floor. */
function compare(title: string, contenders: [string, string[], string, Record<string, string>?][], dir: string, rounds: number): void {
  const runs = contenders.map(() => [] as Usage[]);
  for (let r = 0; r < rounds; r++) contenders.forEach(([, args, input, env], i) => runs[i]!.push(runProcess(args, input, dir, env)));
  const med = runs.map((u) => ({ cpu: median(u.map((x) => x.cpu)), wall: median(u.map((x) => x.wall)), rss: Math.max(...u.map((x) => x.rss)) }));
  console.log(`\n${title} (median of ${rounds} interleaved runs, each its own process; load average ${load()})`);
  table([
    ['contender', 'CPU ms', 'wall ms', 'peak RSS MB', 'CPU vs floor', 'wall vs floor'],
    ...contenders.map(([name], i) => [name, med[i]!.cpu.toFixed(1), med[i]!.wall.toFixed(0), med[i]!.rss.toFixed(0), `${(med[i]!.cpu / med[0]!.cpu).toFixed(2)}x`, `${(med[i]!.wall / med[0]!.wall).toFixed(2)}x`]),
  ]);
}

// The floors, as scripts of their own: what the least any program doing the same job does.
const REPLAY_FLOOR = `import { createReadStream } from 'node:fs';
let rest = '', out = '';
const flush = () => { process.stdout.write(out); out = ''; };
for await (const chunk of createReadStream(process.argv[2], { encoding: 'utf8', highWaterMark: 1 << 16 })) {
  const lines = (rest + chunk).split('\\n'); rest = lines.pop();
  for (const l of lines) { if (l === '') continue; const e = JSON.parse(l); if (e.event_id === undefined) continue;
    out += JSON.stringify({ event_id: e.event_id, type: e.type, decision: 'continue' }) + '\\n'; if (out.length > 65536) flush(); }
}
flush();
`;
const IMPORT_FLOOR = `import { createReadStream } from 'node:fs';
let rest = '', out = '';
for await (const chunk of createReadStream(process.argv[2], { encoding: 'utf8', highWaterMark: 1 << 16 })) {
  const lines = (rest + chunk).split('\\n'); rest = lines.pop();
  for (const l of lines) { if (l === '') continue; const e = JSON.parse(l); const c = e.message && e.message.content;
    if (Array.isArray(c)) for (const b of c) if (b.type === 'tool_use') out += JSON.stringify({ event_id: b.id, type: 'tool.before_call', ts: e.timestamp, payload: { tool_name: b.name, tool_input: b.input } }) + '\\n';
    if (out.length > 65536) { process.stdout.write(out); out = ''; } }
}
process.stdout.write(out);
`;
// The same reader writing one line per Codex tool call (a function_call response item).
const CODEX_IMPORT_FLOOR = `import { createReadStream } from 'node:fs';
let rest = '', out = '';
for await (const chunk of createReadStream(process.argv[2], { encoding: 'utf8', highWaterMark: 1 << 16 })) {
  const lines = (rest + chunk).split('\\n'); rest = lines.pop();
  for (const l of lines) { if (l === '') continue; const e = JSON.parse(l); const p = e.payload;
    if (e.type === 'response_item' && p && p.type === 'function_call') out += JSON.stringify({ event_id: p.call_id, type: 'tool.before_call', ts: e.timestamp, payload: { tool_name: p.name, tool_input: p.arguments } }) + '\\n';
    if (out.length > 65536) { process.stdout.write(out); out = ''; } }
}
process.stdout.write(out);
`;
// Not the goal's floor, shown beside it: every record parsed and written back out whole, as an importer writes
// every event (the goal's floor writes only the tool calls, about an eighth of the bytes).
const WHOLE_FLOOR = `import { createReadStream } from 'node:fs';
let rest = '', out = '';
for await (const chunk of createReadStream(process.argv[2], { encoding: 'utf8', highWaterMark: 1 << 16 })) {
  const lines = (rest + chunk).split('\\n'); rest = lines.pop();
  for (const l of lines) { if (l === '') continue; out += JSON.stringify(JSON.parse(l)) + '\\n'; if (out.length > 65536) { process.stdout.write(out); out = ''; } }
}
process.stdout.write(out);
`;
const BARE_SERVER = `import { createServer } from 'node:http';
const answer = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
const s = createServer((req, res) => { const chunks = []; req.on('data', (c) => chunks.push(c)); req.on('end', () => {
  JSON.parse(Buffer.concat(chunks).toString('utf8')); res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) }); res.end(answer); }); });
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + s.address().port + ' token none (also in'));
`;

function writeLines(path: string, write: (w: (text: string) => void) => void): void {
  const fd = openSync(path, 'w');
  let buf = '';
  write((t) => {
    buf += t;
    if (buf.length > 1 << 20) writeSync(fd, buf), (buf = '');
  });
  writeSync(fd, buf);
  closeSync(fd);
}

const claudeInput = (session: string, id: string) =>
  JSON.stringify({ session_id: session, transcript_path: '/tmp/t.jsonl', cwd: '/work', permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `ls /tmp/${id}` }, tool_use_id: id });

interface Server {
  pid: number;
  port: number;
  token: string;
  stop(): void;
}

function startServer(args: string[], ready: (out: string) => boolean): Promise<Server> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT });
  let out = '';
  return new Promise((resolve, reject) => {
    child.on('exit', (c) => reject(new Error(`${args.join(' ')} exited ${c}`)));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      const token = /token (\S+) \(also in/.exec(out)?.[1];
      if (port && token && ready(out)) {
        child.removeAllListeners('exit');
        resolve({ pid: child.pid!, port: Number(port), token, stop: () => child.kill('SIGTERM') });
      }
    });
  });
}

const TICK_MS = 10; // USER_HZ 100
const serverCpu = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_MS;
};

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
function post(s: Server, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, method: 'POST', path: '/v1/claude/hook', agent, headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Events per server CPU-second with 50 sessions in flight, and p50 latency at one client, of one server. */
async function serverFigures(s: Server, tag: string, perSession: number, single: number): Promise<{ perCpuSecond: number; p50: number }> {
  for (let i = 0; i < 300; i++) await post(s, claudeInput(`${tag}-warm`, `w${i}`)); // JIT and sockets warm
  const c0 = serverCpu(s.pid);
  await Promise.all(Array.from({ length: 50 }, async (_, k) => {
    for (let i = 0; i < perSession; i++) await post(s, claudeInput(`${tag}-s${k}`, `${tag}-${k}-${i}`));
  }));
  const cpuMs = serverCpu(s.pid) - c0;
  const lat: number[] = [];
  for (let i = 0; i < single; i++) {
    const t0 = performance.now();
    await post(s, claudeInput(`${tag}-one`, `${tag}-one-${i}`));
    lat.push(performance.now() - t0);
  }
  return { perCpuSecond: (50 * perSession) / (cpuMs / 1000), p50: median(lat) };
}

export async function runSpeedBench(rounds = 7, quick = false, only: string[] = [], base: string | null = null): Promise<void> {
  // A base is a checkout (one from before bin.cjs has only bin.mjs) or a binary file itself (e.g. an installed
  // package's dist/cli/bin.js, the ES module CLI its bin.cjs imports).
  const BASE = base === null ? null : /\.[cm]?js$/.test(base) ? base : ['bin.cjs', 'bin.mjs'].map((f) => join(base, 'engine', 'node', f)).find((f) => existsSync(f))!;
  /** The row of the base checkout beside a row of this one (none without --base). */
  const alsoBase = (name: string, args: string[], input: string, env?: Record<string, string>): [string, string[], string, Record<string, string>?][] =>
    BASE === null ? [] : [[`${name} (base)`, args.map((a) => (a === BIN ? BASE : a)), input, env]];
  const want = (section: string) => only.length === 0 || only.includes(section);
  spawnSync(process.execPath, [join(ROOT, 'engine', 'node', 'buildCli.mjs')], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-speed-'));
  // The pipeline cache in a directory of this run's own; the first (untimed) call fills it, as any call after
  // a pipeline change does, and the timed calls are the ones a session makes after that.
  const env = { HOOKWIRE_CACHE_DIR: join(dir, 'cache') };
  try {
    const allowed = claudeInput('s1', 't1');
    const pipelinePath = join(dir, 'guard.json');
    writeFileSync(pipelinePath, readFileSync(GUARD, 'utf8'));
    if (want('hook')) {
      runProcess([BIN, 'claude-hook', GUARD], allowed, dir, env);
      if (BASE) runProcess([BASE, 'claude-hook', GUARD], allowed, dir, env);
      compare(`one claude-hook PreToolUse call, allowed, standalone (${binAt === -1 ? 'checkout: engine/node/bin.cjs' : BIN})`, [
        [`node -e 0 (Node ${process.version})`, ['-e', '0'], ''],
        ['hookwire claude-hook guard.pipeline.json', [BIN, 'claude-hook', GUARD], allowed, env],
        ...alsoBase('hookwire claude-hook guard.pipeline.json', [BIN, 'claude-hook', GUARD], allowed, env),
      ], dir, rounds);

      const serve = await startServer([BIN, 'serve', pipelinePath, '--port', '0', '--state-dir', join(dir, 'state'), '--no-watch'], (o) => o.includes('rebuilt'));
      try {
        const url = `http://127.0.0.1:${serve.port}`;
        runProcess([BIN, 'claude-hook', '--server', url, '--state-dir', join(dir, 'state')], allowed, dir);
        if (BASE) runProcess([BASE, 'claude-hook', '--server', url, '--state-dir', join(dir, 'state')], allowed, dir);
        compare('the same call forwarded to `hookwire serve` (claude-hook --server)', [
          [`node -e 0 (Node ${process.version})`, ['-e', '0'], ''],
          ['hookwire claude-hook --server URL', [BIN, 'claude-hook', '--server', url, '--state-dir', join(dir, 'state')], allowed],
          ...alsoBase('hookwire claude-hook --server URL', [BIN, 'claude-hook', '--server', url, '--state-dir', join(dir, 'state')], allowed),
        ], dir, rounds);
      } finally {
        serve.stop();
      }
    }

    writeFileSync(join(dir, 'bare.mjs'), BARE_SERVER);
    if (want('serve')) {
      const perSession = quick ? 20 : 100;
      const rows: (string | number)[][] = [['server', 'events per CPU-second (50 sessions)', 'p50 ms (one client)', 'throughput vs bare', 'p50 vs bare']];
      const figures: Record<'bare' | 'serve' | 'base', { perCpuSecond: number; p50: number }[]> = { bare: [], serve: [], base: [] };
      for (let r = 0; r < (quick ? 1 : 3); r++) {
        for (const which of BASE ? (['bare', 'serve', 'base'] as const) : (['bare', 'serve'] as const)) {
          const s = which === 'bare'
            ? await startServer([join(dir, 'bare.mjs')], () => true)
            : await startServer([which === 'base' ? BASE! : BIN, 'serve', pipelinePath, '--port', '0', '--state-dir', join(dir, `state-${which}-${r}`), '--no-watch'], (o) => o.includes('rebuilt'));
          try {
            figures[which].push(await serverFigures(s, `${which}${r}`, perSession, quick ? 200 : 1000));
          } finally {
            s.stop();
          }
        }
    }
    const b = { perCpuSecond: median(figures.bare.map((f) => f.perCpuSecond)), p50: median(figures.bare.map((f) => f.p50)) };
    const s = { perCpuSecond: median(figures.serve.map((f) => f.perCpuSecond)), p50: median(figures.serve.map((f) => f.p50)) };
    rows.push(['bare node:http (parse body, fixed JSON)', b.perCpuSecond.toFixed(0), b.p50.toFixed(3), '1.00', '1.00x']);
    rows.push(['hookwire serve (guard pipeline, recording)', s.perCpuSecond.toFixed(0), s.p50.toFixed(3), (s.perCpuSecond / b.perCpuSecond).toFixed(2), `${(s.p50 / b.p50).toFixed(2)}x`]);
    if (BASE) {
      const o = { perCpuSecond: median(figures.base.map((f) => f.perCpuSecond)), p50: median(figures.base.map((f) => f.p50)) };
      rows.push(['hookwire serve (base)', o.perCpuSecond.toFixed(0), o.p50.toFixed(3), (o.perCpuSecond / b.perCpuSecond).toFixed(2), `${(o.p50 / b.p50).toFixed(2)}x`]);
    }
    console.log(`\nserve vs a bare server: PreToolUse POSTs on keep-alive loopback connections; server CPU from /proc (10 ms ticks) over 50 × ${perSession} events; p50 over sequential calls of one client; median of ${quick ? 1 : 3} fresh server processes each (load average ${load()})`);
    table(rows);
    }

    if (want('replay')) {
      const events = quick ? 10_000 : 100_000;
      const pipeline = join(dir, 'p100.json');
      writeFileSync(pipeline, JSON.stringify(makePipeline(100)));
      const trace = join(dir, 'trace.jsonl');
      writeLines(trace, (w) => {
        w('{"format":"hookwire.trace","version":1,"trace_id":"bench","agent_id":"agent","source":{"kind":"bench"},"created":"2026-01-01T00:00:00.000Z"}\n');
        for (const e of makeEvents(events)) w(`${JSON.stringify(e)}\n`);
      });
      writeFileSync(join(dir, 'replayFloor.mjs'), REPLAY_FLOOR);
      // Two workloads: the goal's 100 handlers, and 10 (what is left is reading and writing, not deciding).
      const pipeline10 = join(dir, 'p10.json');
      writeFileSync(pipeline10, JSON.stringify(makePipeline(10)));
      compare(`replay --json, ${events / 1000}k events × 100 and × 10 handlers (${(statSync(trace).size / 2 ** 20).toFixed(1)} MB)`, [
        ['floor: chunks + JSON.parse per line + one line out per event', [join(dir, 'replayFloor.mjs'), trace], ''],
        ['hookwire replay --json (100 handlers)', [BIN, 'replay', '--json', pipeline, trace], ''],
        ['hookwire replay --json (10 handlers)', [BIN, 'replay', '--json', pipeline10, trace], ''],
        ...alsoBase('hookwire replay --json (100 handlers)', [BIN, 'replay', '--json', pipeline, trace], ''),
        ...alsoBase('hookwire replay --json (10 handlers)', [BIN, 'replay', '--json', pipeline10, trace], ''),
      ], dir, quick ? 1 : Math.min(rounds, 3));

    }

    if (want('import')) {
      const transcript = join(dir, 'claude.jsonl');
      writeLines(transcript, (w) => writeWorkload('claude-code', quick ? 8_000 : 40_000, w));
      writeFileSync(join(dir, 'importFloor.mjs'), IMPORT_FLOOR);
      writeFileSync(join(dir, 'wholeFloor.mjs'), WHOLE_FLOOR);
      compare(`import of a Claude Code transcript (${(statSync(transcript).size / 2 ** 20).toFixed(1)} MB, generated)`, [
        ['floor: chunks + JSON.parse per line + one line out per tool call', [join(dir, 'importFloor.mjs'), transcript], ''],
        ['hookwire import', [BIN, 'import', transcript], ''],
        ...alsoBase('hookwire import', [BIN, 'import', transcript], ''),
        ['(beside it: every record parsed and written back whole)', [join(dir, 'wholeFloor.mjs'), transcript], ''],
      ], dir, quick ? 1 : Math.min(rounds, 3));
      const rollout = join(dir, 'codex.jsonl');
      writeLines(rollout, (w) => writeWorkload('codex-rollout', quick ? 8_000 : 40_000, w));
      writeFileSync(join(dir, 'codexFloor.mjs'), CODEX_IMPORT_FLOOR);
      compare(`import of a Codex rollout (${(statSync(rollout).size / 2 ** 20).toFixed(1)} MB, generated)`, [
        ['floor: chunks + JSON.parse per line + one line out per tool call', [join(dir, 'codexFloor.mjs'), rollout], ''],
        ['hookwire import', [BIN, 'import', rollout], ''],
        ...alsoBase('hookwire import', [BIN, 'import', rollout], ''),
        ['(beside it: every record parsed and written back whole)', [join(dir, 'wholeFloor.mjs'), rollout], ''],
      ], dir, quick ? 1 : Math.min(rounds, 3));
    }
  } finally {
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('speed.bench.ts')) {
  const rounds = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 7);
  const only = ['hook', 'serve', 'replay', 'import'].filter((s) => process.argv.includes(s));
  const at = process.argv.indexOf('--base');
  await runSpeedBench(rounds, process.argv.includes('--quick'), only, at === -1 ? null : process.argv[at + 1]!);
}
