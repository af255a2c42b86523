import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { deadLinks, linksOf } from './markdownLinks.ts';

// The README is a page for a newcomer and the reference lives in docs/ (issue 35): every relative link in
// README.md, docs/*.md and the engine's *.md must reach a file (and a heading, when it names one). README.md
// and docs/ ship in the npm package, so what they link to must ship too (package.json `files`): someone who
// installed the package reads them in node_modules/hookwire, where the rest of the repository is not.
const root = join(__dirname, '..', '..');

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return markdownUnder(full);
    return name.endsWith('.md') ? [full] : [];
  });
}

const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(root, 'docs', f));
const shipped = [join(root, 'README.md'), ...docs];
const pages = [...shipped, ...markdownUnder(join(root, 'engine'))];

/** Whether package.json `files` (plus what npm always packs) ships the file at `rel` (a path from the root). */
function ships(rel: string, files: readonly string[]): boolean {
  if (/^(README|LICENSE|LICENCE)(\.md)?$|^package\.json$/i.test(rel)) return true;
  const glob = (p: string) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '(?:.*/)?').replace(/\*/g, '[^/]*')}(?:/.*)?$`);
  return files.some((f) => !f.startsWith('!') && glob(f).test(rel)) && !files.some((f) => f.startsWith('!') && glob(f.slice(1)).test(rel));
}

describe('documentation links', () => {
  it('finds the pages and their links (the check sees something)', () => {
    expect(docs.length).toBeGreaterThanOrEqual(8);
    expect(pages.flatMap((p) => linksOf(readFileSync(p, 'utf8'))).length).toBeGreaterThan(20);
  });

  it('every relative link in README.md, docs/*.md and engine/**/*.md reaches a file, and a heading when it names one', () => {
    const dead = pages.flatMap((p) => deadLinks(p, readFileSync(p, 'utf8')).map((d) => `${relative(root, p)}: ${d}`));
    expect(dead).toEqual([]);
  });

  it('what README.md and docs/ link to ships in the package with them', () => {
    const files = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] }).files;
    for (const p of shipped) expect(ships(relative(root, p), files), `${relative(root, p)} ships`).toBe(true);
    const unshipped = shipped.flatMap((p) =>
      linksOf(readFileSync(p, 'utf8'))
        .filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l) && !l.startsWith('#'))
        .map((l) => relative(root, resolve(dirname(p), l.split('#')[0]!)))
        .filter((rel) => !ships(rel, files))
        .map((rel) => `${relative(root, p)} → ${rel}`),
    );
    expect(unshipped).toEqual([]);
  });

  it('the checker reports a missing file, a missing heading, and not a link in code', () => {
    const page = join(root, 'docs', 'example.md');
    const text = '# Title\n\n## A heading, with “punctuation”\n\nSee [x](../README.md), [y](missing.md), [z](#a-heading-with-punctuation), [w](#nope).\n\n`[q](gone.md)`\n\n```\n[r](gone.md)\n```\n';
    expect(deadLinks(page, text)).toEqual(['missing.md (no such file)', '#nope (no such heading)']);
  });
});
