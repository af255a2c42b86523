import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lastMemo } from '../../../engine/accel/lastMemo.ts';

// lastMemo's oracle is the plain memo it stands in for: a value made once per key and kept (a Map here);
// the last keys checked first must change nothing but the time (engine/accel/ACCEL.md).
describe('lastMemo (accelerator: a per-key memo with the last keys checked first)', () => {
  it('gives what a plain memo gives, and makes each key\'s value once, for any order of keys and any `recent`', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 9 }), { maxLength: 200 }), fc.constantFrom(1, 2, 3, 16), (order, recent) => {
        const keys = Array.from({ length: 10 }, (_, i) => ({ i }));
        let made = 0;
        const memo = lastMemo((key: { i: number }, arg: number) => ({ key: key.i, arg, n: made++ }), recent);
        const plain = new Map<object, { key: number; arg: number; n: number }>();
        for (const [step, k] of order.entries()) {
          const key = keys[k]!;
          const got = memo(key, step);
          if (!plain.has(key)) plain.set(key, got);
          // The same object every time, made with the argument of the first call for its key.
          expect(got).toBe(plain.get(key));
          expect(got.key).toBe(k);
        }
        expect(made).toBe(plain.size);
      }),
    );
  });
});
