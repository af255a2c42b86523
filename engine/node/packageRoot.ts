// Where the hookwire package is on disk, from wherever this code runs: the sources of a checkout
// (engine/node/), a checkout's prebuilt CLI (node_modules/.cache/hookwire/cli/), or an installed package
// (dist/node/, dist/cli/). The files the package ships (dist/web, the schemas) are found from there.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | null = null;

/** The directory of the nearest package.json above this module whose name is "hookwire". */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'hookwire') return (cached = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error(`no hookwire package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** The production build of the app (`npm run build:dist` makes it; the package ships it). */
export const webDir = (): string => join(packageRoot(), 'dist', 'web');

/** The JSON Schemas: dist/schema in the package, engine/schema in a checkout. */
export function schemaDir(): string {
  const built = join(packageRoot(), 'dist', 'schema');
  return existsSync(built) ? built : join(packageRoot(), 'engine', 'schema');
}
