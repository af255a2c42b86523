// Replay benchmark (issue 4). Not a test: prints events/s and ratios against plain loops of the engine's
// own `dispatch` / `explainEvent` run side by side in one process on the same generated trace, after
// checking that replay reaches the same decision on every event; then the time to jump to random steps
// with checkpoints against replaying from the start, for several checkpoint intervals.
// Run: npx tsx test/bench/replay.bench.ts [events] [handlers]
import { compilePipeline, createReplayer, dispatch, explainEvent, initialState, replaySteps, type CompiledPipeline, type DispatchState, type TraceEvent } from '../../engine/index.ts';
import { fmt, table, timeBest } from './measure.ts';
import { makeEvents, makePipeline, rng } from './workload.ts';

/** The workload's events as a recorded trace: production let everything through, so replayed blocks diverge. */
function makeTrace(count: number): TraceEvent[] {
  return makeEvents(count).map((e, i) => ({ ...e, ts: new Date(Date.UTC(2026, 0, 1) + i * 10).toISOString(), recorded: { decision: 'continue' as const } }));
}

const clockOf = (e: TraceEvent) => Date.parse(e.ts);

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
  // Terminate would cut the trace short; the workload has none. Replay must agree with the plain loop.
  const reference = plainLoop(c, events, false);
  const replayed = [...replaySteps(c, events, { explain: false })].map((s) => s.decision);
  const bad = replayed.findIndex((d, i) => d !== reference[i]);
  if (bad >= 0) throw new Error(`replay decides ${replayed[bad]} on event ${bad}, the plain loop ${reference[bad]}`);
  const blocked = reference.filter((d) => d !== 'continue').length;
  const rate = (ms: number) => (n / ms) * 1000;
  const rows: [string, number][] = [
    ['plain dispatch loop (baseline)', timeBest(() => void plainLoop(c, events, false), 2)],
    ['replaySteps, fast mode', timeBest(() => { for (const s of replaySteps(c, events, { explain: false })) void s; }, 2)],
    ['createReplayer().timeline() (fast pass + checkpoints)', timeBest(() => void createReplayer(c, events).timeline(), 2)],
    ['plain explainEvent loop (baseline)', timeBest(() => void plainLoop(c, events, true), 1)],
    ['replaySteps, explain mode', timeBest(() => { for (const s of replaySteps(c, events)) void s; }, 1)],
    ['createReplayer().activity() (explain pass)', timeBest(() => void createReplayer(c, events).activity(), 1)],
  ];
  console.log(`\nfull replay: ${fmt(n)} events, ${c.handlers.length} handlers (${blocked} blocked; replay and the plain loop agree on every decision)`);
  const fastBase = rows[0]![1];
  const explainBase = rows[3]![1];
  table([
    ['run', 'ms', 'events/s', 'vs its baseline'],
    ...rows.map(([name, ms], i) => [name, ms.toFixed(0), fmt(rate(ms)), `${((i < 3 ? fastBase : explainBase) / ms).toFixed(2)}x`]),
  ]);
  console.log(`goal: explain-mode replay of 100,000 events under 2 s → ${(rows[4]![1] * (100_000 / n) / 1000).toFixed(2)} s (scaled to 100k)`);
}

function jumps(c: CompiledPipeline, events: TraceEvent[]): void {
  const n = events.length;
  const r = rng(7);
  const targets = Array.from({ length: 200 }, () => r.int(n));
  const rows: (string | number)[][] = [['checkpoint every K', 'first timeline pass ms', 'jump mean ms', 'p95 ms', 'max ms', 'checkpoints']];
  for (const K of [16, 64, 256, 1024, 4096]) {
    const replayer = createReplayer(c, events, { checkpointEvery: K, cacheSize: 1 });
    const t0 = performance.now();
    replayer.timeline();
    const first = performance.now() - t0;
    replayer.jump(targets[0]!); // warm-up
    const ms = targets.map((i) => {
      const t = performance.now();
      replayer.jump(i);
      return performance.now() - t;
    });
    const s = stats(ms);
    rows.push([K, first.toFixed(0), s.mean.toFixed(2), s.p95.toFixed(2), s.max.toFixed(2), Math.ceil(n / K)]);
  }
  // Baseline: no checkpoints, every jump replays from the first event (fast) and explains the target.
  const few = targets.slice(0, 5);
  const scratch = few.map((i) => {
    const t = performance.now();
    let state: DispatchState = initialState();
    for (let j = 0; j < i; j++) state = dispatch(c, events[j]!, state, { clock: { now: () => clockOf(events[j]!) } }).state;
    explainEvent(c, events[i]!, state, { clock: { now: () => clockOf(events[i]!) } });
    return performance.now() - t;
  });
  const base = stats(scratch);
  rows.push(['none (replay from the start)', '-', base.mean.toFixed(2), '-', base.max.toFixed(2), 0]);
  console.log(`\njump to 200 random steps of ${fmt(n)} (explained step; cache off; the timeline pass done first)`);
  table(rows);
  console.log('goal: a jump under 50 ms');
}

/** Prints the replay benchmark. */
export function runReplayBench(eventCount = 100_000, handlers = 100): void {
  const compiled = compilePipeline(makePipeline(handlers));
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems.slice(0, 3)));
  const events = makeTrace(eventCount);
  throughput(compiled.compiled, events);
  jumps(compiled.compiled, events);
}

if (import.meta.url === `file://${process.argv[1]}`) runReplayBench(Number(process.argv[2] ?? 100_000), Number(process.argv[3] ?? 100));
