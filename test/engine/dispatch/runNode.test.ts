import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compilePipeline, explainEvent, initialState, runNode, type HandlerNodeRun, type HookEvent, type JsonObject, type JsonValue, type PathExplain, type PipelineInput, type Sandbox } from '../../../engine/index.ts';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import { block, compile, env, ev, event, handler, match, pipeline } from '../helpers.ts';

// [X7] one node run alone: the editor's "Run node". Code runs in the real QuickJS sandbox.
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createNodeSandbox();
});
afterAll(() => sandbox.dispose());

const code = (source: string) => ({ type: 'code' as const, language: 'ts' as const, source, timeout_ms: 5000 });
const asHandler = (r: ReturnType<typeof runNode>): HandlerNodeRun => {
  if (r?.kind !== 'handler') throw new Error(`not a handler run: ${JSON.stringify(r)}`);
  return r;
};

const demo = () => compile(pipeline([
  ev('e', 'tool.*'),
  match('m', { 'payload.tool_name': { in: ['Bash', 'run_shell'] } }, { label: 'Dangerous tools' }),
  handler('b', block('no {{payload.tool_name}}'), { order: 1 }),
  handler('r', { type: 'rewrite', ops: [{ op: 'redact', path: 'payload.secret' }] }, { order: 2 }),
  handler('n', { type: 'budget', key: 'calls', limit: 1 }, { order: 3 }),
  handler('s', block('shadowed'), { order: 4, shadow: true }),
  handler('d', block('off'), { order: 5, enabled: false }),
  handler('k', block('guarded'), { order: 6, breaker: { threshold: 3, cooldown_ms: 1000 } }),
], ['e->m', 'm->b', 'e->r', 'e->n', 'e->s', 'e->d', 'e->k'], { event_types: [{ type: 'tool.observed', mode: 'async' }] }));

describe('runNode [X7]', () => {
  it('[X7][M1][D8] an event node says whether its pattern selects the type, and the mode', () => {
    const c = demo();
    expect(runNode(c, 'e', event('tool.observed'), initialState(), env())).toEqual({ kind: 'event', node_id: 'e', pattern: 'tool.*', event_type: 'tool.observed', selects: true, mode: 'async' });
    expect(runNode(c, 'e', event('tool'), initialState(), env())).toMatchObject({ selects: false, mode: 'sync' });
    expect(runNode(c, 'nope', event('tool'), initialState(), env())).toBeNull();
  });

  it('[X7][X2][X3] a matcher gives its verdict clause by clause, with the near-miss hint', () => {
    const c = demo();
    expect(runNode(c, 'm', event('tool.before_call', { tool_name: 'Bash' }), initialState(), env())).toMatchObject({
      kind: 'matcher', label: 'Dangerous tools', pass: true, condition: { kind: 'clause', path: 'payload.tool_name', op: 'in', actual: 'Bash', pass: true },
    });
    const miss = runNode(c, 'm', event('tool.before_call', { tool: 'Bash' }), initialState(), env());
    expect(miss).toMatchObject({ pass: false, condition: { missing: true, pass: false } });
    expect(miss?.kind === 'matcher' && miss.condition.kind === 'clause' ? miss.condition.hint : '').toContain('tool');
  });

  it('[X7][H3][H7][M3] a handler runs its action as if reached; its paths say whether dispatch would reach it', () => {
    const c = demo();
    const hit = asHandler(runNode(c, 'b', event('tool.before_call', { tool_name: 'Bash' }), initialState(), env()));
    expect([hit.candidate, hit.run.status, hit.run.status === 'fired' && hit.run.decision, hit.run.status === 'fired' && hit.run.reason]).toEqual([true, 'fired', 'block_action', 'no Bash']);
    // A payload the matcher refuses: the block still shows what it would do, and that dispatch would not reach it.
    const miss = asHandler(runNode(c, 'b', event('tool.before_call', { tool_name: 'Read' }), initialState(), env()));
    expect([miss.candidate, miss.paths[0]!.pass, miss.paths[0]!.matchers[0]!.pass, miss.run.status]).toEqual([false, false, false, 'fired']);
    const disabled = asHandler(runNode(c, 'd', event('tool.before_call'), initialState(), env()));
    expect([disabled.disabled, disabled.candidate, disabled.paths[0]!.type_matched]).toEqual([true, false, true]);
  });

  it('[X7][H4][H6][H8][D7] rewrites as JSON Patch, state changes, shadow and async marks; nothing is kept', () => {
    const c = demo();
    const payload = { tool_name: 'Bash', secret: 'sk-1' };
    const r = asHandler(runNode(c, 'r', event('tool.before_call', payload), initialState(), env()));
    expect(r.run.status === 'fired' && r.run.patch).toEqual([{ op: 'replace', path: '/secret', value: '[REDACTED]' }]);
    expect(payload.secret).toBe('sk-1');
    expect(r.payload_after).toEqual({ tool_name: 'Bash', secret: '[REDACTED]' });
    const state = initialState({ calls: 1 });
    const n = asHandler(runNode(c, 'n', event('tool.before_call'), state, env()));
    expect(n.run.status === 'fired' && [n.run.decision, n.run.state_changes]).toEqual(['block_action', [{ key: 'calls', before: 1, after: 2 }]]);
    expect([state.vars, n.state_after]).toEqual([{ calls: 1 }, { calls: 2 }]);
    expect(asHandler(runNode(c, 's', event('tool.before_call'), initialState(), env())).run).toMatchObject({ decision: 'block_action', ignored: 'shadow' });
    expect(asHandler(runNode(c, 'b', event('tool.observed', { tool_name: 'Bash' }), initialState(), env())).run).toMatchObject({ decision: 'block_action', ignored: 'async' });
  });

  it('[X7][E3] an open breaker is named; the run itself ignores it', () => {
    const c = demo();
    const at = Date.parse('2026-01-01T00:00:00.000Z');
    const r = asHandler(runNode(c, 'k', event('tool.before_call'), { vars: {}, breakers: { k: { failures: 3, open_until: at + 500 } } }, env()));
    expect([r.breaker_open_until, r.run.status]).toEqual([at + 500, 'fired']);
  });

  it('[X7][H9][E1][M8] code runs in the sandbox: an error carries its policy; a code matcher that cannot answer names its failure', () => {
    const c = compilePipeline(pipeline([
      ev('e', 'tool.before_call'),
      match('cm', {}, { code: { language: 'ts', source: 'export default function (ctx: MatcherContext) { if (ctx.payload.x === 1) throw new Error("bad x"); return ctx.payload.x === 2; }' } }),
      handler('h', code('export default function (ctx: HandlerContext) { if (ctx.payload.boom) throw new Error("boom"); return block("code says no " + ctx.payload.tool_name); }'), { on_error: 'continue' }),
    ], ['e->cm', 'cm->h']), { sandbox });
    if (!c.ok) throw new Error(JSON.stringify(c.problems));
    const ok = asHandler(runNode(c.compiled, 'h', event('tool.before_call', { tool_name: 'Bash', x: 2 }), initialState(), env()));
    expect(ok.run).toMatchObject({ status: 'fired', decision: 'block_action', reason: 'code says no Bash' });
    expect(ok.candidate).toBe(true);
    const err = asHandler(runNode(c.compiled, 'h', event('tool.before_call', { boom: true }), initialState(), env()));
    expect(err.run.status === 'error' && [err.run.error.message, err.run.error.policy]).toEqual([expect.stringContaining('boom'), 'continue']);
    expect(runNode(c.compiled, 'cm', event('tool.before_call', { x: 2 }), initialState(), env())).toMatchObject({ kind: 'matcher', pass: true });
    const failed = runNode(c.compiled, 'cm', event('tool.before_call', { x: 1 }), initialState(), env());
    expect(failed).toMatchObject({ kind: 'matcher', pass: false, failure: { matcher_id: 'cm', message: expect.stringContaining('bad x') } });
    // [M8] a code matcher that could not answer leaves the handler to its error policy: dispatch reaches it.
    expect(asHandler(runNode(c.compiled, 'h', event('tool.before_call', { x: 1 }), initialState(), env())).candidate).toBe(true);
  });
});

// ---- [X7] against explain mode, over random pipelines and events ----

const TYPES = ['tool.before_call', 'tool.after_call', 'agent.end'];
const FIELDS = ['f0', 'f1', 'tool_name'];
const VALUES: JsonValue[] = ['a', 'b', 'Bash', 0, 1, 5, null];
const value = fc.constantFrom(...VALUES);
const path = fc.oneof(fc.constantFrom(...FIELDS).map((f) => `payload.${f}`), fc.constant('state.n'));
const condition: fc.Arbitrary<JsonObject> = fc.oneof(
  fc.record({ p: path, v: value }).map(({ p, v }) => ({ [p]: v })),
  fc.record({ p: path, v: fc.array(value, { maxLength: 3 }) }).map(({ p, v }) => ({ [p]: { in: v } })),
  fc.record({ p: path, v: fc.integer({ min: 0, max: 5 }) }).map(({ p, v }) => ({ [p]: { gt: v } })),
  fc.record({ p: path, v: fc.boolean() }).map(({ p, v }) => ({ [p]: { exists: v } })),
);
const action = fc.oneof(
  fc.constant({ type: 'block', reason: 'blocked {{payload.f0}}' }),
  fc.constant({ type: 'terminate', reason: 'end' }),
  fc.constant({ type: 'stop' }),
  fc.constant({ type: 'ask', reason: 'ok?' }),
  fc.constant({ type: 'add_context', text: 'note {{payload.f1}}' }),
  fc.constant({ type: 'audit', fields: ['payload.f1'] }),
  fc.record({ v: value }).map(({ v }) => ({ type: 'rewrite', ops: [{ op: 'set', path: 'payload.f0', value: v }] })),
  fc.integer({ min: 0, max: 3 }).map((limit) => ({ type: 'budget', key: 'n', limit })),
);
const docArb: fc.Arbitrary<PipelineInput> = fc
  .record({
    patterns: fc.array(fc.constantFrom('tool.before_call', 'tool.*', '*', 'agent.end'), { minLength: 1, maxLength: 2 }),
    matchers: fc.array(condition, { maxLength: 3 }),
    handlers: fc.array(fc.record({ action, order: fc.integer({ min: 0, max: 2 }), shadow: fc.boolean(), enabled: fc.integer({ min: 0, max: 5 }).map((n) => n !== 0) }), { minLength: 1, maxLength: 5 }),
    bits: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 60, maxLength: 60 }),
  })
  .map(({ patterns, matchers, handlers, bits }) => {
    const nodes = [
      ...patterns.map((pattern, i) => ({ id: `e${i}`, kind: 'event' as const, pattern })),
      ...matchers.map((when, i) => ({ id: `m${i}`, kind: 'matcher' as const, when })),
      ...handlers.map((h, i) => ({ id: `h${i}`, kind: 'handler' as const, name: `h${i}`, ...h })),
    ] as PipelineInput['nodes'];
    const wires: { from: string; to: string }[] = [];
    let b = 0;
    for (const [i] of patterns.entries()) for (const [j] of matchers.entries()) if (bits[b++ % bits.length]! < 5) wires.push({ from: `e${i}`, to: `m${j}` });
    for (const [k] of handlers.entries()) {
      const from = matchers.length > 0 && bits[b++ % bits.length]! < 6 ? `m${bits[b++ % bits.length]! % matchers.length}` : `e${k % patterns.length}`;
      wires.push({ from, to: `h${k}` });
    }
    return { format: 'hookwire.pipeline', version: 1, name: 'random', nodes, wires };
  });
const eventArb: fc.Arbitrary<HookEvent> = fc
  .record({ type: fc.constantFrom(...TYPES), payload: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 3 }) })
  .map(({ type, payload }) => ({ event_id: 'ev1', trace_id: 't', agent_id: 'agent', type, ts: '2026-01-01T00:00:00.000Z', payload }));

const uncached = (paths: readonly PathExplain[]) => paths.map((p) => ({ ...p, matchers: p.matchers.map((m) => ({ ...m, cached: false })) }));

describe('runNode agrees with explain mode [X7]', () => {
  it('[X7][X4][M3] the first handler to run tells the same story alone; every handler up to it is a candidate exactly when explain mode ran it', () => {
    let compared = 0;
    fc.assert(
      fc.property(docArb, eventArb, fc.integer({ min: 0, max: 4 }), (doc, e, n) => {
        const r = compilePipeline(doc);
        if (!r.ok) return;
        const state = initialState({ n });
        const { explanation } = explainEvent(r.compiled, e, state, env());
        const stories = explanation.handlers;
        const first = stories.findIndex((s) => s.status === 'fired' || s.status === 'error');
        for (let rank = 0; rank < (first < 0 ? stories.length : first + 1); rank++) {
          const s = stories[rank]!;
          const alone = asHandler(runNode(r.compiled, s.handler_id, e, state, env()));
          expect(alone.candidate, `${s.handler_id}: ${s.status}`).toBe(s.status === 'fired' || s.status === 'error');
          // `cached` says whether an earlier handler evaluated the matcher for this event [M6]: alone, none did.
          if (s.status !== 'disabled') expect(uncached(alone.paths)).toEqual(uncached(s.paths));
          if (rank === first) {
            expect({ ...alone.run, paths: uncached(alone.run.paths) }).toEqual({ ...s, paths: uncached(s.paths) });
            compared++;
          }
        }
        // Every matcher's verdict alone is its test's on the event [M5].
        for (const m of r.compiled.matchers) {
          const alone = runNode(r.compiled, m.id, e, state, env());
          expect(alone?.kind === 'matcher' && alone.pass).toBe(m.test({ event: e, payload: e.payload, state: state.vars, now: env().clock.now(), flows: undefined }) === true);
        }
      }),
      { numRuns: 300 },
    );
    expect(compared).toBeGreaterThan(50);
  });
});
