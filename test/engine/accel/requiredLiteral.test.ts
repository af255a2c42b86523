import { describe, expect, it } from 'vitest';
import * as re2 from 're2js';
import fc from 'fast-check';
import { requiredLiteral } from '../../../engine/accel/requiredLiteral.ts';
import { compileRegex } from '../../../engine/match/regex.ts';

describe('required literals of regexes (candidate index)', () => {
  it('finds the longest run every match must contain', () => {
    expect(requiredLiteral('\\brm\\s+-rf')).toBe('-rf');
    expect(requiredLiteral('sk-[A-Za-z0-9]{16,}')).toBe('sk-');
    expect(requiredLiteral('hello world')).toBe('hello world');
    expect(requiredLiteral('colou?r')).toBe('colo');
    expect(requiredLiteral('ab+cd')).toBe('ab');
    expect(requiredLiteral('ab+cde')).toBe('cde');
    expect(requiredLiteral('a\\.b')).toBe('a.b');
    expect(requiredLiteral('x{0,3}yz')).toBe('yz');
  });
  it('gives up when unsure', () => {
    for (const p of ['a|b', '(?i)sudo', '\\Qa.b\\E', '.*', '[abc]', '\\d+', 'é', '']) expect(requiredLiteral(p)).toBeNull();
    expect(requiredLiteral('(foo|bar)baz')).toBe('baz');
  });
  it('is sound: whenever the regex matches, the string contains the literal', () => {
    const atoms = fc.constantFrom('a', 'b', 'ab', '.', '\\.', '[ab]', '(a|b)', 'a*', 'b?', 'a+', 'x{0,2}', '\\s', ' ', '-', '\\b', '^', '$', '(ab)+');
    fc.assert(
      fc.property(fc.array(atoms, { minLength: 1, maxLength: 6 }), fc.string({ unit: fc.constantFrom('a', 'b', 'x', ' ', '.', '-') , maxLength: 12 }), (parts, input) => {
        const pattern = parts.join('');
        const lit = requiredLiteral(pattern);
        const re = compileRegex(pattern);
        if (!re.ok || lit === null) return;
        if (re.regex.test(input)) expect(input.includes(lit)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('regex shortcuts [C5]', () => {
  it('give exactly RE2\'s answer (plain text, required literals, case folding)', () => {
    const patterns = fc.constantFrom('ab', 'a.b', 'ab+', '\\bab', 'b[ab]', 'sk-', 'AS', 's', 'k', 'a|b', 'x?ab', '^ab', '^a+b', 'a.*b', 'ab.*ba', '^S', 'b\\s+a');
    fc.assert(
      fc.property(patterns, fc.constantFrom('', 'i'), fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', 's', 'S', 'ſ', 'k', 'K', '\u212a', '-', ' '), maxLength: 10 }), (p, flags, input) => {
        const fast = compileRegex(p, flags);
        if (!fast.ok) throw new Error(fast.message);
        const { RE2JS } = re2;
        const slow = RE2JS.compile(p, flags ? RE2JS.CASE_INSENSITIVE : 0);
        expect(fast.regex.test(input)).toBe(slow.test(input));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('all required literals', () => {
  it('lists every run outside groups and classes', async () => {
    const { requiredLiterals } = await import('../../../engine/accel/requiredLiteral.ts');
    expect(requiredLiterals('\\bls\\s+cat\\b')).toEqual(['ls', 'cat']);
    expect(requiredLiterals('chmod.*table')).toEqual(['chmod', 'table']);
    expect(requiredLiterals('a|b')).toEqual([]);
  });
  it('is sound: a matching string contains every literal', async () => {
    const { requiredLiterals } = await import('../../../engine/accel/requiredLiteral.ts');
    const atoms = fc.constantFrom('a', 'b', 'ab', '.', '\\.', '[ab]', '(a|b)', 'a*', 'b?', 'a+', 'x{0,2}', '\\s', ' ', '-', '\\b', '^', '$', '(ab)+', '.*');
    fc.assert(
      fc.property(fc.array(atoms, { minLength: 1, maxLength: 6 }), fc.string({ unit: fc.constantFrom('a', 'b', 'x', ' ', '.', '-'), maxLength: 12 }), (parts, input) => {
        const pattern = parts.join('');
        const re = compileRegex(pattern);
        if (!re.ok) return;
        if (re.regex.test(input)) for (const l of requiredLiterals(pattern)) expect(input.includes(l)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
