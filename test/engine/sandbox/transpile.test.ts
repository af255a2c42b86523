import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FACTORY_OPEN, originalPosition, positionOf, transpile } from '../../../engine/sandbox/transpile.ts';

describe('transpile [S1]', () => {
  it('[S1] strips types and keeps line numbers', () => {
    const r = transpile('const a: number = 1;\ninterface X { y: string }\n\nexport default (x: X): string => x.y + a;\n', 'ts');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.code.factory.startsWith(FACTORY_OPEN)).toBe(true);
    expect(r.code.factory).not.toMatch(/: number|interface/);
    const lines = r.code.factory.split('\n');
    expect(lines[3]).toMatch(/exports\.\s*default = \(x\) => x\.y \+ a;/);
  });

  it('[S1] a TypeScript syntax error is positioned in the user source (1-based)', () => {
    expect(transpile('let ok = 1;\nlet x: = 2;', 'ts')).toMatchObject({ ok: false, error: { kind: 'syntax', line: 2, column: 8 } });
  });

  it('[S1] JavaScript mode refuses type annotations', () => {
    expect(transpile('export default (x: number) => x;', 'js')).toMatchObject({ ok: false, error: { kind: 'syntax', line: 1 } });
  });

  it('[S1] positions map back through stripped types, on line 1 after the wrapper too', () => {
    const source = 'const long: Record<string, number> = {}; const y = 1;';
    const r = transpile(source, 'ts');
    if (!r.ok) throw new Error('does not compile');
    const generatedLine1 = r.code.factory.split('\n')[0]!;
    const at = generatedLine1.indexOf('const y');
    expect(originalPosition(r.code, 1, at + 1)).toEqual({ line: 1, column: source.indexOf('const y') + 1 });
    expect(originalPosition(r.code, 1, 1)).toBeUndefined(); // inside the wrapper
  });

  it('positionOf agrees with splitting on newlines', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(), (text, n) => {
        const offset = text.length ? n % (text.length + 1) : 0;
        const before = text.slice(0, offset).split('\n');
        expect(positionOf(text, offset)).toEqual({ line: before.length, column: before[before.length - 1]!.length + 1 });
      }),
    );
  });
});
