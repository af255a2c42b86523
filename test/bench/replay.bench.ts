// Replay benchmark (issue 4). Not a test: prints events/s and ratios against plain loops of the engine's
// own `dispatch` / `explainEvent` run side by side in one process on the same generated trace, after
// checking that replay reaches the same decision on every event; then the time to jump to random steps
// with checkpoints against replaying from the start, for several checkpoint intervals.
// Wall time is the best of a few runs; CPU time (this process, all threads) is printed beside it because
// the machine is shared and wall time swings with other people's load.
// Run: npx tsx test/bench/replay.bench.ts [events] [handlers]
import { compilePipeline, createAsyncReplayer, createReplayer, dispatch, explainEvent, initialState, replaySteps, type CompiledPipeline, type DispatchState, type TraceEvent } from '../../engine/index.ts';
import { fmt, table } from './measure.ts';
import { makeEvents, makePipeline, rng } from './workload.ts';

/** The workload's events as a recorded trace, 10 ms apart: production let everything through, so replayed blocks diverge. */
function makeTrace(count: number): TraceEvent[] {
  return makeEvents(count).map((e, i) => ({ ...e, ts: new Date(Date.UTC(2026, 0, 1) + i * 10).toISOString(), recorded: { decision: 'continue' as const } }));
}

const clockOf = (e: TraceEvent) => Date.parse(e.ts);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Best wall time of `repeats` runs after a warm-up, and the CPU time of that run. */
function timeBoth(run: () => void, repeats: number): { wall: number; cpu: number } {
  run();
  let best = { wall: Infinity, cpu: Infinity };
  for (let i = 0; i < repeats; i++) {
    const c0 = cpuMs();
    const t0 = performance.now();
    run();
    const wall = performance.now() - t0;
    if (wall < best.wall) best = { wall, cpu: cpuMs() - c0 };
  }
  return best;
}

/** Baseline: the loop any caller would write around the engine, carrying state. Returns the decisions. */
function plainLoop(c: CompiledPipeline, events: TraceEvent[], explain: boolean): string[] {
  let state: DispatchState = initialState();
  const out: string[] = new Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const env = { clock: { now: () => clockOf(e) } };
    const r = explain ? explainEvent(c, e, state, env).result : dispatch(c, e, state, env);
    state = r.state;
    out[i] = r.decision;
  }
  return out;
}

function stats(ms: number[]): { mean: number; p95: number; max: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { mean: s.reduce((a, b) => a + b, 0) / s.length, p95: s[Math.floor(s.length * 0.95)]!, max: s[s.length - 1]! };
}

function throughput(c: CompiledPipeline, events: TraceEvent[]): void {
  const n = events.length;
  // Replay must agree with the plain loop (the workload never terminates, so every event is dispatched).
  const reference = plainLoop(c, events, false);
  // Streamed, not kept: see replayTrace on why keeping steps in bulk would skew what follows.
  for (const s of replaySteps(c, events, { explain: false })) {
    if (s.decision !== reference[s.index]) throw new Error(`replay decides ${s.decision} on event ${s.index}, the plain loop ${reference[s.index]}`);
  }
  const blocked = reference.filter((d) => d !== 'continue').length;
  const rows: [string, { wall: number; cpu: number }][] = [
    ['plain dispatch loop (baseline)', timeBoth(() => void plainLoop(c, events, false), 2)],
    ['replaySteps, fast mode', timeBoth(() => { for (const s of replaySteps(c, events, { explain: false })) void s; }, 2)],
    ['replayer.timeline() (fast pass + checkpoints)', timeBoth(() => void createReplayer(c, events).timeline(), 2)],
    ['plain explainEvent loop (baseline)', timeBoth(() => void plainLoop(c, events, true), 1)],
    ['replaySteps, explain mode', timeBoth(() => { for (const s of replaySteps(c, events)) void s; }, 1)],
    ['replayer.activity() (explain pass, fills the timeline too)', timeBoth(() => void createReplayer(c, events).activity(), 1)],
  ];
  console.log(`\nfull replay: ${fmt(n)} events, ${c.handlers.length} handlers (${blocked} blocked; replay and the plain loop agree on every decision)`);
  table([
    ['run', 'wall ms', 'cpu ms', 'events/s (wall)', 'vs its baseline (cpu)'],
    ...rows.map(([name, t], i) => [name, t.wall.toFixed(0), t.cpu.toFixed(0), fmt((n / t.wall) * 1000), `${((i < 3 ? rows[0]![1].cpu : rows[3]![1].cpu) / t.cpu).toFixed(2)}x`]),
  ]);
  const scale = 100_000 / n;
  console.log(`goal: explain-mode replay of 100,000 events under 2 s → ${((rows[4]![1].wall * scale) / 1000).toFixed(2)} s wall, ${((rows[4]![1].cpu * scale) / 1000).toFixed(2)} s cpu (scaled to 100k); the plain explainEvent loop alone takes ${((rows[3]![1].cpu * scale) / 1000).toFixed(2)} s cpu`);
}

async function jumps(c: CompiledPipeline, events: TraceEvent[]): Promise<void> {
  const n = events.length;
  const r = rng(7);
  const targets = Array.from({ length: 200 }, () => r.int(n));
  const rows: (string | number)[][] = [['checkpoint every K', 'timeline pass ms', 'jump mean ms', 'p95 ms', 'max ms', 'checkpoints']];
  const time = (f: () => void): number => {
    const t = performance.now();
    f();
    return performance.now() - t;
  };
  for (const K of [16, 64, 256, 1024, 4096]) {
    const replayer = createReplayer(c, events, { checkpointEvery: K, cacheSize: 1 });
    const first = time(() => replayer.timeline());
    replayer.jump(targets[0]!); // warm-up
    const s = stats(targets.map((i) => time(() => replayer.jump(i))));
    rows.push([K, first.toFixed(0), s.mean.toFixed(2), s.p95.toFixed(2), s.max.toFixed(2), Math.ceil(n / K)]);
  }
  // The async replayer over an in-memory async store: the cost of the chunk layer itself (no IndexedDB).
  const store = { count: n, getRange: async (a: number, b: number) => events.slice(a, b) };
  const asyncReplayer = createAsyncReplayer(c, store, { cacheSize: 1 });
  await asyncReplayer.timeline();
  const asyncMs: number[] = [];
  for (const i of targets) {
    const t = performance.now();
    await asyncReplayer.jump(i);
    asyncMs.push(performance.now() - t);
  }
  const a = stats(asyncMs);
  rows.push([`async, ${asyncReplayer.checkpointEvery} (in-memory store)`, '-', a.mean.toFixed(2), a.p95.toFixed(2), a.max.toFixed(2), Math.ceil(n / asyncReplayer.checkpointEvery)]);
  // Baseline: no checkpoints, every jump replays from the first event (fast) and explains the target.
  const scratch = targets.slice(0, 5).map((i) =>
    time(() => {
      let state: DispatchState = initialState();
      for (let j = 0; j < i; j++) state = dispatch(c, events[j]!, state, { clock: { now: () => clockOf(events[j]!) } }).state;
      explainEvent(c, events[i]!, state, { clock: { now: () => clockOf(events[i]!) } });
    }),
  );
  const base = stats(scratch);
  rows.push(['none: replay from the start (5 jumps)', '-', base.mean.toFixed(2), '-', base.max.toFixed(2), 0]);
  console.log(`\njump to 200 random steps of ${fmt(n)} (each an explained step; step cache off; timeline pass first)`);
  table(rows);
  console.log(`goal: a jump under 50 ms; with K = 256 the mean jump is ${(base.mean / Number(rows[3]![2])).toFixed(0)}x faster than replaying from the start`);
}

/** Prints the replay benchmark. */
export async function runReplayBench(eventCount = 100_000, handlers = 100): Promise<void> {
  const compiled = compilePipeline(makePipeline(handlers));
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems.slice(0, 3)));
  const events = makeTrace(eventCount);
  throughput(compiled.compiled, events);
  await jumps(compiled.compiled, events);
}

if (import.meta.url === `file://${process.argv[1]}`) await runReplayBench(Number(process.argv[2] ?? 100_000), Number(process.argv[3] ?? 100));
