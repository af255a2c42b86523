import type { JsonPrimitive } from '../model/json.ts';
import { foldCase, requireAll, requireAny, UNKNOWN, type Atom, type Requirement } from '../match/atoms.ts';
import type { Getter, NumberReader, Scope } from '../match/path.ts';
import type { CompiledMatcher } from './compileMatcher.ts';
import { literalAutomaton, type LiteralAutomaton } from './literalAutomaton.ts';

/**
 * The candidate index of one event type: handlers filed under the atoms that must hold for them to match
 * (values of eq/in, bounds of numeric compares, literals of regexes and prefixes). A handler's atoms come in
 * groups that must all hold, one atom of each (`all` of several indexed clauses is several groups); its
 * postings carry the group's bit, and a gather ORs the bits of the atoms that hold into the handler's mask:
 * it is a candidate once its mask is full (the counting method of boolean-expression indexes). Per event the
 * dispatcher reads each indexed path once and collects only the candidates; the rest cannot match and are
 * never evaluated. Handlers without atoms are always candidates. Immutable: the masks live in the
 * dispatcher's scratch (`GatherMemory`).
 */
export interface CandidateIndex {
  /** Ranks that must always be evaluated, ascending. */
  always: Int32Array;
  /** Per rank: the bits of its groups (all must be hit to be a candidate); 0 for `always` and for ranks that are not live. */
  need: Int32Array;
  /** Postings are (rank, group bit) pairs, flat. */
  values: { getter: Getter; byValue: Map<JsonPrimitive, Int32Array> }[];
  ranges: { number: NumberReader; gt: Sorted; gte: Sorted; lt: Sorted; lte: Sorted }[];
  /** Per path: literals with their postings; `scan` finds the exact ones in one pass (null: test each). */
  literals: { getter: Getter; exact: [string, Int32Array][]; folded: [string, Int32Array][]; scan: LiteralAutomaton | null }[];
  /** Per rank: 1 when an index hit alone proves the handler matches (its requirement is exact): no evaluation. */
  exact: Uint8Array;
}

/** Bounds ascending, with the (rank, bit) pair filed under each (pairs[2i], pairs[2i + 1] for bounds[i]). */
interface Sorted {
  bounds: Float64Array;
  pairs: Int32Array;
}

/** The gather's working memory, owned by the dispatcher (one per compiled pipeline, sized to its handlers). */
export interface GatherMemory {
  /** Per rank, the stamp of the gather that last set its mask. */
  stamps: Int32Array;
  masks: Int32Array;
  stamp: number;
  /** The candidates of the gather as a bitset over ranks (read out in ascending order, and cleared, at its end). */
  bits: Int32Array;
}

export function gatherMemory(handlerCount: number): GatherMemory {
  return { stamps: new Int32Array(handlerCount), masks: new Int32Array(handlerCount), stamp: 0, bits: new Int32Array((handlerCount + 31) >> 5) };
}

/** What a handler requires: its one live path's (matchers in a row: AND), or of several paths (OR) their union. */
export function handlerRequirement(paths: readonly Int32Array[], matchers: readonly CompiledMatcher[]): Requirement {
  const each = paths.map((ms) => (ms.length === 0 ? UNKNOWN : requireAll([...ms].map((m) => matchers[m]!.required))));
  return each.length === 1 ? each[0]! : requireAny(each);
}

/** Builds the index for the live handlers of one type: `live[i]` is rank i's requirement, `undefined` when not live. */
export function buildCandidateIndex(handlerCount: number, live: (Requirement | undefined)[]): CandidateIndex {
  const always: number[] = [];
  const need = new Int32Array(handlerCount);
  const exact = new Uint8Array(handlerCount);
  const values = new Map<string, { getter: Getter; byValue: Map<JsonPrimitive, number[]> }>();
  const ranges = new Map<string, { number: NumberReader; lists: Record<'gt' | 'gte' | 'lt' | 'lte', [number, number, number][]> }>();
  const literals = new Map<string, { getter: Getter; exact: Map<string, number[]>; folded: Map<string, number[]> }>();
  const file = <K>(m: Map<K, number[]>, k: K, rank: number, bit: number) => {
    const list = m.get(k);
    if (list) list.push(rank, bit);
    else m.set(k, [rank, bit]);
  };
  live.forEach((required, rank) => {
    if (required === undefined) return;
    if (required.groups.length === 0) {
      always.push(rank);
      return;
    }
    required.groups.forEach((group, g) => {
      const bit = 1 << g;
      need[rank]! |= bit;
      for (const atom of group) fileAtom(atom, rank, bit);
    });
    if (required.exact) exact[rank] = 1;
  });

  function fileAtom(atom: Atom, rank: number, bit: number) {
    if (atom.kind === 'value') {
      let ix = values.get(atom.path);
      if (!ix) values.set(atom.path, (ix = { getter: atom.getter, byValue: new Map() }));
      for (const v of new Set(atom.values)) file(ix.byValue, v, rank, bit);
    } else if (atom.kind === 'range') {
      let ix = ranges.get(atom.path);
      if (!ix) ranges.set(atom.path, (ix = { number: atom.number, lists: { gt: [], gte: [], lt: [], lte: [] } }));
      ix.lists[atom.op].push([atom.bound, rank, bit]);
    } else {
      let ix = literals.get(atom.path);
      if (!ix) literals.set(atom.path, (ix = { getter: atom.getter, exact: new Map(), folded: new Map() }));
      file(atom.folded ? ix.folded : ix.exact, atom.text, rank, bit);
    }
  }

  const sorted = (list: [number, number, number][]): Sorted => {
    list.sort((a, b) => a[0] - b[0]);
    return { bounds: Float64Array.from(list.map((x) => x[0])), pairs: Int32Array.from(list.flatMap((x) => [x[1], x[2]])) };
  };
  return {
    always: Int32Array.from(always),
    need,
    values: [...values.values()].map((ix) => ({ getter: ix.getter, byValue: new Map([...ix.byValue].map(([k, v]) => [k, Int32Array.from(v)])) })),
    ranges: [...ranges.values()].map((ix) => ({ number: ix.number, gt: sorted(ix.lists.gt), gte: sorted(ix.lists.gte), lt: sorted(ix.lists.lt), lte: sorted(ix.lists.lte) })),
    literals: [...literals.values()].map((ix) => ({
      getter: ix.getter,
      exact: [...ix.exact].map(([t, r]) => [t, Int32Array.from(r)] as [string, Int32Array]),
      folded: [...ix.folded].map(([t, r]) => [t, Int32Array.from(r)] as [string, Int32Array]),
      scan: ix.exact.size > 2 ? literalAutomaton([...ix.exact.keys()]) : null,
    })),
    exact,
  };
}

const SLOT = new Float64Array(1);

/**
 * Collects into `out` the ranks after `after` that may match in this scope, ascending; returns how many.
 * Allocates nothing (a case-insensitive literal folds the text).
 */
export function gatherCandidates(ix: CandidateIndex, scope: Scope, out: Int32Array, after: number, mem: GatherMemory): number {
  if (++mem.stamp >= 0x3fffffff) {
    mem.stamp = 1;
    mem.stamps.fill(0);
  }
  let n = 0;
  const always = ix.always;
  const bits = mem.bits;
  for (let i = 0; i < always.length; i++) {
    const r = always[i]!;
    if (r > after) {
      bits[r >> 5]! |= 1 << (r & 31);
      n++;
    }
  }
  for (let k = 0; k < ix.values.length; k++) {
    const v = ix.values[k]!;
    const value = v.getter(scope);
    if (value === undefined || (value !== null && typeof value === 'object')) continue;
    const pairs = v.byValue.get(value);
    if (pairs !== undefined) n = hit(pairs, 0, pairs.length >> 1, ix.need, n, after, mem);
  }
  for (let k = 0; k < ix.ranges.length; k++) {
    const r = ix.ranges[k]!;
    if (!r.number(scope, SLOT)) continue;
    const x = SLOT[0]!;
    n = hit(r.gt.pairs, 0, lowerBound(r.gt.bounds, x), ix.need, n, after, mem); // bound < x
    n = hit(r.gte.pairs, 0, upperBound(r.gte.bounds, x), ix.need, n, after, mem); // bound <= x
    n = hit(r.lt.pairs, upperBound(r.lt.bounds, x), r.lt.bounds.length, ix.need, n, after, mem); // x < bound
    n = hit(r.lte.pairs, lowerBound(r.lte.bounds, x), r.lte.bounds.length, ix.need, n, after, mem); // x <= bound
  }
  for (let k = 0; k < ix.literals.length; k++) {
    const l = ix.literals[k]!;
    const s = l.getter(scope);
    if (typeof s !== 'string') continue;
    const a = l.scan;
    if (a !== null) {
      // One pass: every literal that ends at position i (an entry found twice only sets its bits again).
      const { delta, outStart, outList, outFrom } = a;
      let st = 0;
      for (let i = 0; i < s.length; i++) {
        const code = s.charCodeAt(i);
        st = code < 128 ? delta[(st << 7) | code]! : 0;
        if (st < outFrom) continue;
        for (let j = outStart[st]!, end = outStart[st + 1]!; j < end; j++) {
          const entry = l.exact[outList[j]!]!;
          n = hit(entry[1], 0, entry[1].length >> 1, ix.need, n, after, mem);
        }
      }
    } else {
      for (let i = 0; i < l.exact.length; i++) {
        const entry = l.exact[i]!;
        if (s.includes(entry[0])) n = hit(entry[1], 0, entry[1].length >> 1, ix.need, n, after, mem);
      }
    }
    if (l.folded.length === 0) continue;
    const folded = foldCase(s);
    for (let i = 0; i < l.folded.length; i++) {
      const entry = l.folded[i]!;
      if (folded.includes(entry[0])) n = hit(entry[1], 0, entry[1].length >> 1, ix.need, n, after, mem);
    }
  }
  // Read the bitset out in ascending rank order, clearing it for the next gather.
  let k = 0;
  for (let w = 0; k < n; w++) {
    let x = bits[w]!;
    if (x === 0) continue;
    bits[w] = 0;
    while (x !== 0) {
      const low = x & -x;
      out[k++] = (w << 5) + 31 - Math.clz32(low);
      x ^= low;
    }
  }
  return n;
}

/**
 * ORs the group bits of postings [from, to) (pairs) into their ranks' masks; a rank after `after` whose mask
 * just became full joins the candidate bitset. Returns the new count.
 */
function hit(pairs: Int32Array, from: number, to: number, need: Int32Array, n: number, after: number, mem: GatherMemory): number {
  const stamps = mem.stamps;
  const masks = mem.masks;
  const stamp = mem.stamp;
  for (let i = from << 1, end = to << 1; i < end; i += 2) {
    const r = pairs[i]!;
    if (r <= after) continue;
    let old = 0;
    if (stamps[r] === stamp) old = masks[r]!;
    else stamps[r] = stamp;
    const m = old | pairs[i + 1]!;
    if (m !== old) {
      masks[r] = m;
      if (m === need[r]) {
        mem.bits[r >> 5]! |= 1 << (r & 31);
        n++;
      }
    }
  }
  return n;
}

/** First index whose bound is >= x. */
function lowerBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose bound is > x. */
function upperBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
