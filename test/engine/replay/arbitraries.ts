import fc from 'fast-check';
import type { JsonObject, JsonValue, PipelineInput, TraceEvent } from '../../../engine/index.ts';

// Random pipelines and traces over a small vocabulary, so that blocks, terminates, rewrites, budgets in
// state, duplicate ids, recorded decisions and bad timestamps all happen often.
const TYPES = ['tool.before_call', 'tool.after_call', 'model.after_call', 'agent.end', 'custom.x'];
const PATTERNS = ['tool.before_call', 'tool.*', '*', 'agent.end', 'custom.x'];
const FIELDS = ['f0', 'f1', 'tool_name'];
const VALUES: JsonValue[] = ['a', 'b', 'Bash', 0, 1, 5, null, true];

const value = fc.constantFrom(...VALUES);
/** True about once in `n` draws. */
const rarely = (n: number) => fc.nat(n - 1).map((x) => x === 0);
const field = fc.constantFrom(...FIELDS);
const path = fc.oneof(field.map((f) => `payload.${f}`), fc.constantFrom('state.n', 'event.agent_id'));

const clause: fc.Arbitrary<JsonObject> = fc.oneof(
  fc.record({ p: path, v: value }).map(({ p, v }) => ({ [p]: v })),
  fc.record({ p: path, v: fc.array(value, { maxLength: 3 }) }).map(({ p, v }) => ({ [p]: { in: v } })),
  fc.record({ p: path, v: fc.integer({ min: 0, max: 5 }), op: fc.constantFrom('gt', 'lte') }).map(({ p, v, op }) => ({ [p]: { [op]: v } })),
  fc.record({ p: path, v: fc.boolean() }).map(({ p, v }) => ({ [p]: { exists: v } })),
);
export const conditionArb: fc.Arbitrary<JsonObject> = fc.oneof(
  clause,
  fc.array(clause, { minLength: 1, maxLength: 2 }).map((cs) => ({ any: cs })),
  clause.map((c) => ({ not: c })),
);

const action = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ type: 'block', reason: 'blocked {{payload.f0}}' }) },
  { weight: 1, arbitrary: fc.constant({ type: 'terminate', reason: 'end' }) },
  { weight: 1, arbitrary: fc.constant({ type: 'stop' }) },
  { weight: 1, arbitrary: fc.constant({ type: 'ask', reason: 'ok {{payload.f0}}?' }) },
  { weight: 1, arbitrary: fc.constant({ type: 'add_context', text: 'note {{payload.f1}}' }) },
  { weight: 2, arbitrary: fc.constant({ type: 'audit', fields: ['payload.f1'] }) },
  { weight: 2, arbitrary: fc.record({ f: field, v: value }).map(({ f, v }) => ({ type: 'rewrite', ops: [{ op: 'set', path: `payload.${f}`, value: v }] })) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 4 }).map((limit) => ({ type: 'budget', key: 'n', limit })) },
);

/** A valid pipeline: wires only go forward (events → matchers in order → handlers), so there is no cycle. */
export const pipelineArb: fc.Arbitrary<PipelineInput> = fc
  .record({
    events: fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 3 }),
    matchers: fc.array(conditionArb, { maxLength: 3 }),
    handlers: fc.array(fc.record({ action, order: fc.integer({ min: 0, max: 3 }), shadow: rarely(6), enabled: rarely(8).map((b) => !b) }), { minLength: 1, maxLength: 5 }),
    bits: fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 64, maxLength: 64 }),
  })
  .map(({ events, matchers, handlers, bits }) => {
    const nodes = [
      ...events.map((pattern, i) => ({ id: `e${i}`, kind: 'event' as const, pattern })),
      ...matchers.map((when, i) => ({ id: `m${i}`, kind: 'matcher' as const, when })),
      ...handlers.map((h, i) => ({ id: `h${i}`, kind: 'handler' as const, name: `h${i}`, ...h })),
    ] as PipelineInput['nodes'];
    const wires: { from: string; to: string }[] = [];
    let b = 0;
    const sources = [...events.map((_, i) => `e${i}`), ...matchers.map((_, i) => `m${i}`)];
    const targets = [...matchers.map((_, i) => `m${i}`), ...handlers.map((_, i) => `h${i}`)];
    for (const from of sources) {
      for (const to of targets) {
        const forward = to.startsWith('h') || from.startsWith('e') || Number(to.slice(1)) > Number(from.slice(1));
        const chance = from.startsWith('e') ? (to.startsWith('h') ? 35 : 50) : 45;
        if (forward && bits[b++ % bits.length]! < chance) wires.push({ from, to });
      }
    }
    return { format: 'hookwire.pipeline', version: 1, name: 'random', nodes, wires };
  });

const T0 = Date.UTC(2026, 0, 1);

/** A trace: ids from a small set (so some repeat), times that mostly advance (some unparseable), some recorded decisions. */
export const traceArb: fc.Arbitrary<TraceEvent[]> = fc
  .array(
    fc.record({
      type: fc.constantFrom(...TYPES),
      payload: fc.dictionary(field, value, { maxKeys: 3 }),
      id: fc.integer({ min: 0, max: 12 }),
      dt: fc.integer({ min: 0, max: 3 }),
      badTs: rarely(12),
      recorded: fc.option(fc.constantFrom('continue', 'block_action', 'terminate', 'stop_propagation', 'ask') as fc.Arbitrary<'continue' | 'block_action' | 'terminate' | 'stop_propagation' | 'ask'>, { freq: 2 }),
      answer: fc.option(fc.constantFrom('allow', 'deny', 'deferred') as fc.Arbitrary<'allow' | 'deny' | 'deferred'>, { freq: 2 }),
    }),
    { minLength: 1, maxLength: 14 },
  )
  .map((rows) => {
    let t = T0;
    return rows.map((r) => {
      t += r.dt * 1000;
      const e: TraceEvent = { event_id: `ev${r.id}`, trace_id: 't', agent_id: 'agent', type: r.type, ts: r.badTs ? 'yesterday' : new Date(t).toISOString(), payload: r.payload };
      if (r.recorded) e.recorded = r.recorded === 'ask' && r.answer ? { decision: 'ask', approval: { answer: r.answer, by: r.answer === 'deferred' ? 'host' : 'approver' } } : { decision: r.recorded };
      return e;
    });
  });

/** Cursor moves for the step API. */
export type Move = { op: 'forward' } | { op: 'back' } | { op: 'jump'; at: number } | { op: 'step'; at: number };
export const movesArb: fc.Arbitrary<Move[]> = fc.array(
  fc.oneof(
    fc.constant({ op: 'forward' as const }),
    fc.constant({ op: 'back' as const }),
    fc.nat(20).map((at) => ({ op: 'jump' as const, at })),
    fc.nat(20).map((at) => ({ op: 'step' as const, at })),
  ),
  { minLength: 1, maxLength: 25 },
);
