// Flow-rule cost: what five flow rules [F1] (one of each construct and a keyed sequence; workload.ts
// `withFlowRules`) add per event to replay's step at N handlers. Not a test: nothing asserts a time. Method
// as the dispatch benchmark: each contender in its own process running the contender bundle, CPU time
// (process.cpuUsage) over several passes after a warm-up, processes taking turns round after round; the
// figure is the difference of the medians, with the spread of per-round differences.
// Run: npx tsx test/bench/flow.bench.ts [events] [runs per process] [sizes, e.g. 100] [rounds]
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { table } from './measure.ts';

const CHILD = join(tmpdir(), `hookwire-flow-bench-${process.pid}.mjs`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function child(name: string, n: number, workload: string, events: number, runs: number): { micros: number[]; blocked: number } {
  const out = execFileSync(process.execPath, [CHILD, name, String(n), workload, String(events), String(runs)], { encoding: 'utf8', maxBuffer: 1 << 24 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

const [eventsText = '100000', runsText = '3', sizesText = '100', roundsText = '5'] = process.argv.slice(2);
buildSync({
  entryPoints: [fileURLToPath(new URL('./dispatch/contender.ts', import.meta.url))], outfile: CHILD, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning',
  banner: { js: "import { createRequire as __hwRequire } from 'node:module'; const require = __hwRequire(import.meta.url);" },
});
try {
  const rows: (string | number)[][] = [['workload', 'handlers', 'step µs/event', 'step + 5 flow rules µs/event', 'added µs/event (median)', 'per-round added (µs)', 'blocked without / with']];
  for (const workload of ['selective', 'broad']) {
    for (const n of sizesText.split(',').map(Number)) {
      const base: number[] = [];
      const flow: number[] = [];
      const diffs: number[] = [];
      let blocked = ['', ''];
      for (let r = 0; r < Number(roundsText); r++) {
        const a = child('step', n, workload, Number(eventsText), Number(runsText));
        const b = child('step-flow', n, workload, Number(eventsText), Number(runsText));
        base.push(...a.micros);
        flow.push(...b.micros);
        diffs.push(median(b.micros) - median(a.micros));
        blocked = [`${(a.blocked * 100).toFixed(1)}%`, `${(b.blocked * 100).toFixed(1)}%`];
      }
      rows.push([workload, n, median(base).toFixed(3), median(flow).toFixed(3), (median(flow) - median(base)).toFixed(3), diffs.map((d) => d.toFixed(3)).join(' '), blocked.join(' / ')]);
    }
  }
  table(rows);
} finally {
  rmSync(CHILD, { force: true });
}
