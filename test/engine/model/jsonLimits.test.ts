import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_LIMITS, jsonLimitBreach, type JsonLimits } from '../../../engine/model/jsonLimits.ts';

// [V9][V12] jsonLimitBreach answers null exactly when the value is within every limit, whichever of its walks
// answers (the common case is decided without a frame per value; a breach is walked again to say where).
// The oracle below is the rule written plainly: size estimated as the engine documents it.

function estimate(v: unknown): number {
  if (typeof v === 'string') return v.length + 2;
  if (typeof v === 'number') return 8;
  if (typeof v !== 'object' || v === null) return 5;
  if (Array.isArray(v)) return 2 + v.length + v.reduce((n: number, x) => n + estimate(x), 0);
  return 2 + Object.keys(v).reduce((n, k) => n + k.length + 4 + estimate((v as Record<string, unknown>)[k]), 0);
}

function within(v: unknown, limits: JsonLimits, depth = 0): boolean {
  if (typeof v === 'string') return v.length <= limits.stringChars;
  if (typeof v !== 'object' || v === null) return true;
  if (depth + 1 > limits.depth) return false;
  const entries = Array.isArray(v) ? v : Object.keys(v);
  if (entries.length > limits.entries) return false;
  if (!Array.isArray(v) && Object.keys(v).some((k) => k.length > limits.stringChars)) return false;
  const children = Array.isArray(v) ? v : Object.values(v);
  return children.every((c) => within(c, limits, depth + 1));
}

const small: JsonLimits = { depth: 3, stringChars: 6, entries: 3, totalChars: 120 };

describe('JSON limits [V9][V12]', () => {
  it('[V12] null exactly when every limit holds (small limits, random JSON, __proto__ as a key)', () => {
    const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constant('__proto__'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 6 }),
      object: fc.dictionary(key, tie('value'), { maxKeys: 6 }),
    })).value;
    fc.assert(
      fc.property(json, (v) => {
        const ok = within(v, small) && estimate(v) <= small.totalChars;
        const breach = jsonLimitBreach(v, 'payload', small);
        expect(breach === null).toBe(ok);
      }),
      { numRuns: 2000 },
    );
  });

  it('[V9][V12] a breach says which limit and where, also behind the fast answer', () => {
    expect(jsonLimitBreach({ a: [1, { b: 'x'.repeat(7) }] }, 'payload', small)).toMatchObject({ code: 'too_large', limit: 'stringChars', path: ['a', 1, 'b'] });
    expect(jsonLimitBreach({ a: { b: { c: {} } } }, 'payload', small)).toMatchObject({ code: 'too_deep', path: ['a', 'b', 'c'] });
    expect(jsonLimitBreach({ a: 'x'.repeat(5e6) }, 'payload')?.message).toMatch(/payload\.a is a string of 5000000 characters/);
    expect(jsonLimitBreach({ a: 'x'.repeat(1000) }, 'payload', JSON_LIMITS)).toBeNull();
  });

  it('[V12] the edges: entries and the size estimate at the limit and one past it', () => {
    const wide: JsonLimits = { depth: 3, stringChars: 100, entries: 10, totalChars: 2 + 9 * 10 };
    const nums = (n: number) => Array.from({ length: n }, (_, i) => i);
    expect(jsonLimitBreach(nums(10), 'payload', wide)).toBeNull(); // 2 + 10 × (8 + 1): exactly the limit
    expect(jsonLimitBreach(nums(11), 'payload', { ...wide, entries: 20 })).toMatchObject({ limit: 'totalChars' });
    expect(jsonLimitBreach(nums(11), 'payload', { ...wide, totalChars: 1000 })).toMatchObject({ limit: 'entries' });
    const keys = (n: number) => Object.fromEntries(nums(n).map((i) => [`k${i}`, true]));
    expect(jsonLimitBreach(keys(10), 'payload', { ...wide, totalChars: 1000 })).toBeNull();
    expect(jsonLimitBreach(keys(11), 'payload', { ...wide, totalChars: 1000 })).toMatchObject({ limit: 'entries', path: [] });
  });
});
