import { RE2JS } from 're2js';
import { linearTest } from '../accel/linearRegex.ts';

/** A compiled regular expression that runs in time linear in its input (RE2 semantics) [C5]. */
export interface SafeRegex {
  readonly source: string;
  readonly flags: string;
  test(input: string): boolean;
  replaceAll(input: string, replacement: string): string;
}

export type RegexCompile = { ok: true; regex: SafeRegex } | { ok: false; message: string };

const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

/**
 * Patterns RE2 has accepted (`bits/source`), told by the caller: a hook call whose pipeline this very build
 * compiled before (engine/node/pipelineCache.ts) need not compile RE2's program only to learn the pattern is
 * valid — in the CLI's bundles that would load re2js (~150 KB) on every call. The program is still built on
 * first use, so the answers are RE2's either way. Validity depends only on the pattern, flags and re2js.
 */
const accepted = new Set<string>();
/** Where `compileRegex` notes the patterns it accepted, while `noteAcceptedRegexes` runs. */
let acceptedLog: string[] | null = null;

/** Patterns (`bits/source`, from `noteAcceptedRegexes`) that RE2 accepted under this same build of re2js. */
export function acceptRegexes(keys: readonly string[]): void {
  for (const k of keys) accepted.add(k);
}

/** Runs `f` and returns what it returned with every pattern `compileRegex` accepted meanwhile (`bits/source`). */
export function noteAcceptedRegexes<T>(f: () => T): { value: T; accepted: string[] } {
  const outer = acceptedLog;
  const log: string[] = (acceptedLog = []);
  try {
    return { value: f(), accepted: log };
  } finally {
    acceptedLog = outer;
  }
}

/**
 * Patterns RE2 always accepts: an optional `^`, then atoms (a plain character, `.`, `\s \S \d \D \w \W`, an
 * escaped punctuation mark), each with at most one of `* + ?`, then an optional `$`. For these, `compileRegex`
 * builds RE2's program on first use instead of at load, since compiling 10k of them is most of a big
 * pipeline's validate time (test/bench/limits.bench.ts). Same RE2 program either way, so the same answers;
 * test/engine/match/regexLazy.test.ts checks RE2 accepts every pattern this admits.
 */
export const ALWAYS_VALID = /^\^?(?:(?:[A-Za-z0-9 _\-:\/=,@%#!~'"<>&;]|\.|\\[sSdDwW]|\\[.\\^$|?*+()[\]{}\/-])[*+?]?)*\$?$/;

const RE2_NOTE = 'Hookwire regexes are RE2, which runs in time linear in the input and so has no lookaround or backreferences (syntax: https://github.com/google/re2/wiki/Syntax)';

/** What RE2 lacks, said in words, for the constructs people bring from JavaScript or PCRE; null otherwise. */
function unsupportedSyntax(source: string): string | null {
  const found =
    source.includes('(?=') ? 'lookahead `(?=`'
    : source.includes('(?!') ? 'negative lookahead `(?!`'
    : source.includes('(?<=') ? 'lookbehind `(?<=`'
    : source.includes('(?<!') ? 'negative lookbehind `(?<!`'
    : /\\[1-9]/.test(source.replace(/\\\\/g, '')) ? 'a backreference such as `\\1`'
    : /\\k</.test(source) ? 'a named backreference `\\k<…>`'
    : /(?:[*+?}])\+/.test(source) ? 'a possessive quantifier such as `a++`'
    : source.includes('(?>') ? 'an atomic group `(?>`'
    : null;
  return found === null ? null : `${found} is not supported: ${RE2_NOTE}`;
}

/**
 * Compiles a pattern with RE2 (re2js): no backreferences or lookaround, and no input can make it
 * backtrack. `compileRegex('rm\\s+-rf', 'i')`.
 *
 * re2js is an NFA simulation, 10–50x slower than a backtracking engine on ordinary input, so `test` avoids
 * it where it can: a finite-language pattern (`^(ls|cat) `) is prefix/suffix/substring tests
 * (accel/literalRegex.ts), and most other patterns run on a bit-parallel NFA of one machine word
 * (accel/linearRegex.ts). Each gives exactly RE2's answer [C10] (engine/accel/ACCEL.md).
 */
export function compileRegex(source: string, flags = ''): RegexCompile {
  let bits = 0;
  for (const f of flags) {
    const bit = FLAG_BITS[f];
    if (bit === undefined) return { ok: false, message: `unknown regex flag "${f}" (use i, m, s)` };
    bits |= bit;
  }
  let compiled: RE2JS | null = null;
  const key = `${bits}/${source}`;
  if (!ALWAYS_VALID.test(source)) {
    if (!accepted.has(key)) {
      try {
        compiled = RE2JS.compile(source, bits);
      } catch (e) {
        return { ok: false, message: unsupportedSyntax(source) ?? (e instanceof Error ? e.message : String(e)) };
      }
    }
    acceptedLog?.push(key);
  }
  const re = { get: (): RE2JS => (compiled ??= RE2JS.compile(source, bits)) };
  // The bit-parallel matcher for the patterns in its subset, RE2
  // for the rest [C10]; chosen on first use, like RE2's program. (A prefilter of required literals stood in
  // front of these until it measured no gain anywhere: the candidate index has required them already.)
  let matcher: ((s: string) => boolean) | null = null;
  const test = (s: string): boolean => (matcher ??= linearTest(source, flags) ?? ((t: string) => re.get().test(t)))(s);
  return {
    ok: true,
    regex: { source, flags, test, replaceAll: (input, replacement) => re.get().matcher(input).replaceAll(replacement) },
  };
}
