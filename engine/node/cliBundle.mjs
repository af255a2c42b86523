// Where the prebuilt CLI lives and whether it is current. Plain JavaScript: bin.mjs reads it before tsx loads.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ENGINE_DIR = fileURLToPath(new URL('..', import.meta.url));
/** node_modules/.cache is where tools keep derived files; `npm ci` wipes it and `prepare` rebuilds it. */
export const CLI_BUNDLE_DIR = join(ENGINE_DIR, '..', 'node_modules', '.cache', 'hookwire', 'cli');
export const CLI_BUNDLE = join(CLI_BUNDLE_DIR, 'cli.js');
/** The forwarding command's own bundle (`claude-hook --server`): no packages, so it starts in little more than Node. */
export const FORWARD_BUNDLE_DIR = join(ENGINE_DIR, '..', 'node_modules', '.cache', 'hookwire', 'forward');
export const FORWARD_BUNDLE = join(FORWARD_BUNDLE_DIR, 'forwardMain.js');

/** The bundle, when it exists and no engine source (or package.json) is newer than it; otherwise null. */
export function freshBundle(bundle = CLI_BUNDLE) {
  let built;
  try {
    built = statSync(bundle).mtimeMs;
  } catch {
    return null;
  }
  const newer = (dir) =>
    readdirSync(dir, { withFileTypes: true }).some((d) => {
      const full = join(dir, d.name);
      return d.isDirectory() ? newer(full) : d.name.endsWith('.ts') && statSync(full).mtimeMs > built;
    });
  if (newer(ENGINE_DIR) || statSync(join(ENGINE_DIR, '..', 'package.json')).mtimeMs > built) return null;
  return bundle;
}
