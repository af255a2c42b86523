import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Habit 1 of STYLE.md: the engine imports no UI library and touches no browser or Node global, except in
// engine/node/, the one Node-only folder. The engine's tsconfig (no DOM lib, no Node types) catches
// globals at type-check time; this test catches imports and the globals that type-checking cannot see.
const root = join(__dirname, '..', '..', 'engine');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node' && dir === root ? [] : sources(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

const FORBIDDEN_IMPORT = /from\s+['"](react|react-dom|zustand|dexie|dexie-react-hooks|monaco-editor|@xyflow\/[a-z]+|node:[a-z/]+|fs|path|child_process|process|os)(['"/])/;
const FORBIDDEN_GLOBAL = /\b(window|document|localStorage|sessionStorage|indexedDB|navigator|process|Buffer)\s*[.[]|\b(require|eval|setTimeout|setInterval|fetch)\s*\(|\bnew\s+Function\s*\(|\b__dirname\b/;

describe('engine purity', () => {
  const files = sources(root);

  it('finds the engine sources', () => {
    expect(files.length).toBeGreaterThan(3);
  });

  it('imports no UI library and no Node module outside engine/node/', () => {
    const offenders = files.filter((f) => FORBIDDEN_IMPORT.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });

  it('uses no browser or Node global and generates no code (strict CSP)', () => {
    const offenders = files
      .filter((f) => {
        const code = readFileSync(f, 'utf8').replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '').replace(/'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, "''");
        return FORBIDDEN_GLOBAL.test(code);
      })
      .map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });
});

// The generated-code backend (engine/node/codegen/) builds functions from source: it must stay out of the
// pure entry and the browser bundle (strict CSP, no unsafe-eval). Nothing outside engine/node/ may reach it
// through any chain of imports that survives compilation (`import type` is erased, so it does not count).
const repo = join(root, '..');
const CODEGEN = join(root, 'node', 'codegen');

function allSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : allSources(full);
    return /\.(ts|tsx|mts|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Relative specifiers of the imports that stay in the compiled output (static, re-exports, dynamic). */
export function valueImports(code: string): string[] {
  const text = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const out: string[] = [];
  const re = /(?:\bimport\s+(?!type\s)(?:[\w*{}\s,$]+?\s+from\s+)?|\bexport\s+(?!type\s)(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s+from\s+|\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;
  for (const m of text.matchAll(re)) out.push(m[2]!);
  return out;
}

describe('the generated-code backend stays Node-only', () => {
  const files = [...allSources(root), ...allSources(join(repo, 'web'))];
  const graph = new Map(files.map((f) => [f, valueImports(readFileSync(f, 'utf8')).map((s) => resolve(dirname(f), s))]));

  it('parses value imports and skips type-only ones', () => {
    expect(valueImports("import type { A } from './a.ts';\nimport { b } from './b.ts';\nexport type { C } from './c.ts';\nexport * from './d.ts';\nawait import('./e.ts');")).toEqual(['./b.ts', './d.ts', './e.ts']);
  });

  it('finds the backend', () => {
    expect(files.some((f) => f.startsWith(CODEGEN))).toBe(true);
  });

  it('no file outside engine/node/ (the pure entry, the rest of the engine, the web app) reaches engine/node/codegen/', () => {
    const offenders: string[] = [];
    for (const start of files) {
      if (start.startsWith(join(root, 'node'))) continue;
      const seen = new Set<string>([start]);
      const stack = [start];
      while (stack.length) {
        const f = stack.pop()!;
        for (const t of graph.get(f) ?? []) {
          if (t.startsWith(CODEGEN)) offenders.push(`${relative(repo, start)} reaches ${relative(repo, t)} (via ${relative(repo, f)})`);
          else if (!seen.has(t)) {
            seen.add(t);
            stack.push(t);
          }
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
