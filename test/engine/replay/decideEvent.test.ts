// The lean step (ReplayRun.decide, what `replay --json` prints from) and the whole step (push) are one set of rules
// (decideEvent.ts) seen two ways: replayed both ways over random pipelines and traces, every step, line and check
// must be the same.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compilePipeline, createReplayRun, type TraceEvent } from '../../../engine/index.ts';
import { decisionLine } from '../../../engine/runtime/decideTrace.ts';
import { createReplayCheck, UNRECORDED_STEP } from '../../../engine/replay/replayCheck.ts';
import { pipelineArb, traceArb } from './arbitraries.ts';

const VERSION = 'sha256:this';

/** Some recorded decisions name a pipeline version, this one or another [R17]; some name a handler and a reason [R6]. */
const versioned = (events: TraceEvent[], picks: number[]): TraceEvent[] =>
  events.map((e, i) => {
    const k = picks[i % picks.length]!;
    if (!e.recorded || k === 0) return e;
    return { ...e, recorded: { ...e.recorded, ...(k === 1 ? { pipeline: VERSION } : k === 2 ? { pipeline: 'sha256:other' } : { decided_by: `h${k % 3}`, reason: k % 2 ? 'end' : '' }) } };
  });

describe('the lean step and the whole step [R1]-[R7][R15][R17][P10]', () => {
  it('[R1][R5][R7][P10] decide gives the line and, expanded, the step that push gives, on every step of random replays', () => {
    fc.assert(
      fc.property(pipelineArb, traceArb, fc.array(fc.nat(5), { minLength: 1, maxLength: 8 }), fc.constantFrom(VERSION, null), (doc, raw, picks, version) => {
        const c = compilePipeline(doc);
        if (!c.ok) return;
        const events = versioned(raw, picks);
        const whole = createReplayRun(c.compiled, { explain: false, pipelineVersion: version });
        const lean = createReplayRun(c.compiled, { explain: false, pipelineVersion: version });
        for (const e of events) {
          const step = whole.push(e);
          const core = lean.decide(e);
          expect(decisionLine(core)).toBe(decisionLine(step));
          expect(lean.expand(core)).toEqual(step);
          expect(lean.carry).toEqual(whole.carry);
          expect(lean.count).toBe(whole.count);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('[R16][R17] the check over lean steps (whole steps only where a decision is recorded) is the check over whole steps', () => {
    fc.assert(
      fc.property(pipelineArb, traceArb, fc.array(fc.nat(5), { minLength: 1, maxLength: 8 }), fc.constantFrom('own' as const, 'all' as const), (doc, raw, picks, scope) => {
        const c = compilePipeline(doc);
        if (!c.ok) return;
        const events = versioned(raw, picks);
        const whole = createReplayRun(c.compiled, { explain: false, pipelineVersion: VERSION });
        const lean = createReplayRun(c.compiled, { explain: false, pipelineVersion: VERSION });
        const a = createReplayCheck(VERSION, scope, 3);
        const b = createReplayCheck(VERSION, scope, 3);
        for (const e of events) {
          const m = a.add(whole.push(e));
          const core = lean.decide(e);
          expect(b.add(core.recorded === null ? UNRECORDED_STEP : lean.expand(core))).toEqual(m);
        }
        expect(b.tally).toEqual(a.tally);
      }),
      { numRuns: 300 },
    );
  });

  it('[R5] a repeat past a rewrite answers with the earlier final payload on the lean route too', () => {
    const c = compilePipeline({
      format: 'hookwire.pipeline', version: 1, name: 'p',
      nodes: [{ id: 'e', kind: 'event', pattern: '*' }, { id: 'h', kind: 'handler', name: 'h', order: 0, action: { type: 'rewrite', ops: [{ op: 'set', path: 'payload.n', value: 1 }] } }],
      wires: [{ from: 'e', to: 'h' }],
    });
    if (!c.ok) throw new Error(JSON.stringify(c.problems));
    const at = (id: string, n: number, sent: string): TraceEvent => ({ event_id: id, trace_id: 't', agent_id: 'a', type: 'tool.before_call', ts: '2026-01-01T00:00:00.000Z', payload: { n, sent } });
    const run = createReplayRun(c.compiled, { explain: false });
    const lines = [at('a', 0, 'first'), at('b', 0, 'other'), at('a', 7, 'again')].map((e) => decisionLine(run.decide(e)));
    expect(lines[2]).toBe('{"event_id":"a","type":"tool.before_call","decision":"continue","reason":"","decided_by":null,"payload":{"n":1,"sent":"first"}}\n');
  });
});
