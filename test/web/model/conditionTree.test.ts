import { describe, expect, it } from 'vitest';
import { conditionToEntries, entriesToCondition, formatList, parseList, readRegex, valueForOperator, writeRegex } from '../../../web/model/conditionTree.ts';
import type { JsonObject } from '../../../engine/model/json.ts';

const roundTrip = (c: JsonObject) => entriesToCondition(conditionToEntries(c)!);

describe('condition builder model', () => {
  it('round-trips conditions exactly, including bare eq [C3] and several operators on one path', () => {
    const cases: JsonObject[] = [
      { 'payload.tool_name': { in: ['delete_file', 'run_shell'] } },
      { 'payload.tool_name': 'Bash', 'state.n': { gt: 1, lte: 5 } },
      { 'payload.tool_name': { eq: 'Bash' } },
      { any: [{ 'payload.a': 1 }, { 'payload.b': { exists: false }, 'payload.c': { regex: { pattern: 'x', flags: 'i' } } }], not: { 'payload.d': { ne: null } } },
      { all: [] },
    ];
    for (const c of cases) expect(roundTrip(c)).toEqual(c);
  });

  it('[C8] reads groups as entries the builder can show', () => {
    const entries = conditionToEntries({ any: [{ 'payload.a': 1 }], not: { 'payload.b': { exists: true } } })!;
    expect(entries.map((e) => e.kind)).toEqual(['any', 'not']);
  });

  it('returns null for shapes the builder cannot show (edit them as JSON)', () => {
    expect(conditionToEntries({ any: 'x' } as JsonObject)).toBeNull();
    expect(conditionToEntries({ 'payload.a': {} })).toBeNull();
  });

  it('keeps two clauses with the same path and operator by moving them into all', () => {
    const c = entriesToCondition([
      { kind: 'clause', path: 'payload.a', op: 'eq', value: 1 },
      { kind: 'clause', path: 'payload.a', op: 'eq', value: 2 },
    ]);
    expect(c).toEqual({ all: [{ 'payload.a': { eq: 1 } }, { 'payload.a': { eq: 2 } }] });
  });

  it('[V8] writes __proto__ as a path name', () => {
    const c = entriesToCondition([{ kind: 'clause', path: '__proto__', op: 'eq', value: 1 }]);
    expect(Object.keys(c)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
  });

  it('converts values when the operator changes', () => {
    expect(valueForOperator('in', 'a, b')).toEqual(['a', 'b']);
    expect(valueForOperator('eq', ['a', 'b'])).toBe('a, b');
    expect(valueForOperator('exists', 'x')).toBe(true);
    expect(valueForOperator('gt', 'x')).toBe(0);
    // exists' flag is not a value to compare with: the new operator starts from an empty value of its type.
    expect(valueForOperator('eq', true, 'exists')).toBe('');
    expect(valueForOperator('in', true, 'exists')).toEqual([]);
    expect(valueForOperator('gt', false, 'exists')).toBe(0);
    expect(valueForOperator('prefix', 3)).toBe('3');
  });

  it('reads and writes lists and regexes', () => {
    expect(parseList('Bash, delete_file ,run_shell')).toEqual(['Bash', 'delete_file', 'run_shell']);
    expect(parseList('["a, b", 3]')).toEqual(['a, b', 3]);
    expect(formatList(['a', 'b'])).toBe('a, b');
    expect(formatList(['a, b', 3])).toBe('["a, b",3]');
    expect(readRegex({ pattern: 'p', flags: 'i' })).toEqual({ pattern: 'p', flags: 'i' });
    expect(writeRegex('p', '')).toBe('p');
    expect(writeRegex('p', 'i')).toEqual({ pattern: 'p', flags: 'i' });
  });
});
