import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { literalSetTest } from '../../../engine/match/literalRegex.ts';
import { compileRegex } from '../../../engine/match/regex.ts';

// Finite-language patterns run as string operations; they must give exactly RE2's answers [C5].
const CHARS = ['a', 'b', 'c', ' ', '-', '/', '\\.', '\\|', '\\(', '\\$', '\\^'];
const TEXT = ['a', 'b', 'c', ' ', '-', '/', '.', '|', '(', '$', '^', '\n', 'é', '😀'];

const literal = fc.array(fc.constantFrom(...CHARS), { minLength: 0, maxLength: 3 }).map((xs) => xs.join(''));
const group = fc.tuple(fc.boolean(), fc.array(literal, { minLength: 1, maxLength: 4 })).map(([nc, alts]) => `(${nc ? '?:' : ''}${alts.join('|')})`);
const branch = fc
  .tuple(fc.boolean(), fc.array(fc.oneof(literal, group), { minLength: 0, maxLength: 4 }), fc.boolean())
  .map(([s, parts, e]) => `${s ? '^' : ''}${parts.join('')}${e ? '$' : ''}`);
/** Top-level alternation too: `^a|b$` is (^a)|(b$). */
const pattern = fc.array(branch, { minLength: 1, maxLength: 3 }).map((bs) => bs.join('|'));
const unescape = (s: string) => s.replace(/\\(.)/g, '$1');
/** Texts built from the pattern's own pieces and some noise, so that matches are common. */
const textFor = (p: string) =>
  fc.array(fc.oneof(fc.constantFrom(...TEXT), fc.constant(unescape(p.replace(/[()?:^$|]/g, '')))), { maxLength: 6 }).map((xs) => xs.join(''));

describe('finite-language regexes as string operations', () => {
  it('[C5] agree with RE2 on random literal-set patterns and texts', () => {
    fc.assert(
      fc.property(pattern.chain((p) => fc.tuple(fc.constant(p), fc.array(textFor(p), { minLength: 1, maxLength: 8 }))), ([p, texts]) => {
        const fast = literalSetTest(p, '');
        fc.pre(fast !== null); // only a language past 64 strings is left to RE2
        expect(fast, p).not.toBeNull();
        const re = RE2JS.compile(p);
        for (const t of texts) expect(fast!(t), `${p} on ${JSON.stringify(t)}`).toBe(re.test(t));
      }),
      { numRuns: 800, maxSkipsPerRun: 2 },
    );
  });

  it('[C5] the shapes the benchmark and real pipelines use', () => {
    const cases: [string, string, boolean][] = [
      ['^(ls|cat|grep) ', 'cat x', true], ['^(ls|cat|grep) ', 'xcat x', false], ['\\.(pem|key)$', 'a.key', true], ['\\.(pem|key)$', 'a.key\n', false],
      ['(curl|wget) http', 'x wget http://', true], ['^git push', 'git push -f', true], ['^(a|b)$', 'b', true], ['^(a|b)$', 'ab', false], ['', 'x', true], ['^$', '', true], ['^$', 'x', false], ['secret|token', 'my token', true], ['^rm|sh$', 'x | sh', true], ['^rm|sh$', 'x sh y', false],
    ];
    for (const [p, t, want] of cases) {
      expect(literalSetTest(p, ''), p).not.toBeNull();
      expect(literalSetTest(p, '')!(t), `${p} on ${JSON.stringify(t)}`).toBe(want);
      expect(RE2JS.compile(p).test(t)).toBe(want);
      expect(compileRegex(p).ok && (compileRegex(p) as { regex: { test(s: string): boolean } }).regex.test(t)).toBe(want);
    }
  });

  it('[C5] leaves everything else to RE2', () => {
    for (const p of ['a*', 'a+b', '(a|b)+', '[ab]', '.', '\\d', '\\bword', 'a{2}', '(?i)a', '(?P<x>a)', 'é', 'a|b*', '\\', '(a', 'a)', 'x^y', 'x$y', '{', ']']) expect(literalSetTest(p, ''), p).toBeNull();
    expect(literalSetTest('abc', 'i')).toBeNull();
    expect(literalSetTest('^abc', 'm')).toBeNull();
  });
});
