// The 1M-event figure of docs/backtest.md [B6]: writes a folder of 10 trace v1 files of 100k events each and two
// pipelines (the CLI tests' guard pipeline, and the same with a lower token budget, so a run ends early and
// nearly every later event differs: the worst case for memory), then runs `hookwire backtest --json` on it in
// its own process, several times, and prints each run's CPU time (user+sys) and peak RSS from /usr/bin/time.
// `npx tsx test/bench/backtestMemory.bench.ts [runs=3] [files=10] [events=100000] [--workers N]`
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTrace } from './benchTrace.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const args = process.argv.slice(2);
const workersAt = args.indexOf('--workers');
const workers = workersAt >= 0 ? args.splice(workersAt, 2)[1]! : '0';
const [runs = 3, files = 10, perFile = 100_000] = args.map(Number);


const dir = mkdtempSync(join(tmpdir(), 'hookwire-bt-bench-'));
try {
  const guard = join(ROOT, 'test', 'engine', 'node', 'fixtures', 'guard.pipeline.json');
  const doc = JSON.parse(readFileSync(guard, 'utf8'));
  doc.nodes.find((n: { id: string }) => n.id === 'budget').action.limit = 500;
  const next = join(dir, 'changed.json');
  writeFileSync(next, JSON.stringify(doc));
  mkdirSync(join(dir, 'sessions'));
  for (let f = 0; f < files; f++) await writeTrace(join(dir, 'sessions', `s${f}.jsonl`), perFile, f);
  console.log(`${files} files × ${perFile.toLocaleString('en')} events, --workers ${workers}, ${runs} runs, each its own process`);
  for (let r = 0; r < runs; r++) {
    const out = join(dir, 'out.json');
    const p = spawnSync('/usr/bin/time', ['-f', '%U %S %M %e', 'sh', '-c', `node "${join(ROOT, 'engine', 'node', 'bin.mjs')}" backtest --json --progress never --workers ${workers} "${guard}" "${next}" "${join(dir, 'sessions')}" > "${out}"`], { encoding: 'utf8' });
    const last = p.stderr.trim().split('\n').pop()!;
    const [user, sys, rssKb, wall] = last.split(' ').map(Number) as [number, number, number, number];
    // The document can pass V8's longest string: read the totals from its tail (they come after the files).
    const bytes = readFileSync(out);
    const tail = bytes.subarray(Math.max(0, bytes.length - 65536)).toString('utf8');
    const total = JSON.parse(/"total":(\{[^}]*\})/.exec(tail)![1]!);
    console.log(`run ${r + 1}: exit ${p.status}, CPU ${(user + sys).toFixed(1)} s (user ${user} + sys ${sys}), peak RSS ${(rssKb / 1024).toFixed(0)} MB, wall ${wall} s; ${total.events.toLocaleString('en')} events, ${total.changed.toLocaleString('en')} differ, output ${(bytes.length / 1e6).toFixed(0)} MB`);
    rmSync(out);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
