// [P3] serve stamps an event with the clock as ISO 8601 with milliseconds: isoTimestamp must print exactly what
// `new Date(ms).toISOString()` prints, whatever the order of the times it is asked for (it keeps a minute's prefix).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../../../../engine/node/serve/timestamp.ts';

const LAST = Date.UTC(10000, 0, 1);

describe('isoTimestamp', () => {
  it('[P3] prints what toISOString prints, for any sequence of times (the kept minute changes under it)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: LAST - 1 }), fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }), fc.integer({ min: -1e15, max: 8.64e15 })), { minLength: 1, maxLength: 20 }), (times) => {
        for (const ms of times) expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('[P3] prints the edges of a minute, of a second, and the years it hands to Date', () => {
    const at = Date.UTC(2026, 11, 7, 5, 59, 59, 999);
    for (const ms of [0, 1, 9, 10, 99, 100, 999, 1000, 59_999, 60_000, at, at + 1, at - 58_999, LAST - 1, LAST, -1, 1.5]) {
      expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('is now by default', () => {
    const before = Date.now();
    const t = Date.parse(isoTimestamp());
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
  });
});
