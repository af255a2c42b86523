// [E5][R5] The repeat window: a trace answers a repeated event id from its earlier dispatch only while that
// dispatch is among the latest REPEAT_WINDOW dispatched events; a farther repeat is dispatched again as a new
// event. Checked against a plain model (a list of every dispatch, searched in full), in the live session, the
// runtime, the straight replay, the random-access replayer and the pipeline diff.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRepeatSlots } from '../../../engine/replay/repeatWindow.ts';
import { REPEAT_WINDOW, createRepeatWindow, createReplayRun, createReplayer, createSession, createTraceDiff, replayTrace, type TraceEvent } from '../../../engine/index.ts';
import { createRuntime } from '../../../engine/runtime/index.ts';
import { block, compile, ev, event, fixedClock, handler, match, pipeline } from '../helpers.ts';

// rm is blocked, everything else goes on; every event counts in a budget, so the state shows each dispatch.
const DOC = pipeline(
  [ev('t', 'tool.before_call'), match('rm', { 'payload.tool_name': 'rm' }), handler('no-rm', block('no {{payload.tool_name}}')), handler('count', { type: 'budget', key: 'n', limit: 1_000_000 }, { order: 1 })],
  ['t->rm', 'rm->no-rm', 't->count'],
);
const W = REPEAT_WINDOW;

/**
 * A trace from a plan: each event is new, or repeats the id of the event `back` events before it — near
 * (a retry), at the edge of the window, or far past it — with a payload of its own (rm or ls).
 */
const planArb = fc.array(
  fc.record({
    back: fc.oneof(
      { weight: 4, arbitrary: fc.constant(0) },
      { weight: 2, arbitrary: fc.integer({ min: 1, max: 8 }) },
      { weight: 2, arbitrary: fc.integer({ min: W - 4, max: W + 4 }) },
      { weight: 1, arbitrary: fc.integer({ min: W + 5, max: 3 * W }) },
    ),
    rm: fc.boolean(),
  }),
  { minLength: W + 50, maxLength: 2 * W + 600 },
);

function traceOf(plan: readonly { back: number; rm: boolean }[]): TraceEvent[] {
  const ids: string[] = [];
  return plan.map(({ back, rm }, i) => {
    const id = back > 0 && back <= i ? ids[i - back]! : `e${i}`;
    ids.push(id);
    return event('tool.before_call', { tool_name: rm ? 'rm' : 'ls' }, { event_id: id, ts: '2026-01-01T00:00:00.000Z' });
  });
}

/** The rule read plainly: every dispatch in a list; a repeat when the id is among the last W of them. */
function model(events: readonly TraceEvent[]): { duplicate: boolean; decision: string; n: number }[] {
  const dispatched: { id: string; decision: string }[] = [];
  return events.map((e) => {
    const recent = dispatched.slice(-W);
    let earlier: { decision: string } | undefined;
    for (let j = recent.length - 1; j >= 0; j--) if (recent[j]!.id === e.event_id) (earlier ??= recent[j]);
    if (earlier) return { duplicate: true, decision: earlier.decision, n: dispatched.length };
    const decision = e.payload.tool_name === 'rm' ? 'block_action' : 'continue';
    dispatched.push({ id: e.event_id, decision });
    return { duplicate: false, decision, n: dispatched.length };
  });
}

describe('the repeat window [E5][R5]', () => {
  it('[E5] the window keeps at most its size, the newest dispatches, whatever the order of adds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', '__proto__', 'constructor'), { maxLength: 60 }), (limit, ids) => {
        const w = createRepeatWindow<number>(limit);
        const order: string[] = [];
        ids.forEach((id, i) => {
          if (w.get(id) === undefined) {
            w.add(id, i);
            order.push(id);
          }
          expect(w.size).toBeLessThanOrEqual(limit);
          // What is kept is exactly the newest `limit` dispatches (each id's latest).
          const newest = order.slice(-limit);
          for (const x of new Set(order)) expect(w.get(x) !== undefined, x).toBe(newest.includes(x));
        });
      }),
      { numRuns: 300 },
    );
    expect(() => createRepeatWindow(0)).toThrow(/positive integer/);
  });

  it('[E5] an id added again while kept becomes the newest, with its new value; the window is the newest `limit` ids by their latest add', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', '__proto__', 'constructor'), { maxLength: 80 }), (limit, ids) => {
        const w = createRepeatWindow<number>(limit);
        // The rule read plainly: every add in a list; an id is kept when its latest add is among the newest `limit` ids.
        const adds: { id: string; value: number }[] = [];
        ids.forEach((id, i) => {
          w.add(id, i);
          adds.push({ id, value: i });
          const latest = new Map<string, number>();
          for (const a of adds) {
            latest.delete(a.id);
            latest.set(a.id, a.value);
          }
          const keptIds = [...latest.keys()].slice(-limit);
          expect(w.size).toBe(keptIds.length);
          for (const [x, v] of latest) expect(w.get(x), x).toBe(keptIds.includes(x) ? v : undefined);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('[E5] a session answers a repeat from its dispatch within the window and dispatches a farther repeat again', () => {
    const c = compile(DOC);
    fc.assert(
      fc.property(planArb, (plan) => {
        const events = traceOf(plan);
        const expected = model(events);
        const s = createSession(c, { clock: fixedClock() });
        const live = events.map((e) => {
          const r = s.dispatch(e);
          return { duplicate: r.duplicate, decision: r.decision, n: (s.state.vars as { n?: number }).n ?? 0 };
        });
        expect(live).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('[E5][R5] replay, the replayer, the diff and the session answer every repeat alike', () => {
    const c = compile(DOC);
    fc.assert(
      fc.property(planArb, fc.integer({ min: 1, max: 700 }), (plan, K) => {
        const events = traceOf(plan);
        const s = createSession(c, { clock: fixedClock() });
        const live = events.map((e) => {
          const r = s.dispatch(e);
          return [r.duplicate, r.decision, r.reason, r.payload.tool_name];
        });
        const straight = replayTrace(c, events, { explain: false }).map((x) => [x.duplicate, x.decision, x.reason, x.payload_after.tool_name]);
        expect(straight).toEqual(live);
        const run = createReplayRun(c, { explain: false });
        expect(events.map((e) => run.push(e).duplicate)).toEqual(live.map((x) => x[0]));
        const r = createReplayer(c, events, { checkpointEvery: K });
        const t = r.timeline();
        expect(Array.from(t.duplicate_of, (d) => d >= 0)).toEqual(live.map((x) => x[0]));
        // Random access (a checkpoint carry, a repeat's earlier step recomputed) gives the straight step.
        for (const i of [events.length - 1, Math.floor(events.length / 2), W + 1]) expect([r.step(i).duplicate, r.step(i).decision, r.step(i).reason]).toEqual(live[i]!.slice(0, 3));
        const diff = createTraceDiff(c, c);
        for (const e of events) expect(diff.push(e)).toBeNull();
      }),
      { numRuns: 15 },
    );
  });

  it('[E5][P7] the runtime: a repeat within the window is answered from the first call, a far one is decided again', () => {
    const r = createRuntime(DOC, { clock: fixedClock() });
    if (!r.ok) throw new Error('pipeline refused');
    const trace = r.runtime.startTrace({ trace_id: 't' });
    expect(trace.emit('tool.before_call', { tool_name: 'rm' }, { event_id: 'first' })).toMatchObject({ decision: 'block_action', blocked: true, duplicate: false });
    // A retry right after: the recorded answer, although this payload is harmless.
    expect(trace.emit('tool.before_call', { tool_name: 'ls' }, { event_id: 'first' })).toMatchObject({ decision: 'block_action', blocked: true, duplicate: true });
    for (let i = 0; i < W; i++) trace.emit('tool.before_call', { tool_name: 'ls' }, { event_id: `x${i}` });
    // 1024 dispatches later the first one has left the window: the call is decided on its own payload.
    expect(trace.emit('tool.before_call', { tool_name: 'ls' }, { event_id: 'first' })).toMatchObject({ decision: 'continue', blocked: false, duplicate: false });
    // x0 left with it (the window holds x1 … x1023 and that new dispatch); x1 is still answered from its dispatch.
    expect(trace.emit('tool.before_call', { tool_name: 'rm' }, { event_id: 'x1' })).toMatchObject({ decision: 'continue', duplicate: true });
    // A far repeat of a harmless id carrying an rm is blocked by the pipeline, not let through on the old answer.
    expect(trace.emit('tool.before_call', { tool_name: 'rm' }, { event_id: 'x0' })).toMatchObject({ decision: 'block_action', blocked: true, duplicate: false });
  });
});

describe('the window\'s slots [E5]', () => {
  it('[E5] keeps the latest ids, each in a slot of its own below the limit, an id added again keeping its slot', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 60 }), (limit, ids) => {
        const slots = createRepeatSlots(limit);
        let model: string[] = []; // kept ids, oldest first
        const slotOf = new Map<string, number>();
        for (const n of ids) {
          const id = `e${n}`;
          const before = slots.slotOf(id);
          const s = slots.add(id);
          if (model.includes(id)) expect(s).toBe(before);
          model = [...model.filter((x) => x !== id), id].slice(-limit);
          slotOf.set(id, s);
          expect(slots.size).toBe(model.length);
          const kept = model.map((x) => slots.slotOf(x));
          expect(kept).toEqual(model.map((x) => slotOf.get(x)));
          expect(new Set(kept).size).toBe(kept.length);
          for (const k of kept) expect(k >= 0 && k < limit).toBe(true);
          for (let m = 0; m <= 12; m++) if (!model.includes(`e${m}`)) expect(slots.slotOf(`e${m}`)).toBe(-1);
        }
      }),
      { numRuns: 300 },
    );
  });
});
