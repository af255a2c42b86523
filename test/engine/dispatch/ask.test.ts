import { describe, expect, it } from 'vitest';
import { dispatch, explainEvent, initialState } from '../../../engine/index.ts';
import type { CompiledPipeline } from '../../../engine/compile/compilePipeline.ts';
import type { HookEvent } from '../../../engine/index.ts';
import { audit, block, compile, env, ev, event, handler, pipeline, stop, terminate } from '../helpers.ts';

const ask = (reason = 'ok?') => ({ type: 'ask' as const, reason });
const note = (text: string) => ({ type: 'add_context' as const, text });

function both(c: CompiledPipeline, e: HookEvent) {
  const fast = dispatch(c, e, initialState(), env());
  const { result, explanation } = explainEvent(c, e, initialState(), env());
  expect(result).toEqual(fast);
  return { fast, explanation };
}
const chain = (...actions: { id: string; action: Parameters<typeof handler>[1]; shadow?: boolean }[]) =>
  compile(pipeline([ev('e', 'tool.before_call'), ...actions.map((a, i) => handler(a.id, a.action, { order: (i + 1) * 10, shadow: a.shadow ?? false }))], actions.map((a) => `e->${a.id}`)));

describe('ASK [D9][H10]', () => {
  it('[D9][H10] ask decides ASK with its reason template filled in; later handlers still run', () => {
    const c = chain({ id: 'a', action: ask('deploy {{payload.tool_name}}?') }, { id: 'log', action: audit() });
    const { fast, explanation } = both(c, event('tool.before_call', { tool_name: 'Deploy' }));
    expect([fast.decision, fast.reason, fast.decided_by]).toEqual(['ask', 'deploy Deploy?', 'a']);
    expect(fast.audit).toHaveLength(1);
    expect(explanation.handlers.map((h) => h.status)).toEqual(['fired', 'fired']);
  });

  it('[D9][D5] a later BLOCK_ACTION or TERMINATE wins over an ASK (nobody is asked to approve what a policy forbids)', () => {
    for (const [later, decision] of [[block('no'), 'block_action'], [terminate('end'), 'terminate']] as const) {
      const { fast, explanation } = both(chain({ id: 'a', action: ask() }, { id: 'b', action: later }), event('tool.before_call'));
      expect([fast.decision, fast.decided_by]).toEqual([decision, 'b']);
      expect(explanation.precedence).toMatch(/TERMINATE > BLOCK_ACTION > ASK > STOP_PROPAGATION > CONTINUE/);
    }
  });

  it('[D9][D5] ASK outranks STOP_PROPAGATION; a STOP after an ASK ends the chain but leaves ASK, and ended_by names the STOP', () => {
    const { fast, explanation } = both(chain({ id: 'a', action: ask('first') }, { id: 's', action: stop() }, { id: 'late', action: block() }), event('tool.before_call'));
    expect([fast.decision, fast.reason, fast.decided_by]).toEqual(['ask', 'first', 'a']);
    expect(explanation.handlers.find((h) => h.handler_id === 'late')).toMatchObject({ status: 'not_reached', ended_by: 's' });
    const stopFirst = both(chain({ id: 's', action: stop() }, { id: 'a', action: ask() }), event('tool.before_call')).fast;
    expect(stopFirst.decision).toBe('stop_propagation');
  });

  it('[D9][D5] of two ASKs, the first one’s reason is kept', () => {
    expect(both(chain({ id: 'a', action: ask('one') }, { id: 'b', action: ask('two') }), event('tool.before_call')).fast).toMatchObject({ decision: 'ask', reason: 'one', decided_by: 'a' });
  });

  it('[D9][D7] on an async event an ASK is reported as ignored; the decision is CONTINUE', () => {
    const c = compile(pipeline([ev('e', 'agent.end'), handler('a', ask())], ['e->a']));
    const { fast, explanation } = both(c, event('agent.end'));
    expect(fast.decision).toBe('continue');
    expect(explanation.handlers[0]).toMatchObject({ decision: 'ask', ignored: 'async' });
  });

  it('[H8][D9] a shadow ASK is reported as would-have-asked and not enforced', () => {
    const { fast, explanation } = both(chain({ id: 'a', action: ask(), shadow: true }), event('tool.before_call'));
    expect(fast.decision).toBe('continue');
    expect(explanation.handlers[0]).toMatchObject({ decision: 'ask', ignored: 'shadow' });
  });
});

describe('add_context [H11]', () => {
  it('[H11] several handlers’ texts are kept in order, in the result and the explanation; the decision stays CONTINUE', () => {
    const c = chain({ id: 'x', action: note('branch is {{payload.branch}}') }, { id: 'y', action: note('tests: npm test') });
    const { fast, explanation } = both(c, event('tool.before_call', { branch: 'main' }));
    expect([fast.decision, fast.context]).toEqual(['continue', ['branch is main', 'tests: npm test']]);
    expect(explanation.context).toEqual(['branch is main', 'tests: npm test']);
    expect(explanation.handlers.map((h) => (h.status === 'fired' ? h.context : undefined))).toEqual(['branch is main', 'tests: npm test']);
  });

  it('[H11] context before a block is kept; a handler after it never ran; a shadow handler’s text is shown, not applied', () => {
    const c = chain({ id: 'x', action: note('before') }, { id: 'sh', action: note('shadowed'), shadow: true }, { id: 'b', action: block() }, { id: 'z', action: note('after') });
    const { fast, explanation } = both(c, event('tool.before_call'));
    expect([fast.decision, fast.context]).toEqual(['block_action', ['before']]);
    expect(explanation.handlers.find((h) => h.handler_id === 'sh')).toMatchObject({ context: 'shadowed', ignored: 'shadow' });
  });

  it('[H11] an async event keeps its context in the result', () => {
    const c = compile(pipeline([ev('e', 'agent.end'), handler('x', note('bye'))], ['e->x']));
    expect(both(c, event('agent.end')).fast.context).toEqual(['bye']);
  });

  it('[H7][V5] the templates are checked when the pipeline loads', () => {
    expect(() => chain({ id: 'x', action: note('{{payload.') })).toThrow(/bad_template|unclosed/);
    expect(() => chain({ id: 'a', action: ask('{{nope.x}}') })).toThrow(/bad_path/);
  });
});

describe('the precedence note [D5]', () => {
  it('[D5][H8] names the effective decision and every other decider in chain order, a shadow one as not enforced', () => {
    const c = chain({ id: 'a', action: ask() }, { id: 'sh', action: block('shadow says no'), shadow: true }, { id: 'log', action: audit() }, { id: 't', action: terminate('end') });
    const { fast, explanation } = both(c, event('tool.before_call'));
    expect(fast.decided_by).toBe('t');
    expect(explanation.precedence).toBe(
      'TERMINATE from "t" is effective (TERMINATE > BLOCK_ACTION > ASK > STOP_PROPAGATION > CONTINUE); also: "a" decided ASK; "sh" would have decided BLOCK_ACTION (shadow, not enforced).',
    );
  });

  it('[D5] one decider, or deciders that only continue, get no note', () => {
    expect(both(chain({ id: 'a', action: ask() }, { id: 'log', action: audit() }), event('tool.before_call')).explanation.precedence).toBeUndefined();
    expect(both(chain({ id: 'n', action: note('hi') }, { id: 'log', action: audit() }), event('tool.before_call')).explanation.precedence).toBeUndefined();
  });
});
