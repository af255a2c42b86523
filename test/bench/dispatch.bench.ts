// Dispatch benchmark. Not a test: nothing here asserts a time. Method: every contender runs in its own
// child process (test/bench/dispatch/contender.ts) on the same seeded workload (test/bench/dispatch/
// workload.ts: 100k events, N handlers with mixed eq/in/regex/numeric/nested conditions, prefix
// subscriptions, ~5% of events blocked), is timed on its own CPU time (process.cpuUsage) over several
// passes after a warm-up pass. The contenders' processes take turns, round after round (the machine is
// shared: load that comes and goes then falls on all of them alike), and the figure is the median of every
// pass of every round. Ratios are against a port of the seed's HookManager
// (test/bench/dispatch/hookManager.ts); the Node-only generated backend (engine/node/codegen) is one more
// contender. Before the figures mean anything: every handler's condition is
// checked against the seed port's on a sample of events, and every contender's (decision, deciding handler)
// on every event must hash equal to the seed port's. The contenders run from one JavaScript bundle of
// contender.ts (built here with esbuild), as the engine ships as JavaScript: through tsx's loader (which
// adds source maps and a name for every function) the 10-handler fast path measured ~0.19 µs/event against
// ~0.14 from the bundle.
// Run: npx tsx test/bench/dispatch.bench.ts [events] [runs per process] [sizes, e.g. 10,100,1000] [rounds] [contenders, e.g. hookwire-codegen,explain] [workloads, e.g. third]
// Workloads: `selective`, `broad` and `third` (dispatch/workload.ts). When a contender's hash differs, the error names
// the first event where it decides differently from the seed port (found again in this process).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { checkConditions, decider, type ContenderName } from './dispatch/contender.ts';
import { makeEvents, type Workload } from './dispatch/workload.ts';
import { table } from './measure.ts';

const CHILD_SOURCE = fileURLToPath(new URL('./dispatch/contender.ts', import.meta.url));
/** The contender bundle this run's children execute (see the header). */
const CHILD = join(tmpdir(), `hookwire-bench-contender-${process.pid}.mjs`);

function buildContender(): void {
  buildSync({
    entryPoints: [CHILD_SOURCE], outfile: CHILD, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning',
    // CommonJS packages inside an ES module bundle still find `require`.
    banner: { js: "import { createRequire as __hwRequire } from 'node:module'; const require = __hwRequire(import.meta.url);" },
  });
}

interface ChildResult {
  name: ContenderName;
  events: number;
  micros: number[];
  hash: string;
  hash10k: string;
  blocked: number;
  alloc: { all: number | null; unblocked: number | null; quiet: number | null } | null;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * One contender process. Timed processes all run with node's default heap flags; `alloc` is a separate
 * hookwire process that only counts bytes per event, with a collector to call and a young generation that
 * holds a whole batch from the start (semi-spaces fixed at 64 MB: a young generation still growing collects
 * inside a batch and undercounts; and with a 64 MB one an allocating loop runs up to 1.6x slower, for every
 * contender alike, so no timed process gets it).
 */
function runChild(name: ContenderName, n: number, workload: Workload, events: number, runs: number, alloc = false): ChildResult {
  const flags = [...(alloc ? ['--expose-gc', '--max-semi-space-size=64', '--min-semi-space-size=64'] : [])];
  let out: string;
  try {
    out = execFileSync(process.execPath, [...flags, CHILD, name, String(n), workload, String(events), String(runs)], { encoding: 'utf8', maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    throw new Error(`${name} (${workload}, ${n} handlers) failed: ${String((e as { stderr?: string }).stderr ?? e).slice(0, 600)}`);
  }
  return JSON.parse(out.trim().split('\n').pop()!) as ChildResult;
}

const CONTENDERS: { name: ContenderName; label: string; share: number }[] = [
  { name: 'seed', label: 'seed HookManager port (native RegExp)', share: 1 },
  { name: 'hookwire', label: 'hookwire fast path', share: 1 },
  { name: 'hookwire-fresh', label: 'hookwire fast path, a fresh result per event (no `into`)', share: 1 },
  { name: 'hookwire-codegen', label: 'hookwire generated code (Node only, compileForNode)', share: 1 },
  { name: 'explain', label: 'hookwire explain mode (explanation recorded)', share: 0.2 },
  { name: 'explain-status', label: 'hookwire explain mode, every handler status read', share: 0.2 },
  { name: 'explain-read', label: 'hookwire explain mode, every handler and clause read', share: 0.05 },
  { name: 'sift', label: 'sift conditions in the seed registry', share: 0.1 },
  { name: 'cel', label: 'cel-js conditions in the seed registry', share: 0.1 },
];

/** The first event on which `name` decides (decision, deciding handler) differently from the seed port. */
function firstDifference(name: ContenderName, n: number, workload: Workload, count: number): string {
  const seed = decider('seed', n, workload);
  const other = decider(name, n, workload);
  for (const e of makeEvents(count)) {
    const a = seed(e);
    const [ad, ab] = [a.decision, a.decided_by];
    const b = other(e);
    if (ad !== b.decision || ab !== b.decided_by) return `${e.event_id} (${e.type}): seed port ${ad} by ${ab}, ${name} ${b.decision} by ${b.decided_by}`;
  }
  return 'no event differs when run again in one process';
}

export function runDispatchBench(eventCount = 100_000, sizes = [10, 100, 1000], runs = 3, workloads: Workload[] = ['selective', 'broad', 'third'], rounds = 3, only?: ContenderName[]): void {
  buildContender();
  try {
    runContenders(eventCount, sizes, runs, workloads, rounds, only);
  } finally {
    rmSync(CHILD, { force: true });
  }
}

function runContenders(eventCount: number, sizes: number[], runs: number, workloads: Workload[], rounds: number, only: ContenderName[] | undefined): void {
  // `only`: a subset of the contenders (the seed port and the fast path always run: the ratios are against them).
  // The fast path is timed in its hot-loop form (`dispatch(…, into)`, one result reused) and in its plain form
  // (a fresh result, with fresh lists and records, per event: what a caller that keeps every result gets).
  const contenders = CONTENDERS.filter((c) => !only || c.name === 'seed' || c.name === 'hookwire' || only.includes(c.name));
  console.log(`dispatch: ${eventCount} events; each contender in its own process, ${rounds} rounds of processes taking turns, ${runs} timed passes each after a warm-up pass; CPU µs per event (median of all passes); ratio = seed port's time / contender's time (higher is faster)`);
  const summary: (string | number)[][] = [['workload', 'handlers', 'blocked', 'fast path vs seed', 'fresh results vs seed', 'generated code vs seed', 'explain / fast path', 'explain, statuses read / fast path', 'explain, read in full / fast path', 'fast path bytes/event (quiet, unblocked, all)']];
  for (const workload of workloads) {
    for (const n of sizes) {
      const disagreements = checkConditions(n, workload, 2_000);
      if (disagreements.length) throw new Error(`conditions disagree with the seed port (${disagreements.length}), e.g. ${disagreements.slice(0, 3).join('; ')}`);
      const results = contenders.map((c) => ({ c, r: null as ChildResult | null, micros: [] as number[] }));
      for (let round = 0; round < rounds; round++) {
        for (const x of results) {
          const r = runChild(x.c.name, n, workload, Math.max(10_000, Math.round(eventCount * (n >= 1000 ? x.c.share : Math.max(x.c.share, 0.5)))), runs);
          x.r ??= r;
          x.micros.push(...r.micros);
        }
      }
      // Bytes per event: one more hookwire process, untimed (its own heap flags, see runChild).
      results[1]!.r!.alloc = runChild('hookwire', n, workload, Math.min(eventCount, 20_000), 1, true).alloc;
      const seed = results[0]!.r!;
      for (const { c, r } of results) {
        const same = r!.events === seed.events ? r!.hash === seed.hash : r!.hash10k === seed.hash10k;
        if (!same) throw new Error(`${c.label} decides differently from the seed port (${workload}, ${n} handlers): ${firstDifference(c.name, n, workload, r!.events)}`);
      }
      const base = median(results[0]!.micros);
      console.log(`\n${workload}, ${n} handlers: ${(seed.blocked * 100).toFixed(1)}% of events blocked; every condition and every decision agrees with the seed port`);
      table([
        ['contender', 'events', 'CPU µs/event (median)', 'passes (µs)', 'vs seed port'],
        ...results.map(({ c, r, micros }) => [c.label, r!.events, median(micros).toFixed(3), micros.map((m) => m.toFixed(2)).join(' '), `${(base / median(micros)).toFixed(2)}x`]),
      ]);
      const fast = results[1]!;
      const pick = (name: ContenderName) => results.find((x) => x.c.name === name);
      const gen = pick('hookwire-codegen');
      const fresh = pick('hookwire-fresh');
      const bytes = (a: ChildResult['alloc']) => (a ? `${a.quiet?.toFixed(1) ?? '-'}, ${a.unblocked?.toFixed(1) ?? '-'}, ${a.all?.toFixed(0) ?? '-'}` : '-');
      const vsFast = (name: ContenderName) => {
        const x = pick(name);
        return x ? `${(median(x.micros) / median(fast.micros)).toFixed(2)}x` : '-';
      };
      summary.push([workload, n, `${(seed.blocked * 100).toFixed(1)}%`, `${(base / median(fast.micros)).toFixed(2)}x`, fresh ? `${(base / median(fresh.micros)).toFixed(2)}x` : '-', gen ? `${(base / median(gen.micros)).toFixed(2)}x` : '-', vsFast('explain'), vsFast('explain-status'), vsFast('explain-read'), bytes(fast.r!.alloc)]);
    }
  }
  console.log('\nsummary');
  table(summary);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [events, runs, sizes, rounds, only, workloads] = process.argv.slice(2);
  runDispatchBench(Number(events ?? 100_000), sizes ? sizes.split(',').map(Number) : [10, 100, 1000], Number(runs ?? 3), workloads ? (workloads.split(',') as Workload[]) : ['selective', 'broad', 'third'], Number(rounds ?? 3), only ? (only.split(',') as ContenderName[]) : undefined);
}
