// Patterns that compileRegex compiles on first use instead of at load (ALWAYS_VALID): RE2 must accept every
// one of them, or a pattern RE2 refuses would load and fail later [C5].
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { ALWAYS_VALID, compileRegex } from '../../../engine/match/regex.ts';

const FLAGS = fc.constantFrom('', 'i', 'm', 's', 'ims');
/** Characters from the whole RE2 syntax, so most generated patterns are not in the subset. */
const PIECES = ['a', 'Z', '0', ' ', '-', '=', '/', '.', '^', '$', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '\\', 's', 'S', 'd', 'w', 'b', 'p', 'x', '1', ',', 'é', '#'];
const patterns = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((p) => p.join(''));
const inputs = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '-', '=', '\n', 'é', 'İ', 'x', '.', '\\', 's') , maxLength: 16 });

function re2(source: string, flags: string): RE2JS | null {
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  try {
    return RE2JS.compile(source, bits);
  } catch {
    return null;
  }
}

describe('regexes compiled on first use', () => {
  it('[C5] RE2 accepts every pattern of the lazily compiled subset, and the answers are RE2\'s', () => {
    let lazy = 0;
    fc.assert(
      fc.property(patterns, FLAGS, fc.array(inputs, { maxLength: 4 }), (source, flags, texts) => {
        const ours = compileRegex(source, flags);
        const theirs = re2(source, flags);
        if (ALWAYS_VALID.test(source)) {
          lazy++;
          expect(theirs).not.toBeNull();
        }
        expect(ours.ok).toBe(theirs !== null);
        if (ours.ok && theirs) for (const t of texts) expect(ours.regex.test(t)).toBe(theirs.test(t));
      }),
      { numRuns: 3000 },
    );
    expect(lazy).toBeGreaterThan(100); // the generator reaches the subset often enough to mean something
  });

  it('[C5] the big pipeline\'s patterns are in the subset; a pattern outside it is still refused at load', () => {
    expect(ALWAYS_VALID.test('^cmd12\\s+--flag=\\S+')).toBe(true);
    expect(ALWAYS_VALID.test('secret12')).toBe(true);
    for (const bad of ['a**', '(a', '[a', '\\q', '(?=x)', '+a']) {
      expect(ALWAYS_VALID.test(bad)).toBe(false);
      expect(compileRegex(bad).ok).toBe(false);
    }
  });
});
