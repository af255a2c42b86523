import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { copyBytes } from '../../../engine/accel/byteSlab.ts';

describe('copyBytes (explain mode statuses [X6])', () => {
  it('gives copies equal to their template that never share bytes, at every length and across slabs', () => {
    fc.assert(fc.property(fc.array(fc.uint8Array({ minLength: 0, maxLength: 6000 }), { minLength: 1, maxLength: 40 }), (templates) => {
      const copies = templates.map((t) => copyBytes(t));
      copies.forEach((c, i) => expect(c).toEqual(templates[i]));
      // Writing every copy leaves every other copy (and every template) as it was.
      copies.forEach((c) => c.fill(0xff));
      copies.forEach((c, i) => {
        expect(c.length).toBe(templates[i]!.length);
        expect(c.every((b) => b === 0xff)).toBe(true);
      });
      templates.forEach((t) => expect(copyBytes(t)).toEqual(t));
    }), { numRuns: 60 });
  });

  it('a long run of copies fills slab after slab and keeps each one intact', () => {
    const t = Uint8Array.from({ length: 100 }, (_, i) => i);
    const kept = Array.from({ length: 1000 }, () => copyBytes(t));
    kept.forEach((c, k) => (c[0] = k & 0xff));
    kept.forEach((c, k) => {
      expect(c[0]).toBe(k & 0xff);
      expect([...c.subarray(1)]).toEqual([...t.subarray(1)]);
    });
  });
});
