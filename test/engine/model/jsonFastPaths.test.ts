import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ownGet, ownSet, tooDeepAt, type JsonObject, type JsonValue } from '../../../engine/model/json.ts';
import { toIsoTs } from '../../../engine/trace/importers/toIsoTs.ts';

// The fast paths of three per-record helpers of the import (issue #29, speed): each must answer exactly what
// the plain definition answers. [V9] depth limit, [I3] timestamps, and `__proto__` as a plain name.

/** Nesting depth of objects and arrays (a scalar is 0). */
function depth(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 0;
  const children = Array.isArray(v) ? v : Object.values(v);
  return 1 + children.reduce<number>((m, c) => Math.max(m, depth(c)), 0);
}

/** The value at a path. */
function at(v: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((x, k) => (x as Record<string | number, unknown>)[k], v);
}

/** A value nested `n` levels deep along one branch, with siblings. */
const nested = (n: number): JsonValue => {
  let v: JsonValue = 1;
  for (let i = 0; i < n; i++) v = i % 2 ? [0, v, 'x'] : { a: 1, b: v };
  return v;
};

describe('fast paths answer as the definitions do', () => {
  it('[V9] tooDeepAt: null exactly when the depth is within the limit; otherwise a path to a value past it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 40 }).map(nested)), fc.integer({ min: 0, max: 12 }), (value, limit) => {
        const path = tooDeepAt(value, limit);
        const d = depth(value);
        if (d <= limit) expect(path).toBeNull();
        else {
          expect(path).not.toBeNull();
          // The path leads to an object or array at depth limit + 1.
          expect(path!.length).toBe(limit);
          const there = at(value, path!);
          expect(typeof there === 'object' && there !== null).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
    // Far past the limit (deeper than any call stack would allow): answered, not thrown.
    let deep: JsonValue = 0;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(tooDeepAt(deep, 128)).toHaveLength(128);
  });

  it('ownSet: `__proto__` becomes an own data property (the prototype is untouched); other names, `constructor` too, are own properties', () => {
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'a']) {
      const o: JsonObject = {};
      ownSet(o, key, { polluted: true });
      expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
      expect(Object.prototype.hasOwnProperty.call(o, key)).toBe(true);
      expect(ownGet(o, key)).toEqual({ polluted: true });
      expect(Object.keys(o)).toEqual([key]);
      expect(JSON.parse(JSON.stringify(o))).toHaveProperty([key]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('[I3] toIsoTs: a sequence of times (repeats included) converts as each would alone', () => {
    const times = fc.oneof(
      fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
      fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString().replace('Z', '')),
      fc.integer({ min: 1, max: 4e12 }),
      fc.constantFrom('not a time', '', null, undefined, 0, -5, '2026-03-01T10:00:00+02:00'),
    );
    fc.assert(
      fc.property(fc.array(times, { maxLength: 20 }).chain((a) => fc.shuffledSubarray([...a, ...a], { minLength: a.length * 2, maxLength: a.length * 2 })), (seq) => {
        for (const t of seq) {
          const got = toIsoTs(t);
          let want: { iso: string; naive: boolean } | null = null;
          if (typeof t === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(t.trim())) {
            const naive = !/(Z|[+-]\d\d:?\d\d)$/i.test(t.trim());
            const ms = Date.parse(naive ? `${t.trim()}Z` : t.trim());
            want = Number.isFinite(ms) ? { iso: new Date(ms).toISOString(), naive } : null;
          } else if (typeof t === 'number' && t > 0) {
            const ms = t > 1e17 ? t / 1e6 : t > 1e14 ? t / 1e3 : t > 1e11 ? t : t * 1000;
            want = { iso: new Date(Math.floor(ms)).toISOString(), naive: false };
          }
          expect(got === null ? null : { ...got }).toEqual(want);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('[I3] a canonical UTC time is its own answer', () => {
  /** The definition: parsed and printed again, as toIsoTs did for every string. */
  const reprinted = (s: string): string | null => {
    const ms = Date.parse(s);
    return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
  };
  const two = (lo: number, hi: number) => fc.integer({ min: lo, max: hi }).map((n) => String(n).padStart(2, '0'));
  // Shapes near the canonical one: every field past its range (month 13, day 0 and 32, Feb 29 of common and leap
  // years, hour 24, second 60), other lengths, a missing Z, non-digits.
  const shaped = fc
    .tuple(fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')), two(0, 13), two(0, 32), two(0, 25), two(0, 60), two(0, 61), fc.integer({ min: 0, max: 999 }).map((n) => String(n).padStart(3, '0')), fc.constantFrom('Z', 'Z', 'Z', '', '+00:00', 'z'), fc.constantFrom('T', 'T', 'T', ' ', 't'))
    .map(([y, mo, d, h, mi, s, ms, z, t]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}.${ms}${z}`);
  const anyText = fc.oneof(shaped, fc.string({ maxLength: 30 }), fc.date({ min: new Date(-1e14), max: new Date(4e14), noInvalidDate: true }).map((d) => d.toISOString()));
  it('isCanonicalUtc(s) only when parsing and printing s again gives s; toIsoTs answers such a time as before', async () => {
    const { isCanonicalUtc } = await import('../../../engine/trace/importers/toIsoTs.ts');
    let canonical = 0;
    fc.assert(
      fc.property(anyText, (s) => {
        if (!isCanonicalUtc(s)) return;
        canonical++;
        expect(reprinted(s)).toBe(s);
        expect({ ...toIsoTs(s) }).toEqual({ iso: s, naive: false });
      }),
      { numRuns: 3000 },
    );
    // And every well-formed time of years 0000–9999 is taken (the fast path is not a no-op).
    fc.assert(fc.property(fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }), (d) => {
      expect(isCanonicalUtc(d.toISOString())).toBe(true);
    }), { numRuns: 1000 });
    for (const s of ['2024-02-29T00:00:00.000Z', '2000-02-29T23:59:59.999Z']) expect(isCanonicalUtc(s)).toBe(true);
    for (const s of ['2023-02-29T00:00:00.000Z', '1900-02-29T00:00:00.000Z', '2026-04-31T00:00:00.000Z', '2026-01-01T24:00:00.000Z', '2026-01-01T00:00:60.000Z', '2026-13-01T00:00:00.000Z', '2026-00-10T00:00:00.000Z', '2026-01-00T00:00:00.000Z', ' 2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000z']) expect(isCanonicalUtc(s)).toBe(false);
    expect(canonical).toBeGreaterThan(50);
  });
});
