import { foldCase } from './fold.ts';

/**
 * The language of a regular expression that is a small finite set of strings, for the candidate index's exact
 * atoms [C5]: `^(rm|mv|dd)$` is "is one of", `^(ls|cat) ` "starts with one of", `\.(pem|key)$` "ends with
 * one of", `(curl|wget) http` "contains one of"; also `(?i)^drop table` (ASCII case folding as RE2 does it),
 * classes of a few ASCII characters (`[Rr]m`, `v[0-9]`, `\d`), `?` and bounded repeats `{n,m}`, `\A` `\z`,
 * and the `m` flag (`^`/`$` at line ends). Everything else (`.`, `*`, `+`, `\b`, `\w`, `\pL`, negated
 * classes, non-ASCII in the pattern, flag groups, `\Q…\E`) returns null.
 *
 * Why this is exact: the pattern is parsed into its language — a finite set of words, each anchored at the
 * start, the end, both or neither. A pattern matches a text iff some word occurs there at an allowed place:
 * without `m`, RE2's `^` matches only at the start of the text and `$` only at its end (a word needing `^`
 * after a character, or a character after `$`, can never match and is dropped); with `m`, also after / before
 * a `\n`. Words are ASCII, which is never half of a UTF-16 surrogate pair, so code-unit and code-point
 * matching agree. Under `i`, RE2 folds an ASCII letter only with its other case, and `k`/`s` also with the
 * Kelvin sign and the long s; `foldCase` maps exactly those onto the lower-case letter, one unit for one.
 *
 * (These languages were also run as string operations in place of the matcher until the benchmark found no
 * goal that needed it: ACCEL.md. The matcher is `linearRegex.ts` or RE2 for them now.)
 */

/** At most this many words in the language (a product of alternations and classes grows fast). */
const MAX_WORDS = 256;

export interface Word {
  text: string;
  /** Anchored at the start (`^`, `\A`): the word must begin the text (with `m`: or follow a `\n`). */
  start: boolean;
  /** Anchored at the end (`$`, `\z`): the word must end the text (with `m`: or precede a `\n`). */
  end: boolean;
}

export interface Language {
  words: Word[];
  /** Case-insensitive: the words are folded, and so must the text be. */
  fold: boolean;
  multiline: boolean;
}

/** The language of a pattern, or null when it is not a small finite set of ASCII words. */
export function finiteLanguage(source: string, flags: string): Language | null {
  let fold = false;
  let multiline = false;
  for (const f of flags) {
    if (f === 'i') fold = true;
    else if (f === 'm') multiline = true;
    else if (f !== 's') return null; // `s` changes only `.`, which is never ours
  }
  let at = 0;
  // Inline flags at the very start apply to the whole pattern: `(?i)`, `(?im)`, `(?s)`, `(?U)`.
  const inline = /^\(\?([imsU]+)\)/.exec(source);
  if (inline) {
    if (inline[1]!.includes('i')) fold = true;
    if (inline[1]!.includes('m')) multiline = true;
    at = inline[0].length;
  }
  const p = new Parser(source, at, multiline);
  const words = p.alternation();
  if (words === null || p.at !== source.length) return null;
  const seen = new Set<string>();
  const unique: Word[] = [];
  for (const w of words) {
    const text = fold ? foldCase(w.text) : w.text;
    const key = `${w.start ? 1 : 0}${w.end ? 1 : 0}${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push({ text, start: w.start, end: w.end });
  }
  return { words: unique, fold, multiline };
}

/** A recursive-descent reader of the finite subset of RE2 syntax; any other construct makes it answer null. */
class Parser {
  at: number;
  constructor(private readonly s: string, at: number, private readonly multiline: boolean) {
    this.at = at;
  }

  /** `a|b|…` up to `)` or the end. */
  alternation(): Word[] | null {
    const out: Word[] = [];
    for (;;) {
      const branch = this.concatenation();
      if (branch === null) return null;
      out.push(...branch);
      if (out.length > MAX_WORDS) return null;
      if (this.s[this.at] !== '|') return out;
      this.at++;
    }
  }

  /** Repeated atoms up to `|`, `)` or the end: the product of their languages. */
  private concatenation(): Word[] | null {
    let words: Word[] | null = [EMPTY];
    while (this.at < this.s.length && this.s[this.at] !== '|' && this.s[this.at] !== ')') {
      const next = this.repeat();
      if (next === null) return null;
      words = this.product(words, next);
      if (words === null) return null;
    }
    return words;
  }

  /** An atom and its quantifier: none, `?`, `{n}`, `{n,m}` (each possibly lazy: the language is the same). */
  private repeat(): Word[] | null {
    const atom = this.atom();
    if (atom === null) return null;
    const q = this.s[this.at];
    let min = 1;
    let max = 1;
    if (q === '?') {
      min = 0;
      this.at++;
    } else if (q === '{') {
      const m = /^\{(\d{1,4})(?:(,)(\d{1,4})?)?\}/.exec(this.s.slice(this.at));
      if (!m || m[2] !== undefined && m[3] === undefined) return null; // `{n,}` is unbounded; `{` alone, RE2's call
      min = Number(m[1]);
      max = m[3] !== undefined ? Number(m[3]) : min;
      if (min > max || max > 1000) return null;
      this.at += m[0].length;
    } else if (q === '*' || q === '+') {
      return null;
    }
    if (q === '?' || q === '{') {
      if (this.s[this.at] === '?') this.at++; // lazy: matches the same texts
      const after = this.s[this.at];
      if (after === '*' || after === '+' || after === '?' || after === '{') return null;
    }
    if (min === 1 && max === 1) return atom;
    let out: Word[] = [];
    let power: Word[] | null = [EMPTY];
    for (let k = 0; k <= max; k++) {
      if (k >= min) out = [...out, ...power];
      if (out.length > MAX_WORDS) return null;
      if (k < max) {
        power = this.product(power, atom);
        if (power === null) return null;
      }
    }
    return out;
  }

  /** One atom: a group, a class, an anchor, an escape or a literal character. */
  private atom(): Word[] | null {
    const s = this.s;
    const c = s[this.at]!;
    if (c === '(') {
      let j = this.at + 1;
      if (s.startsWith('?:', j)) j += 2;
      else if (s.startsWith('?P<', j) || s.startsWith('?<', j)) {
        const close = s.indexOf('>', j);
        if (close < 0 || !/^\?P?<[A-Za-z0-9_]+>$/.test(s.slice(j, close + 1))) return null;
        j = close + 1;
      } else if (s[j] === '?') return null; // flag groups: not ours
      this.at = j;
      const inner = this.alternation();
      if (inner === null || s[this.at] !== ')') return null;
      this.at++;
      return inner;
    }
    if (c === '[') return this.charClass();
    if (c === '^') {
      this.at++;
      return [START];
    }
    if (c === '$') {
      this.at++;
      return [END];
    }
    if (c === '\\') {
      const n = s[this.at + 1];
      if (n === undefined) return null;
      this.at += 2;
      if (n === 'A' || n === 'z') return this.multiline ? null : [n === 'A' ? START : END];
      if (n === 'd') return DIGITS.map(literal);
      const ch = escapedChar(n);
      return ch === null ? null : [literal(ch)];
    }
    if (!isPlain(c)) return null;
    this.at++;
    return [literal(c)];
  }

  /** `[…]` of ASCII characters, ranges and the escapes above; negated and POSIX classes are not ours. */
  private charClass(): Word[] | null {
    const s = this.s;
    let i = this.at + 1;
    if (s[i] === '^') return null;
    const chars = new Set<string>();
    let first = true;
    for (;;) {
      const c = s[i];
      if (c === undefined) return null;
      if (c === ']' && !first) break;
      if (c === '[' && s[i + 1] === ':') return null;
      let lo: string | null;
      if (c === '\\') {
        const n = s[i + 1];
        if (n === undefined) return null;
        if (n === 'd') {
          for (const d of DIGITS) chars.add(d);
          i += 2;
          first = false;
          continue;
        }
        lo = escapedChar(n);
        i += 2;
      } else {
        lo = c === '-' && !first && s[i + 1] !== ']' ? null : isClassChar(c) ? c : null;
        i += 1;
      }
      if (lo === null) return null;
      if (s[i] === '-' && s[i + 1] !== ']' && s[i + 1] !== undefined) {
        let hi: string | null;
        if (s[i + 1] === '\\') {
          hi = s[i + 2] === undefined ? null : escapedChar(s[i + 2]!);
          i += 3;
        } else {
          hi = isClassChar(s[i + 1]!) && s[i + 1] !== '-' ? s[i + 1]! : null;
          i += 2;
        }
        if (hi === null || hi < lo) return null;
        for (let k = lo.charCodeAt(0); k <= hi.charCodeAt(0); k++) chars.add(String.fromCharCode(k));
      } else {
        chars.add(lo);
      }
      if (chars.size > 64) return null;
      first = false;
    }
    this.at = i + 1;
    return [...chars].map(literal);
  }

  /** Every word of `a` followed by every word of `b`; impossible combinations are dropped (null: too many). */
  private product(a: Word[], b: Word[]): Word[] | null {
    const out: Word[] = [];
    for (const x of a) {
      for (const y of b) {
        // Without `m`: `^` after a character, or a character after `$`, never matches. With `m` such an
        // inner anchor could match at a line break: not ours.
        if ((y.start && x.text !== '') || (x.end && y.text !== '')) {
          if (this.multiline) return null;
          continue;
        }
        out.push({ text: x.text + y.text, start: x.start || y.start, end: x.end || y.end });
        if (out.length > MAX_WORDS) return null;
      }
    }
    return out;
  }
}

const EMPTY: Word = { text: '', start: false, end: false };
const START: Word = { text: '', start: true, end: false };
const END: Word = { text: '', start: false, end: true };
const DIGITS = [...'0123456789'];
const literal = (text: string): Word => ({ text, start: false, end: false });

/** Printable ASCII that stands for itself outside a class. */
function isPlain(c: string): boolean {
  const code = c.charCodeAt(0);
  return code >= 0x20 && code <= 0x7e && !'\\.+*?()[]{}|^$'.includes(c);
}

/** Printable ASCII that stands for itself inside a class (`\` starts an escape, `[` may start `[:…:]`). */
function isClassChar(c: string): boolean {
  const code = c.charCodeAt(0);
  return code >= 0x20 && code <= 0x7e && c !== '\\' && c !== '[';
}

/** The character an escape stands for: ASCII punctuation itself, `\n \t \r \f \v`; null for the rest. */
function escapedChar(n: string): string | null {
  if (/[!-/:-@[-`{-~]/.test(n)) return n;
  switch (n) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'f': return '\f';
    case 'v': return '\v';
    default: return null; // \d handled by the caller; \w \s \b \pL \x41 \101 \Q…: RE2's business
  }
}
