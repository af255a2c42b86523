import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compilePipeline, decisionRank, dispatch, explainEvent, initialState, type DispatchState, type HookEvent, type JsonObject, type JsonValue, type PipelineInput } from '../../../engine/index.ts';
import { explainEventEagerly } from '../../../engine/dispatch/explain/explainEvent.ts';
import { env } from '../helpers.ts';

// Random pipelines over a small vocabulary, so that matches, ties, rewrites and blocks happen often.
const TYPES = ['tool.before_call', 'tool.after_call', 'model.after_call', 'agent.end', 'custom.x'];
const PATTERNS = ['tool.before_call', 'tool.*', '*', 'agent.end', 'model.after_call', 'custom.x'];
const FIELDS = ['f0', 'f1', 'f2', 'tool_name'];
const VALUES: JsonValue[] = ['a', 'b', 'Bash', 'BASH', 'baſh', 0, 1, 5, 2.5, null, true];

const value = fc.constantFrom(...VALUES);
const field = fc.constantFrom(...FIELDS);
const path = fc.oneof(field.map((f) => `payload.${f}`), fc.constantFrom('state.n', 'meta.user_id', 'event.agent_id'));

const clause: fc.Arbitrary<JsonObject> = fc.oneof(
  fc.record({ p: path, v: value }).map(({ p, v }) => ({ [p]: v })),
  fc.record({ p: path, v: fc.array(value, { maxLength: 3 }) }).map(({ p, v }) => ({ [p]: { in: v } })),
  fc.record({ p: path, v: value }).map(({ p, v }) => ({ [p]: { ne: v } })),
  // Finite languages anchored at the start, the end, both or neither, mixed in one pattern, and with `m`
  // (unanchored in the index): the index files their words where they may match, and an exact hit is the verdict.
  fc.record({ p: path, v: fc.constantFrom('^B', 'a|b', 'sh$', '^(B|a)', '(ash|a)$', '^(Bash|b)$', 'a|sh$', '(?:as|ba)', 'B[a]', '^a$|^Ba|sh$|as', '^(b|ba|bas)', '(h|sh|ash)$', '(?m)^a', 'ſh$|^ba') }).map(({ p, v }) => ({ [p]: { regex: v } })),
  fc.record({ p: path, v: fc.integer({ min: 0, max: 5 }), op: fc.constantFrom('gt', 'gte', 'lt', 'lte') }).map(({ p, v, op }) => ({ [p]: { [op]: v } })),
  fc.record({ p: path, v: fc.constantFrom('ba', 'B', 'as', 'S') }).map(({ p, v }) => ({ [p]: { regex: { pattern: v, flags: 'i' } } })),
  fc.record({ p: path, v: fc.constantFrom('a', 'B', 'Ba', 'ba') }).map(({ p, v }) => ({ [p]: { prefix: v } })),
  fc.record({ p: path, v: fc.constantFrom('a', 'h', 'sh', 'ſh', 'SH') }).map(({ p, v }) => ({ [p]: { suffix: v } })),
  fc.record({ p: path, v: fc.boolean() }).map(({ p, v }) => ({ [p]: { exists: v } })),
);
const condition: fc.Arbitrary<JsonObject> = fc.oneof(
  clause,
  fc.array(clause, { minLength: 1, maxLength: 3 }).map((cs) => ({ any: cs })),
  fc.array(clause, { minLength: 1, maxLength: 3 }).map((cs) => ({ all: cs })),
  clause.map((c) => ({ not: c })),
);
// Nested all/any/not up to three levels: the candidate index files `all` as several groups that must all hold.
const nested: fc.Arbitrary<JsonObject> = fc.letrec<{ node: JsonObject }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    clause,
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((cs) => ({ all: cs })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((cs) => ({ any: cs })),
    tie('node').map((c) => ({ not: c })),
    fc.tuple(clause, clause).map(([a, b]) => ({ ...a, ...b })),
  ),
})).node;

const action = fc.oneof(
  fc.constant({ type: 'block', reason: 'blocked {{payload.f0}}' }),
  fc.constant({ type: 'terminate', reason: 'end' }),
  fc.constant({ type: 'stop' }),
  fc.constant({ type: 'ask', reason: 'ok {{payload.f0}}?' }),
  fc.constant({ type: 'add_context', text: 'note {{payload.f1}}' }),
  fc.constant({ type: 'audit', fields: ['payload.f1'] }),
  // Plain records are written over a reused result's from its earlier events; detailed ones never are.
  fc.constant({ type: 'audit' }),
  fc.constant({ type: 'audit', message: 'saw {{payload.f0}}' }),
  fc.record({ f: field, v: value }).map(({ f, v }) => ({ type: 'rewrite', ops: [{ op: 'set', path: `payload.${f}`, value: v }] })),
  fc.constant({ type: 'rewrite', ops: [{ op: 'redact', pattern: 'a' }] }),
  fc.integer({ min: 0, max: 4 }).map((limit) => ({ type: 'budget', key: 'n', limit })),
);

const pipelineArb: fc.Arbitrary<PipelineInput> = fc
  .record({
    events: fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 3 }),
    // Half the pipelines repeat conditions across matchers: their verdict is memoised once per event [M6].
    matchers: fc.oneof(
      fc.array(condition, { maxLength: 4 }),
      fc.array(condition, { minLength: 1, maxLength: 2 }).chain((pool) => fc.array(fc.constantFrom(...pool), { minLength: 2, maxLength: 5 })),
    ),
    handlers: fc.array(fc.record({ action, order: fc.integer({ min: 0, max: 3 }), shadow: fc.boolean(), enabled: fc.integer({ min: 0, max: 7 }).map((n) => n !== 0) }), { minLength: 1, maxLength: 6 }),
    wireBits: fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 200, maxLength: 200 }),
  })
  .map(({ events, matchers, handlers, wireBits }) => {
    const nodes: PipelineInput['nodes'] = [
      ...events.map((pattern, i) => ({ id: `e${i}`, kind: 'event' as const, pattern })),
      ...matchers.map((when, i) => ({ id: `m${i}`, kind: 'matcher' as const, when })),
      ...handlers.map((h, i) => ({ id: `h${i}`, kind: 'handler' as const, name: `h${i}`, ...h })) as PipelineInput['nodes'],
    ];
    // Wires only go forward (events → matchers in index order → handlers), so there is never a cycle.
    const wires: { from: string; to: string }[] = [];
    let bit = 0;
    const sources = [...events.map((_, i) => `e${i}`), ...matchers.map((_, i) => `m${i}`)];
    const targets = [...matchers.map((_, i) => `m${i}`), ...handlers.map((_, i) => `h${i}`)];
    sources.forEach((from, si) => targets.forEach((to, ti) => {
      const forward = to.startsWith('h') || from.startsWith('e') || Number(to.slice(1)) > Number(from.slice(1));
      // Few direct event → handler wires, so that most handlers sit behind matchers and the index matters.
      const chance = from.startsWith('e') ? (to.startsWith('h') ? 12 : 50) : to.startsWith('h') ? 45 : 20;
      if (forward && wireBits[bit++ % wireBits.length]! < chance) wires.push({ from, to });
      void si; void ti;
    }));
    return { format: 'hookwire.pipeline', version: 1, name: 'random', nodes, wires };
  });

const eventArb: fc.Arbitrary<HookEvent> = fc
  .record({ type: fc.constantFrom(...TYPES), payload: fc.dictionary(field, value, { maxKeys: 4 }), user: fc.constantFrom('u1', 'u2'), id: fc.integer({ min: 0, max: 5 }) })
  .map(({ type, payload, user, id }) => ({ event_id: `ev${id}`, trace_id: 't', agent_id: 'agent', type, ts: '2026-01-01T00:00:00.000Z', payload, meta: { user_id: user } }));

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

const comparable = (r: ReturnType<typeof dispatch>) => ({ decision: r.decision, reason: r.reason, decided_by: r.decided_by, payload: r.payload, state: r.state, errors: r.errors, audit: r.audit });

describe('dispatch properties', () => {
  it('the generators exercise the interesting cases (valid pipelines, blocks, rewrites)', () => {
    const seen = new Map<string, number>();
    let valid = 0;
    for (const [doc, e] of fc.sample(fc.tuple(pipelineArb, eventArb), { numRuns: 1000, seed: 42 })) {
      const r = compilePipeline(doc);
      if (!r.ok) continue;
      valid++;
      const out = dispatch(r.compiled, e, initialState(), env());
      seen.set(out.decision, (seen.get(out.decision) ?? 0) + 1);
      if (out.payload !== e.payload) seen.set('rewrite', (seen.get('rewrite') ?? 0) + 1);
      const ix = r.compiled.plan(e.type).index;
      if (ix.values.length) seen.set('value index', (seen.get('value index') ?? 0) + 1);
      if (ix.ranges.length) seen.set('range index', (seen.get('range index') ?? 0) + 1);
      if (ix.literals.length) seen.set('literal index', (seen.get('literal index') ?? 0) + 1);
    }
    expect(valid).toBeGreaterThan(800);
    for (const k of ['continue', 'block_action', 'terminate', 'stop_propagation', 'ask', 'rewrite', 'value index', 'range index', 'literal index']) expect(seen.get(k) ?? 0, `${k} in ${JSON.stringify([...seen])}`).toBeGreaterThan(8);
  });

  it('[X5] the fast path and explain mode reach the same decision, reason, payload and state', () => {
    fc.assert(
      fc.property(pipelineArb, fc.array(eventArb, { minLength: 1, maxLength: 6 }), (doc, events) => {
        // The fast path both ways: through the candidate index (scanUpTo 0), and scanning the few listeners.
        const r = compilePipeline(doc, { scanUpTo: 0 });
        const scanning = compilePipeline(doc);
        if (!r.ok || !scanning.ok) return; // random documents may be invalid (e.g. a wire rule); those are tested elsewhere
        let s1: DispatchState = initialState();
        let s2: DispatchState = initialState();
        let s3: DispatchState = initialState();
        for (const e of events) {
          const fast = dispatch(r.compiled, e, s1, env());
          const scanned = dispatch(scanning.compiled, e, s3, env());
          const { result } = explainEvent(r.compiled, e, s2, env());
          expect(comparable(result)).toEqual(comparable(fast));
          expect(comparable(scanned)).toEqual(comparable(fast));
          s1 = fast.state;
          s2 = result.state;
          s3 = scanned.state;
        }
      }),
      { numRuns: 1500 },
    );
  });

  /** The fast path through the candidate index (no scan) audits exactly the handlers explain mode audits. */
  const expectIndexFindsWhatExplainFinds = (doc: PipelineInput, events: HookEvent[]): void => {
    const r = compilePipeline(doc, { scanUpTo: 0 }); // the index, not a scan
    if (!r.ok) return;
    for (const e of events) {
      const fast = dispatch(r.compiled, e, initialState({ n: 2 }), env());
      const { result } = explainEvent(r.compiled, e, initialState({ n: 2 }), env());
      expect(fast.audit.map((a) => a.handler)).toEqual(result.audit.map((a) => a.handler));
    }
  };

  it('[X5] the candidate index never drops a handler that matches (each handler behind one matcher)', () => {
    const conds = fc.array(fc.record({ when: condition, order: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(conds, fc.constantFrom(...PATTERNS), fc.array(eventArb, { minLength: 1, maxLength: 4 }), (hs, pattern, events) => {
        const doc: PipelineInput = {
          format: 'hookwire.pipeline', version: 1, name: 'index', nodes: [
            { id: 'e', kind: 'event', pattern },
            ...hs.map((h, i) => ({ id: `m${i}`, kind: 'matcher' as const, when: h.when })),
            ...hs.map((h, i) => ({ id: `h${i}`, kind: 'handler' as const, name: `h${i}`, order: h.order, action: { type: 'audit' as const } })),
          ],
          wires: hs.flatMap((_, i) => [{ from: 'e', to: `m${i}` }, { from: `m${i}`, to: `h${i}` }]),
        };
        expectIndexFindsWhatExplainFinds(doc, events);
      }),
      { numRuns: 1500 },
    );
  });

  it('[X5] the candidate index never drops a handler that matches (nested conditions, handlers behind one or two matchers in a row)', () => {
    const conds = fc.array(fc.record({ when: nested, also: fc.option(nested, { nil: undefined }), order: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(conds, fc.constantFrom(...PATTERNS), fc.array(eventArb, { minLength: 1, maxLength: 4 }), (hs, pattern, events) => {
        const doc: PipelineInput = {
          format: 'hookwire.pipeline', version: 1, name: 'index', nodes: [
            { id: 'e', kind: 'event', pattern },
            ...hs.map((h, i) => ({ id: `m${i}`, kind: 'matcher' as const, when: h.when })),
            ...hs.flatMap((h, i) => (h.also ? [{ id: `n${i}`, kind: 'matcher' as const, when: h.also }] : [])),
            ...hs.map((h, i) => ({ id: `h${i}`, kind: 'handler' as const, name: `h${i}`, order: h.order, action: { type: 'audit' as const } })),
          ],
          wires: hs.flatMap((h, i) => (h.also ? [{ from: 'e', to: `m${i}` }, { from: `m${i}`, to: `n${i}` }, { from: `n${i}`, to: `h${i}` }] : [{ from: 'e', to: `m${i}` }, { from: `m${i}`, to: `h${i}` }])),
        };
        expectIndexFindsWhatExplainFinds(doc, events);
      }),
      { numRuns: 1500 },
    );
  });

  it('[D5] the effective decision is never weaker than any enforced handler decision', () => {
    fc.assert(
      fc.property(pipelineArb, eventArb, (doc, e) => {
        const r = compilePipeline(doc);
        if (!r.ok) return;
        const { result, explanation } = explainEvent(r.compiled, e, initialState(), env());
        for (const h of explanation.handlers) {
          if (h.status === 'fired' && !h.ignored && h.decision) expect(decisionRank(result.decision)).toBeGreaterThanOrEqual(decisionRank(h.decision));
        }
        if (explanation.mode === 'async') expect(result.decision).toBe('continue');
      }),
      { numRuns: 300 },
    );
  });

  it('[E4][H4] dispatch is deterministic for a fixed clock and never mutates its inputs', () => {
    fc.assert(
      fc.property(pipelineArb, fc.array(eventArb, { minLength: 1, maxLength: 5 }), (doc, events) => {
        const r = compilePipeline(doc);
        if (!r.ok) return;
        deepFreeze(events);
        const run = () => {
          let s: DispatchState = deepFreeze(initialState({ n: 1 }));
          return events.map((e) => {
            const out = dispatch(r.compiled, e, s, env());
            s = out.state;
            return comparable(out);
          });
        };
        expect(run()).toEqual(run());
      }),
      { numRuns: 200 },
    );
  });

  it('[X5][M3][M6] the fast path (plan steps, specialised clauses, one reused result and action slot) equals explain mode evaluating every handler', () => {
    // explainEventEagerly evaluates every live handler's paths with the generic predicates and runs each
    // action afresh: none of the fast path's per-type steps, index, direct matchers or reused slots.
    fc.assert(
      fc.property(pipelineArb, fc.array(eventArb, { minLength: 1, maxLength: 6 }), fc.boolean(), (doc, events, viaIndex) => {
        const r = compilePipeline(doc, viaIndex ? { scanUpTo: 0 } : {});
        if (!r.ok) return;
        let into: ReturnType<typeof dispatch> | undefined;
        let s1: DispatchState = initialState({ n: 1 });
        let s2: DispatchState = initialState({ n: 1 });
        for (const e of events) {
          into = dispatch(r.compiled, e, s1, env(), into);
          const { result } = explainEventEagerly(r.compiled, e, s2, env());
          expect({ ...comparable(into), context: into.context }).toEqual({ ...comparable(result), context: result.context });
          s1 = into.state;
          s2 = result.state;
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('[V7] canvas layout has no effect on dispatch', () => {
    fc.assert(
      fc.property(pipelineArb, eventArb, fc.integer(), (doc, e, seed) => {
        const a = compilePipeline(doc);
        const b = compilePipeline({ ...doc, layout: { nodes: doc.nodes.map((n, i) => ({ id: n.id, x: (seed + i * 37) % 1000, y: i * 10 })) } });
        expect(a.ok).toBe(b.ok);
        if (!a.ok || !b.ok) return;
        expect(comparable(dispatch(b.compiled, e, initialState(), env()))).toEqual(comparable(dispatch(a.compiled, e, initialState(), env())));
      }),
      { numRuns: 100 },
    );
  });
});
