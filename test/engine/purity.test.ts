import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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
