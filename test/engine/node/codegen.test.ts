import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compilePipeline, dispatch, initialState, type DispatchResult, type DispatchState, type HookEvent, type JsonObject, type JsonValue, type PipelineInput, type Sandbox } from '../../../engine/index.ts';
import { compileForNode } from '../../../engine/node/codegen/compileForNode.ts';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';

// [D10] the generated backend (engine/node/codegen) against the closure path, on random pipelines and event
// sequences: every field of every result, with state (budgets, breakers) carried from event to event.

// Pipeline content is untrusted: names that close comments, templates and strings, line separators, and the
// names of Object.prototype, as keys, path segments, values, labels, ids and reasons.
const HOSTILE = ['*/', '`', '${globalThis.pwned = 1}', '\u2028', '\u2029', '__proto__', 'constructor', 'toString', '"); globalThis.pwned = 1; ("', "'", '\\', '</script>', '0', 'a b'];
const FIELDS = ['f0', 'f1', 'tool_name', ...HOSTILE];
const STRINGS = ['a', 'b', 'Bash', 'BASH', 'baſh', 'x-a', ...HOSTILE];
const PRIMS: JsonValue[] = [...STRINGS, 0, 1, 5, 2.5, -1, null, true, false];
const TYPES = ['tool.before_call', 'tool.after_call', 'model.after_call', 'agent.end', 'custom.x', 'custom.async'];
const PATTERNS = ['tool.before_call', 'tool.*', '*', 'agent.end', 'custom.x', 'custom.*', 'custom.async'];

const prim = fc.oneof({ weight: 3, arbitrary: fc.constantFrom<JsonValue>('a', 'b', 'Bash', 0, 1, 5, 2.5, null, true) }, { weight: 1, arbitrary: fc.constantFrom(...PRIMS) });
const str = fc.constantFrom(...STRINGS);
// Mostly a few names, so that conditions and payloads meet often; the hostile ones now and then.
const field = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('f0', 'f1', 'tool_name') }, { weight: 1, arbitrary: fc.constantFrom(...FIELDS) });
const json: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 4, arbitrary: prim },
  { weight: 1, arbitrary: fc.array(prim, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.tuple(field, prim), { maxLength: 2 }).map((kv) => Object.fromEntries(kv) as JsonObject) },
);
const path = fc.oneof(
  { weight: 4, arbitrary: field.map((f) => `payload.${f}`) },
  { weight: 2, arbitrary: field.map((f) => `payload.n.${f}`) },
  { weight: 1, arbitrary: field.map((f) => `payload.n.m.${f}`) },
  { weight: 1, arbitrary: fc.constantFrom('payload.arr.0', 'payload.arr.1', 'payload.n.arr.0', 'state.n', 'state.__proto__', 'meta.user_id', 'meta.__proto__', 'event.agent_id', 'event.type', 'event.event_id') },
);

const clause: fc.Arbitrary<JsonObject> = fc.oneof(
  fc.record({ p: path, v: prim }).map(({ p, v }) => ({ [p]: v })),
  fc.record({ p: path, v: json, op: fc.constantFrom('eq', 'ne', 'contains') }).map(({ p, v, op }) => ({ [p]: { [op]: v } })),
  fc.record({ p: path, v: fc.array(json, { maxLength: 12 }), op: fc.constantFrom('in', 'nin') }).map(({ p, v, op }) => ({ [p]: { [op]: v } })),
  fc.record({ p: path, v: fc.array(prim, { minLength: 9, maxLength: 14 }), op: fc.constantFrom('in', 'nin') }).map(({ p, v, op }) => ({ [p]: { [op]: v } })),
  fc.record({ p: path, v: fc.constantFrom('^B', 'a|b', 'sh$', '^(B|a)$', '\\*/', '`', '__proto__', '^$', '\u2028') }).map(({ p, v }) => ({ [p]: { regex: v } })),
  fc.record({ p: path, v: fc.constantFrom('ba', 'B', 'ſ') }).map(({ p, v }) => ({ [p]: { regex: { pattern: v, flags: 'i' } } })),
  fc.record({ p: path, v: fc.oneof(fc.constantFrom(0, 1, 5, 2.5, -1), fc.integer({ min: -1, max: 6 }), str), op: fc.constantFrom('gt', 'gte', 'lt', 'lte') }).map(({ p, v, op }) => ({ [p]: { [op]: v } })),
  fc.record({ p: path, v: str, op: fc.constantFrom('prefix', 'suffix') }).map(({ p, v, op }) => ({ [p]: { [op]: v } })),
  fc.record({ p: path, v: fc.boolean() }).map(({ p, v }) => ({ [p]: { exists: v } })),
  fc.record({ p: path, a: prim, b: fc.integer({ min: 0, max: 5 }) }).map(({ p, a, b }) => ({ [p]: { ne: a, lte: b } })),
);
const condition: fc.Arbitrary<JsonObject> = fc.letrec<{ node: JsonObject }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    clause,
    fc.array(tie('node'), { maxLength: 3 }).map((cs) => ({ all: cs })),
    fc.array(tie('node'), { maxLength: 3 }).map((cs) => ({ any: cs })),
    tie('node').map((c) => ({ not: c })),
    fc.tuple(clause, clause).map(([a, b]) => ({ ...a, ...b })),
  ),
})).node;
const rarely = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });
const matcher = fc.record({
  when: fc.option(condition, { nil: undefined }),
  tools: rarely(fc.array(fc.oneof(fc.constant('Bash'), str), { minLength: 1, maxLength: 3 })),
  agents: rarely(fc.constantFrom(['agent'], ['other', '__proto__'])),
  label: fc.option(fc.constantFrom(...HOSTILE), { nil: undefined }),
}).map((m) => (m.when === undefined && m.tools === undefined && m.agents === undefined ? { ...m, when: {} } : m) as unknown as JsonObject);

const action = fc.oneof(
  fc.constantFrom(...HOSTILE).map((r) => ({ type: 'block', reason: `blocked ${r} {{payload.f0}}` })),
  fc.constant({ type: 'terminate', reason: 'end' }),
  fc.constant({ type: 'stop' }),
  fc.constant({ type: 'ask', reason: 'ok {{payload.f0}}?' }),
  fc.constant({ type: 'add_context', text: 'note {{payload.f1}}' }),
  fc.constant({ type: 'audit', fields: ['payload.f1'] }),
  fc.record({ f: field, v: json }).map(({ f, v }) => ({ type: 'rewrite', ops: [{ op: 'set', path: `payload.${f}`, value: v }] })),
  fc.record({ f: field }).map(({ f }) => ({ type: 'rewrite', ops: [{ op: 'remove', path: `payload.${f}` }] })),
  fc.constant({ type: 'rewrite', ops: [{ op: 'redact', pattern: 'a' }] }),
  fc.record({ key: fc.constantFrom('n', '__proto__', 'constructor'), limit: fc.integer({ min: 0, max: 3 }) }).map(({ key, limit }) => ({ type: 'budget', key, limit })),
);
const handlerArb = fc.record({
  action,
  order: fc.integer({ min: 0, max: 3 }),
  shadow: fc.boolean(),
  enabled: fc.integer({ min: 0, max: 7 }).map((n) => n !== 0),
  on_error: fc.constantFrom('block', 'continue', 'terminate'),
  name: fc.option(fc.constantFrom(...HOSTILE), { nil: undefined }),
});

interface Shape<H> {
  events: string[];
  matchers: JsonObject[];
  handlers: H[];
  wireBits: number[];
  asyncCustom: boolean;
}

const defined = (o: JsonObject): JsonObject => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as JsonObject;

/** Nodes and forward-only wires (events → matchers in index order → handlers), so there is never a cycle. */
function documentOf<H>(s: Shape<H>, handlerNode: (h: H, i: number) => JsonObject): PipelineInput {
  const nodes = [
    ...s.events.map((pattern, i) => ({ id: `e${i}`, kind: 'event', pattern })),
    ...s.matchers.map((m, i) => ({ id: `m${i}`, kind: 'matcher', ...defined(m) })),
    ...s.handlers.map((h, i) => ({ id: `h${i}`, kind: 'handler', name: `h${i}`, ...defined(handlerNode(h, i)) })),
  ] as PipelineInput['nodes'];
  const wires: { from: string; to: string }[] = [];
  let bit = 0;
  const sources = [...s.events.map((_, i) => `e${i}`), ...s.matchers.map((_, i) => `m${i}`)];
  const targets = [...s.matchers.map((_, i) => `m${i}`), ...s.handlers.map((_, i) => `h${i}`)];
  for (const from of sources) {
    for (const to of targets) {
      const forward = to.startsWith('h') || from.startsWith('e') || Number(to.slice(1)) > Number(from.slice(1));
      const chance = from.startsWith('e') ? (to.startsWith('h') ? 15 : 50) : to.startsWith('h') ? 45 : 20;
      if (forward && s.wireBits[bit++ % s.wireBits.length]! < chance) wires.push({ from, to });
    }
  }
  return { format: 'hookwire.pipeline', version: 1, name: 'codegen', nodes, wires, event_types: s.asyncCustom ? [{ type: 'custom.async', mode: 'async' }] : [] } as PipelineInput;
}

const shape = <H>(handler: fc.Arbitrary<H>, maxHandlers: number): fc.Arbitrary<Shape<H>> =>
  fc.record({
    events: fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 3 }),
    matchers: fc.array(matcher, { maxLength: 5 }),
    handlers: fc.array(handler, { minLength: 1, maxLength: maxHandlers }),
    wireBits: fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 200, maxLength: 200 }),
    asyncCustom: fc.boolean(),
  });

const pipelineArb = shape(handlerArb, 10).map((s) => documentOf(s, (h) => h as unknown as JsonObject));

// Payloads built with Object.fromEntries: `__proto__` and `constructor` are own keys, as JSON.parse makes them.
// The common names are usually there, with values the conditions name; other names now and then.
const hot = fc.oneof({ weight: 3, arbitrary: fc.constantFrom<JsonValue>(0, 1, 5, 2.5, 'a', 'b', 'Bash', 'BASH', null, true) }, { weight: 1, arbitrary: json });
const flat = fc
  .record({ f0: fc.option(hot, { nil: undefined }), f1: fc.option(hot, { nil: undefined }), tool_name: fc.option(hot, { nil: undefined }), more: fc.array(fc.tuple(field, json), { maxLength: 3 }) })
  .map(({ more, ...top }) => Object.fromEntries([...more, ...Object.entries(top).filter(([, v]) => v !== undefined)]) as JsonObject);
const payloadArb: fc.Arbitrary<JsonObject> = fc
  .record({ top: flat, n: fc.option(fc.record({ inner: flat, m: fc.option(flat, { nil: undefined }), arr: fc.option(fc.array(prim, { maxLength: 2 }), { nil: undefined }) }), { nil: undefined }), arr: fc.option(fc.array(json, { maxLength: 2 }), { nil: undefined }) })
  .map(({ top, n, arr }) => {
    const out: JsonObject = { ...top };
    if (n) out.n = Object.assign({}, n.inner, n.m ? { m: n.m } : {}, n.arr ? { arr: n.arr } : {}) as JsonObject;
    if (arr) out.arr = arr;
    return out;
  });
const eventArb: fc.Arbitrary<HookEvent> = fc
  .record({ type: fc.constantFrom(...TYPES), payload: payloadArb, user: fc.constantFrom('u1', '__proto__'), agent: fc.constantFrom('agent', 'other'), id: fc.integer({ min: 0, max: 5 }) })
  .map(({ type, payload, user, agent, id }) => ({ event_id: `ev${id}`, trace_id: 't', agent_id: agent, type, ts: '2026-01-01T00:00:00.000Z', payload, meta: Object.fromEntries([['user_id', user]]) as JsonObject }));

const whole = (r: DispatchResult) => ({ decision: r.decision, reason: r.reason, decided_by: r.decided_by, payload: r.payload, state: r.state, errors: r.errors, audit: r.audit, context: r.context, mode: r.mode });

/**
 * Dispatches `events` in order through the closure path (index and scan) and the generated backend (inline
 * scan, index, default), carrying each one's state, with a clock that moves 400 ms per event (breaker
 * cooldowns end); every result must equal the closure path's in every field.
 */
function expectSameEverywhere(doc: PipelineInput, events: HookEvent[], sandbox?: Sandbox, seen?: Map<string, number>): boolean {
  const indexed = compilePipeline(doc, { scanUpTo: 0, sandbox });
  const scanned = compilePipeline(doc, { sandbox });
  if (!indexed.ok || !scanned.ok) return false;
  const gens = [compileForNode(scanned.compiled, { scanUpTo: 1000 }), compileForNode(scanned.compiled, { scanUpTo: 0 }), compileForNode(indexed.compiled)];
  const into = gens.map(() => undefined as DispatchResult | undefined);
  let t = Date.parse('2026-01-01T00:00:00.000Z');
  const env = { clock: { now: () => t } };
  let s: DispatchState = initialState({ n: 1 });
  const states = gens.map(() => s);
  let s2 = s;
  for (const e of events) {
    const want = dispatch(indexed.compiled, e, s, env);
    expect(whole(dispatch(scanned.compiled, e, s2, env))).toEqual(whole(want));
    gens.forEach((g, i) => {
      // Every other event into a reused result object, as a hot loop calls it.
      const got = g.dispatch(e, states[i]!, env, i % 2 === 0 ? into[i] : undefined);
      into[i] = got;
      expect(whole(got), `backend ${i} on ${JSON.stringify(e)}`).toEqual(whole(want));
      states[i] = got.state;
    });
    if (seen) {
      const bump = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1);
      if (want.errors.length) bump('error');
      if (Object.values(want.state.breakers).some((b) => b.open_until > t)) bump('breaker open');
      if (/unavailable/.test(want.reason)) bump('breaker blocks');
      if (want.errors.some((x) => /could not answer/.test(x.message))) bump('matcher failed');
    }
    s = want.state;
    s2 = want.state;
    t += 400;
  }
  return true;
}

describe('generated dispatch (Node backend)', () => {
  it('[D10] equals the closure path on random pipelines and event sequences (conditions, rewrites, budgets, shadow, async, order)', () => {
    let compiled = 0;
    fc.assert(
      fc.property(pipelineArb, fc.array(eventArb, { minLength: 1, maxLength: 6 }), (doc, events) => {
        if (expectSameEverywhere(doc, events)) compiled++;
      }),
      { numRuns: 1000 },
    );
    expect(compiled).toBeGreaterThan(750); // most random documents are valid: the property is not vacuous
  }, 120_000); // 1000 random pipelines compiled twice: ~15 s idle, 40-60 s on a loaded 2-core machine

  it('[D10][C1]-[C9][M7] each matcher alone: its generated condition passes exactly when its compiled one does', () => {
    fc.assert(
      fc.property(matcher, fc.array(eventArb, { minLength: 1, maxLength: 8 }), (m, events) => {
        const doc = {
          format: 'hookwire.pipeline', version: 1, name: 'one', nodes: [
            { id: 'e', kind: 'event', pattern: '*' }, { id: 'm', kind: 'matcher', ...defined(m) }, { id: 'h', kind: 'handler', name: 'h', action: { type: 'audit' } },
          ], wires: [{ from: 'e', to: 'm' }, { from: 'm', to: 'h' }],
        } as PipelineInput;
        const r = compilePipeline(doc);
        if (!r.ok) return;
        const gen = compileForNode(r.compiled);
        const test = r.compiled.matchers[0]!.test;
        for (const e of events) {
          const want = test({ event: e, payload: e.payload, state: { n: 1 }, now: 0 });
          expect(gen.dispatch(e, initialState({ n: 1 }), { clock: { now: () => 0 } }).audit.length === 1, JSON.stringify(e.payload)).toBe(want);
        }
      }),
      { numRuns: 3000 },
    );
  }, 120_000);

  it('[D10] the generators reach blocks, asks, rewrites, budgets, async events and the index backend', () => {
    const seen = new Map<string, number>();
    const bump = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1);
    for (const [doc, e] of fc.sample(fc.tuple(pipelineArb, eventArb), { numRuns: 1500, seed: 7 })) {
      const r = compilePipeline(doc);
      if (!r.ok) continue;
      const out = compileForNode(r.compiled, { scanUpTo: 0 }).dispatch(e, initialState({ n: 1 }), { clock: { now: () => 0 } });
      bump(out.decision);
      bump(out.mode);
      if (out.payload !== e.payload) bump('rewrite');
      if (out.state.vars.n !== 1 || Object.keys(out.state.vars).length > 1) bump('state');
      if (out.context.length) bump('context');
      if (out.audit.length) bump('audit');
    }
    for (const k of ['continue', 'block_action', 'terminate', 'stop_propagation', 'ask', 'async', 'rewrite', 'state', 'context', 'audit']) expect(seen.get(k) ?? 0, `${k} in ${JSON.stringify([...seen])}`).toBeGreaterThan(2);
  });

  it('[D10][M6] after a rewrite, later handlers are matched on the new payload (index and inline backends)', () => {
    const doc: PipelineInput = {
      format: 'hookwire.pipeline', version: 1, name: 'm6', nodes: [
        { id: 'e', kind: 'event', pattern: 'tool.before_call' },
        { id: 'w', kind: 'handler', name: 'w', order: 0, action: { type: 'rewrite', ops: [{ op: 'set', path: 'payload.tool_name', value: 'rm' }] } },
        { id: 'm', kind: 'matcher', when: { 'payload.tool_name': 'rm' } },
        { id: 'b', kind: 'handler', name: 'b', order: 1, action: { type: 'block', reason: 'no rm' } },
      ],
      wires: [{ from: 'e', to: 'w' }, { from: 'e', to: 'm' }, { from: 'm', to: 'b' }],
    } as PipelineInput;
    const r = compilePipeline(doc);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const e: HookEvent = { event_id: 'e1', trace_id: 't', agent_id: 'a', type: 'tool.before_call', ts: '2026-01-01T00:00:00.000Z', payload: { tool_name: 'ls' } };
    for (const scanUpTo of [0, 16]) {
      const got = compileForNode(r.compiled, { scanUpTo }).dispatch(e, initialState(), { clock: { now: () => 0 } });
      expect([got.decision, got.decided_by, got.payload]).toEqual(['block_action', 'b', { tool_name: 'rm' }]);
    }
  });

  it('[D10][V8] hostile pipeline strings stay data: they reach the source only as JSON literals and run nothing', () => {
    const g = globalThis as { pwned?: unknown };
    delete g.pwned;
    const when: JsonObject = { any: HOSTILE.map((h) => ({ [`payload.${h}`]: { in: [h, `${h}x`] } })) };
    const doc: PipelineInput = {
      format: 'hookwire.pipeline', version: 1, name: '*/ `', nodes: [
        { id: 'e', kind: 'event', pattern: 'tool.before_call' },
        { id: '*/m`', kind: 'matcher', label: '"); globalThis.pwned = 1; ("', when },
        { id: '__proto__', kind: 'handler', name: '`${globalThis.pwned = 1}`', action: { type: 'block', reason: '*/ "); globalThis.pwned = 1; (" \u2028' } },
      ],
      wires: [{ from: 'e', to: '*/m`' }, { from: '*/m`', to: '__proto__' }],
    } as PipelineInput;
    const r = compilePipeline(doc);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const g0 = compileForNode(r.compiled);
    const source = g0.sourceOf('tool.before_call');
    for (const h of HOSTILE) expect(source).toContain(JSON.stringify(h).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029'));
    expect(source).not.toMatch(/[\u2028\u2029]/);
    for (const h of HOSTILE.filter((x) => !x.includes('.'))) {
      const e: HookEvent = { event_id: 'e1', trace_id: 't', agent_id: 'a', type: 'tool.before_call', ts: '2026-01-01T00:00:00.000Z', payload: Object.fromEntries([[h, h]]) as JsonObject };
      const want = dispatch(r.compiled, e, initialState(), { clock: { now: () => 0 } });
      expect(want.decision).toBe('block_action');
      expect(whole(g0.dispatch(e, initialState(), { clock: { now: () => 0 } }))).toEqual(whole(want));
      // An inherited name is not an own key: no match through the prototype.
      const none = { ...e, payload: {} };
      expect(whole(g0.dispatch(none, initialState(), { clock: { now: () => 0 } }))).toEqual(whole(dispatch(r.compiled, none, initialState(), { clock: { now: () => 0 } })));
    }
    expect(g.pwned).toBeUndefined();
  });

  it('[D10] refuses a re-entered dispatch and answers an event no handler listens to', () => {
    const r = compilePipeline({ format: 'hookwire.pipeline', version: 1, name: 'x', nodes: [{ id: 'e', kind: 'event', pattern: 'tool.*' }, { id: 'h', kind: 'handler', name: 'h', action: { type: 'audit' } }], wires: [{ from: 'e', to: 'h' }] });
    if (!r.ok) throw new Error('did not compile');
    const g = compileForNode(r.compiled);
    const e: HookEvent = { event_id: 'e1', trace_id: 't', agent_id: 'a', type: 'agent.end', ts: '2026-01-01T00:00:00.000Z', payload: { a: 1 } };
    const env = { clock: { now: () => 0 } };
    expect(whole(g.dispatch(e, initialState(), env))).toEqual(whole(dispatch(r.compiled, e, initialState(), env)));
    const inner = { ...e, type: 'tool.x' };
    const reentering = { clock: { now: () => { g.dispatch(inner, initialState(), env); return 0; } } };
    expect(() => g.dispatch(inner, initialState(), reentering)).toThrow(/re-entered/);
    expect(g.dispatch(inner, initialState(), env).audit).toHaveLength(1); // the guard was released
  });
});

describe('generated dispatch with code in the sandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createNodeSandbox();
  });
  afterAll(() => sandbox.dispose());

  const CODE_HANDLERS = [
    `export default function (ctx: HandlerContext) { if (ctx.payload.f0 === 'a') throw new Error('boom'); }`,
    `export default function (ctx: HandlerContext) { if (ctx.payload.f1 === 'b') return block('code says no ' + ctx.payload.f0); return { state: { n: ((ctx.state.n as number) ?? 0) + 1 } }; }`,
    `export default function (ctx: HandlerContext) { return { new_payload: { ...ctx.payload, f0: 'a' }, context: 'rewrote' }; }`,
    `export default function (ctx: HandlerContext) { if (ctx.payload.tool_name === 'Bash') return ask('sure?'); return addContext('fine'); }`,
  ];
  const CODE_MATCHERS = [
    `export default function (ctx: HandlerContext) { return ctx.payload.f1 === 'b'; }`,
    `export default function (ctx: HandlerContext) { if (ctx.payload.f0 === 'b') throw new Error('matcher broke'); return true; }`,
    `export default function (ctx: HandlerContext) { return ctx.payload.f0 === 'a' ? 42 : false; }`,
  ];
  const codeHandler = fc.record({
    base: handlerArb,
    code: fc.oneof(fc.constant(undefined), fc.constantFrom(...CODE_HANDLERS), fc.constant(CODE_HANDLERS[0]!)),
    breaker: fc.oneof(fc.constant(undefined), fc.record({ threshold: fc.integer({ min: 1, max: 2 }), cooldown_ms: fc.constantFrom(0, 500, 1000), while_open: fc.constantFrom('skip', 'block', undefined) })),
  });
  const codePipeline = fc
    .tuple(shape(codeHandler, 6), fc.array(fc.option(fc.constantFrom(...CODE_MATCHERS), { nil: undefined }), { minLength: 5, maxLength: 5 }))
    .map(([s, matcherCode]) => {
      const withCode = { ...s, matchers: s.matchers.map((m, i) => (matcherCode[i] ? { ...m, code: { language: 'ts', source: matcherCode[i] } } : m)) };
      return documentOf(withCode, ({ base, code, breaker }) => {
        const node = { ...base, action: code ? { type: 'code', language: 'ts', source: code, timeout_ms: 5000 } : base.action } as unknown as JsonObject;
        if (breaker) node.breaker = Object.fromEntries(Object.entries(breaker).filter(([, v]) => v !== undefined)) as JsonObject;
        return node;
      });
    });
  const codeEvent = eventArb.map((e) => ({ ...e, payload: { ...e.payload, f0: e.event_id < 'ev2' ? 'a' : 'b', f1: e.event_id > 'ev3' ? 'b' : 'c' } }));

  it('[D10][E3] an open breaker skips the handler or blocks the action, as on the closure path (inline and index backends)', () => {
    const thrower = { type: 'code', language: 'ts', source: CODE_HANDLERS[0]!, timeout_ms: 5000 };
    for (const while_open of ['skip', 'block'] as const) {
      const doc = {
        format: 'hookwire.pipeline', version: 1, name: 'breaker', nodes: [
          { id: 'e', kind: 'event', pattern: 'tool.before_call' },
          { id: 'c', kind: 'handler', name: 'c', order: 0, on_error: 'continue', breaker: { threshold: 1, cooldown_ms: 1000, while_open }, action: thrower },
          { id: 'a', kind: 'handler', name: 'a', order: 1, action: { type: 'audit' } },
        ], wires: [{ from: 'e', to: 'c' }, { from: 'e', to: 'a' }],
      } as PipelineInput;
      const ev = (id: string, f0: string): HookEvent => ({ event_id: id, trace_id: 't', agent_id: 'agent', type: 'tool.before_call', ts: '2026-01-01T00:00:00.000Z', payload: { f0 } });
      expect(expectSameEverywhere(doc, [ev('ev0', 'a'), ev('ev1', 'b'), ev('ev2', 'b'), ev('ev3', 'b')], sandbox)).toBe(true);
      // What the closure path does here, so the comparison above is not between two no-ops.
      const r = compilePipeline(doc, { sandbox });
      if (!r.ok) throw new Error('did not compile');
      const first = dispatch(r.compiled, ev('ev0', 'a'), initialState(), { clock: { now: () => 0 } });
      const second = compileForNode(r.compiled).dispatch(ev('ev1', 'b'), first.state, { clock: { now: () => 400 } });
      expect([first.errors.length, second.decision, second.audit.length]).toEqual(while_open === 'skip' ? [1, 'continue', 1] : [1, 'block_action', 0]);
    }
  });

  it('[D10][E1][E3][M8][S3] equals the closure path with code handlers, code matchers, error policies and breakers', () => {
    let compiled = 0;
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(codePipeline, fc.array(codeEvent, { minLength: 2, maxLength: 8 }), (doc, events) => {
        if (expectSameEverywhere(doc, events, sandbox, seen)) compiled++;
      }),
      { numRuns: 150 },
    );
    expect(compiled).toBeGreaterThan(60);
    for (const k of ['error', 'breaker open', 'matcher failed']) expect(seen.get(k) ?? 0, `${k} in ${JSON.stringify([...seen])}`).toBeGreaterThan(2);
  }, 120_000);
});
