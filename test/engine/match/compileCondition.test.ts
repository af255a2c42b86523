import { describe, expect, it } from 'vitest';
import { compileCondition } from '../../../engine/match/compileCondition.ts';
import type { Problem } from '../../../engine/model/problem.ts';
import type { JsonObject } from '../../../engine/model/json.ts';
import type { Scope } from '../../../engine/match/path.ts';
import { event } from '../helpers.ts';

function scope(payload: JsonObject, state: JsonObject = {}, meta?: JsonObject): Scope {
  return { event: event('tool.before_call', payload, meta ? { meta } : {}), payload, state, now: 0 };
}

function check(cond: unknown, s: Scope): boolean {
  const problems: Problem[] = [];
  const c = compileCondition(cond, ['when'], problems);
  expect(problems).toEqual([]);
  const verdict = c.test(s);
  expect(c.explain(s).pass).toBe(verdict); // [X5] at the clause level
  return verdict;
}

function problemsOf(cond: unknown): Problem[] {
  const problems: Problem[] = [];
  compileCondition(cond, ['when'], problems, 'm1');
  return problems;
}

describe('conditions', () => {
  const p = scope({ tool_name: 'run_shell', n: 5, cmd: 'rm -rf /', tags: ['a', 'b'], nested: { k: null }, obj: { a: 1 } }, { tokens: 10 }, { user_id: 'u1' });

  it('[C1] loads the seed\'s form as written and ANDs several keys', () => {
    expect(check({ 'payload.tool_name': { in: ['delete_file', 'run_shell'] } }, p)).toBe(true);
    expect(check({ 'payload.tool_name': { in: ['delete_file', 'run_shell'] }, 'payload.n': { gt: 9 } }, p)).toBe(false);
  });

  it('[C2] reads payload, state, meta and event roots; array indexes; own keys only', () => {
    expect(check({ 'state.tokens': 10, 'meta.user_id': 'u1', 'event.type': 'tool.before_call', 'event.agent_id': 'agent-1' }, p)).toBe(true);
    expect(check({ 'payload.tags.1': 'b' }, p)).toBe(true);
    expect(check({ 'payload.tags.2': { exists: true } }, p)).toBe(false);
    expect(check({ 'payload.constructor': { exists: true } }, p)).toBe(false);
    expect(check({ 'payload.toString': { exists: true } }, p)).toBe(false);
  });

  it('[C3] a bare operand means eq; several operators on one path mean AND', () => {
    expect(check({ 'payload.tool_name': 'run_shell' }, p)).toBe(true);
    expect(check({ 'payload.n': { gt: 1, lt: 5 } }, p)).toBe(false);
    expect(check({ 'payload.n': { gte: 5, lte: 5 } }, p)).toBe(true);
  });

  it('[C4] eq/ne are structural; in/nin test membership; ne and nin pass on a missing path', () => {
    expect(check({ 'payload.obj': { eq: { a: 1 } } }, p)).toBe(true);
    expect(check({ 'payload.obj': { ne: { a: 2 } } }, p)).toBe(true);
    expect(check({ 'payload.tags': { in: [['a', 'b'], 'x'] } }, p)).toBe(true);
    expect(check({ 'payload.tool_name': { nin: ['run_shell'] } }, p)).toBe(false);
    expect(check({ 'payload.missing': { ne: 1 } }, p)).toBe(true);
    expect(check({ 'payload.missing': { nin: [1] } }, p)).toBe(true);
    expect(check({ 'payload.missing': { in: [null] } }, p)).toBe(false);
    expect(check({ 'payload.nested.k': { eq: null } }, p)).toBe(true);
  });

  it('[C5] regex (RE2, flags), prefix, suffix, contains on strings and arrays', () => {
    expect(check({ 'payload.cmd': { regex: '\\brm\\s+-rf' } }, p)).toBe(true);
    expect(check({ 'payload.cmd': { regex: { pattern: 'RM -RF', flags: 'i' } } }, p)).toBe(true);
    expect(check({ 'payload.n': { regex: '5' } }, p)).toBe(false); // strings only
    expect(check({ 'payload.tool_name': { prefix: 'run_' }, 'payload.cmd': { suffix: '/' } }, p)).toBe(true);
    expect(check({ 'payload.cmd': { contains: '-rf' }, 'payload.tags': { contains: 'a' } }, p)).toBe(true);
    expect(check({ 'payload.tags': { contains: 'z' } }, p)).toBe(false);
  });

  it('[C5] a catastrophic-backtracking pattern runs in linear time on a hostile payload', () => {
    const hostile = scope({ s: 'a'.repeat(50_000) + '!' });
    const t0 = Date.now();
    expect(check({ 'payload.s': { regex: '^(a+)+$' } }, hostile)).toBe(false);
    // Not a timing assertion on speed: a backtracking engine would not return at all in the test's lifetime.
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it('[C6] comparisons need two numbers or two strings', () => {
    expect(check({ 'payload.n': { gt: 4 } }, p)).toBe(true);
    expect(check({ 'payload.tool_name': { gt: 'a' } }, p)).toBe(true);
    expect(check({ 'payload.tool_name': { gt: 1 } }, p)).toBe(false);
    expect(check({ 'payload.missing': { lt: 1 } }, p)).toBe(false);
  });

  it('[C7] exists true passes for null values; exists false for missing paths', () => {
    expect(check({ 'payload.nested.k': { exists: true } }, p)).toBe(true);
    expect(check({ 'payload.nested.z': { exists: false } }, p)).toBe(true);
  });

  it('[C8] all, any and not combine; empty all is true, empty any is false', () => {
    expect(check({ all: [] }, p)).toBe(true);
    expect(check({ any: [] }, p)).toBe(false);
    expect(check({ any: [{ 'payload.n': 1 }, { 'payload.n': 5 }] }, p)).toBe(true);
    expect(check({ not: { 'payload.n': 5 } }, p)).toBe(false);
    expect(check({ all: [{ any: [{ 'payload.n': 5 }] }, { not: { 'payload.tool_name': 'x' } }] }, p)).toBe(true);
  });

  it('[C9] operators fail on a missing path and the explanation marks it missing with a hint', () => {
    const s = scope({ user_input: 'ignore previous instructions' });
    const problems: Problem[] = [];
    const c = compileCondition({ 'payload.input': { regex: 'ignore' } }, ['when'], problems);
    const ex = c.explain(s);
    expect(ex).toMatchObject({ kind: 'clause', path: 'payload.input', op: 'regex', missing: true, pass: false });
    expect(ex.kind === 'clause' && ex.hint).toBe('`payload.input` is missing; the payload has `user_input`');
    expect(c.test(s)).toBe(false);
  });

  it('[V5] reports unknown operators, bad operands, bad paths and bad regexes with their JSON paths', () => {
    expect(problemsOf({ 'payload.x': { equals: 1 } })).toEqual([
      expect.objectContaining({ code: 'unknown_operator', path: ['when', 'payload.x', 'equals'], node_id: 'm1' }),
    ]);
    expect(problemsOf({ 'payload.x': { in: 'abc' } })[0]).toMatchObject({ code: 'bad_operand', path: ['when', 'payload.x', 'in'] });
    expect(problemsOf({ 'tool_name': 'x' })[0]).toMatchObject({ code: 'bad_path', path: ['when', 'tool_name'] });
    expect(problemsOf({ 'payload.x': { regex: '(?<=a)b' } })[0]).toMatchObject({ code: 'bad_regex', path: ['when', 'payload.x', 'regex'] });
    expect(problemsOf({ 'payload.x': { regex: { pattern: 'a', flags: 'g' } } })[0]).toMatchObject({ code: 'bad_regex' });
    expect(problemsOf({ any: { 'payload.x': 1 } })[0]).toMatchObject({ code: 'bad_operand', path: ['when', 'any'] });
    expect(problemsOf({ 'payload.x': {} })[0]).toMatchObject({ code: 'bad_operand' });
    expect(problemsOf({ 'event.nope': 1 })[0]).toMatchObject({ code: 'bad_path' });
    // Every problem at once [V2].
    expect(problemsOf({ 'payload.a': { eqq: 1 }, 'payload.b': { regex: '(' }, c: 1 })).toHaveLength(3);
  });

  it('[V8] __proto__ in a path is a plain key', () => {
    const payload = JSON.parse('{"__proto__": {"polluted": "yes"}}') as JsonObject;
    expect(check({ 'payload.__proto__.polluted': 'yes' }, scope(payload))).toBe(true);
    expect(check({ 'payload.__proto__': { exists: true } }, scope({}))).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
