import { describe, expect, it } from 'vitest';
import { createSession, dispatch, explainEvent, initialState, type DispatchResult } from '../../../engine/index.ts';
import type { CompiledPipeline } from '../../../engine/compile/compilePipeline.ts';
import type { HookEvent, JsonObject } from '../../../engine/index.ts';
import { audit, block, compile, env, ev, event, handler, match, pipeline, stop, terminate } from '../helpers.ts';

/** Dispatches on both paths and checks they agree [X5]; returns the fast result and the explanation. */
function both(c: CompiledPipeline, e: HookEvent, state = initialState()) {
  const fast = dispatch(c, e, state, env());
  const { result, explanation } = explainEvent(c, e, state, env());
  expect(strip(result)).toEqual(strip(fast));
  return { fast, explanation };
}
const strip = (r: DispatchResult) => ({ ...r, errors: r.errors.map(({ ...e }) => e) });
const fired = (ex: ReturnType<typeof both>['explanation']) => ex.handlers.filter((h) => h.status === 'fired').map((h) => h.handler_id);
const status = (ex: ReturnType<typeof both>['explanation']) => Object.fromEntries(ex.handlers.map((h) => [h.handler_id, h.status]));

const rewrite = (path: string, value: JsonObject[string]) => ({ type: 'rewrite' as const, ops: [{ op: 'set' as const, path, value }] });

describe('matching', () => {
  it('[M1] exact, prefix and * patterns select event types', () => {
    const c = compile(pipeline([ev('ex', 'tool.before_call'), ev('pre', 'tool.*'), ev('any', '*'), handler('a', audit()), handler('b', audit()), handler('d', audit())], ['ex->a', 'pre->b', 'any->d']));
    expect(fired(both(c, event('tool.before_call')).explanation)).toEqual(['a', 'b', 'd']);
    expect(fired(both(c, event('tool.after_call')).explanation)).toEqual(['b', 'd']);
    expect(fired(both(c, event('tool')).explanation)).toEqual(['d']);
    expect(status(both(c, event('model.after_call')).explanation)).toEqual({ a: 'wrong_event_type', b: 'wrong_event_type', d: 'fired' });
  });

  it('[M2][M3] matchers in a row are AND; several paths are OR', () => {
    const c = compile(pipeline(
      [ev('e', 'tool.before_call'), match('isBash', { 'payload.tool_name': 'Bash' }), match('isRm', { 'payload.tool_input.command': { prefix: 'rm' } }), match('isDel', { 'payload.tool_name': 'delete_file' }), handler('h', block())],
      ['e->isBash', 'isBash->isRm', 'isRm->h', 'e->isDel', 'isDel->h'],
    ));
    const d = (payload: JsonObject) => both(c, event('tool.before_call', payload)).fast.decision;
    expect(d({ tool_name: 'Bash', tool_input: { command: 'rm -rf x' } })).toBe('block_action');
    expect(d({ tool_name: 'Bash', tool_input: { command: 'ls' } })).toBe('continue');
    expect(d({ tool_name: 'delete_file', tool_input: {} })).toBe('block_action');
    expect(d({ tool_name: 'Read' })).toBe('continue');
  });

  it('[M4] a disabled handler never runs and is reported as disabled', () => {
    const c = compile(pipeline([ev('e', '*'), handler('h', block(), { enabled: false })], ['e->h']));
    const { fast, explanation } = both(c, event('x'));
    expect(fast.decision).toBe('continue');
    expect(status(explanation)).toEqual({ h: 'disabled' });
  });

  it('[M5] a matcher sees the payload as rewritten by an earlier handler', () => {
    const c = compile(pipeline(
      [ev('e', '*'), handler('r', rewrite('payload.tool_name', 'Bash'), { order: 1 }), match('m', { 'payload.tool_name': 'Bash' }), handler('h', block('{{payload.tool_name}}'), { order: 2 })],
      ['e->r', 'e->m', 'm->h'],
    ));
    const { fast } = both(c, event('tool.before_call', { tool_name: 'Read' }));
    expect(fast).toMatchObject({ decision: 'block_action', reason: 'Bash', decided_by: 'h' });
  });

  it('[M6] a shared matcher is evaluated once per event and marked cached on the second path', () => {
    const c = compile(pipeline([ev('e', '*'), match('m', { 'payload.x': 1 }), handler('a', audit(), { order: 1 }), handler('b', audit(), { order: 2 })], ['e->m', 'm->a', 'm->b']));
    const { explanation } = both(c, event('x', { x: 1 }));
    const cached = explanation.handlers.map((h) => h.paths[0]!.matchers[0]!.cached);
    expect(cached).toEqual([false, true]);
  });

  it('[M6] after a rewrite the shared matcher is evaluated afresh', () => {
    const c = compile(pipeline(
      [ev('e', '*'), match('m', { 'payload.x': 1 }), handler('a', rewrite('payload.x', 2), { order: 1 }), handler('b', block(), { order: 2 })],
      ['e->m', 'm->a', 'm->b'],
    ));
    const { fast, explanation } = both(c, event('x', { x: 1 }));
    expect(fast.decision).toBe('continue');
    expect(status(explanation)).toEqual({ a: 'fired', b: 'not_matched' });
  });

  it('[M7] tools and agents shorthands are conditions, AND-ed with when', () => {
    const c = compile(pipeline(
      [ev('e', 'tool.before_call'), { id: 'm', kind: 'matcher', tools: ['delete_file'], agents: ['coder'], when: { 'payload.tool_input.force': true } }, handler('h', block())],
      ['e->m', 'm->h'],
    ));
    const d = (agent: string, tool: string, force: boolean) => both(c, event('tool.before_call', { tool_name: tool, tool_input: { force } }, { agent_id: agent })).fast.decision;
    expect(d('coder', 'delete_file', true)).toBe('block_action');
    expect(d('writer', 'delete_file', true)).toBe('continue');
    expect(d('coder', 'read_file', true)).toBe('continue');
    expect(d('coder', 'delete_file', false)).toBe('continue');
  });
});

describe('handlers', () => {
  it('[H1] run in ascending order; ties keep document order', () => {
    const c = compile(pipeline(
      [ev('e', '*'), handler('c', audit(), { order: 5 }), handler('a', audit(), { order: 10 }), handler('b', audit(), { order: 5 }), handler('d', audit())],
      ['e->a', 'e->b', 'e->c', 'e->d'],
    ));
    const { explanation, fast } = both(c, event('x'));
    expect(explanation.handlers.map((h) => h.handler_id)).toEqual(['c', 'b', 'a', 'd']);
    expect(fast.audit.map((a) => a.handler)).toEqual(['c', 'b', 'a', 'd']);
  });

  it('[H2] each handler sees the payload rewritten by the one before', () => {
    const c = compile(pipeline(
      [ev('e', '*'), handler('one', rewrite('payload.n', 1), { order: 1 }), handler('two', { type: 'block', reason: 'n={{payload.n}}' }, { order: 2 })],
      ['e->one', 'e->two'],
    ));
    expect(both(c, event('x', { n: 0 })).fast.reason).toBe('n=1');
  });

  it('[H3] block, terminate and stop decide with their filled-in reasons', () => {
    for (const [action, decision] of [[block('no {{payload.tool_name}}'), 'block_action'], [terminate('no {{payload.tool_name}}'), 'terminate'], [stop('no {{payload.tool_name}}'), 'stop_propagation']] as const) {
      const c = compile(pipeline([ev('e', '*'), handler('h', action)], ['e->h']));
      expect(both(c, event('x', { tool_name: 'rm' })).fast).toMatchObject({ decision, reason: 'no rm', decided_by: 'h' });
    }
  });

  it('[H4] rewrite sets (creating objects), removes and redacts into a new payload without touching the input', () => {
    const c = compile(pipeline([ev('e', '*'), handler('h', { type: 'rewrite', ops: [
      { op: 'set', path: 'payload.a.b.c', value: 1 },
      { op: 'remove', path: 'payload.gone' },
      { op: 'redact', path: 'payload.secret' },
      { op: 'redact', pattern: 'sk-[a-z]{4,}', replacement: '***' },
    ] })], ['e->h']));
    const input = { gone: 1, secret: { k: 'v' }, text: 'key sk-abcdef and sk-xyzw', list: ['sk-qqqq', 2] };
    const frozen = JSON.stringify(input);
    const { fast, explanation } = both(c, event('x', input));
    expect(fast.payload).toEqual({ a: { b: { c: 1 } }, secret: '[REDACTED]', text: 'key *** and ***', list: ['***', 2] });
    expect(JSON.stringify(input)).toBe(frozen);
    expect(explanation.patch).toEqual(expect.arrayContaining([{ op: 'remove', path: '/gone' }, { op: 'add', path: '/a', value: { b: { c: 1 } } }]));
  });

  it('[H4][V8] a rewrite of __proto__ sets a plain key and pollutes nothing', () => {
    const c = compile(pipeline([ev('e', '*'), handler('h', rewrite('payload.__proto__.polluted', 'yes'))], ['e->h']));
    const { fast } = both(c, event('x', {}));
    expect(Object.keys(fast.payload)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(fast.payload)).toBe(Object.prototype);
  });

  it('[H5] audit emits a record with the seed\'s fields and decides CONTINUE', () => {
    const c = compile(pipeline([ev('e', '*'), handler('h', { type: 'audit', message: 'saw {{payload.tool_name}}', fields: ['payload.tool_input.command', 'payload.nope'] })], ['e->h']));
    const { fast } = both(c, event('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'ls' } }, { meta: { user_id: 'u-1' } }));
    expect(fast.decision).toBe('continue');
    expect(fast.audit).toEqual([{
      handler: 'h', level: 'info', trace_id: 't1', agent_id: 'agent-1', user_id: 'u-1', event_id: expect.any(String), event_type: 'tool.before_call',
      tool_name: 'Bash', timestamp: '2026-01-01T00:00:00.000Z', message: 'saw Bash', fields: { 'payload.tool_input.command': 'ls', 'payload.nope': null },
    }]);
  });

  it('[H6] budget accumulates in state and blocks past the limit', () => {
    const c = compile(pipeline([ev('e', 'model.after_call'), handler('b', { type: 'budget', key: 'tokens', amount_path: 'payload.usage.output_tokens', limit: 100, reason: 'spent {{state.tokens}}' })], ['e->b']));
    let state = initialState();
    const decisions: string[] = [];
    for (const n of [40, 50, 'x', 20]) {
      const { fast } = both(c, event('model.after_call', { usage: { output_tokens: n } }), state);
      decisions.push(`${fast.decision}:${fast.state.vars.tokens}`);
      state = fast.state;
    }
    expect(decisions).toEqual(['continue:40', 'continue:90', 'continue:90', 'block_action:110']);
    const last = dispatch(c, event('model.after_call', { usage: { output_tokens: 1 } }), state, env());
    expect(last.reason).toBe('spent 111');
  });

  it('[H6] a fixed-amount budget counts calls', () => {
    const c = compile(pipeline([ev('e', 'tool.before_call'), handler('b', { type: 'budget', key: 'calls', limit: 2, on_exceed: 'terminate' })], ['e->b']));
    let state = initialState();
    const out = [1, 2, 3].map(() => {
      const r = dispatch(c, event('tool.before_call'), state, env());
      state = r.state;
      return r.decision;
    });
    expect(out).toEqual(['continue', 'continue', 'terminate']);
    expect(dispatch(c, event('tool.before_call'), state, env()).reason).toBe('Budget "calls" exceeded: 4 > 2');
  });

  it('[H7] templates render missing values and JSON, and execute nothing', () => {
    const c = compile(pipeline([ev('e', '*'), handler('h', block('{{payload.obj}} {{payload.none}} {{payload.html}}'))], ['e->h']));
    expect(both(c, event('x', { obj: { a: [1] }, html: '<img src=x onerror=alert(1)>' })).fast.reason).toBe('{"a":[1]} <missing payload.none> <img src=x onerror=alert(1)>');
  });

  it('[H8] a shadow handler is reported with what it would do, and nothing is enforced', () => {
    const c = compile(pipeline(
      [ev('e', '*'), handler('s', block('would block'), { order: 1, shadow: true }), handler('r', rewrite('payload.x', 9), { order: 2, shadow: true }), handler('after', audit(), { order: 3 })],
      ['e->s', 'e->r', 'e->after'],
    ));
    const { fast, explanation } = both(c, event('x', { x: 1 }));
    expect(fast).toMatchObject({ decision: 'continue', payload: { x: 1 } });
    expect(explanation.handlers[0]).toMatchObject({ status: 'fired', decision: 'block_action', ignored: 'shadow', reason: 'would block' });
    expect(explanation.handlers[1]).toMatchObject({ ignored: 'shadow', patch: [{ op: 'replace', path: '/x', value: 9 }] });
    expect(explanation.handlers[2]!.status).toBe('fired');
  });
});

describe('decisions', () => {
  const chain = (first: ReturnType<typeof block> | ReturnType<typeof stop> | ReturnType<typeof terminate> | ReturnType<typeof audit>) =>
    compile(pipeline([ev('e', '*'), handler('first', first, { order: 1 }), handler('second', block('second'), { order: 2 })], ['e->first', 'e->second']));

  it('[D1] CONTINUE runs later handlers', () => {
    const { fast, explanation } = both(chain(audit()), event('tool.before_call'));
    expect(fast).toMatchObject({ decision: 'block_action', decided_by: 'second' });
    expect(fired(explanation)).toEqual(['first', 'second']);
  });
  it('[D2] STOP_PROPAGATION skips later handlers; the action runs', () => {
    const { fast, explanation } = both(chain(stop()), event('tool.before_call'));
    expect(fast.decision).toBe('stop_propagation');
    expect(explanation.handlers[1]).toMatchObject({ status: 'not_reached', ended_by: 'first' });
    const s = createSession(chain(stop()), env());
    expect(s.dispatch(event('tool.before_call')).blocked).toBe(false);
  });
  it('[D3] BLOCK_ACTION skips later handlers and blocks the action', () => {
    const { fast, explanation } = both(chain(block('nope')), event('tool.before_call'));
    expect(fast).toMatchObject({ decision: 'block_action', reason: 'nope', decided_by: 'first' });
    expect(explanation.handlers[1]!.status).toBe('not_reached');
    expect(createSession(chain(block('nope')), env()).dispatch(event('tool.before_call')).blocked).toBe(true);
  });
  it('[D4] TERMINATE blocks the action and ends the run: later events dispatch nothing', () => {
    const s = createSession(chain(terminate('bye')), env());
    const first = s.dispatch(event('tool.before_call'));
    expect(first).toMatchObject({ decision: 'terminate', blocked: true, reason: 'bye' });
    const later = s.dispatch(event('model.before_call', { n: 1 }));
    expect(later).toMatchObject({ decision: 'terminate', blocked: true, after_terminate: true, reason: 'bye', payload: { n: 1 } });
  });
  it('[D6] the result carries decision, reason, deciding handler, payload and trace id', () => {
    const r = createSession(chain(block('why')), env()).dispatch(event('tool.before_call', { a: 1 }, { trace_id: 'trace-9' }));
    expect(r).toMatchObject({ decision: 'block_action', reason: 'why', decided_by: 'first', payload: { a: 1 }, trace_id: 'trace-9', blocked: true });
  });
  it('[D7] async events never block: every handler runs, decisions are ignored, rewrites chain', () => {
    const c = compile(pipeline(
      [ev('e', 'agent.end'), handler('t', terminate(), { order: 1 }), handler('r', rewrite('payload.redacted', true), { order: 2 }), handler('a', { type: 'audit', fields: ['payload.redacted'] }, { order: 3 })],
      ['e->t', 'e->r', 'e->a'],
    ));
    const { fast, explanation } = both(c, event('agent.end'));
    expect(fast).toMatchObject({ decision: 'continue', mode: 'async', payload: { redacted: true } });
    expect(fast.audit[0]!.fields).toEqual({ 'payload.redacted': true });
    expect(explanation.handlers[0]).toMatchObject({ decision: 'terminate', ignored: 'async' });
    expect(explanation.precedence).toMatch(/async/);
  });
  it('[D8] the pipeline\'s event_types override the catalogue; unknown types are sync', () => {
    const doc = pipeline([ev('e', '*'), handler('h', block())], ['e->h'], { event_types: [{ type: 'agent.end', mode: 'sync' }, { type: 'tool.before_call', mode: 'async' }] });
    const c = compile(doc);
    expect(both(c, event('agent.end')).fast.decision).toBe('block_action');
    expect(both(c, event('tool.before_call')).fast.decision).toBe('continue');
    expect(both(c, event('my.custom')).fast.decision).toBe('block_action');
    expect(both(c, event('final_answer.after')).fast.decision).toBe('continue');
  });
});

describe('explanations', () => {
  it('[X1][X2][X3] lists every handler with its status, paths, matchers and clauses', () => {
    const c = compile(pipeline(
      [
        ev('e', 'input.received'), ev('t', 'tool.*'),
        match('inj', { 'payload.input': { regex: { pattern: 'ignore previous', flags: 'i' } } }, { label: 'Prompt injection' }),
        handler('block_inj', block('injection'), { order: 5 }),
        handler('tools', audit(), { order: 6 }),
        handler('all', audit(), { order: 7 }),
      ],
      ['e->inj', 'inj->block_inj', 't->tools', 'e->all'],
    ));
    const { explanation } = both(c, event('input.received', { user_input: 'Ignore previous instructions' }));
    expect(status(explanation)).toEqual({ block_inj: 'not_matched', tools: 'wrong_event_type', all: 'fired' });
    const path = explanation.handlers[0]!.paths[0]!;
    expect(path).toMatchObject({ nodes: ['e', 'inj', 'block_inj'], pattern: 'input.received', type_matched: true, pass: false });
    expect(path.matchers[0]).toMatchObject({ matcher_id: 'inj', label: 'Prompt injection', pass: false, cached: false });
    expect(path.matchers[0]!.condition).toEqual({
      kind: 'clause', path: 'payload.input', op: 'regex', expected: { pattern: 'ignore previous', flags: 'i' }, missing: true, pass: false,
      hint: '`payload.input` is missing; the payload has `user_input`',
    });
  });

  it('[X4] a fired handler carries decision, reason, patch, state changes and duration', () => {
    const c = compile(pipeline([ev('e', '*'), handler('b', { type: 'budget', key: 'n', limit: 0, reason: 'over' })], ['e->b']));
    const { explanation } = both(c, event('x'));
    expect(explanation.handlers[0]).toMatchObject({ status: 'fired', decision: 'block_action', reason: 'over', state_changes: [{ key: 'n', after: 1 }], duration_ms: 0 });
    expect(explanation.state_before).toEqual({});
    expect(explanation.state_after).toEqual({ n: 1 });
  });
});
