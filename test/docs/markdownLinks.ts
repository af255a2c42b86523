// Relative links of Markdown pages and where they lead: the docs' link test (links.test.ts) checks the
// checkout, the install test (test/package/install.test.ts) the pages as installed in node_modules/hookwire.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Inline links `[text](target)` outside fenced code and code spans. */
export function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = m[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Where each relative link of `page` leads that is not there: a missing file or heading. */
export function deadLinks(page: string, markdown: string): string[] {
  const out: string[] = [];
  for (const link of linksOf(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
    const [path, anchor] = link.split('#', 2) as [string, string | undefined];
    if (path === '') {
      if (anchor !== undefined && !anchorsOf(markdown).has(anchor)) out.push(`${link} (no such heading)`);
      continue;
    }
    const target = resolve(dirname(page), decodeURIComponent(path));
    if (!existsSync(target)) {
      out.push(`${link} (no such file)`);
      continue;
    }
    if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) out.push(`${link} (no such heading)`);
  }
  return out;
}

