import { describe, expect, it } from 'vitest';
import { createAsyncReplayer, createReplayer, NO_RECORD, replayTrace, STEP_FLAG, type TraceEvent } from '../../../engine/index.ts';
import { audit, block, compile, ev, handler, match, pipeline, terminate } from '../helpers.ts';
import { te } from './helpers.ts';

/** Blocks rm, terminates on kill, counts calls in state, logs everything. */
const policy = () =>
  compile(
    pipeline(
      [
        ev('before', 'tool.before_call'),
        ev('all', '*'),
        match('rm', { 'payload.tool_name': 'rm' }),
        match('mkill', { 'payload.kill': true }),
        handler('block-rm', block('no rm'), { order: 1 }),
        handler('kill', terminate('killed'), { order: 2 }),
        handler('count', { type: 'budget', key: 'n', limit: 1000 }, { order: 3 }),
        handler('log', audit(), { order: 9 }),
      ],
      ['before->rm', 'rm->block-rm', 'all->mkill', 'mkill->kill', 'before->count', 'all->log'],
    ),
  );

/** 40 events: tool calls with rm every 7th, duplicates of earlier ids, a kill at 33, recorded decisions on some. */
function trace(): TraceEvent[] {
  const out: TraceEvent[] = [];
  for (let i = 0; i < 40; i++) {
    const type = i % 5 === 4 ? 'tool.after_call' : 'tool.before_call';
    const payload = { tool_name: i % 7 === 3 ? 'rm' : 'ls', ...(i === 33 ? { kill: true } : {}) };
    const id = i % 11 === 10 ? `e${i - 9}` : `e${i}`; // repeats an id from nine events before
    out.push(te(id, type, payload, { at: i, ...(i % 3 === 0 ? { recorded: { decision: 'continue' as const } } : {}) }));
  }
  return out;
}

describe('replayer (random access)', () => {
  it('[R9] any step, asked in any order, equals the straight replay\'s step', () => {
    const c = policy();
    const events = trace();
    const straight = replayTrace(c, events);
    const r = createReplayer(c, events, { checkpointEvery: 4, cacheSize: 1 });
    const order = [39, 0, 17, 16, 18, 3, 33, 34, 10, 21, 20, 2, 38, 1];
    for (const i of order) expect(r.step(i)).toEqual(straight[i]);
    for (let i = 0; i < events.length; i++) expect(r.step(i)).toEqual(straight[i]);
    expect(straight.some((s) => s.duplicate) && straight.some((s) => s.not_reached) && straight.some((s) => s.counterfactual)).toBe(true);
  });

  it('[R9] the cursor goes forward, back and jumps; it stops at the ends', () => {
    const events = trace();
    const straight = replayTrace(policy(), events);
    const r = createReplayer(policy(), events, { checkpointEvery: 8 });
    expect(r.position).toBe(0);
    expect(r.current()).toEqual(straight[0]);
    expect(r.back()).toBeNull();
    expect(r.forward()).toEqual(straight[1]);
    expect(r.jump(39)).toEqual(straight[39]);
    expect(r.forward()).toBeNull();
    expect(r.position).toBe(39);
    expect(r.back()).toEqual(straight[38]);
    expect(() => r.jump(40)).toThrow('step 40 is out of range: the trace has 40 events (0..39)');
    expect(() => r.jump(1.5)).toThrow(RangeError);
    expect(r.position).toBe(38);
    const empty = createReplayer(policy(), []);
    expect(empty.current()).toBeNull();
    expect(empty.forward()).toBeNull();
    expect(empty.timeline().count).toBe(0);
    expect(() => createReplayer(policy(), events, { checkpointEvery: 0 })).toThrow(/positive integer/);
  });

  it('[R9] work is lazy and bounded: a jump reads at most K events past the fast pass', () => {
    const events = trace();
    const reads: number[] = [];
    const r = createReplayer(policy(), { count: events.length, get: (i) => (reads.push(i), events[i]!) }, { checkpointEvery: 8, cacheSize: 1 });
    r.step(5);
    expect(r.computed).toBe(6);
    expect(Math.max(...reads)).toBe(5);
    r.timeline();
    expect(r.computed).toBe(40);
    reads.length = 0;
    r.step(30); // checkpoint at 24: replays 24..29 fast, explains 30
    expect(reads).toEqual([24, 25, 26, 27, 28, 29, 30]);
    reads.length = 0;
    r.step(31); // going forward reuses the carry after 30
    expect(reads).toEqual([31]);
    reads.length = 0;
    r.step(21); // a duplicate of step 12: the earlier step is replayed from its own checkpoint too
    expect(events[21]!.event_id).toBe(events[12]!.event_id);
    expect(reads).toEqual([16, 17, 18, 19, 20, 21, 8, 9, 10, 11, 12]);
  });

  it('[R10] the timeline holds every step\'s outcome, flags, deciding handler, recorded decision and type', () => {
    const c = policy();
    const events = trace();
    const straight = replayTrace(c, events, { explain: false });
    const t = createReplayer(c, events).timeline();
    expect(t.count).toBe(40);
    expect(t.handler_ids).toEqual(['block-rm', 'kill', 'count', 'log']);
    expect(t.types).toEqual(['tool.before_call', 'tool.after_call']);
    straight.forEach((s, i) => {
      expect(['continue', 'stop_propagation', 'ask', 'block_action', 'terminate', 'not_reached'][t.outcome[i]!]).toBe(s.outcome);
      expect(t.decided_by[i]).toBe(s.decided_by === null ? -1 : t.handler_ids.indexOf(s.decided_by));
      expect(t.duplicate_of[i]).toBe(s.duplicate_of ?? -1);
      expect(t.recorded[i]).toBe(s.recorded ? 0 : NO_RECORD);
      expect(t.types[t.type[i]!]).toBe(s.event.type);
      expect(!!(t.flags[i]! & STEP_FLAG.duplicate)).toBe(s.duplicate);
      expect(!!(t.flags[i]! & STEP_FLAG.not_reached)).toBe(s.not_reached);
      expect(!!(t.flags[i]! & STEP_FLAG.divergent)).toBe(s.divergent);
      expect(!!(t.flags[i]! & STEP_FLAG.counterfactual)).toBe(s.counterfactual);
      expect(!!(t.flags[i]! & STEP_FLAG.state_changed)).toBe(s.state_after !== s.state_before);
    });
    expect(t.ended_at).toBe(33);
    expect(t.counterfactual_since).toBe(straight.find((s) => s.counterfactual)!.counterfactual_since);
  });

  it('[R11] find: next and previous blocked step, divergence, type, deciding handler, firing handler', () => {
    const c = policy();
    const events = trace();
    const straight = replayTrace(c, events);
    const r = createReplayer(c, events);
    const blocked = straight.filter((s) => s.outcome === 'block_action' || s.outcome === 'terminate').map((s) => s.index);
    expect(blocked).toEqual([3, 17, 31, 33]); // rm at 3, 10, 17, 24, 31, 38: 10 repeats step 1, 24 is an after_call, 38 comes after the kill
    expect(r.find({ kind: 'blocked' })).toBe(3);
    r.jump(3);
    expect(r.find({ kind: 'blocked' })).toBe(17);
    expect(r.find({ kind: 'blocked' }, { direction: 'backward' })).toBe(-1);
    expect(r.find({ kind: 'blocked' }, { from: 24, direction: 'backward' })).toBe(17);
    expect(r.find({ kind: 'outcome', outcome: 'terminate' }, { from: -1 })).toBe(33);
    expect(r.find({ kind: 'outcome', outcome: 'not_reached' }, { from: -1 })).toBe(34);
    expect(r.find({ kind: 'divergent' }, { from: -1 })).toBe(straight.find((s) => s.divergent)!.index);
    expect(r.find({ kind: 'event_type', type: 'tool.after_call' }, { from: -1 })).toBe(4);
    expect(r.find({ kind: 'event_type', type: 'nope' }, { from: -1 })).toBe(-1);
    expect(r.find({ kind: 'decided_by', handler_id: 'kill' }, { from: -1 })).toBe(33);
    expect(r.find({ kind: 'duplicate' }, { from: -1 })).toBe(10);
    expect(r.analyzed).toBe(0);
    expect(r.find({ kind: 'fired', handler_id: 'count' }, { from: -1 })).toBe(0);
    expect(r.find({ kind: 'fired', handler_id: 'block-rm' }, { from: 3 })).toBe(17);
    expect(r.find({ kind: 'fired', handler_id: 'unknown' }, { from: -1 })).toBe(-1);
    expect([...r.stepsWhere({ kind: 'blocked' })]).toEqual(blocked);
    const firedRm = straight.filter((s) => s.explanation?.handlers.some((h) => h.handler_id === 'block-rm' && h.status === 'fired')).map((s) => s.index);
    expect([...r.stepsWhere({ kind: 'fired', handler_id: 'block-rm' })]).toEqual(firedRm);
  });

  it('[R9] the async replayer gives the same steps, fetching one chunk per jump', async () => {
    const c = policy();
    const events = trace();
    const straight = replayTrace(c, events);
    const fetched: [number, number][] = [];
    const source = {
      count: events.length,
      getRange: async (a: number, b: number) => {
        fetched.push([a, b]);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return events.slice(a, b);
      },
    };
    const r = createAsyncReplayer(c, source, { checkpointEvery: 8 });
    expect(await r.step(2)).toEqual(straight[2]);
    expect(fetched).toEqual([[0, 8]]);
    const progress: number[] = [];
    await r.timeline({ onProgress: (done) => progress.push(done) });
    expect(progress).toEqual([8, 16, 24, 32, 40]);
    fetched.length = 0;
    expect(await r.jump(37)).toEqual(straight[37]);
    expect(await r.back()).toEqual(straight[36]);
    expect(fetched).toEqual([]); // chunk 32..40 was still cached from the timeline pass
    for (const i of [20, 5, 39, 11]) expect(await r.step(i)).toEqual(straight[i]);
    expect(await r.find({ kind: 'blocked' }, { from: 20 })).toBe(31);
    expect((await r.coverage()).fired).toEqual(createReplayer(c, events).coverage().fired);
    await expect(r.step(40)).rejects.toThrow(/out of range/);
  });

  it('[R9] async requests may overlap: a jump while the timeline pass runs gets the right step', async () => {
    const c = policy();
    const events = trace();
    const straight = replayTrace(c, events);
    const source = { count: events.length, getRange: async (a: number, b: number) => (await new Promise((resolve) => setTimeout(resolve, 2)), events.slice(a, b)) };
    const r = createAsyncReplayer(c, source, { checkpointEvery: 4, cachedChunks: 4 });
    const pass = r.timeline();
    const steps = await Promise.all([r.step(37), r.step(3), r.step(21), r.step(14)]);
    expect(steps).toEqual([straight[37], straight[3], straight[21], straight[14]]);
    expect((await pass).count).toBe(40);
    expect(await r.step(38)).toEqual(straight[38]);
  });

  it('[R9] an async pass can be cancelled and resumed; a short chunk is reported', async () => {
    const events = trace();
    const signal = { aborted: false };
    const r = createAsyncReplayer(policy(), { count: 40, getRange: async (a, b) => events.slice(a, b) }, { checkpointEvery: 8 });
    const pass = r.timeline({ signal, onProgress: (done) => (signal.aborted = done >= 16) });
    await expect(pass).rejects.toMatchObject({ name: 'AbortError' });
    expect(r.computed).toBe(16);
    expect((await r.timeline()).count).toBe(40);
    const broken = createAsyncReplayer(policy(), { count: 40, getRange: async (a) => events.slice(a, a + 3) }, { checkpointEvery: 8 });
    await expect(broken.step(0)).rejects.toThrow('event source returned 3 events for [0, 8), expected 8');
  });
});
