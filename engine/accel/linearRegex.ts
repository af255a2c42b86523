/**
 * A bit-parallel matcher for a subset of RE2 syntax beyond finite languages [C10]: literals, `.`, classes
 * (ranges, negation, `\d \w \s` and their negations, escapes), alternation, groups, repetition `* + ? {n}
 * {n,} {n,m}` (greedy or lazy: a yes/no test cannot tell them apart), the anchors `^ $ \A \z \b \B`, and
 * the flags `i m s` (from the operand, a `(?flags)` group or a `(?flags:…)` group). Anything else —
 * Unicode classes `\pL`, POSIX classes `[[:alpha:]]`, `\Q…\E`, octal escapes, non-ASCII in a pattern
 * under `i`, nested quantifiers, more than 32 character positions — returns null and stays with RE2.
 *
 * How: the pattern becomes a Thompson NFA whose only consuming states are its character positions (at
 * most 32, one bit each of an int32); the empty-width steps between them (alternation, repetition,
 * assertions) are resolved ahead of time into "follow" masks, one table per combination of assertions that
 * hold at a boundary. A test reads the text once, one code point at a time, with a state of one machine
 * word: no text can make it slower than linear or make it hang.
 *
 * Why it answers exactly as RE2 (re2js) does — each point is checked by test/engine/accel/linearRegex.test.ts
 * against plain re2js on random patterns and texts:
 * - The text is read by code points as re2js reads UTF-16: a high surrogate followed by a low one is one
 *   character, any other unit is one character of its own value; `.` and negated classes take either.
 * - `.` is any character but `\n` (with `s`, any character); negated classes are complements over all
 *   code points, so they match `\n`. `\d \w \s` are ASCII (`\s` is `[\t\n\f\r ]`, no `\v`).
 * - Under `i`, every literal and class range is closed under RE2's simple case folding before a class is
 *   negated; for ASCII letters that is the other case, plus U+212A (Kelvin sign) with k and U+017F (long s)
 *   with s. The pattern's own characters must be ASCII there (the text may be anything).
 * - `\b`/`\B` look at the UTF-16 units either side of a boundary and count only `[0-9A-Za-z_]` as word
 *   characters; without `m`, `^`/`$` hold only at the start/end of the text; with `m` also after/before `\n`.
 */

/** A set of code points: sorted, disjoint, inclusive ranges `[lo0, hi0, lo1, hi1, …]`. */
type CharSet = number[];

type Node =
  | { k: 'set'; set: CharSet }
  | { k: 'cat'; xs: Node[] }
  | { k: 'alt'; xs: Node[] }
  | { k: 'rep'; x: Node; min: number; max: number } // max < 0: unbounded
  | { k: 'assert'; bit: number };

// Empty-width conditions at a boundary, as bits.
const BEGIN_TEXT = 1;
const END_TEXT = 2;
const BEGIN_LINE = 4;
const END_LINE = 8;
const WORD_BOUNDARY = 16;
const NOT_WORD_BOUNDARY = 32;
const ALL_CONDITIONS = 63;

const MAX_POSITIONS = 32;
const MAX_STATES = 4000;
const MAX_DEPTH = 100;
const MAX_CODE_POINT = 0x10ffff;

const DIGIT: CharSet = [0x30, 0x39];
const WORD: CharSet = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
const SPACE: CharSet = [0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x20];

/** Thrown inside the parser for any construct outside the subset; the caller answers null. */
class NotOurs extends Error {}
const notOurs = (): never => {
  throw new NotOurs();
};

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
}

/**
 * The linear-time tester for `source` under `flags` (`i`, `m`, `s`), or null when the pattern is outside
 * the subset. Call it only for a pattern RE2 accepts: the parser reads RE2's syntax, it does not validate it.
 */
export function linearTest(source: string, flags: string): ((text: string) => boolean) | null {
  const f: Flags = { i: false, m: false, s: false };
  for (const c of flags) {
    if (c === 'i' || c === 'm' || c === 's') f[c] = true;
    else return null;
  }
  let tree: Node;
  try {
    const p = new Parser(source);
    tree = p.alternation(f);
    if (p.at !== source.length) return null;
  } catch (e) {
    if (e instanceof NotOurs) return null;
    throw e;
  }
  const nfa = buildNfa(tree);
  return nfa === null ? null : tester(nfa);
}

/** A recursive-descent reader of the subset of RE2 syntax; anything else throws NotOurs. */
class Parser {
  at = 0;
  /** Groups open around `at`: past MAX_DEPTH, not ours (RE2 has its own limit; this one keeps the recursion short). */
  private depth = 0;
  constructor(private readonly s: string) {}

  /** `a|b|…` up to `)` or the end. `(?flags)` inside changes `f` until the end of the enclosing group. */
  alternation(f: Flags): Node {
    const branches: Node[] = [];
    for (;;) {
      branches.push(this.concatenation(f));
      if (this.s[this.at] !== '|') break;
      this.at++;
    }
    return branches.length === 1 ? branches[0]! : { k: 'alt', xs: branches };
  }

  private concatenation(f: Flags): Node {
    const xs: Node[] = [];
    while (this.at < this.s.length && this.s[this.at] !== '|' && this.s[this.at] !== ')') {
      if (this.s.startsWith('(?', this.at)) {
        const set = /^\(\?(-?[imsU]+|[imsU]+-[imsU]+)\)/.exec(this.s.slice(this.at, this.at + 16));
        if (set) {
          applyFlags(f, set[1]!);
          this.at += set[0].length;
          continue;
        }
      }
      xs.push(this.repeat(f));
    }
    return xs.length === 1 ? xs[0]! : { k: 'cat', xs };
  }

  /** An atom and its quantifier (with an optional lazy `?`); a second quantifier is not ours. */
  private repeat(f: Flags): Node {
    const x = this.atom(f);
    const q = this.s[this.at];
    let min: number;
    let max: number;
    if (q === '*') [min, max] = [0, -1];
    else if (q === '+') [min, max] = [1, -1];
    else if (q === '?') [min, max] = [0, 1];
    else if (q === '{') {
      const m = /^\{(\d{1,4})(?:(,)(\d{1,4})?)?\}/.exec(this.s.slice(this.at, this.at + 12));
      if (!m) return notOurs(); // a `{` that is no repeat is a literal to RE2: leave that to it
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === undefined ? -1 : Number(m[3]);
      if (min > 1000 || max > 1000 || (max >= 0 && max < min)) return notOurs();
      this.at += m[0].length - 1;
    } else return x;
    this.at++;
    if (this.s[this.at] === '?') this.at++;
    const after = this.s[this.at];
    if (after === '*' || after === '+' || after === '?' || after === '{') return notOurs();
    return { k: 'rep', x, min, max };
  }

  private atom(f: Flags): Node {
    const s = this.s;
    const c = s[this.at]!;
    if (c === '(') {
      let j = this.at + 1;
      const inner: Flags = { ...f };
      if (s[j] === '?') {
        const m = /^\?(?::|P?<[A-Za-z0-9_]+>|(-?[imsU]+|[imsU]+-[imsU]+):)/.exec(s.slice(j, j + 40));
        if (!m) return notOurs();
        if (m[1] !== undefined) applyFlags(inner, m[1]);
        j += m[0].length;
      }
      this.at = j;
      if (++this.depth > MAX_DEPTH) return notOurs();
      const x = this.alternation(inner);
      if (s[this.at] !== ')') return notOurs();
      this.at++;
      this.depth--;
      return x;
    }
    if (c === '[') return this.charClass(f);
    if (c === '.') {
      this.at++;
      return { k: 'set', set: f.s ? [0, MAX_CODE_POINT] : [0, 9, 11, MAX_CODE_POINT] };
    }
    if (c === '^') {
      this.at++;
      return { k: 'assert', bit: f.m ? BEGIN_LINE : BEGIN_TEXT };
    }
    if (c === '$') {
      this.at++;
      return { k: 'assert', bit: f.m ? END_LINE : END_TEXT };
    }
    if (c === '\\') {
      const n = s[this.at + 1];
      const bit = n === 'A' ? BEGIN_TEXT : n === 'z' ? END_TEXT : n === 'b' ? WORD_BOUNDARY : n === 'B' ? NOT_WORD_BOUNDARY : 0;
      if (bit !== 0) {
        this.at += 2;
        return { k: 'assert', bit };
      }
      const group = this.perlClass(f);
      if (group !== null) return { k: 'set', set: group };
      const ch = this.escape();
      return { k: 'set', set: literalSet(ch, f) };
    }
    if ('*+?{)|'.includes(c)) return notOurs(); // a quantifier with nothing to repeat: RE2's error, not ours
    return { k: 'set', set: literalSet(this.char(), f) };
  }

  /** One code point of the pattern, as re2js reads it (a lone surrogate is not ours). */
  private char(): number {
    const cp = this.s.codePointAt(this.at)!;
    if (cp >= 0xd800 && cp <= 0xdfff) return notOurs();
    this.at += cp > 0xffff ? 2 : 1;
    return cp;
  }

  /** `\d \D \s \S \w \W` at `at`, folded under `i` and then negated (as RE2 does); null for other escapes. */
  private perlClass(f: Flags): CharSet | null {
    const n = this.s[this.at + 1];
    const base = n === 'd' || n === 'D' ? DIGIT : n === 's' || n === 'S' ? SPACE : n === 'w' || n === 'W' ? WORD : null;
    if (base === null) return null;
    this.at += 2;
    const set = f.i ? foldSet(base) : base;
    return n === 'D' || n === 'S' || n === 'W' ? negate(set) : set;
  }

  /** The code point of an escape other than a Perl class or an assertion: punctuation, `\n \t \r \f \v \a`, `\xHH`, `\x{H…}`. */
  private escape(): number {
    const s = this.s;
    const n = s[this.at + 1];
    if (n === undefined) return notOurs();
    if (/[!-/:-@[-`{-~]/.test(n)) {
      this.at += 2;
      return n.charCodeAt(0);
    }
    const control = CONTROL_ESCAPES[n];
    if (control !== undefined && Object.hasOwn(CONTROL_ESCAPES, n)) {
      this.at += 2;
      return control;
    }
    if (n === 'x') {
      const m = /^\\x(?:([0-9A-Fa-f]{2})|\{([0-9A-Fa-f]{1,6})\})/.exec(s.slice(this.at, this.at + 11));
      if (!m) return notOurs();
      const cp = parseInt(m[1] ?? m[2]!, 16);
      if (cp > MAX_CODE_POINT || (cp >= 0xd800 && cp <= 0xdfff)) return notOurs();
      this.at += m[0].length;
      return cp;
    }
    return notOurs(); // \pL, \Q…\E, octal, \C, \Z…: RE2's
  }

  /** `[…]`: RE2's rules — a `]` first is literal, `-` is literal unless between two characters, items fold one by one, then the class is negated. */
  private charClass(f: Flags): Node {
    const s = this.s;
    this.at++;
    let negated = false;
    if (s[this.at] === '^') {
      negated = true;
      this.at++;
    }
    let set: CharSet = [];
    let first = true;
    while (first || s[this.at] !== ']') {
      if (this.at >= s.length) return notOurs();
      first = false;
      if (s.startsWith('[:', this.at)) return notOurs();
      if (s[this.at] === '\\') {
        const group = this.perlClass(f);
        if (group !== null) {
          set = union(set, group);
          continue;
        }
      }
      const lo = this.classChar();
      let hi = lo;
      if (s[this.at] === '-' && this.at + 1 < s.length && s[this.at + 1] !== ']') {
        this.at++;
        hi = this.classChar();
        if (hi < lo) return notOurs();
      }
      set = union(set, f.i ? foldSet([lo, hi]) : [lo, hi]);
    }
    this.at++;
    return { k: 'set', set: negated ? negate(set) : set };
  }

  private classChar(): number {
    return this.s[this.at] === '\\' ? this.escape() : this.char();
  }
}

const CONTROL_ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };

function applyFlags(f: Flags, spec: string): void {
  let on = true;
  for (const c of spec) {
    if (c === '-') on = false;
    else if (c === 'i' || c === 'm' || c === 's') f[c] = on;
    // U swaps greedy and lazy: a yes/no test cannot tell them apart.
  }
}

/** The set of one literal character, closed under case folding under `i`. */
function literalSet(cp: number, f: Flags): CharSet {
  return f.i ? foldSet([cp, cp]) : [cp, cp];
}

/**
 * A set closed under RE2's simple case folding, for sets of ASCII characters (anything else is not ours):
 * a letter with its other case, k and K with U+212A, s and S with U+017F — the only non-ASCII members of
 * the fold orbits of ASCII letters.
 */
function foldSet(set: CharSet): CharSet {
  let out = set;
  for (let r = 0; r < set.length; r += 2) {
    if (set[r + 1]! > 0x7f) return notOurs();
    for (let c = set[r]!; c <= set[r + 1]!; c++) {
      const lower = c | 0x20;
      if (lower < 0x61 || lower > 0x7a) continue;
      const other = c ^ 0x20;
      out = union(out, [other, other]);
      if (lower === 0x6b) out = union(out, [0x212a, 0x212a]);
      if (lower === 0x73) out = union(out, [0x17f, 0x17f]);
    }
  }
  return out;
}

function union(a: CharSet, b: CharSet): CharSet {
  const pairs: [number, number][] = [];
  for (let r = 0; r < a.length; r += 2) pairs.push([a[r]!, a[r + 1]!]);
  for (let r = 0; r < b.length; r += 2) pairs.push([b[r]!, b[r + 1]!]);
  pairs.sort((x, y) => x[0] - y[0]);
  const out: CharSet = [];
  for (const [lo, hi] of pairs) {
    const n = out.length;
    if (n > 0 && lo <= out[n - 1]! + 1) out[n - 1] = Math.max(out[n - 1]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

function negate(set: CharSet): CharSet {
  const out: CharSet = [];
  let next = 0;
  for (let r = 0; r < set.length; r += 2) {
    if (set[r]! > next) out.push(next, set[r]! - 1);
    next = set[r + 1]! + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

// NFA states: a character position (consumes one character), a split (two ways on), an assertion (on if
// its condition holds at the boundary), or the match.
const CHAR = 0;
const SPLIT = 1;
const ASSERT = 2;
const MATCH = 3;

interface Nfa {
  kind: number[];
  out: number[];
  out2: number[];
  /** CHAR: the position; ASSERT: the condition bit. */
  arg: number[];
  start: number;
  sets: CharSet[];
  /** The condition bits the pattern uses. */
  conditions: number;
}

function buildNfa(tree: Node): Nfa | null {
  const nfa: Nfa = { kind: [], out: [], out2: [], arg: [], start: 0, sets: [], conditions: 0 };
  const add = (kind: number, out: number, out2: number, arg: number): number => {
    if (nfa.kind.length >= MAX_STATES) throw new NotOurs();
    nfa.kind.push(kind);
    nfa.out.push(out);
    nfa.out2.push(out2);
    nfa.arg.push(arg);
    return nfa.kind.length - 1;
  };
  /** The entry state of `node` followed by state `next`. */
  const build = (node: Node, next: number): number => {
    switch (node.k) {
      case 'set':
        if (nfa.sets.length >= MAX_POSITIONS) throw new NotOurs();
        nfa.sets.push(node.set);
        return add(CHAR, next, -1, nfa.sets.length - 1);
      case 'assert':
        nfa.conditions |= node.bit;
        return add(ASSERT, next, -1, node.bit);
      case 'cat': {
        let e = next;
        for (let j = node.xs.length - 1; j >= 0; j--) e = build(node.xs[j]!, e);
        return e;
      }
      case 'alt': {
        let e = build(node.xs[node.xs.length - 1]!, next);
        for (let j = node.xs.length - 2; j >= 0; j--) e = add(SPLIT, build(node.xs[j]!, next), e, 0);
        return e;
      }
      case 'rep': {
        let e = next;
        if (node.max < 0) {
          const loop = add(SPLIT, -1, next, 0);
          nfa.out[loop] = build(node.x, loop);
          e = loop;
        } else {
          for (let j = node.min; j < node.max; j++) e = add(SPLIT, build(node.x, e), next, 0);
        }
        for (let j = 0; j < node.min; j++) e = build(node.x, e);
        return e;
      }
    }
  };
  try {
    nfa.start = build(tree, add(MATCH, -1, -1, 0));
  } catch (e) {
    if (e instanceof NotOurs) return null;
    throw e;
  }
  return nfa;
}

/** What one combination of boundary conditions makes of the NFA's empty-width steps. */
interface Table {
  /** Per position: the positions that may consume the next character after it. */
  follow: Int32Array;
  /** The positions that may consume the first character of a match starting here. */
  start: number;
  /** The positions after which a match may end here. */
  final: number;
  /** A match may be empty here. */
  empty: boolean;
  /** The positions whose one successor is the position numbered just below (see `shifts`). */
  pure: number;
}

function table(nfa: Nfa, conditions: number): Table {
  const n = nfa.kind.length;
  const seen = new Int32Array(n);
  let stamp = 0;
  const stack: number[] = [];
  /** The positions and whether the match is reachable from `from` by empty-width steps only. */
  const closure = (from: number): [number, boolean] => {
    stamp++;
    let mask = 0;
    let match = false;
    stack.push(from);
    while (stack.length > 0) {
      const q = stack.pop()!;
      if (q < 0 || seen[q] === stamp) continue;
      seen[q] = stamp;
      const k = nfa.kind[q]!;
      if (k === CHAR) mask |= 1 << nfa.arg[q]!;
      else if (k === MATCH) match = true;
      else if (k === SPLIT) stack.push(nfa.out2[q]!, nfa.out[q]!);
      else if ((nfa.arg[q]! & conditions) !== 0) stack.push(nfa.out[q]!);
    }
    return [mask, match];
  };
  const follow = new Int32Array(nfa.sets.length);
  let final = 0;
  for (let q = 0; q < n; q++) {
    if (nfa.kind[q] !== CHAR) continue;
    const [mask, match] = closure(nfa.out[q]!);
    follow[nfa.arg[q]!] = mask;
    if (match) final |= 1 << nfa.arg[q]!;
  }
  const [start, empty] = closure(nfa.start);
  return { follow, start, final, empty, pure: shifts(follow) };
}

/** The tester: one pass over the text's code points with one int32 of state. */
/**
 * The tester: one pass over the text's code points with one int32 of state. Two shortcuts, neither of which
 * changes an answer: where no match is in progress, the text is skipped to the next place a match could
 * start (to the next occurrence of the literal every match begins with, found with `indexOf`, or past the
 * characters no match begins with); and a position whose only successor is the one numbered below it moves
 * by a shift, as in Shift-And, instead of a table lookup.
 */
function tester(nfa: Nfa): (text: string) => boolean {
  const ascii = new Int32Array(128);
  /** Non-ASCII ranges, flattened: lo, hi, bit. */
  const wide: number[] = [];
  nfa.sets.forEach((set, pos) => {
    const bit = 1 << pos;
    for (let r = 0; r < set.length; r += 2) {
      const lo = set[r]!;
      const hi = set[r + 1]!;
      for (let c = lo; c <= Math.min(hi, 127); c++) ascii[c]! |= bit;
      if (hi > 127) wide.push(Math.max(lo, 128), hi, bit);
    }
  });
  const wideMask = (cp: number): number => {
    let m = 0;
    for (let r = 0; r < wide.length; r += 3) if (cp >= wide[r]! && cp <= wide[r + 1]!) m |= wide[r + 2]!;
    return m;
  };
  // Over-approximations (every condition holding at once): what no combination of conditions can exceed.
  const loose = table(nfa, ALL_CONDITIONS);
  const { text: lead, last: leadLast } = leadingLiteral(nfa, loose);
  const used = nfa.conditions;

  if (used === 0) {
    const { follow, start, final, empty } = table(nfa, 0);
    if (empty) return () => true;
    const shift = shifts(follow);
    // Where the lead is found, its characters can be skipped: the state after them is its last position alone,
    // provided no other thread can be alive there, i.e. no proper prefix of the lead is also a suffix of it
    // (a thread started inside the lead would have to be reading such a prefix). Else they are stepped through.
    const jump = lead.length > 1 && borderFree(lead);
    return (text) => {
      const n = text.length;
      let state = 0;
      let i = 0;
      while (i < n) {
        if (state === 0 && lead !== '') {
          i = text.indexOf(lead, i);
          if (i < 0) return false;
          if (jump) {
            i += lead.length;
            state = leadLast;
            if ((state & final) !== 0) return true;
            continue;
          }
        }
        let c = text.charCodeAt(i++);
        if (state === 0) {
          while (c < 128 && (ascii[c]! & start) === 0) {
            if (i >= n) return false;
            c = text.charCodeAt(i++);
          }
        }
        let m: number;
        if (c < 128) m = ascii[c]!;
        else {
          // A surrogate pair is one code point (a lone surrogate stays itself), as re2js reads it.
          c = text.codePointAt(i - 1)!;
          if (c > 0xffff) i++;
          m = wideMask(c);
        }
        let next = start | ((state & shift) >>> 1);
        for (let x = state & ~shift; x !== 0; x &= x - 1) next |= follow[31 - Math.clz32(x & -x)]!;
        state = next & m;
        if ((state & final) !== 0) return true;
      }
      return false;
    };
  }

  // With assertions: the conditions at a boundary follow from the kinds of the UTF-16 units either side (as
  // re2js reads them): a word character, `\n`, another unit, or none (the text's edge). One table per pair of
  // kinds, built when first met (pairs with the same conditions share one).
  const byConditions: (Table | undefined)[] = new Array(64);
  const byKinds: (Table | undefined)[] = new Array(16);
  const tableAt = (kinds: number): Table => {
    const conditions = KIND_CONDITIONS[kinds]! & used;
    return (byKinds[kinds] = byConditions[conditions] ??= table(nfa, conditions));
  };
  const canRestart = table(nfa, ALL_CONDITIONS & ~BEGIN_TEXT);
  const restarts = canRestart.start !== 0 || canRestart.empty;
  const looseStart = loose.start;
  const skippable = !loose.empty;
  return (text) => {
    const n = text.length;
    let state = 0;
    let i = 0;
    let before = EDGE;
    for (;;) {
      if (state === 0 && i > 0) {
        if (!restarts) return false;
        if (skippable) {
          let j = i;
          if (lead !== '') {
            j = text.indexOf(lead, i);
            if (j < 0) return false;
          }
          for (; j < n; j++) {
            const c = text.charCodeAt(j);
            if (c >= 128 || (ascii[c]! & looseStart) !== 0) break;
          }
          if (j !== i) {
            i = j;
            before = kindOf(text.charCodeAt(i - 1));
          }
        }
      }
      let c = i < n ? text.charCodeAt(i) : -1;
      const after = c < 0 ? EDGE : kindOf(c);
      const kinds = (before << 2) | after;
      const t = byKinds[kinds] ?? tableAt(kinds);
      if ((state & t.final) !== 0 || t.empty) return true;
      if (c < 0) return false;
      i++;
      let m: number;
      if (c < 128) m = ascii[c]!;
      else {
        c = text.codePointAt(i - 1)!;
        if (c > 0xffff) i++;
        m = wideMask(c);
      }
      const follow = t.follow;
      const shift = t.pure;
      let next = t.start | ((state & shift) >>> 1);
      for (let x = state & ~shift; x !== 0; x &= x - 1) next |= follow[31 - Math.clz32(x & -x)]!;
      state = next & m;
      before = after; // a surrogate pair's units are both OTHER
    }
  };
}

/** The positions whose one successor is the position numbered just below: `follow[p] === 1 << (p - 1)`. */
function shifts(follow: Int32Array): number {
  let mask = 0;
  for (let p = 1; p < follow.length; p++) if (follow[p] === 1 << (p - 1)) mask |= 1 << p;
  return mask;
}

/**
 * The literal every match begins with, under the loose table (so under any conditions): the chain of
 * positions from the start while each step leads to exactly one position, of exactly one BMP character,
 * and no match can end before it. Empty when there is none. `last`: the bit of the position that reads its
 * last character.
 */
function leadingLiteral(nfa: Nfa, loose: Table): { text: string; last: number } {
  if (loose.empty) return { text: '', last: 0 };
  let out = '';
  let last = 0;
  let at = loose.start;
  for (let k = 0; k < 32; k++) {
    if (at === 0 || (at & (at - 1)) !== 0) break;
    const p = 31 - Math.clz32(at);
    const set = nfa.sets[p]!;
    if (set.length !== 2 || set[0] !== set[1] || set[0]! > 0xffff || (set[0]! >= 0xd800 && set[0]! <= 0xdfff)) break;
    out += String.fromCharCode(set[0]!);
    last = at;
    if ((loose.final & at) !== 0) break;
    at = loose.follow[p]!;
  }
  return { text: out, last };
}

/** Whether no proper prefix of `s` is also a suffix of it (KMP's failure value at the end is 0). */
function borderFree(s: string): boolean {
  const fail = new Int32Array(s.length);
  for (let i = 1, k = 0; i < s.length; i++) {
    while (k > 0 && s[i] !== s[k]) k = fail[k - 1]!;
    if (s[i] === s[k]) k++;
    fail[i] = k;
  }
  return fail[s.length - 1] === 0;
}

// The kind of a UTF-16 unit for boundary conditions, and the conditions that hold between two kinds.
const OTHER = 0;
const WORD_UNIT = 1;
const NEWLINE = 2;
const EDGE = 3;
function kindOf(c: number): number {
  return c === 10 ? NEWLINE : (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f ? WORD_UNIT : OTHER;
}
const KIND_CONDITIONS = Array.from({ length: 16 }, (_, kinds) => {
  const before = kinds >> 2;
  const after = kinds & 3;
  let at = before === EDGE ? BEGIN_TEXT | BEGIN_LINE : before === NEWLINE ? BEGIN_LINE : 0;
  at |= after === EDGE ? END_TEXT | END_LINE : after === NEWLINE ? END_LINE : 0;
  return at | ((before === WORD_UNIT) !== (after === WORD_UNIT) ? WORD_BOUNDARY : NOT_WORD_BOUNDARY);
});
