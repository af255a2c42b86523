// [C5] Every shortcut in front of RE2 (the required-literal prefilter, the plain-text and anchored-head
// shortcuts, the case-insensitive fold, the dispatcher's literal index) gives exactly RE2's answer.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { compileRegex } from '../../../engine/match/regex.ts';
import { requiredLiterals } from '../../../engine/accel/requiredLiteral.ts';
import { dispatch, initialState } from '../../../engine/index.ts';
import { compile, env, ev, event, handler, match, pipeline } from '../helpers.ts';

const BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };
const plainRe2 = (pattern: string, flags: string) => {
  let bits = 0;
  for (const f of flags) bits |= BITS[f]!;
  return RE2JS.compile(pattern, bits);
};

/** Our compiled regex, and the same regex as a condition dispatched through the candidate index. */
function ours(pattern: string, flags: string) {
  const r = compileRegex(pattern, flags);
  if (!r.ok) throw new Error(r.message);
  const c = compile(pipeline([ev('e', '*'), match('m', { 'payload.text': { regex: flags ? { pattern, flags } : pattern } }), handler('h', { type: 'block', reason: 'hit' })], ['e->m', 'm->h']));
  return {
    test: (s: string) => r.regex.test(s),
    dispatched: (s: string) => dispatch(c, event('x', { text: s }), initialState(), env()).decision === 'block_action',
  };
}

describe('[C5] RE2 escapes are not literal text', () => {
  it.each([
    ['\\pL', 'é', '1'],
    ['\\p{Greek}+', 'αβγ', 'abc'],
    ['\\PL', '1', 'x'],
    ['\\pN', '٣', 'x'],
    ['\\x1b\\[31m', 'red \u001b[31m!', 'red [31m'],
    ['\\x{200B}', 'a\u200bb', 'ab'],
    ['\\x00', 'a\u0000b', 'x00'],
    ['\\101BC', 'ABC', '101BC'],
    ['[\\x{41}-\\x{43}]z', 'Bz', 'x{41}z'],
    ['(\\pL)x', 'éx', '1x'],
  ])('[C5] /%s/ matches what RE2 matches', (pattern, yes, no) => {
    const r = ours(pattern, '');
    const re = plainRe2(pattern, '');
    expect([re.test(yes), re.test(no)]).toEqual([true, false]);
    expect([r.test(yes), r.test(no)]).toEqual([true, false]);
    expect([r.dispatched(yes), r.dispatched(no)]).toEqual([true, false]);
  });

  it('[C5] required literals skip escapes whole', () => {
    expect(requiredLiterals('\\p{Greek}abc')).toEqual(['abc']);
    expect(requiredLiterals('\\x{200B}zz\\x1bq')).toEqual(['zz', 'q']);
    expect(requiredLiterals('\\101BC')).toEqual(['BC']);
    expect(requiredLiterals('\\pLxy')).toEqual(['xy']);
  });

  it('[C5] the case-insensitive shortcut folds as RE2 does: "İ" is not "i", the Kelvin sign is "k"', () => {
    for (const pattern of ['sudo -i', 'sudo -i\\b', '^sudo -i']) {
      const r = ours(pattern, 'i');
      expect(plainRe2(pattern, 'i').test('sudo -İ')).toBe(false);
      expect([r.test('sudo -İ'), r.dispatched('sudo -İ')]).toEqual([false, false]);
      expect([r.test('SUDO -I'), r.dispatched('SUDO -I')]).toEqual([true, true]);
    }
    const k = ours('kill', 'i');
    expect(plainRe2('kill', 'i').test('\u212aILL')).toBe(true);
    expect([k.test('\u212aILL'), k.dispatched('\u212aILL')]).toEqual([true, true]);
  });
});

// Patterns from the whole RE2 syntax: literals (ASCII and not), escapes of every kind, classes (ranges,
// negation, POSIX, Unicode), groups (capturing, non-capturing, named, with flags), alternation, anchors,
// repetition (greedy and lazy, counted).
const literal = fc.constantFrom('a', 'b', 'k', 's', 'i', 'I', 'K', 'S', 'ab', 'sudo', '-', ' ', '.', 'é', 'İ', 'ſ', '\u212a', 'α', '日');
const escape = fc.constantFrom('\\pL', '\\PL', '\\pN', '\\p{Greek}', '\\P{Latin}', '\\x1b', '\\x{200B}', '\\x00', '\\x41', '\\101', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\b', '\\B', '\\.', '\\-', '\\[', '\\\\', '\\n', '\\t', '\\A', '\\z', '\\Qa.b\\E');
const klass = fc.constantFrom('[ab]', '[^ab]', '[a-z]', '[[:alpha:]]', '[\\pL]', '[\\x{41}-\\x{5A}]', '[.]', '[-a]', '[İi]', '[^\\s]', '[\\d\\s]');
const anchor = fc.constantFrom('^', '$');
const atom: fc.Arbitrary<string> = fc.letrec<{ re: string; piece: string }>((tie) => ({
  piece: fc.oneof(
    { weight: 5, arbitrary: literal },
    { weight: 3, arbitrary: escape },
    { weight: 2, arbitrary: klass },
    { weight: 1, arbitrary: anchor },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('(', '(?:', '(?i)', '(?i:', '(?P<n>', '(?s:'), tie('re')).map(([open, inner]) => (open === '(?i)' ? `(?i)${inner}` : `${open}${inner})`)) },
    { weight: 2, arbitrary: fc.tuple(tie('piece'), fc.constantFrom('*', '+', '?', '{2}', '{0,1}', '{1,}', '*?', '+?')).map(([p, q]) => `(?:${p})${q}`) },
  ),
  re: fc.oneof(
    { weight: 4, arbitrary: fc.array(tie('piece'), { minLength: 1, maxLength: 4 }).map((ps) => ps.join('')) },
    { weight: 1, arbitrary: fc.tuple(tie('piece'), tie('piece')).map(([a, b]) => `${a}|${b}`) },
  ),
})).re;

/** Inputs built from pieces of the pattern's alphabet and non-ASCII text, so that matches do happen. */
const inputUnit = fc.constantFrom('a', 'b', 'k', 's', 'i', 'I', 'K', 'S', 'A', 'B', 'sudo', 'SUDO', '-', ' ', '.', '\n', 'é', 'É', 'İ', 'ı', 'ſ', '\u212a', 'α', 'Ω', '日', '\u200b', '\u0000', '\u001b', '1', '٣', '_', '[', '\\');

describe('[C5] prefilter + shortcuts give RE2\'s answers (property)', () => {
  it('[C5] on generated patterns over the RE2 syntax and non-ASCII inputs, compileRegex and the dispatcher agree with plain re2js', () => {
    fc.assert(
      fc.property(atom, fc.constantFrom('', 'i', 'm', 's', 'im', 'is'), fc.array(fc.array(inputUnit, { maxLength: 8 }).map((u) => u.join('')), { minLength: 1, maxLength: 6 }), (pattern, flags, inputs) => {
        let re: RE2JS;
        try {
          re = plainRe2(pattern, flags);
        } catch {
          return; // not valid RE2: compileRegex refuses it too (checked elsewhere)
        }
        const r = ours(pattern, flags);
        for (const s of inputs) {
          const want = re.test(s);
          expect(r.test(s), `/${pattern}/${flags} on ${JSON.stringify(s)}`).toBe(want);
          expect(r.dispatched(s), `dispatched /${pattern}/${flags} on ${JSON.stringify(s)}`).toBe(want);
        }
      }),
      { numRuns: 400 },
    );
  });
});
