import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  compileBreakpoint, compilePipeline, compileStepFilter, createAsyncReplayer, createReplayer, stopFinder,
  type StepQuery, type TraceEvent,
} from '../../../engine/index.ts';
import { block, compile, ev, handler, match, pipeline } from '../helpers.ts';
import { pipelineArb, traceArb } from './arbitraries.ts';
import { te } from './helpers.ts';

/** Blocks rm; 10 calls, rm at 2 and 7, a secret-looking key at 4 and 7. */
function fixture() {
  const c = compile(pipeline([ev('before', 'tool.before_call'), match('rm', { 'payload.tool_name': 'rm' }), handler('block-rm', block('no rm'))], ['before->rm', 'rm->block-rm']));
  const events: TraceEvent[] = [];
  for (let i = 0; i < 10; i++) events.push(te(`e${i}`, 'tool.before_call', { tool_name: i === 2 || i === 7 ? 'rm' : 'ls', ...(i === 4 || i === 7 ? { key: 'SK-proj-1' } : {}) }, { at: i }));
  return { c, events };
}

const QUERIES: StepQuery[] = [
  { kind: 'blocked' }, { kind: 'divergent' }, { kind: 'counterfactual' }, { kind: 'duplicate' }, { kind: 'error' },
  { kind: 'outcome', outcome: 'continue' }, { kind: 'outcome', outcome: 'block_action' }, { kind: 'event_type', type: 'tool.before_call' },
  { kind: 'decided_by', handler_id: 'h0' }, { kind: 'fired', handler_id: 'h1' },
];
const queryArb = fc.constantFrom(...QUERIES);
const TEXTS = ['', ' ', 'a', 'B', 'bash', '"f0"', ':1', 'null', 'TRUE', ' f1 '];

describe('the timeline filter [R20]', () => {
  it('[R20] a text is found in the payload as recorded, in any case, trimmed; with a step search, both must hold', () => {
    const { c, events } = fixture();
    const r = createReplayer(c, events, { checkpointEvery: 3 });
    const f = (queries: StepQuery[], text: string) => {
      const cf = compileStepFilter({ queries, text });
      return cf && r.filterHits(cf);
    };
    expect(f([], '  sk-PROJ ')).toEqual([4, 7]);
    expect(f([{ kind: 'blocked' }], 'sk-proj')).toEqual([7]);
    expect(f([{ kind: 'blocked' }], '')).toEqual([2, 7]);
    // Nothing asked: the filter keeps every step, and there is nothing to search.
    expect(f([], '   ')).toBeNull();
  });

  it('[R20] a text alone reads the events and neither pass', async () => {
    const { c, events } = fixture();
    const a = createAsyncReplayer(c, { count: events.length, getRange: async (s, e) => events.slice(s, e) }, { checkpointEvery: 4 });
    const cf = compileStepFilter({ queries: [], text: 'rm' })!;
    expect([...(await a.filterChunk(cf, 0)), ...(await a.filterChunk(cf, 1)), ...(await a.filterChunk(cf, 2))]).toEqual([2, 7]);
    expect(a.computed).toBe(0);
    expect(a.analyzed).toBe(0);
  });

  it('[R20] searched in any stretches, sync or async, the filter keeps the steps every search matches whose payload holds the text', async () => {
    await fc.assert(
      fc.asyncProperty(pipelineArb, traceArb, fc.array(queryArb, { maxLength: 2 }), fc.constantFrom(...TEXTS), fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1 }), fc.integer({ min: 1, max: 5 }), async (doc, events, queries, text, cuts, K) => {
        const r = compilePipeline(doc);
        if (!r.ok) return;
        const cf = compileStepFilter({ queries, text });
        if (queries.length === 0 && text.trim() === '') {
          expect(cf).toBeNull();
          return;
        }
        // The oracle: each search over the whole replay [R11], and the text looked for in the event as recorded.
        const whole = createReplayer(r.compiled, events);
        const sets = queries.map((q) => new Set(whole.stepsWhere(q)));
        const needle = text.trim().toLowerCase();
        const want = events.map((_, i) => i).filter((i) => sets.every((s) => s.has(i)) && (needle === '' || JSON.stringify(events[i]!.payload).toLowerCase().includes(needle)));
        const stretched = createReplayer(r.compiled, events, { checkpointEvery: K });
        const got: number[] = [];
        for (let at = 0, k = 0; at < events.length; k++) {
          const size = cuts[k % cuts.length]!;
          got.push(...stretched.filterHits(cf!, at, at + size));
          at += size;
        }
        expect(got).toEqual(want);
        const a = createAsyncReplayer(r.compiled, { count: events.length, getRange: async (s, e) => events.slice(s, e) }, { checkpointEvery: K });
        const chunked: number[] = [];
        for (let c = 0; c * K < events.length; c++) chunked.push(...(await a.filterChunk(cf!, c)));
        expect(chunked).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });
});

describe('next and previous match [R11]', () => {
  it('[R11] the next match is the first stop of a breakpoint on the search, found a stretch at a time; the previous is the nearest match before', () => {
    fc.assert(
      fc.property(pipelineArb, traceArb, queryArb, fc.integer({ min: -1, max: 15 }), fc.integer({ min: 1, max: 5 }), (doc, events, q, from, K) => {
        const r = compilePipeline(doc);
        if (!r.ok) return;
        const all = [...createReplayer(r.compiled, events).stepsWhere(q)];
        const b = compileBreakpoint(r.compiled, { step: q });
        expect(b.ok).toBe(true);
        if (!b.ok) return;
        const replayer = createReplayer(r.compiled, events, { checkpointEvery: K });
        const f = stopFinder(b.breakpoint.hits, from);
        let got: number | undefined;
        for (let at = Math.floor(f.start / K) * K; got === undefined && at < events.length; at += K) got = f.push(replayer.breakpointHits(b.breakpoint, at, at + K));
        expect(got ?? -1).toBe(all.find((i) => i > from) ?? -1);
        expect(replayer.find(q, { from })).toBe(all.find((i) => i > from) ?? -1);
        // Backward from a fresh replayer: only the steps before `from` are replayed.
        const back = createReplayer(r.compiled, events, { checkpointEvery: K });
        expect(back.find(q, { from, direction: 'backward' })).toBe([...all].reverse().find((i) => i < from) ?? -1);
        expect(back.computed).toBeLessThanOrEqual(Math.max(0, Math.min(from, events.length)));
      }),
      { numRuns: 300 },
    );
  });
});
