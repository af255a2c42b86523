import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compilePipeline, dispatch, initialState, type CompiledPipeline, type Sandbox } from '../../../engine/index.ts';
import { createNodeSandbox } from '../../../engine/node/loadQuickJS.ts';
import { ev, event, fixedClock, handler, pipeline } from '../helpers.ts';

// The compiled pipeline is immutable; the fast path's scratch belongs to dispatch and is used by one
// dispatch at a time. A sandbox implementation that calls back into dispatch must be refused loudly.
let real: Sandbox;
beforeAll(async () => {
  real = await createNodeSandbox();
});
afterAll(() => real.dispose());

const code = (source: string) => ({ type: 'code' as const, language: 'js' as const, source, timeout_ms: 5000 });

describe('dispatch scratch', () => {
  it('[E1] a dispatch re-entered from inside a handler throws; the outer one goes on and fails closed', () => {
    let compiled: CompiledPipeline | null = null;
    const inner: unknown[] = [];
    // The real QuickJS sandbox, with a host that dispatches again before each call.
    const reentrant: Sandbox = {
      compile: (s, o) => real.compile(s, o),
      release: (p) => real.release(p),
      dispose: () => undefined,
      call(program, input, limits) {
        try {
          inner.push(dispatch(compiled!, event('tool.before_call'), initialState(), { clock: fixedClock() }));
        } catch (e) {
          inner.push(e);
        }
        return real.call(program, input, limits);
      },
    };
    const r = compilePipeline(pipeline([ev('e', 'tool.before_call'), handler('h', code('export default () => ({ decision: "continue" })'))], ['e->h']), { sandbox: reentrant });
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    compiled = r.compiled;
    const out = dispatch(compiled, event('tool.before_call'), initialState(), { clock: fixedClock() });
    expect(out.decision).toBe('continue');
    expect(inner).toHaveLength(1);
    expect(inner[0]).toBeInstanceOf(Error);
    expect((inner[0] as Error).message).toMatch(/dispatch re-entered/);
    // The guard is released: the next dispatch runs (and re-enters once more, refused again).
    expect(dispatch(compiled, event('tool.before_call'), initialState(), { clock: fixedClock() }).decision).toBe('continue');
    expect((inner[1] as Error).message).toMatch(/dispatch re-entered/);
  });

  it('[E4] a clock that throws leaves the pipeline usable for the next event', () => {
    const r = compilePipeline(pipeline([ev('e', '*'), handler('b', { type: 'block', reason: 'no' })], ['e->b']));
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const broken = { clock: { now: (): number => { throw new Error('clock down'); } } };
    expect(() => dispatch(r.compiled, event('x'), initialState(), broken)).toThrow('clock down');
    expect(dispatch(r.compiled, event('x'), initialState(), { clock: fixedClock() }).decision).toBe('block_action');
  });

  it('[V5] the compiled pipeline is frozen: dispatch keeps no state on it', () => {
    const r = compilePipeline(pipeline([ev('e', '*'), handler('b', { type: 'block', reason: 'no' })], ['e->b']));
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    dispatch(r.compiled, event('x'), initialState(), { clock: fixedClock() });
    expect(Object.isFrozen(r.compiled)).toBe(true);
    expect(Object.isFrozen(r.compiled.handlers)).toBe(true);
    expect(Object.keys(r.compiled).sort()).toEqual(['flowObservers', 'flows', 'handlers', 'matchers', 'modeOf', 'pipeline', 'plan', 'verdictSlot', 'verdictSlots']);
  });
});
