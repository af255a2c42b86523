// When do worker threads pay off for `hookwire backtest`? (issue 30; sets WORKER_MIN_BYTES in
// engine/node/backtest/runBacktestFiles.ts, figures in docs/backtest.md.)
//
// Method. For each corpus size (two files of N events each, trace v1, the same synthetic events as
// backtestMemory.bench.ts), `hookwire backtest --json` runs in its own process with `--workers 0` and with
// `--workers 2`, interleaved, several rounds; /usr/bin/time gives each process's CPU time (user+sys, all its
// threads) and wall time. On this shared machine wall time says little, so the threshold is read from CPU
// time alone:
//   work(B)  = CPU(--workers 0, B) − CPU(--workers 0, smallest corpus)   (the replay work a worker can take over)
//   extra(B) = CPU(--workers 2, B) − CPU(--workers 0, B)                 (what the workers cost on top: each loads
//                                                                          the engine and compiles both pipelines)
// With k workers on k free cores the run takes about (CPU(0) + extra) / k of wall time instead of CPU(0), so two
// workers pay off once work(B) > extra(B) (k = 2, and the fixed start-up of the process is paid either way).
// The threshold is the smallest size whose median work exceeds its median extra, as bytes of input.
//
// `npx tsx test/bench/backtestWorkers.bench.ts [runs=3] [sizes=500,5000,20000,60000]` (needs the built CLI:
// `npm run prepare`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { writeTrace } from './benchTrace.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const [runsArg, sizesArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 3);
const sizes = (sizesArg ?? '500,5000,20000,60000').split(',').map(Number);


interface Run { cpu: number; wall: number }

function backtest(workers: number, oldPath: string, newPath: string, folder: string): Run {
  const cli = join(ROOT, 'engine', 'node', 'bin.mjs');
  const p = spawnSync('/usr/bin/time', ['-f', '%U %S %e', 'sh', '-c', `node "${cli}" backtest --json --progress never --fail-on none --workers ${workers} "${oldPath}" "${newPath}" "${folder}" > /dev/null`], { encoding: 'utf8' });
  if (p.status !== 0) throw new Error(`backtest --workers ${workers} exited ${p.status}: ${p.stderr}`);
  const [user, sys, wall] = p.stderr.trim().split('\n').pop()!.split(' ').map(Number) as [number, number, number];
  return { cpu: user + sys, wall };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'hookwire-bt-workers-'));
try {
  const guard = join(ROOT, 'test', 'engine', 'node', 'fixtures', 'guard.pipeline.json');
  const doc = JSON.parse(readFileSync(guard, 'utf8'));
  doc.nodes.find((n: { id: string }) => n.id === 'budget').action.limit = 500;
  const next = join(dir, 'changed.json');
  writeFileSync(next, JSON.stringify(doc));
  console.log(`two files per corpus, --workers 0 vs 2, ${runs} interleaved rounds, each run its own process; CPU = user+sys of the process`);
  const rows: { events: number; bytes: number; cpu0: number; cpu2: number; wall0: number; wall2: number }[] = [];
  for (const n of sizes) {
    const folder = join(dir, `c${n}`);
    mkdirSync(folder);
    for (let f = 0; f < 2; f++) await writeTrace(join(folder, `s${f}.jsonl`), n, f);
    const bytes = [0, 1].reduce((s, f) => s + statSync(join(folder, `s${f}.jsonl`)).size, 0);
    const r0: Run[] = [];
    const r2: Run[] = [];
    for (let r = 0; r < runs; r++) {
      r0.push(backtest(0, guard, next, folder));
      r2.push(backtest(2, guard, next, folder));
    }
    const row = { events: 2 * n, bytes, cpu0: median(r0.map((r) => r.cpu)), cpu2: median(r2.map((r) => r.cpu)), wall0: median(r0.map((r) => r.wall)), wall2: median(r2.map((r) => r.wall)) };
    rows.push(row);
    console.log(`${row.events.toLocaleString('en')} events, ${(bytes / 1e6).toFixed(2)} MB: CPU --workers 0 ${r0.map((r) => r.cpu.toFixed(2)).join('/')} s, --workers 2 ${r2.map((r) => r.cpu.toFixed(2)).join('/')} s; wall ${r0.map((r) => r.wall.toFixed(2)).join('/')} vs ${r2.map((r) => r.wall.toFixed(2)).join('/')} s`);
    rmSync(folder, { recursive: true, force: true });
  }
  const base = rows[0]!.cpu0;
  console.log('\nmedians: size, work = CPU0 − CPU0(smallest), extra = CPU2 − CPU0, pays off (work > extra)');
  let threshold: number | null = null;
  for (const r of rows) {
    const work = r.cpu0 - base;
    const extra = r.cpu2 - r.cpu0;
    const pays = work > extra;
    if (pays && threshold === null) threshold = r.bytes;
    console.log(`${(r.bytes / 1e6).toFixed(2)} MB (${r.events.toLocaleString('en')} events): CPU0 ${r.cpu0.toFixed(2)} s, CPU2 ${r.cpu2.toFixed(2)} s, work ${work.toFixed(2)} s, extra ${extra.toFixed(2)} s → ${pays ? 'pays off' : 'does not'}; wall ${r.wall0.toFixed(2)} vs ${r.wall2.toFixed(2)} s`);
  }
  // Between the measured sizes, the crossing by linear interpolation of work − extra.
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    const da = a.cpu0 - base - (a.cpu2 - a.cpu0);
    const db = b.cpu0 - base - (b.cpu2 - b.cpu0);
    if (da <= 0 && db > 0) {
      const at = a.bytes + ((b.bytes - a.bytes) * -da) / (db - da);
      console.log(`crossing between ${(a.bytes / 1e6).toFixed(2)} and ${(b.bytes / 1e6).toFixed(2)} MB, interpolated at ${(at / 1e6).toFixed(2)} MB`);
    }
  }
  console.log(threshold === null ? 'two workers paid off at no measured size' : `first measured size where two workers pay off: ${(threshold / 1e6).toFixed(2)} MB`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
