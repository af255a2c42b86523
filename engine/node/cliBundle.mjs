// Where the prebuilt CLI lives and whether it is current. Plain JavaScript: bin.mjs reads it before tsx loads.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ENGINE_DIR = fileURLToPath(new URL('..', import.meta.url));
/** node_modules/.cache is where tools keep derived files; `npm ci` wipes it and `prepare` rebuilds it. */
export const CLI_BUNDLE_DIR = join(ENGINE_DIR, '..', 'node_modules', '.cache', 'hookwire', 'cli');
export const CLI_BUNDLE = join(CLI_BUNDLE_DIR, 'cli.js');

/** The bundle, when it exists and no engine source (or package.json) is newer than it; otherwise null. */
export function freshBundle() {
  let built;
  try {
    built = statSync(CLI_BUNDLE).mtimeMs;
  } catch {
    return null;
  }
  const newer = (dir) =>
    readdirSync(dir, { withFileTypes: true }).some((d) => {
      const full = join(dir, d.name);
      return d.isDirectory() ? newer(full) : d.name.endsWith('.ts') && statSync(full).mtimeMs > built;
    });
  if (newer(ENGINE_DIR) || statSync(join(ENGINE_DIR, '..', 'package.json')).mtimeMs > built) return null;
  return CLI_BUNDLE;
}
