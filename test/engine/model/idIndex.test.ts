import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapIdIndex, memoryRecordStore, spilledIdIndex } from '../../../engine/model/idIndex.ts';

const ids = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', '', 'e1', 'e2', 'é', '\u{1F600}'), fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 }));
const values = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const ops = fc.array(fc.oneof(fc.record({ op: fc.constantFrom('set' as const, 'add' as const), id: ids, value: values }), fc.record({ op: fc.constant('get' as const), id: ids })), { maxLength: 200 });

describe('spilledIdIndex', () => {
  it('[T6][R5] answers every get (and addIfAbsent) exactly as a Map does, whatever the ids (names such as __proto__ included)', () => {
    fc.assert(
      fc.property(ops, fc.boolean(), (list, collide) => {
        // A constant hash makes every id collide: the answers must still be exact (confirmed by the stored id).
        const spilled = spilledIdIndex<unknown>(memoryRecordStore(), collide ? () => 7 : undefined);
        const map = mapIdIndex<unknown>();
        for (const o of list) {
          if (o.op === 'set') {
            spilled.set(o.id, o.value);
            map.set(o.id, o.value);
          } else if (o.op === 'add') {
            // addIfAbsent: a get, and a set only when the id was absent.
            const had = map.get(o.id);
            if (had === undefined) map.set(o.id, o.value);
            expect(spilled.addIfAbsent?.(o.id, o.value)).toEqual(had);
          } else expect(spilled.get(o.id)).toEqual(map.get(o.id));
          expect(spilled.size).toBe(map.size);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('[T6] keeps 100k ids through its growth, each with its own value, and knows the ids it never saw', () => {
    const index = spilledIdIndex<number>(memoryRecordStore());
    for (let i = 0; i < 100_000; i++) index.set(`e${i}`, i);
    expect(index.size).toBe(100_000);
    for (let i = 0; i < 100_000; i += 997) expect(index.get(`e${i}`)).toBe(i);
    expect(index.get('e100000')).toBeUndefined();
    expect(index.get('__proto__')).toBeUndefined();
  });
});
