import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// [O2] Adapters sit on the engine's public entry only (engine/README.md, layer 7): a relative import from
// engine/adapters/ reaches engine/index.ts or another adapter file, nothing else.
const engine = join(__dirname, '..', '..', '..', 'engine');
const root = join(engine, 'adapters');
/** Relative specifiers of static imports/exports (the adapters use no dynamic import). */
const relativeImports = (code: string) => [...code.matchAll(/\bfrom\s+(['"])(\.{1,2}\/[^'"]+)\1/g)].map((m) => m[2]!);
const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : n.endsWith('.ts') ? [join(d, n)] : []));

describe('adapter imports [O2]', () => {
  it('[O2] import the engine only through engine/index.ts', () => {
    const files = walk(root);
    expect(files.length).toBeGreaterThanOrEqual(4);
    const offenders = files.flatMap((f) =>
      relativeImports(readFileSync(f, 'utf8'))
        .map((s) => resolve(dirname(f), s))
        .filter((target) => target !== join(engine, 'index.ts') && !target.startsWith(root + '/'))
        .map((target) => `${relative(engine, f)} → ${relative(engine, target)}`),
    );
    expect(offenders).toEqual([]);
  });
});
