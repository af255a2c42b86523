// [C5] Patterns a caller says RE2 accepted (a hook call's pipeline compiled by this same build before:
// engine/node/pipelineCache.ts) are not compiled by RE2 only to be checked; their answers stay RE2's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALWAYS_VALID, acceptRegexes, compileRegex, noteAcceptedRegexes } from '../../../engine/match/regex.ts';

// Pieces of patterns: valid ones of every kind (literal, linear, RE2-only) and invalid ones.
const piece = fc.constantFrom('a', 'b', 'ls', '\\d', '[a-z]', '(x|yz)', '(?:ab)+', '\\pL', '[[:alpha:]]', '{2,3}', '(', ')', '\\1', '(?=a)', '.*', '^', '$', '\\b', '[0-9]{2,}');
const pattern = fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join(''));
const flags = fc.constantFrom('', 'i', 'm', 's', 'im');
const text = fc.string({ unit: fc.constantFrom('a', 'b', 'l', 's', 'x', 'y', 'z', '1', '2', ' ', 'é', '\n'), maxLength: 12 });

describe('[C5] regexes RE2 accepted before', () => {
  it('[C5] notes exactly the patterns RE2 accepted that the quick syntax check does not vouch for', () => {
    fc.assert(
      fc.property(pattern, flags, (source, f) => {
        const { value, accepted } = noteAcceptedRegexes(() => compileRegex(source, f));
        const expected = value.ok && !ALWAYS_VALID.test(source) ? 1 : 0;
        expect(accepted.length).toBe(expected);
        if (expected) expect(accepted[0]!.endsWith(`/${source}`)).toBe(true);
      }),
    );
  });

  it('[C5] a pattern told accepted answers as RE2 does, through every matcher (string operations, NFA, re2js)', () => {
    fc.assert(
      fc.property(pattern, flags, fc.array(text, { maxLength: 6 }), (source, f, inputs) => {
        const fresh = compileRegex(source, f);
        if (!fresh.ok) return;
        const { accepted } = noteAcceptedRegexes(() => compileRegex(source, f));
        acceptRegexes(accepted);
        const told = compileRegex(source, f);
        expect(told.ok).toBe(true);
        if (!told.ok) return;
        for (const s of inputs) {
          expect(told.regex.test(s)).toBe(fresh.regex.test(s));
          expect(told.regex.replaceAll(s, '<$0>')).toBe(fresh.regex.replaceAll(s, '<$0>'));
        }
      }),
    );
  });

  it('[C5] an invalid pattern is refused with its message, and never noted', () => {
    const { value, accepted } = noteAcceptedRegexes(() => compileRegex('(ab', ''));
    expect(value.ok).toBe(false);
    expect(accepted).toEqual([]);
    expect(noteAcceptedRegexes(() => compileRegex('a(?=b)')).value).toEqual({ ok: false, message: expect.stringContaining('lookahead') });
  });
});
