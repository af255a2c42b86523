import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FlowMemo, type FlowRuleMemo } from '../../../engine/model/flowTypes.ts';
import { PersistentMap } from '../../../engine/model/persistentMap.ts';

// A session's flow memory per rule [F3][F5] is a small table (rule id → the rule's memory), copied on write. Held
// against a plain Map: any sequence of sets answers the same, every earlier version stays as it was, and the
// table's shape depends only on its entries (ids sorted), so a memory replayed from a checkpoint deep-equals the
// one replayed from the start whatever order its rules first remembered in. Ids are user data [V8].

const idArb = fc.oneof(fc.string({ maxLength: 3, unit: fc.constantFrom('a', 'b', 'c') }), fc.constantFrom('__proto__', 'constructor', ''));
const memoOf = (n: number): FlowRuleMemo => ({ keys: PersistentMap.empty(), one: null, overflow: n === 0 ? null : { step: n, event_id: `e${n}`, type: 't', ts: n, tool: null, subject: null } });
const opsArb = fc.array(fc.record({ id: idArb, n: fc.nat(5) }), { maxLength: 40 });

describe('FlowMemo', () => {
  it('[F3] answers as a Map after any sets, and every earlier version is unchanged', () => {
    fc.assert(
      fc.property(opsArb, fc.array(idArb, { maxLength: 6 }), (ops, probes) => {
        const memos = new Map<number, FlowRuleMemo>();
        const memo = (n: number) => memos.get(n) ?? (memos.set(n, memoOf(n)), memos.get(n)!);
        let m = FlowMemo.EMPTY;
        const oracle = new Map<string, FlowRuleMemo>();
        const versions: [FlowMemo, Map<string, FlowRuleMemo>][] = [[m, new Map()]];
        for (const op of ops) {
          const before = m;
          m = m.set(op.id, memo(op.n));
          if (oracle.get(op.id) === memo(op.n)) expect(m).toBe(before);
          oracle.set(op.id, memo(op.n));
          versions.push([m, new Map(oracle)]);
        }
        for (const [v, o] of versions) {
          expect(v.size).toBe(o.size);
          expect(v.entries()).toEqual([...o].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
          for (const id of [...probes, ...o.keys()]) expect(v.get(id)).toBe(o.get(id));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('[F3] its shape is a function of its entries, whatever order they came in', () => {
    fc.assert(
      fc.property(opsArb, (ops) => {
        let m = FlowMemo.EMPTY;
        for (const op of ops) m = m.set(op.id, memoOf(op.n));
        let back = FlowMemo.EMPTY;
        for (const [id, r] of [...m.entries()].reverse()) back = back.set(id, r);
        expect(back).toEqual(m);
      }),
      { numRuns: 300 },
    );
  });
});
