import { readFileSync } from 'node:fs';

/** The fenced block that follows `<!-- production-example: name -->` in README.md. */
export function readmeBlock(name: string): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const at = readme.indexOf(`<!-- production-example: ${name} -->`);
  if (at < 0) throw new Error(`README.md has no production example "${name}"`);
  const m = /```[a-z]*\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!m) throw new Error(`no code block after the "${name}" marker`);
  return m[1]!;
}
