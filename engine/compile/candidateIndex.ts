import type { JsonPrimitive } from '../model/json.ts';
import { bestOf, foldCase, unionOf, type Atom, type Necessary } from '../match/atoms.ts';
import type { Getter, Scope } from '../match/path.ts';
import type { CompiledMatcher } from './compileMatcher.ts';

/**
 * The candidate index of one event type: handlers filed under the atoms one of which must hold for them to
 * match (values of eq/in, bounds of numeric compares, literals of regexes and prefixes). Per event the
 * dispatcher reads each indexed path once and collects only the handlers whose atom holds; the rest
 * cannot match and are never evaluated. Handlers without atoms are always candidates.
 */
export interface CandidateIndex {
  /** Ranks that must always be evaluated, ascending. */
  always: Int32Array;
  values: { getter: Getter; byValue: Map<JsonPrimitive, Int32Array> }[];
  ranges: { getter: Getter; gt: Sorted; gte: Sorted; lt: Sorted; lte: Sorted }[];
  literals: { getter: Getter; exact: [string, Int32Array][]; folded: [string, Int32Array][] }[];
  /** Per rank, the stamp of the last gather that took it (dedupes handlers filed under several atoms). */
  stamps: Int32Array;
  stamp: number;
}

/** Bounds ascending, with the rank filed under each. */
interface Sorted {
  bounds: Float64Array;
  ranks: Int32Array;
}

/** What a path implies (matchers in a row: AND) and what a handler implies (several paths: OR). */
export function handlerNecessary(paths: readonly Int32Array[], matchers: readonly CompiledMatcher[]): Necessary {
  return unionOf(paths.map((ms) => bestOf([...ms].map((m) => matchers[m]!.necessary))));
}

/**
 * True when an index hit alone proves the handler matches: every live path is a single exact matcher. The
 * dispatcher then skips evaluating it [fast path]; explain mode evaluates it anyway and must agree [X5].
 */
export function handlerExact(paths: readonly Int32Array[], matchers: readonly CompiledMatcher[]): boolean {
  return paths.length > 0 && paths.every((ms) => ms.length === 1 && matchers[ms[0]!]!.exact);
}

/** Builds the index for the live handlers of one type: `live[i]` is rank i's atoms, `undefined` when not live. */
export function buildCandidateIndex(handlerCount: number, live: (Necessary | undefined)[]): CandidateIndex {
  const always: number[] = [];
  const values = new Map<string, { getter: Getter; byValue: Map<JsonPrimitive, number[]> }>();
  const ranges = new Map<string, { getter: Getter; lists: Record<'gt' | 'gte' | 'lt' | 'lte', [number, number][]> }>();
  const literals = new Map<string, { getter: Getter; exact: Map<string, number[]>; folded: Map<string, number[]> }>();
  const file = <K, V>(m: Map<K, V[]>, k: K, v: V) => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };
  live.forEach((necessary, rank) => {
    if (necessary === undefined) return;
    if (necessary === null) {
      always.push(rank);
      return;
    }
    for (const atom of necessary) fileAtom(atom, rank);
  });

  function fileAtom(atom: Atom, rank: number) {
    if (atom.kind === 'value') {
      let ix = values.get(atom.path);
      if (!ix) values.set(atom.path, (ix = { getter: atom.getter, byValue: new Map() }));
      for (const v of new Set(atom.values)) file(ix.byValue, v, rank);
    } else if (atom.kind === 'range') {
      let ix = ranges.get(atom.path);
      if (!ix) ranges.set(atom.path, (ix = { getter: atom.getter, lists: { gt: [], gte: [], lt: [], lte: [] } }));
      ix.lists[atom.op].push([atom.bound, rank]);
    } else {
      let ix = literals.get(atom.path);
      if (!ix) literals.set(atom.path, (ix = { getter: atom.getter, exact: new Map(), folded: new Map() }));
      file(atom.folded ? ix.folded : ix.exact, atom.text, rank);
    }
  }

  const sorted = (list: [number, number][]): Sorted => {
    list.sort((a, b) => a[0] - b[0]);
    return { bounds: Float64Array.from(list.map((x) => x[0])), ranks: Int32Array.from(list.map((x) => x[1])) };
  };
  return {
    always: Int32Array.from(always),
    values: [...values.values()].map((ix) => ({ getter: ix.getter, byValue: new Map([...ix.byValue].map(([k, v]) => [k, Int32Array.from(v)])) })),
    ranges: [...ranges.values()].map((ix) => ({ getter: ix.getter, gt: sorted(ix.lists.gt), gte: sorted(ix.lists.gte), lt: sorted(ix.lists.lt), lte: sorted(ix.lists.lte) })),
    literals: [...literals.values()].map((ix) => ({
      getter: ix.getter,
      exact: [...ix.exact].map(([t, r]) => [t, Int32Array.from(r)] as [string, Int32Array]),
      folded: [...ix.folded].map(([t, r]) => [t, Int32Array.from(r)] as [string, Int32Array]),
    })),
    stamps: new Int32Array(handlerCount),
    stamp: 0,
  };
}

/**
 * Collects into `out` the ranks after `after` that may match in this scope, ascending; returns how many.
 * Allocates nothing.
 */
export function gatherCandidates(ix: CandidateIndex, scope: Scope, out: Int32Array, after: number): number {
  if (++ix.stamp >= 0x3fffffff) {
    ix.stamp = 1;
    ix.stamps.fill(0);
  }
  const stamp = ix.stamp;
  const stamps = ix.stamps;
  let n = take(ix.always, 0, ix.always.length, out, 0, after, stamps, stamp);
  for (let k = 0; k < ix.values.length; k++) {
    const v = ix.values[k]!;
    const value = v.getter(scope);
    if (value === undefined || (value !== null && typeof value === 'object')) continue;
    const ranks = v.byValue.get(value);
    if (ranks !== undefined) n = take(ranks, 0, ranks.length, out, n, after, stamps, stamp);
  }
  for (let k = 0; k < ix.ranges.length; k++) {
    const r = ix.ranges[k]!;
    const x = r.getter(scope);
    if (typeof x !== 'number') continue;
    n = take(r.gt.ranks, 0, lowerBound(r.gt.bounds, x), out, n, after, stamps, stamp); // bound < x
    n = take(r.gte.ranks, 0, upperBound(r.gte.bounds, x), out, n, after, stamps, stamp); // bound <= x
    n = take(r.lt.ranks, upperBound(r.lt.bounds, x), r.lt.ranks.length, out, n, after, stamps, stamp); // x < bound
    n = take(r.lte.ranks, lowerBound(r.lte.bounds, x), r.lte.ranks.length, out, n, after, stamps, stamp); // x <= bound
  }
  for (let k = 0; k < ix.literals.length; k++) {
    const l = ix.literals[k]!;
    const s = l.getter(scope);
    if (typeof s !== 'string') continue;
    for (let i = 0; i < l.exact.length; i++) {
      const entry = l.exact[i]!;
      if (s.includes(entry[0])) n = take(entry[1], 0, entry[1].length, out, n, after, stamps, stamp);
    }
    if (l.folded.length === 0) continue;
    const folded = foldCase(s);
    for (let i = 0; i < l.folded.length; i++) {
      const entry = l.folded[i]!;
      if (folded.includes(entry[0])) n = take(entry[1], 0, entry[1].length, out, n, after, stamps, stamp);
    }
  }
  sortPrefix(out, n);
  return n;
}

/** Appends ranks[from..to) that come after `after` and were not taken yet in this gather; returns the new count. */
function take(ranks: Int32Array, from: number, to: number, out: Int32Array, n: number, after: number, stamps: Int32Array, stamp: number): number {
  for (let i = from; i < to; i++) {
    const r = ranks[i]!;
    if (r > after && stamps[r] !== stamp) {
      stamps[r] = stamp;
      out[n++] = r;
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

function sortPrefix(a: Int32Array, n: number): void {
  if (n > 48) {
    a.subarray(0, n).sort();
    return;
  }
  for (let i = 1; i < n; i++) {
    const x = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > x) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = x;
  }
}
