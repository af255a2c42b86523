import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// Tests name the SPEC rule they check (`it('[AG3] …')`), so a rule a test cites must be written in engine/SPEC.md.
// A commit once dropped whole sections of SPEC.md (O, AG and AP, at f0ba7b8) while ~250 test names still cited them:
// nothing noticed. Rules are bold ids (AG6 between double asterisks) in SPEC.md and bracketed ids in test and e2e sources.
const root = join(__dirname, '..', '..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') return [];
    if (statSync(full).isDirectory()) return sourcesUnder(full);
    return /\.(ts|tsx|mts)$/.test(name) ? [full] : [];
  });
}

const RULE = /\[([A-Z]{1,3}\d+[a-z]?)\]/g;

describe('SPEC rules cited by tests', () => {
  const spec = readFileSync(join(root, 'engine', 'SPEC.md'), 'utf8');
  const defined = new Set([...spec.matchAll(/\*\*([A-Z]{1,3}\d+[a-z]?)\*\*/g)].map((m) => m[1]!));
  const files = [...sourcesUnder(join(root, 'test')), ...sourcesUnder(join(root, 'e2e'))];

  it('finds rules and citations (the check sees something)', () => {
    expect(defined.size).toBeGreaterThan(100);
    expect(defined.has('AG6')).toBe(true);
  });

  it('every rule a test or e2e source cites is defined in engine/SPEC.md', () => {
    const missing = new Map<string, Set<string>>();
    for (const file of files) {
      for (const m of readFileSync(file, 'utf8').matchAll(RULE)) {
        if (defined.has(m[1]!)) continue;
        missing.set(m[1]!, (missing.get(m[1]!) ?? new Set()).add(relative(root, file)));
      }
    }
    expect(Object.fromEntries([...missing].map(([rule, where]) => [rule, [...where].slice(0, 3)]))).toEqual({});
  });
});
