import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The engine's layers import one way (engine/README.md): a folder imports only itself and the folders of
// lower layers, and no file imports itself back through any chain of imports (type-only imports count too).
const root = join(__dirname, '..', '..', 'engine');

/** Bottom to top. Folders on the same line are siblings and do not import each other. */
const LAYERS: readonly (readonly string[])[] = [
  ['model', 'accel'],
  ['match', 'sandbox', 'trace', 'agents'],
  ['compile'],
  ['dispatch'],
  ['replay'],
  ['runtime'],
  ['node', 'index.ts', 'app.ts'],
  ['adapters'],
];
const rankOf = new Map(LAYERS.flatMap((folders, rank) => folders.map((f) => [f, rank] as const)));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx|mts|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Relative specifiers of every static import/export and dynamic import in a file, comments removed. */
export function relativeImports(code: string): string[] {
  const text = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const out: string[] = [];
  const re = /(?:\bimport\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?|\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s+from\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;
  for (const m of text.matchAll(re)) out.push(m[2]!);
  return out;
}

/** Which layer unit a file belongs to: its top folder under engine/, or a top-level file (`index.ts`, `app.ts`). */
function unitOf(file: string): string {
  const rel = relative(root, file).split(/[\\/]/);
  return rel.length === 1 ? rel[0]! : rel[0]!;
}

const files = sources(root);
const graph = new Map<string, string[]>(
  files.map((f) => [f, relativeImports(readFileSync(f, 'utf8')).map((s) => resolve(dirname(f), s))]),
);

describe('engine layers', () => {
  it('knows every engine folder', () => {
    const units = new Set(files.map(unitOf));
    const unknown = [...units].filter((u) => !rankOf.has(u));
    expect(unknown).toEqual([]);
    expect(units.size).toBeGreaterThan(5);
  });

  it('parses the import forms the engine uses', () => {
    const code = [
      "import type { A } from './a.ts';",
      "import { b, type C } from '../b/c.ts';",
      "export * from './d.ts';",
      "export { e } from '../e.ts';",
      "const f = await import('./f.ts');",
      "const { g } = require('./g.cjs');",
      "// import { g } from './g.ts';",
      "import fs from 'node:fs';",
    ].join('\n');
    expect(relativeImports(code)).toEqual(['./a.ts', '../b/c.ts', './d.ts', '../e.ts', './f.ts', './g.cjs']);
  });

  it('imports only from its own folder or from lower layers (no upward or sideways import)', () => {
    const offenders: string[] = [];
    for (const [file, targets] of graph) {
      const from = unitOf(file);
      for (const t of targets) {
        if (!t.startsWith(root)) {
          if (from === 'node' && t === join(root, '..', 'package.json')) continue; // the CLI's --version
          offenders.push(`${relative(root, file)} imports ${t} outside engine/`);
          continue;
        }
        const to = unitOf(t);
        if (to === from) continue;
        if (!(rankOf.get(to)! < rankOf.get(from)!)) offenders.push(`${relative(root, file)} (${from}) imports ${relative(root, t)} (${to})`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const state = new Map<string, 1 | 2>();
    const cycles: string[] = [];
    const stack: string[] = [];
    const visit = (f: string): void => {
      state.set(f, 1);
      stack.push(f);
      for (const t of graph.get(f) ?? []) {
        if (!graph.has(t)) continue;
        if (state.get(t) === 1) cycles.push([...stack.slice(stack.indexOf(t)), t].map((x) => relative(root, x)).join(' → '));
        else if (!state.has(t)) visit(t);
      }
      stack.pop();
      state.set(f, 2);
    };
    for (const f of graph.keys()) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });

  it('resolves every relative import to an engine file', () => {
    // The package's CommonJS front is bundled into dist/cli/bin.cjs, where `./bin.js` is its built sibling (bin.ts,
    // kept a real import() by the build): the one import named after a build output, not a source.
    const built = new Set([`${join(root, 'node', 'packageBin.cjs')} → ${join(root, 'node', 'bin.js')}`]);
    const missing = [...graph].flatMap(([f, ts]) => ts.filter((t) => t.startsWith(root) && !graph.has(t) && !/\.(json|wasm)$/.test(t) && !built.has(`${f} → ${t}`)).map((t) => `${relative(root, f)} → ${relative(root, t)}`));
    expect(missing).toEqual([]);
  });

  it('web/ (its workers too) imports the engine only through its face, engine/app.ts', () => {
    const web = join(root, '..', 'web');
    const face = join(root, 'app.ts');
    const deep = sources(web).flatMap((f) =>
      relativeImports(readFileSync(f, 'utf8'))
        .map((s) => resolve(dirname(f), s))
        .filter((t) => t.startsWith(root + '/') && t !== face)
        .map((t) => `${relative(join(root, '..'), f)} imports ${relative(join(root, '..'), t)}`),
    );
    expect(deep).toEqual([]);
    // The check sees web's imports at all: the face is imported, from many files.
    expect(sources(web).filter((f) => relativeImports(readFileSync(f, 'utf8')).some((s) => resolve(dirname(f), s) === face)).length).toBeGreaterThan(20);
  });

  it('the face for the app reaches no Node-only code (engine/node/)', () => {
    const seen = new Set<string>();
    const walk = (f: string): void => {
      if (seen.has(f) || !graph.has(f)) return;
      seen.add(f);
      for (const t of graph.get(f)!) walk(t);
    };
    walk(join(root, 'app.ts'));
    expect([...seen].map((f) => relative(root, f)).filter((f) => f.startsWith('node/') || f === 'index.ts')).toEqual([]);
    expect(seen.size).toBeGreaterThan(20);
  });
});
