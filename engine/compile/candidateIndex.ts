import type { JsonPrimitive } from '../model/json.ts';
import { foldCase, requireAll, requireAny, UNKNOWN, type Atom, type Requirement } from '../match/atoms.ts';
import type { Getter, NumberReader, Scope } from '../match/path.ts';
import type { CompiledMatcher } from './compileMatcher.ts';
import { anchoredFound, literalAutomaton, wordTrie, type LiteralAutomaton, type WordTrie } from '../accel/literalAutomaton.ts';

/**
 * The candidate index of one event type, over its live handlers' slots (slot i: the i-th live handler in
 * execution order): handlers filed under the atoms that must hold for them to match (values of eq/in,
 * bounds of numeric compares, literals of regexes, prefixes and suffixes). A handler's atoms come in groups that must
 * all hold, one atom of each (`all` of several indexed clauses is several groups). A gather sets, per group,
 * the bit of every slot that has an atom of that group hold (a posting is a word offset and a bit: one OR),
 * then reads the candidates out a word at a time: group 0's bits, AND for each further group its bits or
 * "does not need it", OR the handlers that are always candidates. Per event the dispatcher reads each
 * indexed path once and collects only the candidates; the rest cannot match and are never evaluated.
 * Immutable: the bits live in the dispatcher's scratch (`GatherMemory`).
 */
export interface CandidateIndex {
  /** Words of one slot bitset: (live handlers + 31) >> 5. */
  words: number;
  /** The most groups any slot needs (0 when nothing is indexed). */
  groups: number;
  /** The slots that are always candidates (no atoms known), as a bitset. */
  always: Int32Array;
  /** For group g >= 1, the slots that need it, as a bitset at [(g - 1) * words, g * words). */
  needs: Int32Array;
  /** Postings are (offset, bit) pairs, flat: `hits[offset] |= bit` marks the slot's group as held. */
  values: { getter: Getter; byValue: Map<JsonPrimitive, Int32Array> }[];
  ranges: { number: NumberReader; gt: Sorted; gte: Sorted; lt: Sorted; lte: Sorted }[];
  /**
   * Per path: literals with their postings — found anywhere (`exact`: case as written; `folded`: in the folded
   * text), at the start (`starts`) or at the end (`ends`). `scan` finds the `exact` ones in one pass, and
   * `startTrie`/`endTrie` the anchored ones in one walk from their end of the text (null: test each).
   */
  literals: {
    getter: Getter;
    exact: [string, Int32Array][];
    folded: [string, Int32Array][];
    scan: LiteralAutomaton | null;
    starts: [string, Int32Array][];
    startTrie: WordTrie | null;
    ends: [string, Int32Array][];
    endTrie: WordTrie | null;
  }[];
  /** Per slot: 1 when an index hit alone proves the handler matches (its requirement is exact): no evaluation. */
  exact: Uint8Array;
}

/** Bounds ascending, with the posting filed under each (pairs[2i], pairs[2i + 1] for bounds[i]). */
interface Sorted {
  bounds: Float64Array;
  pairs: Int32Array;
}

/** The gather's working memory, owned by the dispatcher: one bitset per group, all zero between gathers. */
export interface GatherMemory {
  hits: Int32Array;
  /** Set while a gather runs: one that did not finish (a throw) left bits behind, and the next clears them. */
  dirty: boolean;
  /** The words an anchored walk found (see `anchoredFound`), as long as the deepest trie met. */
  found: Int32Array;
}

export function gatherMemory(): GatherMemory {
  return { hits: new Int32Array(0), dirty: false, found: new Int32Array(0) };
}

/** What a handler requires: its one live path's (matchers in a row: AND), or of several paths (OR) their union. */
export function handlerRequirement(paths: readonly Int32Array[], matchers: readonly CompiledMatcher[]): Requirement {
  const each = paths.map((ms) => (ms.length === 0 ? UNKNOWN : requireAll([...ms].map((m) => matchers[m]!.required))));
  return each.length === 1 ? each[0]! : requireAny(each);
}

/** Builds the index over the live handlers of one type: `live[slot]` is the requirement of the slot's handler. */
export function buildCandidateIndex(live: readonly Requirement[]): CandidateIndex {
  const words = (live.length + 31) >> 5;
  const groups = live.reduce((g, r) => Math.max(g, r.groups.length), 0);
  const always = new Int32Array(words);
  const needs = new Int32Array(Math.max(0, groups - 1) * words);
  const exact = new Uint8Array(live.length);
  const values = new Map<string, { getter: Getter; byValue: Map<JsonPrimitive, number[]> }>();
  const ranges = new Map<string, { number: NumberReader; lists: Record<'gt' | 'gte' | 'lt' | 'lte', [number, number, number][]> }>();
  const literals = new Map<string, { getter: Getter; exact: Map<string, number[]>; folded: Map<string, number[]>; starts: Map<string, number[]>; ends: Map<string, number[]> }>();
  const file = <K>(m: Map<K, number[]>, k: K, offset: number, bit: number) => {
    const list = m.get(k);
    if (list) list.push(offset, bit);
    else m.set(k, [offset, bit]);
  };
  live.forEach((required, slot) => {
    const word = slot >> 5;
    const bit = 1 << (slot & 31);
    if (required.groups.length === 0) {
      always[word]! |= bit;
      return;
    }
    required.groups.forEach((group, g) => {
      if (g > 0) needs[(g - 1) * words + word]! |= bit;
      for (const atom of group) fileAtom(atom, g * words + word, bit);
    });
    if (required.exact) exact[slot] = 1;
  });

  function fileAtom(atom: Atom, offset: number, bit: number) {
    if (atom.kind === 'value') {
      let ix = values.get(atom.path);
      if (!ix) values.set(atom.path, (ix = { getter: atom.getter, byValue: new Map() }));
      for (const v of new Set(atom.values)) file(ix.byValue, v, offset, bit);
    } else if (atom.kind === 'range') {
      let ix = ranges.get(atom.path);
      if (!ix) ranges.set(atom.path, (ix = { number: atom.number, lists: { gt: [], gte: [], lt: [], lte: [] } }));
      ix.lists[atom.op].push([atom.bound, offset, bit]);
    } else {
      let ix = literals.get(atom.path);
      if (!ix) literals.set(atom.path, (ix = { getter: atom.getter, exact: new Map(), folded: new Map(), starts: new Map(), ends: new Map() }));
      // Folded literals are only ever filed as found anywhere (clauseAtoms).
      file(atom.folded ? ix.folded : atom.at === 'start' ? ix.starts : atom.at === 'end' ? ix.ends : ix.exact, atom.text, offset, bit);
    }
  }

  const sorted = (list: [number, number, number][]): Sorted => {
    list.sort((a, b) => a[0] - b[0]);
    return { bounds: Float64Array.from(list.map((x) => x[0])), pairs: Int32Array.from(list.flatMap((x) => [x[1], x[2]])) };
  };
  return {
    words,
    groups,
    always,
    needs,
    values: [...values.values()].map((ix) => ({ getter: ix.getter, byValue: new Map([...ix.byValue].map(([k, v]) => [k, postings(v)])) })),
    ranges: [...ranges.values()].map((ix) => ({ number: ix.number, gt: sorted(ix.lists.gt), gte: sorted(ix.lists.gte), lt: sorted(ix.lists.lt), lte: sorted(ix.lists.lte) })),
    literals: [...literals.values()].map((ix) => ({
      getter: ix.getter,
      exact: textPostings(ix.exact),
      folded: textPostings(ix.folded),
      scan: ix.exact.size > SCAN_FROM ? literalAutomaton([...ix.exact.keys()]) : null,
      starts: textPostings(ix.starts),
      startTrie: ix.starts.size > 1 ? wordTrie([...ix.starts.keys()]) : null,
      ends: textPostings(ix.ends),
      endTrie: ix.ends.size > 1 ? wordTrie([...ix.ends.keys()].map(reversed)) : null,
    })),
    exact,
  };
}

/**
 * Flat (offset, bit) pairs as postings: the bits of one offset merged into one mask (a value that many
 * handlers list marks their bits word by word, one OR per word instead of one per handler), offsets ascending.
 */
function postings(pairs: readonly number[]): Int32Array {
  const byOffset = new Map<number, number>();
  for (let i = 0; i < pairs.length; i += 2) byOffset.set(pairs[i]!, (byOffset.get(pairs[i]!) ?? 0) | pairs[i + 1]!);
  return Int32Array.from([...byOffset].sort((a, b) => a[0] - b[0]).flat());
}

/** Each literal of a map with its postings, in the map's order (the order the tries and the automaton number them). */
function textPostings(byText: Map<string, number[]>): [string, Int32Array][] {
  return [...byText].map(([text, pairs]) => [text, postings(pairs)]);
}

/**
 * Past this many literals found anywhere on one path, the gather finds them in one pass of an automaton; up
 * to it, one native `includes` each is faster (broad 100: ~5% of the event with three literals, paired runs).
 */
const SCAN_FROM = 4;

const reversed = (text: string): string => [...text].reverse().join('');

const SLOT = new Float64Array(1);

/**
 * Collects into `out` the slots after `after` that may match in this scope, ascending; returns how many.
 * Allocates nothing (a case-insensitive literal folds the text; the memory grows once to the widest index).
 */
export function gatherCandidates(ix: CandidateIndex, scope: Scope, out: Int32Array, after: number, mem: GatherMemory): number {
  const W = ix.words;
  const G = ix.groups;
  if (mem.hits.length < G * W) mem.hits = new Int32Array(G * W);
  else if (mem.dirty) mem.hits.fill(0);
  mem.dirty = true;
  const hits = mem.hits;
  for (let k = 0; k < ix.values.length; k++) {
    const v = ix.values[k]!;
    const value = v.getter(scope);
    if (value === undefined || (value !== null && typeof value === 'object')) continue;
    const pairs = v.byValue.get(value);
    if (pairs !== undefined) hit(hits, pairs, 0, pairs.length);
  }
  for (let k = 0; k < ix.ranges.length; k++) {
    const r = ix.ranges[k]!;
    if (!r.number(scope, SLOT)) continue;
    const x = SLOT[0]!;
    // Each list walked from the end its hits are at, up to the first bound that fails: the postings hit plus
    // one comparison (a binary search's unpredictable branches cost more than that on lists this short).
    const { gt, gte, lt, lte } = r;
    for (let i = 0, b = gt.bounds, p = gt.pairs; i < b.length && b[i]! < x; i++) hits[p[2 * i]!]! |= p[2 * i + 1]!; // bound < x
    for (let i = 0, b = gte.bounds, p = gte.pairs; i < b.length && b[i]! <= x; i++) hits[p[2 * i]!]! |= p[2 * i + 1]!; // bound <= x
    for (let i = lt.bounds.length - 1, b = lt.bounds, p = lt.pairs; i >= 0 && b[i]! > x; i--) hits[p[2 * i]!]! |= p[2 * i + 1]!; // x < bound
    for (let i = lte.bounds.length - 1, b = lte.bounds, p = lte.pairs; i >= 0 && b[i]! >= x; i--) hits[p[2 * i]!]! |= p[2 * i + 1]!; // x <= bound
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
          const pairs = l.exact[outList[j]!]![1];
          hit(hits, pairs, 0, pairs.length);
        }
      }
    } else {
      for (let i = 0; i < l.exact.length; i++) {
        const entry = l.exact[i]!;
        if (s.includes(entry[0])) hit(hits, entry[1], 0, entry[1].length);
      }
    }
    if (l.starts.length !== 0) markAnchored(hits, s, l.starts, l.startTrie, false, mem);
    if (l.ends.length !== 0) markAnchored(hits, s, l.ends, l.endTrie, true, mem);
    if (l.folded.length === 0) continue;
    const folded = foldCase(s);
    for (let i = 0; i < l.folded.length; i++) {
      const entry = l.folded[i]!;
      if (folded.includes(entry[0])) hit(hits, entry[1], 0, entry[1].length);
    }
  }
  // Read the candidates out a word at a time in ascending slot order, clearing the bits for the next gather.
  const needs = ix.needs;
  const always = ix.always;
  const from = (after + 1) >> 5;
  for (let w = 0; w < from; w++) for (let g = 0; g < G; g++) hits[g * W + w] = 0;
  let n = 0;
  for (let w = from; w < W; w++) {
    let x = 0;
    if (G !== 0) {
      x = hits[w]!;
      hits[w] = 0;
      for (let g = 1; g < G; g++) {
        const o = g * W + w;
        x &= hits[o]! | ~needs[o - W]!;
        hits[o] = 0;
      }
    }
    x |= always[w]!;
    if (w === from) x &= -1 << ((after + 1) & 31);
    while (x !== 0) {
      const low = x & -x;
      out[n++] = (w << 5) + 31 - Math.clz32(low);
      x ^= low;
    }
  }
  mem.dirty = false;
  return n;
}

/**
 * Marks the postings of the words of `entries` that begin `s` (`fromEnd`: that end it): found in one walk of
 * their trie (built over the words reversed for the end), or, without one, tested one by one.
 */
function markAnchored(hits: Int32Array, s: string, entries: [string, Int32Array][], t: WordTrie | null, fromEnd: boolean, mem: GatherMemory): void {
  if (t === null) {
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (fromEnd ? s.endsWith(entry[0]) : s.startsWith(entry[0])) hit(hits, entry[1], 0, entry[1].length);
    }
    return;
  }
  if (mem.found.length < t.depth) mem.found = new Int32Array(t.depth);
  const found = mem.found;
  for (let i = 0, n = anchoredFound(t, s, fromEnd, found); i < n; i++) {
    const pairs = entries[found[i]!]![1];
    hit(hits, pairs, 0, pairs.length);
  }
}

/** Marks the postings [from, to) of `pairs` (offsets into `hits`, bits) as held. */
function hit(hits: Int32Array, pairs: Int32Array, from: number, to: number): void {
  for (let i = from; i < to; i += 2) hits[pairs[i]!]! |= pairs[i + 1]!;
}
