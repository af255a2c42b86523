// Dispatch benchmark (issue 2). Not a test: prints events/s and ratios against the seed port, all run side
// by side in one process on the same generated workload, after checking that every contender reaches the
// same decision (and deciding handler) on every event. Run: npx tsx test/bench/dispatch.bench.ts [events]
import { compilePipeline, dispatch, explainEvent, initialState, type HookEvent } from '../../engine/index.ts';
import { makeEvents, makePipeline } from './workload.ts';
import { buildRegistry, compileSeedCondition, seedDispatch } from './baselines/seedPort.ts';
import { compileCel, compileSift } from './baselines/libraries.ts';
import { fmt, table, timeInterleaved } from './measure.ts';

type Contender = { name: string; decide: (e: HookEvent) => string; events: number };

export function runDispatchBench(eventCount = 100_000, sizes = [10, 100, 1000]): void {
  const events = makeEvents(eventCount);
  const env = { clock: { now: () => 0 } };
  // The libraries are much slower; they run on a slice of the same events so the bench stays short.
  const slice = events.slice(0, Math.min(eventCount, 20_000));
  for (const n of sizes) {
    const doc = makePipeline(n);
    const compiled = compilePipeline(doc);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems.slice(0, 3)));
    const c = compiled.compiled;
    const state = initialState();
    const seed = buildRegistry(doc, compileSeedCondition);
    const sift = buildRegistry(doc, compileSift);
    const cel = buildRegistry(doc, compileCel);
    const key = (d: { decision: string; decided_by: string | null }) => `${d.decision}:${d.decided_by ?? ''}`;
    const contenders: Contender[] = [
      { name: 'hookwire fast path', decide: (e) => key(dispatch(c, e, state, env)), events: eventCount },
      { name: 'hookwire explain mode', decide: (e) => key(explainEvent(c, e, state, env).result), events: eventCount },
      { name: 'seed HookManager port', decide: (e) => key(seedDispatch(seed, e)), events: eventCount },
      { name: 'sift (Mongo queries)', decide: (e) => key(seedDispatch(sift, e)), events: slice.length },
      { name: 'cel-js (CEL)', decide: (e) => key(seedDispatch(cel, e)), events: slice.length },
    ];
    // Same decisions everywhere, or the figures mean nothing.
    const reference = slice.map((e) => contenders[2]!.decide(e));
    for (const k of contenders) {
      const diff = slice.findIndex((e, i) => k.decide(e) !== reference[i]);
      if (diff >= 0) throw new Error(`${k.name} decides ${k.decide(slice[diff]!)} on event ${diff}, the seed port ${reference[diff]}`);
    }
    const blocks = reference.filter((r) => !r.startsWith('continue')).length;
    const fired = slice.reduce((sum, e) => { const r = dispatch(c, e, state, env); return sum + r.audit.length + (r.decided_by ? 1 : 0); }, 0) / slice.length;
    const live = slice.reduce((sum, e) => sum + c.plan(e.type).liveCount, 0) / slice.length;
    const times = timeInterleaved(
      contenders.map((k) => {
        const evs = k.events === eventCount ? events : slice;
        return () => {
          for (let i = 0; i < evs.length; i++) k.decide(evs[i]!);
        };
      }),
      3,
    );
    const rates = contenders.map((k, i) => ({ name: k.name, rate: (k.events / times[i]!) * 1000 }));
    const base = rates[2]!.rate;
    console.log(`\n${n} handlers, ${fmt(eventCount)} events: ${live.toFixed(0)} handlers listen to an event's type on average, ${fired.toFixed(2)} fire, ${((blocks / slice.length) * 100).toFixed(1)}% of events blocked; all contenders agree on every decision`);
    table([['contender', 'events/s', 'vs seed port'], ...rates.map((r) => [r.name, fmt(r.rate), `${(r.rate / base).toFixed(2)}x`])]);
    console.log(`explain mode costs ${(rates[0]!.rate / rates[1]!.rate).toFixed(2)}x the fast path`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv[3] ? process.argv[3].split(",").map(Number) : undefined;
  runDispatchBench(Number(process.argv[2] ?? 100_000), sizes);
}
