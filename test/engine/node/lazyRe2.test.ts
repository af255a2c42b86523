// engine/node/lazyRe2.ts is re2js in the CLI's bundles (buildCli.mjs's plugin): it must be re2js — the same
// flag numbers, the same compile — while loading the library only on first use.
import { RE2JS as Real } from 're2js';
import { describe, expect, it } from 'vitest';
import { RE2JS as Lazy, re2Loaded } from '../../../engine/node/lazyRe2.ts';

describe('re2js, required on first use', () => {
  it('has re2js\'s flag numbers, and loads nothing until a pattern is compiled', () => {
    expect(re2Loaded()).toBe(false);
    expect({ i: Lazy.CASE_INSENSITIVE, s: Lazy.DOTALL, m: Lazy.MULTILINE }).toEqual({ i: Real.CASE_INSENSITIVE, s: Real.DOTALL, m: Real.MULTILINE });
    expect(re2Loaded()).toBe(false);
  });

  it('compiles what re2js compiles, with the same answers and the same refusals', () => {
    for (const [p, f, s] of [['\\pL+\\d', 0, 'é7'], ['^a.b$', Real.DOTALL | Real.MULTILINE, 'x\na\nb'], ['HELLO', Real.CASE_INSENSITIVE, 'say hello']] as const) {
      expect(Lazy.compile(p, f).matches(s)).toBe(Real.compile(p, f).matches(s));
      expect(Lazy.compile(p, f).matcher(s).find()).toBe(Real.compile(p, f).matcher(s).find());
    }
    expect(re2Loaded()).toBe(true);
    expect(() => Lazy.compile('(a')).toThrow();
    expect(() => Real.compile('(a')).toThrow();
  });
});
