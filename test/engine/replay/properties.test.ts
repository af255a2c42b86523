import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blocksAction, compilePipeline, createAsyncReplayer, createReplayer, createSession, diffPipelines, replayTrace, whyNotFired, type ReplayStep } from '../../../engine/index.ts';
import { movesArb, pipelineArb, traceArb } from './arbitraries.ts';

/** JSON text with sorted keys: payloads equal as JSON compare equal whatever their key order. */
const canonical = (v: unknown): string => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : 1))) : x));

const compiled = (doc: unknown) => {
  const r = compilePipeline(doc);
  return r.ok ? r.compiled : null;
};

describe('replay properties', () => {
  it('the generators exercise the interesting cases', () => {
    const seen = new Map<string, number>();
    const bump = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1);
    for (const [doc, events] of fc.sample(fc.tuple(pipelineArb, traceArb), { numRuns: 400, seed: 7 })) {
      const c = compiled(doc);
      if (!c) continue;
      bump('valid');
      for (const s of replayTrace(c, events, { explain: false })) {
        if (s.duplicate) bump('duplicate');
        if (s.not_reached) bump('not_reached');
        if (s.divergent) bump('divergent');
        if (s.counterfactual) bump('counterfactual');
        if (s.outcome === 'block_action') bump('block');
        if (s.state_after !== s.state_before) bump('state');
        if (s.payload_after !== s.payload_before) bump('rewrite');
      }
    }
    expect(seen.get('valid')).toBeGreaterThan(300);
    for (const k of ['duplicate', 'not_reached', 'divergent', 'counterfactual', 'block', 'state', 'rewrite']) expect(seen.get(k) ?? 0, `${k} in ${JSON.stringify([...seen])}`).toBeGreaterThan(20);
  });

  it('[R3] replay is deterministic: the same steps twice, also with a separately compiled pipeline', () => {
    fc.assert(
      fc.property(pipelineArb, traceArb, (doc, events) => {
        const c = compiled(doc);
        if (!c) return;
        const first = replayTrace(c, events);
        expect(replayTrace(c, events)).toEqual(first);
        expect(replayTrace(compiled(doc)!, events)).toEqual(first);
      }),
      { numRuns: 200 },
    );
  });

  it('[R9] stepping forward and back and jumping gives the same steps as one straight replay', () => {
    fc.assert(
      fc.property(pipelineArb, traceArb, movesArb, fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 4 }), (doc, events, moves, K, cacheSize) => {
        const c = compiled(doc);
        if (!c) return;
        const straight = replayTrace(c, events);
        const r = createReplayer(c, events, { checkpointEvery: K, cacheSize });
        let pos = 0;
        for (const m of moves) {
          let got: ReplayStep | null;
          if (m.op === 'forward') {
            got = r.forward();
            if (pos + 1 < events.length) pos++;
            else expect(got).toBeNull();
          } else if (m.op === 'back') {
            got = r.back();
            if (pos > 0) pos--;
            else expect(got).toBeNull();
          } else {
            const i = m.at % events.length;
            got = m.op === 'jump' ? r.jump(i) : r.step(i);
            if (m.op === 'jump') pos = i;
            expect(got).toEqual(straight[i]);
            continue;
          }
          if (got) expect(got).toEqual(straight[pos]);
          expect(r.position).toBe(pos);
        }
      }),
      { numRuns: 250 },
    );
  });

  it('[R9] the async replayer gives the same steps as the straight replay', async () => {
    await fc.assert(
      fc.asyncProperty(pipelineArb, traceArb, fc.integer({ min: 1, max: 4 }), fc.array(fc.nat(20), { minLength: 1, maxLength: 6 }), async (doc, events, K, jumps) => {
        const c = compiled(doc);
        if (!c) return;
        const straight = replayTrace(c, events);
        const r = createAsyncReplayer(c, { count: events.length, getRange: async (a, b) => events.slice(a, b) }, { checkpointEvery: K });
        for (const j of jumps) expect(await r.step(j % events.length)).toEqual(straight[j % events.length]);
      }),
      { numRuns: 80 },
    );
  });

  it('[R4][R5] replay answers every event as the engine\'s session does (decision, duplicate, after TERMINATE)', () => {
    fc.assert(
      fc.property(pipelineArb, traceArb, (doc, events) => {
        const c = compiled(doc);
        if (!c) return;
        const steps = replayTrace(c, events, { explain: false });
        const holder = { t: 0 };
        const session = createSession(c, { clock: { now: () => holder.t } });
        // [R15] an ASK is answered by its recording (the first event of a repeated id), else denied.
        const answers = new Map<string, string | undefined>();
        events.forEach((e, i) => {
          holder.t = steps[i]!.now;
          const r = session.dispatch(e);
          const s = steps[i]!;
          if (!answers.has(e.event_id)) answers.set(e.event_id, e.recorded?.decision === 'ask' ? e.recorded.approval?.answer : undefined);
          const asked = r.decision === 'ask' && r.mode === 'sync' && !r.after_terminate;
          const blocked = asked ? !['allow', 'deferred'].includes(answers.get(e.event_id) ?? 'deny') : r.blocked || r.after_terminate;
          expect([s.decision, s.reason, s.decided_by, s.duplicate, s.not_reached, s.blocked]).toEqual([r.decision, r.reason, r.decided_by, r.duplicate, r.after_terminate, blocked]);
          expect(s.approval?.answer ?? null).toBe(asked ? (answers.get(e.event_id) ?? 'deny') : null);
          if (!s.not_reached) expect(s.payload_after).toEqual(r.payload);
          if (!s.duplicate && !s.not_reached) expect(s.state_after).toEqual(r.state);
        });
      }),
      { numRuns: 250 },
    );
  });

  it('[R7] counterfactual starts after the first replayed block of an action that ran, and never stops', () => {
    fc.assert(
      fc.property(pipelineArb, traceArb, (doc, events) => {
        const c = compiled(doc);
        if (!c) return;
        const steps = replayTrace(c, events, { explain: false });
        // A recorded ASK blocked the action unless its recorded answer let it run [R7][R15].
        const blockedWhenRecorded = (r: NonNullable<(typeof steps)[number]['recorded']>) =>
          blocksAction(r.decision) || (r.decision === 'ask' && !['allow', 'deferred'].includes(r.approval?.answer ?? 'deny'));
        const cause = steps.findIndex((s) => !s.not_reached && s.blocked && !(s.recorded && blockedWhenRecorded(s.recorded)));
        steps.forEach((s, i) => {
          expect(s.counterfactual).toBe(cause >= 0 && i > cause);
          expect(s.counterfactual_since).toBe(s.counterfactual ? cause : null);
          expect(s.divergent).toBe(!s.not_reached && s.recorded !== null && s.recorded.decision !== s.decision);
        });
      }),
      { numRuns: 250 },
    );
  });

  it('[R10] the timeline agrees with the straight replay on every step', () => {
    fc.assert(
      fc.property(pipelineArb, traceArb, fc.integer({ min: 1, max: 5 }), (doc, events, K) => {
        const c = compiled(doc);
        if (!c) return;
        const steps = replayTrace(c, events, { explain: false });
        const t = createReplayer(c, events, { checkpointEvery: K }).timeline();
        // The explain pass run first fills the timeline itself, and the coverage does not depend on the order.
        const explainedFirst = createReplayer(c, events, { checkpointEvery: K });
        const coverage = explainedFirst.coverage();
        expect(explainedFirst.timeline()).toEqual(t);
        const fastFirst = createReplayer(c, events, { checkpointEvery: K });
        fastFirst.timeline();
        expect(fastFirst.coverage()).toEqual(coverage);
        steps.forEach((s, i) => {
          expect(t.outcome[i]).toBe(['continue', 'stop_propagation', 'ask', 'block_action', 'terminate', 'not_reached'].indexOf(s.outcome));
          expect(t.duplicate_of[i]).toBe(s.duplicate_of ?? -1);
          expect(t.decided_by[i]).toBe(s.decided_by === null ? -1 : t.handler_ids.indexOf(s.decided_by));
        });
      }),
      { numRuns: 150 },
    );
  });

  it('[R14] the answer follows the explanation: fired exactly when the handler\'s status is fired', () => {
    fc.assert(
      fc.property(pipelineArb, traceArb, (doc, events) => {
        const c = compiled(doc);
        if (!c) return;
        for (const s of replayTrace(c, events)) {
          for (const h of c.handlers) {
            const a = whyNotFired(c, h.id, s);
            expect(a.sentence.length).toBeGreaterThan(10);
            if (!s.explanation) {
              expect(a.reason.kind).toBe(s.duplicate ? 'duplicate' : 'run_ended');
              continue;
            }
            const status = s.explanation.handlers.find((x) => x.handler_id === h.id)!.status;
            expect(a.fired).toBe(status === 'fired');
            expect(a.reason.kind).toBe(status);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('[R12] a pipeline diffed with itself changes nothing; with another, it lists exactly the differing events', () => {
    fc.assert(
      fc.property(pipelineArb, pipelineArb, traceArb, (docA, docB, events) => {
        const a = compiled(docA);
        const b = compiled(docB);
        if (!a || !b) return;
        expect(diffPipelines(a, a, events).changed_count).toBe(0);
        const ra = replayTrace(a, events, { explain: false });
        const rb = replayTrace(b, events, { explain: false });
        const expected = ra
          .filter((s, i) => {
            const t = rb[i]!;
            return s.outcome !== t.outcome || s.reason !== t.reason || s.decided_by !== t.decided_by || canonical(s.payload_after) !== canonical(t.payload_after) || JSON.stringify(s.context) !== JSON.stringify(t.context);
          })
          .map((s) => s.index);
        const d = diffPipelines(a, b, events);
        expect(d.changed.map((x) => x.index)).toEqual(expected);
        expect(d.transitions.reduce((n, t) => n + t.count, 0)).toBe(ra.filter((s, i) => s.outcome !== rb[i]!.outcome).length);
      }),
      { numRuns: 150 },
    );
  });
});
