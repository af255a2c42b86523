/**
 * A literal that every match of an RE2 pattern must contain, for the dispatcher's candidate index: a
 * pattern whose literal is absent from a string cannot match it, so the handler is skipped without running
 * the regex. Conservative by design — when in doubt it returns null (no index), never a wrong literal:
 * alternation at the top, inline flags `(?…)`, `\Q…\E`, and non-ASCII literals all give up.
 * `requiredLiteral('\\brm\\s+-rf')` → `'-rf'`, the longest of the runs `rm` and `-rf`.
 */
export function requiredLiteral(pattern: string): string | null {
  const all = requiredLiterals(pattern);
  return all.length === 0 ? null : all.reduce((a, b) => (b.length > a.length ? b : a));
}

/**
 * Every literal run outside groups and classes of a pattern without top-level alternation: each one must
 * occur in any string the pattern matches (in order, but only presence is used). `['ls', 'cat']` for
 * `\\bls\\s+cat\\b`.
 */
export function requiredLiterals(pattern: string): string[] {
  if (pattern.includes('(?') || pattern.includes('\\Q')) return [];
  const runs: string[] = [];
  let run = '';
  let depth = 0;
  const flush = () => {
    if (run.length > 0 && !runs.includes(run)) runs.push(run);
    run = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '[') {
      flush();
      i = skipClass(pattern, i);
      if (i < 0) return [];
      continue;
    }
    if (ch === '(') {
      flush();
      depth++;
      continue;
    }
    if (ch === ')') {
      depth--;
      flush();
      continue;
    }
    if (ch === '|') {
      if (depth === 0) return [];
      run = '';
      continue;
    }
    if (depth > 0) {
      if (ch === '\\') i = escapeEnd(pattern, i);
      continue;
    }
    const repeat = ch === '{' ? /^\{\d*(,\d*)?\}/.exec(pattern.slice(i)) : null;
    if (repeat) {
      flush(); // a repetition count applies to what came before; it is not text
      i += repeat[0].length - 1;
      continue;
    }
    let literal: string | null = null;
    if (ch === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return [];
      // Escaped ASCII punctuation is itself; every other escape (`\pL`, `\p{Greek}`, `\x1b`, `\x{200B}`,
      // octal `\101`, `\d`, `\b`, …) stands for something else, and is skipped whole.
      literal = /[!-/:-@[-`{-~]/.test(next) ? next : null;
      i = literal === null ? escapeEnd(pattern, i) : i + 1;
    } else if (!'.^$*+?{'.includes(ch) && ch.charCodeAt(0) < 128) {
      literal = ch;
    }
    const q = pattern[i + 1];
    if (literal === null) {
      flush();
      continue;
    }
    if (q === '*' || q === '?' || (q === '{' && /^\{0[,}]/.test(pattern.slice(i + 1)))) {
      flush(); // the character is optional: the run ends before it
      continue;
    }
    run += literal;
    if (q === '+' || q === '{') flush(); // repeated: required once, but what follows is not adjacent
  }
  flush();
  return runs;
}

/**
 * Index of the last character of the RE2 escape that starts at `start` (a backslash): `\p{Greek}`,
 * `\x{200B}` up to the brace, `\pL` and `\PN` two letters, `\x1b` two hex digits, octal up to three digits,
 * anything else one character.
 */
function escapeEnd(p: string, start: number): number {
  const next = p[start + 1];
  if (next === 'p' || next === 'P' || next === 'x') {
    if (p[start + 2] === '{') {
      const close = p.indexOf('}', start + 3);
      return close < 0 ? p.length - 1 : close;
    }
    return Math.min(start + (next === 'x' ? 3 : 2), p.length - 1);
  }
  if (next !== undefined && next >= '0' && next <= '7') {
    let end = start + 1;
    while (end < start + 3 && p[end + 1] !== undefined && p[end + 1]! >= '0' && p[end + 1]! <= '7') end++;
    return end;
  }
  return start + 1;
}

/** Index of the `]` that closes the class opened at `start`, or -1. */
function skipClass(p: string, start: number): number {
  let i = start + 1;
  if (p[i] === '^') i++;
  if (p[i] === ']') i++;
  for (; i < p.length; i++) {
    if (p[i] === '\\') i = escapeEnd(p, i);
    else if (p[i] === '[' && p[i + 1] === ':') {
      const end = p.indexOf(':]', i + 2);
      if (end < 0) return -1;
      i = end + 1;
    } else if (p[i] === ']') return i;
  }
  return -1;
}
