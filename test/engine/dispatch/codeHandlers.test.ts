import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compilePipeline, createSession, dispatch, explainEvent, initialState, loadPipeline } from '../../../engine/index.ts';
import type { Sandbox } from '../../../engine/index.ts';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import { audit, ev, event, fixedClock, handler, pipeline } from '../helpers.ts';

// Code handlers and matchers through the whole engine, in the real QuickJS sandbox. Limits are generous
// (the machines are shared); the limit tests themselves live with the sandbox's own tests.
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createNodeSandbox();
});
afterAll(() => sandbox.dispose());

const code = (source: string, extra: { timeout_ms?: number } = {}) => ({ type: 'code' as const, language: 'ts' as const, source, timeout_ms: extra.timeout_ms ?? 5000 });
const compileWith = (doc: unknown) => {
  const r = compilePipeline(doc, { sandbox });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.compiled;
};

describe('code handlers in the engine', () => {
  it('[S3][S4][D9][H11] ask(reason) and addContext(text), or a result with context, from code', () => {
    const c = compileWith(pipeline([ev('e', 'tool.before_call'),
      handler('a', code(`export default function (ctx: HandlerContext) { if (ctx.payload.tool_name === 'Deploy') return ask('deploy ' + ctx.payload.env + '?'); }`), { order: 1 }),
      handler('n', code(`export default function () { return addContext('the target is staging'); }`), { order: 2 }),
      handler('m', code(`export default function () { return { decision: 'continue', context: 'second note' }; }`), { order: 3 }),
    ], ['e->a', 'e->n', 'e->m']));
    const r = dispatch(c, event('tool.before_call', { tool_name: 'Deploy', env: 'prod' }), initialState(), { clock: fixedClock() });
    expect([r.decision, r.reason, r.context]).toEqual(['ask', 'deploy prod?', ['the target is staging', 'second note']]);
    const bad = compileWith(pipeline([ev('e', 'tool.before_call'), handler('b', code(`export default function () { return { context: 42 }; }`))], ['e->b']));
    expect(dispatch(bad, event('tool.before_call'), initialState(), { clock: fixedClock() }).errors[0]).toMatchObject({ kind: 'invalid_result', message: 'context must be a string; it is 42' });
  });

  it('[H9] a code handler decides, rewrites and updates state; its logs reach the explanation', () => {
    const c = compileWith(pipeline([ev('e', 'tool.before_call'), handler('h', code(`
      export default function (ctx: HandlerContext) {
        log('saw', ctx.payload.tool_name);
        if (ctx.payload.tool_name === 'rm') return block('no rm for ' + ctx.event.agent_id);
        return { new_payload: { ...ctx.payload, checked: true }, state: { calls: ((ctx.state.calls as number) ?? 0) + 1 } };
      }`))], ['e->h']));
    const ok = explainEvent(c, event('tool.before_call', { tool_name: 'ls' }), initialState(), { clock: fixedClock() });
    expect(ok.result).toMatchObject({ decision: 'continue', payload: { tool_name: 'ls', checked: true }, state: { vars: { calls: 1 } } });
    expect(ok.explanation.handlers[0]).toMatchObject({ status: 'fired', logs: ['saw ls'], patch: [{ op: 'add', path: '/checked', value: true }] });
    const no = dispatch(c, event('tool.before_call', { tool_name: 'rm' }), initialState(), { clock: fixedClock() });
    expect(no).toMatchObject({ decision: 'block_action', reason: 'no rm for agent-1', decided_by: 'h' });
  });

  it('[M8] a code matcher passes only on true; an error makes the handler behind it follow its error policy', () => {
    const c = compileWith(pipeline([
      ev('e', '*'),
      { id: 'm', kind: 'matcher', code: { language: 'js', source: 'export default (ctx) => { if (ctx.payload.boom) throw new Error("bad input"); return ctx.payload.n > 2; }', timeout_ms: 5000 } },
      handler('h', audit()),
    ], ['e->m', 'm->h']));
    const run = (payload: object) => explainEvent(c, event('x', payload as never), initialState(), { clock: fixedClock() });
    expect(run({ n: 3 }).result.audit).toHaveLength(1);
    expect(run({ n: 1 }).result).toMatchObject({ decision: 'continue', audit: [] });
    const broken = run({ boom: true });
    expect(broken.result.audit).toHaveLength(0);
    expect(broken.explanation.handlers[0]!.paths[0]!.matchers[0]!.condition).toMatchObject({ kind: 'code', pass: false, error: { kind: 'thrown', message: expect.stringContaining('bad input') } });
  });

  it('[M8][E1] a guard whose code matcher throws or times out blocks (default on_error), shown in the explanation; fast path agrees', () => {
    // The loop runs out of fuel, the same on every machine; a short wall-clock net (it was 50 ms) raced the fuel, so
    // the fast path and the explanation could stop it for different reasons on a loaded machine [S13][S14].
    const guard = (source: string, extra: object = {}) => compileWith(pipeline([
      ev('e', 'tool.before_call'),
      { id: 'm', kind: 'matcher', label: 'dangerous?', code: { language: 'js', source, timeout_ms: 60_000 } },
      handler('h', { type: 'block', reason: 'dangerous' }, { name: 'Guard', ...extra }),
    ], ['e->m', 'm->h']));
    for (const source of ['export default () => { throw new Error("oops"); }', 'export default () => { while (true) {} }', 'export default () => "yes"']) {
      const c = guard(source);
      const e = event('tool.before_call', { tool_name: 'Bash' });
      const fast = dispatch(c, e, initialState(), { clock: fixedClock() });
      const { result, explanation } = explainEvent(c, e, initialState(), { clock: fixedClock() });
      expect(fast.decision).toBe('block_action');
      expect(fast.reason).toMatch(/^Handler "Guard" failed \((thrown|fuel|invalid_result)\): matcher "dangerous\?" could not answer/);
      expect(fast.errors).toEqual([expect.objectContaining({ handler_id: 'h', policy: 'block' })]);
      expect({ ...result, errors: [...result.errors] }).toEqual({ ...fast, errors: [...fast.errors] });
      expect(explanation.handlers[0]).toMatchObject({ status: 'error', error: { policy: 'block' } });
      expect(explanation.handlers[0]!.paths[0]!.matcher_failure).toMatchObject({ matcher_id: 'm' });
    }
    // on_error: continue is an explicit choice to let it through.
    const lenient = guard('export default () => { throw new Error("oops"); }', { on_error: 'continue' });
    expect(dispatch(lenient, event('tool.before_call', {}), initialState(), { clock: fixedClock() })).toMatchObject({ decision: 'continue', errors: [expect.objectContaining({ policy: 'continue' })] });
  });

  it('[M8] a failing condition on the same path wins over a code matcher that could not answer: the handler simply does not match', () => {
    const c = compileWith(pipeline([
      ev('e', '*'),
      { id: 'm', kind: 'matcher', code: { language: 'js', source: 'export default () => { throw new Error("oops"); }', timeout_ms: 5000 } },
      { id: 'bash', kind: 'matcher', when: { 'payload.tool_name': 'Bash' } },
      handler('h', { type: 'block', reason: 'dangerous' }),
    ], ['e->m', 'm->bash', 'bash->h']));
    expect(dispatch(c, event('x', { tool_name: 'Read' }), initialState(), { clock: fixedClock() })).toMatchObject({ decision: 'continue', errors: [] });
    expect(dispatch(c, event('x', { tool_name: 'Bash' }), initialState(), { clock: fixedClock() }).decision).toBe('block_action');
  });

  it('[E1] a throwing sync handler fails closed by default, with event type, trace id and handler name', () => {
    const c = compileWith(pipeline([ev('e', '*'), handler('h', code('export default function () { throw new Error("kaput"); }'), { name: 'Fragile' }), handler('after', audit())], ['e->h', 'e->after']));
    const r = dispatch(c, event('tool.before_call', {}, { trace_id: 'T-7' }), initialState(), { clock: fixedClock() });
    expect(r.decision).toBe('block_action');
    expect(r.reason).toMatch(/^Handler "Fragile" failed \(thrown at line 1\): .*kaput/);
    expect(r.errors).toEqual([expect.objectContaining({ kind: 'thrown', event_type: 'tool.before_call', trace_id: 'T-7', handler_id: 'h', handler_name: 'Fragile', policy: 'block', line: 1 })]);
    expect(r.audit).toEqual([]);
  });

  it('[E1] on_error continue goes on; terminate ends the run', () => {
    const throwing = code('export default function () { throw new Error("x"); }');
    const cont = compileWith(pipeline([ev('e', '*'), handler('h', throwing, { on_error: 'continue', order: 1 }), handler('after', audit(), { order: 2 })], ['e->h', 'e->after']));
    const r1 = dispatch(cont, event('x'), initialState(), { clock: fixedClock() });
    expect(r1).toMatchObject({ decision: 'continue', errors: [expect.objectContaining({ policy: 'continue' })] });
    expect(r1.audit).toHaveLength(1);
    const term = compileWith(pipeline([ev('e', '*'), handler('h', throwing, { on_error: 'terminate' })], ['e->h']));
    expect(dispatch(term, event('x'), initialState(), { clock: fixedClock() }).decision).toBe('terminate');
  });

  it('[E1] a handler past its time limit follows the policy; invalid results too', () => {
    const loop = compileWith(pipeline([ev('e', '*'), handler('h', code('export default function () { while (true) {} }', { timeout_ms: 30 }))], ['e->h']));
    const r = dispatch(loop, event('x'), initialState(), { clock: fixedClock() });
    expect(r).toMatchObject({ decision: 'block_action', errors: [expect.objectContaining({ kind: 'timeout' })] });
    const garbage = compileWith(pipeline([ev('e', '*'), handler('h', code('export default function () { return { decision: "maybe" }; }'))], ['e->h']));
    expect(dispatch(garbage, event('x'), initialState(), { clock: fixedClock() }).errors[0]).toMatchObject({ kind: 'invalid_result', message: expect.stringContaining('maybe') });
  });

  it('[E2] an async event\'s handler error is logged and decides nothing', () => {
    const c = compileWith(pipeline([ev('e', 'agent.end'), handler('h', code('export default function () { throw new Error("x"); }'))], ['e->h']));
    expect(dispatch(c, event('agent.end'), initialState(), { clock: fixedClock() })).toMatchObject({ decision: 'continue', errors: [expect.objectContaining({ policy: 'logged' })] });
  });

  it('[E3] a breaker opens after K consecutive failures, skips the handler for the cool-down (while_open: skip), then closes', () => {
    const c = compileWith(pipeline([
      ev('e', '*'),
      handler('flaky', code('export default function (ctx) { if (ctx.payload.fail) throw new Error("down"); return block("checked"); }'), { on_error: 'continue', breaker: { threshold: 2, cooldown_ms: 1000, while_open: 'skip' } }),
    ], ['e->flaky']));
    const clock = fixedClock(0);
    const s = createSession(c, { clock });
    const step = (fail: boolean) => s.explain(event('x', { fail }));
    expect(step(true).result.errors).toHaveLength(1);
    expect(step(true).result.errors).toHaveLength(1); // second failure opens it
    const skipped = step(false);
    expect(skipped.result.decision).toBe('continue');
    expect(skipped.explanation!.handlers[0]).toMatchObject({ status: 'breaker_open', breaker_open_until: 1000 });
    clock.t = 1000;
    expect(step(false).result.decision).toBe('block_action'); // closed again, and the success resets the count
    expect(s.state.breakers.flaky).toEqual({ failures: 0, open_until: 0 });
  });

  it('[E3] an open breaker on a guard blocks what the guard matches by default (while_open: block); fast path and explain agree', () => {
    const doc = pipeline([
      ev('e', 'tool.before_call'),
      { id: 'bash', kind: 'matcher', when: { 'payload.tool_name': 'Bash' } },
      handler('flaky', code('export default function (ctx) { if (ctx.payload.fail) throw new Error("down"); return undefined; }'), { name: 'Flaky guard', on_error: 'continue', breaker: { threshold: 1, cooldown_ms: 1000 } }),
      handler('later', audit(), { order: 200 }),
    ], ['e->bash', 'bash->flaky', 'e->later']);
    const c = compileWith(doc);
    const clock = fixedClock(0);
    const s = createSession(c, { clock });
    expect(s.dispatch(event('tool.before_call', { tool_name: 'Bash', fail: true })).decision).toBe('continue'); // on_error continue; the breaker opens
    const e = event('tool.before_call', { tool_name: 'Bash' });
    const fast = dispatch(c, e, s.state, { clock });
    const { result, explanation } = explainEvent(c, e, s.state, { clock });
    expect(fast).toMatchObject({ decision: 'block_action', decided_by: 'flaky', reason: expect.stringContaining('breaker is open until 1970-01-01T00:00:01.000Z') });
    expect(result.decision).toBe(fast.decision);
    expect(result.reason).toBe(fast.reason);
    expect(explanation.handlers.find((h) => h.handler_id === 'flaky')).toMatchObject({ status: 'breaker_open', breaker_open_until: 1000, decision: 'block_action' });
    expect(explanation.handlers.find((h) => h.handler_id === 'later')).toMatchObject({ status: 'not_reached', ended_by: 'flaky' });
    // What the guard does not match is not blocked; and the lint asks for an explicit choice.
    expect(dispatch(c, event('tool.before_call', { tool_name: 'Read' }), s.state, { clock }).decision).toBe('continue');
    expect(loadPipeline(doc).problems).toEqual([expect.objectContaining({ code: 'breaker_policy', node_id: 'flaky' })]);
  });

  it('[E4] code sees the injected clock and a seeded random: the same inputs give the same result', () => {
    const c = compileWith(pipeline([ev('e', '*'), handler('h', code('export default function (ctx) { return block(String(Date.now()) + ":" + Math.random()); }'))], ['e->h']));
    const run = () => dispatch(c, event('x', {}, { event_id: 'same' }), initialState(), { clock: fixedClock(1234) }).reason;
    expect(run()).toBe(run());
    expect(run()).toMatch(/^1234:0\.\d+/);
  });

  it('[X5] code handlers give the same result on the fast path and in explain mode', () => {
    const c = compileWith(pipeline([ev('e', '*'), handler('h', code('export default function (ctx) { return ctx.payload.n > 1 ? { decision: "stop_propagation", reason: "n" } : undefined; }'))], ['e->h']));
    for (const n of [0, 2]) {
      const e = event('x', { n });
      const fast = dispatch(c, e, initialState(), { clock: fixedClock() });
      const { result } = explainEvent(c, e, initialState(), { clock: fixedClock() });
      expect(result.decision).toBe(fast.decision);
      expect(result.reason).toBe(fast.reason);
    }
  });

  it('[V5] a syntax error in code is a load problem with the user\'s line and column', () => {
    const r = loadPipeline(pipeline([ev('e', '*'), handler('h', code('export default function (ctx) {\n  return ;;; }}\n}'))], ['e->h']), { sandbox });
    expect(r.ok).toBe(false);
    expect(r.problems[0]).toMatchObject({ code: 'code_error', node_id: 'h', path: ['nodes', 1, 'action', 'source'] });
    expect(r.problems[0]!.message).toMatch(/line 2/);
    // The same place as data, for an editor to put its cursor on.
    expect(r.problems[0]!.at).toMatchObject({ line: 2 });
    const noSandbox = compilePipeline(pipeline([ev('e', '*'), handler('h', code('export default () => {}'))], ['e->h']));
    expect(noSandbox.ok || noSandbox.problems[0]!.code).toBe('no_sandbox');
  });
});

describe('the precedence note with a failing handler [D5][E1]', () => {
  it('[D5][E1] a failure whose error policy blocks is the effective decider over an earlier ASK', () => {
    const c = compileWith(pipeline([ev('e', '*'), handler('a', { type: 'ask', reason: 'sure?' }, { order: 1 }), handler('f', code('export default () => { throw new Error("oops"); }'), { order: 2 })], ['e->a', 'e->f']));
    const { result, explanation } = explainEvent(c, event('tool.before_call'), initialState(), { clock: fixedClock() });
    expect([result.decision, result.decided_by]).toEqual(['block_action', 'f']);
    expect(explanation.precedence).toBe('BLOCK_ACTION from "f" is effective (TERMINATE > BLOCK_ACTION > ASK > STOP_PROPAGATION > CONTINUE); also: "a" decided ASK.');
  });
});
