import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compilePipeline, type CompiledPipeline } from '../../../../engine/compile/compilePipeline.ts';
import { decideTrace } from '../../../../engine/runtime/decideTrace.ts';
import { outcomeAt } from '../../../../engine/replay/replayTimeline.ts';
import type { Pipeline } from '../../../../engine/model/pipelineTypes.ts';
import { demoPipeline } from '../../../../web/demo/demoPipeline.ts';
import { demoTrace } from '../../../../web/demo/demoTrace.ts';
import { HookwireDb } from '../../../../web/persistence/db.ts';
import { storeTrace, writeEventLabel } from '../../../../web/persistence/traceLibrary.ts';
import { readExpectation, stepLabel } from '../../../../engine/replay/expectation.ts';
import { NO_FILTER, type TimelineFilter } from '../../../../web/debugger/model/timelineFilter.ts';
import { createEventStore } from '../../../../web/debugger/worker/eventStore.ts';
import type { SessionEvent } from '../../../../web/debugger/worker/protocol.ts';
import { createReplaySession, type ReplaySession } from '../../../../web/debugger/worker/replaySession.ts';
import { compileBreakpoint, type BreakpointSpec } from '../../../../engine/replay/breakpoint.ts';
import { createReplayer } from '../../../../engine/replay/createReplayer.ts';
import { nextStop } from '../../../../engine/replay/breakpoint.ts';
import type { Trace } from '../../../../engine/trace/traceTypes.ts';

let db: HookwireDb;
let n = 0;
let session: ReplaySession | null = null;
beforeEach(() => {
  db = new HookwireDb(`session-test-${n++}`);
});
afterEach(async () => {
  session?.stop();
  await db.delete();
});

function compile(doc: Pipeline): CompiledPipeline {
  const r = compilePipeline(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.compiled;
}

/** A session over the stored demo trace, and the events it posts, awaited by kind. */
async function open(doc: Pipeline = demoPipeline(), trace: Trace = demoTrace()) {
  const record = await storeTrace(db, trace, { name: 'demo', source_format: 'hookwire-trace' });
  const events: SessionEvent[] = [];
  const waiters: { kind: string; resolve: (e: SessionEvent) => void }[] = [];
  const post = (e: SessionEvent) => {
    events.push(e);
    for (const w of waiters.filter((x) => x.kind === e.kind)) w.resolve(e);
  };
  const compiled = compile(doc);
  const stored = createEventStore(db, record);
  // Counts the replayer's reads of events (a search that ends early reads less).
  let reads = 0;
  const store = { ...stored, getRange: (a: number, b: number) => (reads++, stored.getRange(a, b)) };
  session = createReplaySession(compiled, store, 1, post);
  const next = <K extends SessionEvent['kind']>(kind: K) =>
    new Promise<Extract<SessionEvent, { kind: K }>>((resolve) => {
      const found = events.find((e) => e.kind === kind);
      if (found) resolve(found as Extract<SessionEvent, { kind: K }>);
      else waiters.push({ kind, resolve: resolve as (e: SessionEvent) => void });
    });
  return { s: session, next, compiled, store, record, events, reads: () => reads };
}

/** The demo trace's 22 events repeated to `n`, each with an id of its own. */
function repeatedDemo(n: number): Trace {
  const demo = demoTrace();
  return { header: demo.header, events: Array.from({ length: n }, (_, i) => ({ ...demo.events[i % demo.events.length]!, event_id: `r-${i}` })) };
}

describe('replay worker session over a stored trace (engine/replay, IndexedDB chunks)', () => {
  it('posts the timeline and coverage the engine computes', async () => {
    const { next } = await open();
    const { timeline } = await next('timeline');
    expect(timeline.count).toBe(22);
    expect(outcomeAt(timeline, 11)).toBe('block_action');
    expect(timeline.counterfactual_since).toBe(11);
    const { coverage } = await next('coverage');
    expect(coverage.never_fired).toEqual(['h-block-injection']);
  });

  it('answers a step with its explanation and "why didn\'t it fire?" for every handler', async () => {
    const { s } = await open();
    const blocked = await s.step(11);
    expect(blocked.step.decision).toBe('block_action');
    expect(blocked.step.reason).toBe('Blocked Bash: `rm -rf build/ ~/.cache` is destructive');
    const injection = await s.step(17);
    const why = injection.why.find((w) => w.handler_id === 'h-block-injection')!;
    expect(why.fired).toBe(false);
    expect(why.sentence).toContain('`payload.input` is missing; the payload has `user_input`');
    expect(injection.why.map((w) => w.handler_id)).toEqual(['h-block-injection', 'h-block-destructive', 'h-redact-secrets', 'h-token-budget', 'h-audit-log']);
  });

  it('filters, search and breakpoint search are the engine\'s answers', async () => {
    const { s } = await open();
    const filter = async (f: TimelineFilter) => {
      const a = await s.filter(f, 1, () => false);
      if (a.cancelled) throw new Error('not cancelled');
      return a.visible && [...a.visible];
    };
    expect(await filter({ ...NO_FILTER, decision: 'blocked' })).toEqual([11]);
    expect(await filter({ ...NO_FILTER, type: 'tool.after_call' })).toEqual([6, 8, 12]);
    expect(await filter({ ...NO_FILTER, handler: 'h-redact-secrets' })).toEqual([4, 6, 8, 10, 12, 14, 19]);
    expect(await filter({ ...NO_FILTER, text: 'SK-PROJ' })).toEqual([8, 10]);
    expect(await filter({ ...NO_FILTER, type: 'model.after_call', text: 'deploy' })).toEqual([10]);
    expect(await filter(NO_FILTER)).toBeNull();
    expect(await s.find([{ kind: 'event_type', type: 'input.received' }, { kind: 'blocked' }], 5, 'forward')).toBe(11);
    expect(await s.find([{ kind: 'fired', handler_id: 'h-redact-secrets' }], 12, 'forward')).toBe(14);
    expect(await s.find([{ kind: 'divergent' }], 11, 'forward')).toBe(-1);
    expect(await s.find([{ kind: 'divergent' }], 21, 'backward')).toBe(11);
  });

  it('[R20] a filter is searched a chunk at a time before the replay ends, with progress, and can be cancelled', async () => {
    const trace = repeatedDemo(3000);
    const { s, compiled, events } = await open(demoPipeline(), trace);
    const engine = createReplayer(compiled, trace.events);
    const text = [...trace.events.keys()].filter((i) => JSON.stringify(trace.events[i]!.payload).toLowerCase().includes('sk-proj'));
    const blocked = [...engine.stepsWhere({ kind: 'blocked' })];
    // Asked at once (the replay has just begun): the answers are the engine's.
    const a = await s.filter({ ...NO_FILTER, text: 'sk-PROJ' }, 7, () => false);
    expect(a.cancelled ? null : [...a.visible!]).toEqual(text);
    const b = await s.filter({ ...NO_FILTER, decision: 'blocked', text: ' sk-proj ' }, 8, () => false);
    expect(b.cancelled ? null : [...b.visible!]).toEqual(text.filter((i) => blocked.includes(i)));
    expect(events.some((e) => e.kind === 'searchProgress' && e.search === 7 && e.total === 3000)).toBe(true);
    // Cancelled between chunks: no answer, and the next ask of it searches again.
    let asked = 0;
    expect(await s.filter({ ...NO_FILTER, handler: 'h-redact-secrets', text: 'bash' }, 9, () => ++asked > 2)).toEqual({ cancelled: true });
    const c = await s.filter({ ...NO_FILTER, handler: 'h-redact-secrets', text: 'bash' }, 10, () => false);
    expect(c.cancelled).toBe(false);
  });

  it('[R11] the previous blocked step is answered from the steps before this one, without waiting for the whole replay', async () => {
    const trace = repeatedDemo(3000);
    const { s, compiled, events } = await open(demoPipeline(), trace);
    const engine = createReplayer(compiled, trace.events);
    const want = engine.find({ kind: 'blocked' }, { from: 40, direction: 'backward' });
    expect(await s.find([{ kind: 'blocked' }], 40, 'backward')).toBe(want);
    // The timeline had not been posted yet: the answer did not wait for it.
    expect(events.some((e) => e.kind === 'timeline')).toBe(false);
  });

  it('[R18] "next breakpoint" is the engine\'s next stop, answered at it (not after the whole trace), with progress, and can be cancelled', async () => {
    const trace = repeatedDemo(4000);
    const { s, compiled, events, next, reads } = await open(demoPipeline(), trace);
    await next('coverage');
    const specs: Record<string, BreakpointSpec> = {
      injection: { node: { id: 'm-prompt-injection', on: 'matches' } },
      dangerous: { node: { id: 'm-dangerous-tools', on: 'matches' } },
      thirdBlock: { step: { kind: 'blocked' }, hits: { count: 3, mode: 'every' } },
      redact: { node: { id: 'h-redact-secrets', on: 'fires' }, when: { 'payload.tool_name': 'Bash' } },
    };
    const engine = createReplayer(compiled, trace.events);
    const stopsOf = (spec: BreakpointSpec) => {
      const b = compileBreakpoint(compiled, spec);
      if (!b.ok) throw new Error('did not compile');
      return engine.breakpointSteps(b.breakpoint);
    };
    const never = () => false;
    for (const from of [-1, 0, 5, 6, 1000, 2999, 3999]) {
      for (const [name, spec] of Object.entries(specs)) {
        const got = await s.nextStop([{ id: name, spec }], from, 1, never);
        expect(got, `${name} after ${from}`).toEqual({ cancelled: false, index: nextStop(stopsOf(spec), from), ids: nextStop(stopsOf(spec), from) < 0 ? [] : [name] });
      }
      // Several: the first stop of any, and every breakpoint that stops there.
      const list = Object.entries(specs).map(([id, spec]) => ({ id, spec }));
      const firsts = list.map(({ spec }) => nextStop(stopsOf(spec), from));
      const found = firsts.filter((x) => x >= 0);
      const index = found.length === 0 ? -1 : Math.min(...found);
      const got = await s.nextStop(list, from, 2, never);
      expect(got).toEqual({ cancelled: false, index, ids: index < 0 ? [] : list.filter((_, k) => firsts[k] === index).map((x) => x.id) });
    }
    // Answered at the stop: the next Bash call "Dangerous tools" lets through is 3 steps on, and a chunk or two of
    // 256 events are read for it, not the 4 left in the trace.
    const bash: BreakpointSpec = { node: { id: 'm-dangerous-tools', on: 'matches' }, when: { 'payload.tool_name': 'Bash' } };
    expect(nextStop(stopsOf(bash), 3000)).toBe(3003);
    const before = reads();
    expect(await s.nextStop([{ id: 'm', spec: bash }], 3000, 3, never)).toEqual({ cancelled: false, index: 3003, ids: ['m'] });
    expect(reads() - before).toBeLessThanOrEqual(2);
    // Cancelled between chunks: no answer; a search that finds nothing says how far it looked meanwhile.
    let asked = 0;
    expect(await s.nextStop([{ id: 'x', spec: { node: { id: 'm-prompt-injection', on: 'matches' }, when: { 'payload.n': 1 } } }], 0, 4, () => ++asked > 3)).toEqual({ cancelled: true });
    expect(events.some((e) => e.kind === 'searchProgress' && e.search === 2 && e.total === 4000)).toBe(true);
  });

  it('decisions are what the CLI prints (same engine, same rows)', async () => {
    const { s, compiled } = await open();
    expect(await s.decisions()).toEqual([...decideTrace(compiled, demoTrace().events)]);
  });

  it('compares a pinned version with the current one over the trace', async () => {
    const fixed = demoPipeline();
    const matcher = fixed.nodes.find((x) => x.id === 'm-prompt-injection')!;
    if (matcher.kind !== 'matcher') throw new Error('not a matcher');
    matcher.when = { 'payload.user_input': { regex: { pattern: 'ignore (all )?previous instructions', flags: 'i' } } };
    const { s, next } = await open(fixed);
    await s.compare(compile(demoPipeline()));
    const { diff } = await next('compare');
    expect(diff!.changed.map((c) => [c.index, c.before.outcome, c.after.outcome])).toEqual([[17, 'continue', 'block_action']]);
    expect(diff!.summary[0]).toBe('1 event continued before now blocks');
  });

  it('[R19] a label written to the stored trace reaches the open step and its rows without replaying anything', async () => {
    const { s, next, store, record, events } = await open();
    // Both background passes done: from here on, anything posted would be a replay.
    await next('timeline');
    await next('coverage');
    const before = await s.step(17);
    expect(readExpectation(before.step.event).kind).toBe('none');
    const posted = events.length;
    // Read once: the chunk and the step are in the worker's caches, as they are when the user labels a step.
    expect((await store.getRange(17, 18))[0]!.meta?.expect).toBeUndefined();
    await writeEventLabel(db, record.id, 17, { decision: 'block_action', note: 'stop the upload' });
    store.forget(17);
    s.relabel(17);
    const after = await s.step(17);
    expect(stepLabel(after.step)).toEqual({ kind: 'ok', expectation: { decision: 'block_action', note: 'stop the upload' }, failures: [`decision: expected block_action, got ${before.step.decision}`] });
    expect((await store.getRange(17, 18))[0]!.meta?.expect).toEqual({ decision: 'block_action', note: 'stop the upload' });
    // The same decision; no new timeline, progress or coverage was posted: nothing was replayed.
    expect([after.step.decision, after.step.reason, after.step.decided_by]).toEqual([before.step.decision, before.step.reason, before.step.decided_by]);
    expect(events.length).toBe(posted);
  });
});
