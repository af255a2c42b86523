// Input past the JSON limits [V9][V12] at the runtime's entry points: emit, emitAsync, guard, guardTool (the
// before payload and the tool's result). Each answers with a problem naming the limit and the path and fails
// closed; never a throw. Just below the limits everything works.
import { describe, expect, it } from 'vitest';
import { JSON_LIMITS } from '../../../engine/model/jsonLimits.ts';
import { createRuntime } from '../../../engine/runtime/index.ts';
import type { JsonObject } from '../../../engine/index.ts';
import { deepObject, pipelineWithCondition } from '../badInput/corpus.ts';

function trace() {
  const r = createRuntime(pipelineWithCondition('{"payload.tool_name":"Nope"}'));
  if (!r.ok) throw new Error('no runtime');
  return r.runtime.startTrace({ trace_id: 't' });
}

const manyKeys = (n: number): JsonObject => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
const OVER: [string, () => JsonObject, RegExp][] = [
  ['a payload 10k deep', () => ({ tool_name: 'Bash', x: deepObject(10_000) }), /payload\.x\.a\.a.*more than 128 levels deep/],
  ['a string past 4 Mi characters', () => ({ tool_name: 'Bash', out: 'x'.repeat(JSON_LIMITS.stringChars + 1) }), /payload\.out is a string of 4194305 characters, past the limit of 4194304/],
  ['an object past 100 000 keys', () => ({ tool_name: 'Bash', env: manyKeys(JSON_LIMITS.entries + 1) }), /payload\.env has 100001 entries, past the limit of 100000/],
  ['an array past 100 000 items', () => ({ tool_name: 'Bash', lines: Array.from({ length: JSON_LIMITS.entries + 1 }, () => 1) }), /payload\.lines has 100001 entries/],
  ['a payload past 8 Mi characters in all', () => ({ tool_name: 'Bash', a: 'x'.repeat(3_000_000), b: 'y'.repeat(3_000_000), c: 'z'.repeat(3_000_000) }), /payload is more than 8388608 characters as JSON/],
];

describe('[V9][V12] runtime entry points refuse input past the limits with a problem, failing closed', () => {
  for (const [name, make, message] of OVER) {
    it(`[V12] emit and emitAsync: ${name}`, async () => {
      const t = trace();
      const r = t.emit('tool.before_call', make());
      expect(r).toMatchObject({ decision: 'block_action', blocked: true, decided_by: null, problem: { code: expect.stringMatching(/too_deep|too_large/) } });
      expect(r.reason).toMatch(message);
      expect(r.problem!.message).toMatch(message);
      const a = await t.emitAsync('tool.before_call', make());
      expect(a).toMatchObject({ decision: 'block_action', blocked: true });
      // The trace goes on: the next good event is dispatched as usual.
      expect(t.emit('tool.before_call', { tool_name: 'Bash' })).toMatchObject({ decision: 'continue', blocked: false });
    });
  }

  it('[V12][P6] guard and guardTool: a before payload past a limit is blocked before the action runs', async () => {
    const t = trace();
    let ran = 0;
    const g = await t.guardTool('Bash', { command: deepObject(500) as unknown as string }, () => ran++);
    expect(g).toMatchObject({ status: 'blocked', stage: 'before', decision: 'block_action', message: expect.stringMatching(/Blocked by Hookwire: input refused: .*levels deep/) });
    expect(ran).toBe(0);
  });

  it('[V12][P6] guardTool: a tool result past a limit is withheld (blocked after), not a TypeError', async () => {
    const t = trace();
    const deep = await t.guardTool('Read', { path: 'a' }, () => deepObject(20_000));
    expect(deep).toMatchObject({ status: 'blocked', stage: 'after', message: expect.stringMatching(/tool_response.*levels deep/) });
    const big = await t.guardTool('Read', { path: 'a' }, () => 'x'.repeat(JSON_LIMITS.stringChars + 1));
    expect(big).toMatchObject({ status: 'blocked', stage: 'after', message: expect.stringMatching(/payload\.tool_response is a string of/) });
  });

  it('[V12] meta past a limit is refused the same way', () => {
    const r = trace().emit('tool.before_call', { tool_name: 'Bash' }, { meta: { deep: deepObject(300) } });
    expect(r).toMatchObject({ decision: 'block_action', blocked: true, problem: { code: 'too_deep' } });
    expect(r.reason).toMatch(/meta\.deep/);
  });

  it('[V12] just below every limit everything works', async () => {
    const t = trace();
    const payload = { tool_name: 'Bash', x: deepObject(120), out: 'x'.repeat(JSON_LIMITS.stringChars), env: manyKeys(JSON_LIMITS.entries) };
    const r = t.emit('tool.before_call', payload);
    expect(r.problem).toBeUndefined();
    expect(r).toMatchObject({ decision: 'continue', blocked: false });
    const g = await t.guardTool('Read', { path: 'a' }, () => 'y'.repeat(JSON_LIMITS.stringChars - 100));
    expect(g.status).toBe('ok');
  });
});
