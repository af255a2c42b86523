import { RE2JS } from 're2js';

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
 * Compiles a pattern with RE2 (re2js): no backreferences or lookaround, and no input can make it
 * backtrack. `compileRegex('rm\\s+-rf', 'i')`.
 */
export function compileRegex(source: string, flags = ''): RegexCompile {
  let bits = 0;
  for (const f of flags) {
    const bit = FLAG_BITS[f];
    if (bit === undefined) return { ok: false, message: `unknown regex flag "${f}" (use i, m, s)` };
    bits |= bit;
  }
  try {
    const re = RE2JS.compile(source, bits);
    return {
      ok: true,
      regex: {
        source,
        flags,
        test: (input) => re.test(input),
        replaceAll: (input, replacement) => re.matcher(input).replaceAll(replacement),
      },
    };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}
