import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PersistentMap } from '../../../engine/model/persistentMap.ts';

// The persistent map that holds flow memory [F3][F8] against a plain Map as its oracle: any sequence of sets and
// deletes gives the same entries, every earlier version stays as it was, and the shape depends only on the keys.

type Op = { del: boolean; key: string; value: number };
// Short keys from a small alphabet collide in their low hash bits often, so the trie grows deep branches;
// '__proto__' and 'constructor' are just names [V8].
const keyArb = fc.oneof(fc.string({ maxLength: 3, unit: fc.constantFrom('a', 'b', 'c', 'd') }), fc.constantFrom('__proto__', 'constructor', ''));
const opsArb = fc.array(fc.record({ del: fc.boolean(), key: keyArb, value: fc.integer() }), { maxLength: 80 });

function apply(ops: Op[]): { versions: PersistentMap<number>[]; oracles: Map<string, number>[] } {
  let m = PersistentMap.empty<number>();
  const oracle = new Map<string, number>();
  const versions = [m];
  const oracles = [new Map(oracle)];
  for (const op of ops) {
    if (op.del) {
      m = m.delete(op.key);
      oracle.delete(op.key);
    } else {
      m = m.set(op.key, op.value);
      oracle.set(op.key, op.value);
    }
    versions.push(m);
    oracles.push(new Map(oracle));
  }
  return { versions, oracles };
}

const sorted = (entries: Iterable<[string, number]>) => [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

describe('PersistentMap', () => {
  it('[F3] answers as a Map after any sets and deletes, and every earlier version is unchanged', () => {
    fc.assert(
      fc.property(opsArb, fc.array(keyArb, { maxLength: 10 }), (ops, probes) => {
        const { versions, oracles } = apply(ops);
        versions.forEach((v, i) => {
          const o = oracles[i]!;
          expect(v.size).toBe(o.size);
          expect(sorted(v)).toEqual(sorted(o));
          for (const k of [...probes, ...o.keys()]) {
            expect(v.get(k)).toBe(o.get(k));
            expect(v.has(k)).toBe(o.has(k));
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('[F3] its shape is a function of its entries (equal maps are deep-equal, whatever the order)', () => {
    fc.assert(
      fc.property(opsArb, (ops) => {
        const { versions } = apply(ops);
        const last = versions.at(-1)!;
        const rebuilt = PersistentMap.of([...last].reverse());
        expect(rebuilt).toEqual(last);
      }),
      { numRuns: 300 },
    );
  });

  it('returns itself when nothing changes', () => {
    const m = PersistentMap.empty<number>().set('a', 1);
    expect(m.set('a', 1)).toBe(m);
    expect(m.delete('zz')).toBe(m);
    expect(m.delete('a')).toBe(PersistentMap.empty());
  });

  it('keeps keys whose 32-bit hashes collide apart', () => {
    // 'k32728' and 'k261234' have the same FNV-1a hash (found by search), so they share one leaf.
    const m = PersistentMap.empty<number>().set('k32728', 1).set('k261234', 2).set('x', 3);
    expect([m.get('k32728'), m.get('k261234'), m.size]).toEqual([1, 2, 3]);
    const one = m.delete('k32728');
    expect([one.get('k32728'), one.get('k261234'), one.size]).toEqual([undefined, 2, 2]);
    expect(one).toEqual(PersistentMap.empty<number>().set('x', 3).set('k261234', 2));
    expect(m.set('k261234', 5).get('k32728')).toBe(1);
  });

  it('holds thousands of keys', () => {
    let m = PersistentMap.empty<number>();
    for (let i = 0; i < 5000; i++) m = m.set(`k${i}`, i);
    expect(m.size).toBe(5000);
    for (let i = 0; i < 5000; i += 7) expect(m.get(`k${i}`)).toBe(i);
    for (let i = 0; i < 5000; i += 2) m = m.delete(`k${i}`);
    expect(m.size).toBe(2500);
    expect(m.get('k2')).toBeUndefined();
    expect(m.get('k3')).toBe(3);
  });
});
