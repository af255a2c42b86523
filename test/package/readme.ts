import { readdirSync, readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);

/** The fenced block that follows `<!-- production-example: name -->` in README.md or a page of docs/. */
export function readmeBlock(name: string): string {
  const pages = ['README.md', ...readdirSync(new URL('docs/', root)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const marker = `<!-- production-example: ${name} -->`;
  const readme = pages.map((p) => readFileSync(new URL(p, root), 'utf8')).find((text) => text.includes(marker));
  if (readme === undefined) throw new Error(`neither README.md nor docs/ has the production example "${name}"`);
  const at = readme.indexOf(marker);
  const m = /```[a-z]*\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!m) throw new Error(`no code block after the "${name}" marker`);
  return m[1]!;
}
