import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileCondition } from '../../../engine/match/compileCondition.ts';
import type { Problem } from '../../../engine/model/problem.ts';
import type { JsonObject, JsonValue } from '../../../engine/model/json.ts';
import type { Scope } from '../../../engine/match/path.ts';
import { event } from '../helpers.ts';

// The fast test of a clause is a closure specialised by operator and operand (eq/ne on a primitive, `in` of
// one to four values compared in line or a Set of more, regex/prefix/suffix calling the string test behind a
// typeof check, numeric compares read unboxed). Its explaining twin evaluates the operator's generic predicate
// (engine/match/operators.ts), so holding the two equal on random clauses and values holds every
// specialisation to the operator's rule.

const KEYS = ['tool_name', 'n', 'tags', 'obj', '__proto__', 'constructor', 'length', '0'];
const PATHS = [...KEYS.map((k) => `payload.${k}`), 'payload.obj.k', 'payload.obj.k.j', 'payload.tags.0', 'state.n', 'state.obj.k', 'meta.user_id', 'event.agent_id'];
const PRIMS: JsonValue[] = ['a', 'b', 'Bash', 'bash', '', '1', 0, 1, -0, 2.5, 1e21, null, true, false];

const prim = fc.constantFrom(...PRIMS);
const json: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    prim,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('k', 'j', 'a', '0'), tie('v'), { maxKeys: 3 }) as fc.Arbitrary<JsonValue>,
  ),
})).v;

const operand: fc.Arbitrary<[string, JsonValue]> = fc.oneof(
  fc.tuple(fc.constantFrom('eq', 'ne'), json),
  // Lists of every length the specialisations tell apart (0-4 in line, more in a Set), repeats and objects included.
  fc.tuple(fc.constantFrom('in', 'nin'), fc.oneof(fc.array(prim, { maxLength: 8 }), fc.array(json, { maxLength: 4 }))),
  fc.tuple(fc.constant('regex'), fc.constantFrom('^B', 'a|b', 'sh$', '^(Bash|b)$', 'a', '^$', '[0-9]')),
  fc.tuple(fc.constant('regex'), fc.constantFrom('ba', 'B').map((pattern) => ({ pattern, flags: 'i' }))),
  fc.tuple(fc.constantFrom('prefix', 'suffix'), fc.constantFrom('', 'B', 'a', 'sh', 'Bash')),
  fc.tuple(fc.constant('contains'), prim),
  fc.tuple(fc.constant('exists'), fc.boolean()),
  fc.tuple(fc.constantFrom('gt', 'gte', 'lt', 'lte'), fc.oneof(fc.constantFrom(0, 1, 2.5, -1), fc.constantFrom('a', 'b'))),
);

const clause = fc.tuple(fc.constantFrom(...PATHS), operand).map(([path, [op, v]]): JsonObject => ({ [path]: { [op]: v } }));
const condition: fc.Arbitrary<JsonObject> = fc.oneof(
  clause,
  fc.array(clause, { minLength: 1, maxLength: 3 }).map((all) => ({ all })),
  fc.array(clause, { minLength: 1, maxLength: 3 }).map((any) => ({ any })),
  clause.map((not) => ({ not })),
);

const objectOf = (entries: [string, JsonValue][]): JsonObject => {
  const o: JsonObject = {};
  // defineProperty, so that "__proto__" is an own key like any other [V8].
  for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
};
const record = fc.array(fc.tuple(fc.constantFrom(...KEYS), json), { maxLength: 5 }).map(objectOf);

const scopeArb: fc.Arbitrary<Scope> = fc.record({ payload: record, state: record, user: fc.option(prim, { nil: undefined }) }).map(({ payload, state, user }) => ({
  event: event('tool.before_call', payload, user === undefined ? {} : { meta: { user_id: user } }),
  payload,
  state,
  now: 0,
}));

describe('specialised clause closures', () => {
  it('[C3][C4][C5][C6][X5] the fast test of every clause shape equals the operator predicate its explanation evaluates', () => {
    fc.assert(
      fc.property(condition, fc.array(scopeArb, { minLength: 1, maxLength: 6 }), (cond, scopes) => {
        const problems: Problem[] = [];
        const c = compileCondition(cond, ['when'], problems);
        if (problems.length) return; // e.g. a comparison with a non-scalar bound: its problem is tested elsewhere
        for (const s of scopes) expect(c.test(s), JSON.stringify({ cond, payload: s.payload, state: s.state })).toBe(c.explain(s).pass);
      }),
      { numRuns: 3000 },
    );
  });

  it('[C4] in/nin lists of every length agree with membership (in line up to four values, a Set beyond), top-level and nested', () => {
    const pool: JsonValue[] = ['a', 'b', 'c', 'd', 'e', 1, 0, null, true];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pool), { maxLength: 8 }), fc.constantFrom('in', 'nin'), fc.array(fc.option(fc.constantFrom(...pool), { nil: undefined }), { minLength: 1, maxLength: 8 }), (list, op, xs) => {
        const problems: Problem[] = [];
        const top = compileCondition({ 'payload.x': { [op]: list } }, ['when'], problems);
        const nested = compileCondition({ 'payload.o.x': { [op]: list } }, ['when'], problems);
        const inState = compileCondition({ 'state.x': { [op]: list } }, ['when'], problems);
        expect(problems).toEqual([]);
        for (const x of xs) {
          const payload: JsonObject = x === undefined ? { o: {} } : { x, o: { x } };
          const state: JsonObject = x === undefined ? {} : { x };
          const s: Scope = { event: event('tool.before_call', payload), payload, state, now: 0 };
          const member = x !== undefined && list.includes(x);
          const want = op === 'in' ? member : !member;
          expect([top.test(s), nested.test(s), inState.test(s)], `${op} ${JSON.stringify(list)} ${String(x)}`).toEqual([want, want, want]);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
