import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { requiredLiteral } from '../../../engine/match/requiredLiteral.ts';
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
