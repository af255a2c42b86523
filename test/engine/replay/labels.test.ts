import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECISIONS, type Decision, type JsonObject, type TraceEvent } from '../../../engine/index.ts';
import { parseExpectation, readExpectation, stepLabel, withExpectation, type Expectation } from '../../../engine/replay/expectation.ts';
import { replaySteps } from '../../../engine/replay/replaySteps.ts';
import { createFileBacktest } from '../../../engine/replay/backtest.ts';
import { runGoldenTrace } from '../../../engine/runtime/goldenTest.ts';
import { block, compile, ev, handler, match, pipeline } from '../helpers.ts';
import { te } from './helpers.ts';

// A label the app writes on a step is the event's `meta.expect` [B7], the golden test's format [P11]: written by
// withExpectation, read back by readExpectation, checked by the one check `hookwire test` and backtest use.
const expectationArb: fc.Arbitrary<Expectation> = fc.record(
  { decision: fc.constantFrom(...(DECISIONS as Decision[])), note: fc.string(), reason_includes: fc.string(), decided_by: fc.option(fc.string(), { nil: null }) },
  { requiredKeys: ['decision'] },
);
// Other meta a trace carries, with keys that are plain names everywhere (`__proto__`, `constructor`).
const metaArb: fc.Arbitrary<JsonObject> = fc
  .array(fc.tuple(fc.constantFrom('user_id', '__proto__', 'constructor', 'agent', 'x'), fc.oneof(fc.string(), fc.integer())), { maxLength: 4 })
  .map((entries) => Object.fromEntries(entries) as JsonObject);

const withMeta = (meta: JsonObject | null): TraceEvent => {
  const e = te('e1', 'tool.before_call', { tool_name: 'rm' });
  return meta === null ? e : { ...e, meta };
};
const otherMeta = (e: TraceEvent) => Object.entries(e.meta ?? {}).filter(([k]) => k !== 'expect');

describe('labels [B7][P11]', () => {
  it('[B7] a label written reads back as written, and every other meta field (even __proto__) is kept', () => {
    fc.assert(
      fc.property(fc.option(metaArb, { nil: null }), expectationArb, (meta, x) => {
        const e = withMeta(meta);
        const labelled = withExpectation(e, x);
        expect(readExpectation(labelled)).toEqual({ kind: 'ok', expectation: x });
        expect(otherMeta(labelled)).toEqual(otherMeta(e));
        expect(Object.getPrototypeOf(labelled.meta)).toBe(Object.prototype);
        // The event is not changed in place.
        expect(readExpectation(e).kind).toBe(meta && Object.hasOwn(meta, 'expect') ? 'ok' : 'none');
      }),
    );
  });

  it('[B7] removing a label leaves no label and the rest of meta; an empty meta goes away', () => {
    fc.assert(
      fc.property(fc.option(metaArb, { nil: null }), expectationArb, (meta, x) => {
        const cleared = withExpectation(withExpectation(withMeta(meta), x), null);
        expect(readExpectation(cleared)).toEqual({ kind: 'none' });
        expect(otherMeta(cleared)).toEqual(otherMeta(withMeta(meta)));
        if (otherMeta(cleared).length === 0) expect('meta' in cleared).toBe(false);
      }),
    );
  });

  it('[B7] a label that would not read back is refused, not stored', () => {
    expect(() => withExpectation(withMeta(null), { decision: 'block' } as unknown as Expectation)).toThrow(/not a label: decision/);
    expect(() => withExpectation(withMeta(null), { decision: 'continue', typo: 1 } as unknown as Expectation)).toThrow(/not a label/);
    expect(parseExpectation({ decision: 'ask', note: 'a person decides' })).toEqual({ ok: true, expectation: { decision: 'ask', note: 'a person decides' } });
    expect(parseExpectation('block_action')).toMatchObject({ ok: false });
  });

  it('[B7][P11] a step label is checked as hookwire test checks it: met, not met (with the same lines), unreadable', () => {
    const p = compile(pipeline([ev('before', 'tool.before_call'), match('rm', { 'payload.tool_name': 'rm' }), handler('no-rm', block('no rm'))], ['before->rm', 'rm->no-rm']));
    const events = [
      withExpectation(te('a', 'tool.before_call', { tool_name: 'rm' }), { decision: 'block_action', note: 'never delete' }),
      withExpectation(te('b', 'tool.before_call', { tool_name: 'ls' }), { decision: 'block_action' }),
      { ...te('c', 'tool.before_call', { tool_name: 'ls' }), meta: { expect: { decision: 'nope' } } },
      te('d', 'tool.before_call', { tool_name: 'ls' }),
    ];
    const labels = [...replaySteps(p, events)].map(stepLabel);
    expect(labels[0]).toEqual({ kind: 'ok', expectation: { decision: 'block_action', note: 'never delete' }, failures: [] });
    expect(labels[1]).toEqual({ kind: 'ok', expectation: { decision: 'block_action' }, failures: ['decision: expected block_action, got continue'] });
    expect(labels[2]).toMatchObject({ kind: 'bad', message: expect.stringMatching(/^meta\.expect: decision/) });
    expect(labels[3]).toEqual({ kind: 'none' });
    // The golden test run over the same labelled events gives the same verdicts.
    const golden = runGoldenTrace(p, events);
    expect(golden.checks.map((c) => c.failures)).toEqual([labels[0]!, labels[1]!].map((l) => (l.kind === 'ok' ? l.failures : null)));
  });
});

// [R19] Replay dispatches every event without its `meta.expect`: a label is what a person expects, never an input
// of the decision. One implementation (replay's step function), so `hookwire test`, a backtest, `diff`, `replay`
// and the debugger see the same decisions with or without labels, and writing a label needs no new replay.
describe('a label never changes a decision [R19]', () => {
  // Matchers that would read a label if one reached them: on meta.expect itself, and on meta as a whole.
  const p = compile(pipeline([
    ev('before', 'tool.before_call'),
    match('labelled', { 'meta.expect.decision': { exists: true } }),
    handler('sees-label', block('a label reached a matcher')),
    match('by-user', { 'meta.user': 'ci' }),
    handler('ci-only', block('ci may not')),
  ], ['before->labelled', 'labelled->sees-label', 'before->by-user', 'by-user->ci-only']));
  const plain = [te('a', 'tool.before_call', { tool_name: 'rm' }), { ...te('b', 'tool.before_call', { tool_name: 'ls' }), meta: { user: 'ci' } }, te('c', 'tool.before_call', { tool_name: 'cat' })];
  const decisions = (events: TraceEvent[]) => [...replaySteps(p, events, { explain: true })].map((s) => [s.decision, s.reason, s.decided_by]);

  it('[R19] any labels on any steps: the same decisions, reasons and deciding handlers as without them; other meta still matches', () => {
    const without = decisions(plain);
    expect(without).toEqual([['continue', '', null], ['block_action', 'ci may not', 'ci-only'], ['continue', '', null]]);
    fc.assert(
      fc.property(fc.array(fc.option(expectationArb, { nil: null }), { minLength: 3, maxLength: 3 }), (labels) => {
        const labelled = plain.map((e, i) => (labels[i] ? withExpectation(e, labels[i]!) : e));
        expect(decisions(labelled)).toEqual(without);
        // The step still holds the event as it is, label included: what the debugger shows and checks.
        const steps = [...replaySteps(p, labelled)];
        steps.forEach((s, i) => expect(readExpectation(s.event).kind).toBe(labels[i] ? 'ok' : 'none'));
      }),
      { numRuns: 50 },
    );
  });

  it('[R19][B7][P11] hookwire test and a backtest check a label on the same step the same way', () => {
    const labelled = [withExpectation(plain[0]!, { decision: 'block_action' }), withExpectation(plain[1]!, { decision: 'block_action', decided_by: 'ci-only' })];
    const golden = runGoldenTrace(p, labelled);
    expect(golden.checks.map((c) => c.failures)).toEqual([['decision: expected block_action, got continue'], []]);
    expect([...replaySteps(p, labelled)].map((s) => stepLabel(s))).toMatchObject([{ failures: ['decision: expected block_action, got continue'] }, { failures: [] }]);
    // The backtest of the pipeline against itself: no difference, the same one violated label with the same lines.
    const bt = createFileBacktest(p, p);
    for (const e of labelled) bt.push(e);
    const r = bt.result();
    expect(r.changed).toBe(0);
    expect(r.labels).toBe(2);
    expect(r.violated_labels.map((v) => [v.event_id, v.failures])).toEqual([['a', ['decision: expected block_action, got continue']]]);
  });
});
