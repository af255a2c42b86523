/**
 * Regular expressions whose language is a small finite set of plain strings, run as string operations with
 * exactly RE2's answers [C5]: `^(ls|cat) ` is "starts with `ls ` or `cat `", `\.(pem|key)$` "ends with `.pem`
 * or `.key`", `(curl|wget) http` "contains one of", `^(a|b)$` "is one of". Everything else (classes,
 * repetition, `.`, `\b`, inline flags, non-ASCII, flags) returns null and stays with RE2.
 *
 * Why this is exact: without the `m` flag RE2's `^` matches only at the start of the text and `$` only at its
 * end; a pattern matches somewhere in the text iff some string of its language occurs there, so the test is
 * a prefix / suffix / equality / substring test over the language. Literals are printable ASCII, which can
 * never be half of a UTF-16 surrogate pair, so code-unit and code-point matching agree.
 */

/** At most this many strings in the language (a product of alternations grows fast). */
const MAX_WORDS = 64;
const META = new Set(['\\', '.', '+', '*', '?', '(', ')', '[', ']', '{', '}', '|', '^', '$']);

/** The tester for a finite-language pattern, or null when the pattern is not one (then use RE2). */
export function literalSetTest(source: string, flags: string): ((s: string) => boolean) | null {
  if (flags !== '') return null;
  const branches = splitTop(source);
  if (!branches) return null;
  const tests: ((s: string) => boolean)[] = [];
  for (const b of branches) {
    const parsed = parseFinite(b);
    if (!parsed) return null;
    tests.push(branchTest(parsed));
  }
  if (tests.length === 1) return tests[0]!;
  return (s) => {
    for (let i = 0; i < tests.length; i++) if (tests[i]!(s)) return true;
    return false;
  };
}

/**
 * Every string of a finite-language pattern's language, anchors ignored (each must occur in a text it
 * matches), or null when the pattern is not one: the candidate index files the handler under each.
 */
export function finiteWords(source: string, flags: string): string[] | null {
  if (flags !== '') return null;
  const branches = splitTop(source);
  if (!branches) return null;
  const words = new Set<string>();
  for (const b of branches) {
    const parsed = parseFinite(b);
    if (!parsed) return null;
    for (const w of parsed.words) words.add(w);
  }
  return words.size > MAX_WORDS ? null : [...words];
}

/** One alternative of the top level: its words, and whether it is anchored at the start, the end. */
function branchTest({ words, start, end }: { words: string[]; start: boolean; end: boolean }): (s: string) => boolean {
  const list = [...new Set(words)];
  if (start && end) {
    const set = new Set(list);
    return (s) => set.has(s);
  }
  if (list.includes('')) return () => true; // the empty string occurs in every text (at its start and its end)
  if (list.length === 1) {
    const w = list[0]!;
    return start ? (s) => s.startsWith(w) : end ? (s) => s.endsWith(w) : (s) => s.includes(w);
  }
  // Plain loops: a callback per call would allocate a closure per test.
  if (start) return (s) => {
    for (let i = 0; i < list.length; i++) if (s.startsWith(list[i]!)) return true;
    return false;
  };
  if (end) return (s) => {
    for (let i = 0; i < list.length; i++) if (s.endsWith(list[i]!)) return true;
    return false;
  };
  return (s) => {
    for (let i = 0; i < list.length; i++) if (s.includes(list[i]!)) return true;
    return false;
  };
}

/** The pattern cut at its top-level `|` (outside groups, not escaped), or null on unbalanced parentheses. */
function splitTop(source: string): string[] | null {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')') {
      if (--depth < 0) return null;
    } else if (c === '|' && depth === 0) {
      out.push(source.slice(from, i));
      from = i + 1;
    }
  }
  if (depth !== 0) return null;
  out.push(source.slice(from));
  return out.length > MAX_WORDS ? null : out;
}

/** `^`? then a concatenation of literal characters and groups of literal alternatives, then `$`? */
export function parseFinite(source: string): { words: string[]; start: boolean; end: boolean } | null {
  let i = 0;
  const start = source.startsWith('^');
  if (start) i = 1;
  let stop = source.length;
  const end = stop > i && source[stop - 1] === '$' && !escapedAt(source, stop - 1);
  if (end) stop--;
  let words = [''];
  const append = (alts: string[]): boolean => {
    const next: string[] = [];
    for (const w of words) for (const a of alts) next.push(w + a);
    if (next.length > MAX_WORDS) return false;
    words = next;
    return true;
  };
  while (i < stop) {
    const ch = source[i]!;
    if (ch === '(') {
      let j = i + 1;
      if (source.startsWith('?:', j)) j += 2;
      else if (source[j] === '?') return null; // inline flags, named groups, lookaround: not ours
      const alts: string[] = [''];
      for (;;) {
        if (j >= stop) return null;
        const c = source[j]!;
        if (c === ')') break;
        if (c === '|') {
          alts.push('');
          j++;
          continue;
        }
        const lit = literalAt(source, j);
        if (!lit) return null;
        alts[alts.length - 1] += lit.ch;
        j = lit.next;
      }
      if (isQuantifier(source[j + 1])) return null;
      if (!append(alts)) return null;
      i = j + 1;
      continue;
    }
    const lit = literalAt(source, i);
    if (!lit || (lit.next < stop && isQuantifier(source[lit.next]))) return null;
    if (!append([lit.ch])) return null;
    i = lit.next;
  }
  return { words, start, end };
}

function isQuantifier(c: string | undefined): boolean {
  return c === '*' || c === '+' || c === '?' || c === '{';
}

/** A literal character at `i`: printable ASCII that is not a metacharacter, or an escaped ASCII punctuation. */
function literalAt(source: string, i: number): { ch: string; next: number } | null {
  const ch = source[i]!;
  if (ch === '\\') {
    const n = source[i + 1];
    if (n !== undefined && /[!-/:-@[-`{-~]/.test(n)) return { ch: n, next: i + 2 };
    return null; // \d, \s, \b, \x41, \Q…, a trailing backslash: RE2's business
  }
  const code = ch.charCodeAt(0);
  if (code < 0x20 || code > 0x7e || META.has(ch)) return null;
  return { ch, next: i + 1 };
}

/** True when the character at `i` is preceded by an odd number of backslashes. */
function escapedAt(s: string, i: number): boolean {
  let n = 0;
  for (let k = i - 1; k >= 0 && s[k] === '\\'; k--) n++;
  return n % 2 === 1;
}
