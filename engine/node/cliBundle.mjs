// Where the prebuilt CLI lives and whether it is current. Plain JavaScript: bin.mjs reads it before tsx loads.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ENGINE_DIR = fileURLToPath(new URL('..', import.meta.url));
/** node_modules/.cache is where tools keep derived files; `npm ci` wipes it and `prepare` rebuilds it. */
export const CLI_BUNDLE_DIR = join(ENGINE_DIR, '..', 'node_modules', '.cache', 'hookwire', 'cli');
export const CLI_BUNDLE = join(CLI_BUNDLE_DIR, 'cli.js');
/** The forwarding command's own bundle (`claude-hook --server`): no packages, so it starts in little more than Node. */
export const FORWARD_BUNDLE_DIR = join(ENGINE_DIR, '..', 'node_modules', '.cache', 'hookwire', 'forward');
export const FORWARD_BUNDLE = join(FORWARD_BUNDLE_DIR, 'forwardMain.js');
/** A deciding hook call's own bundle (`claude-hook <pipeline>`, `hook --agent <id> <pipeline>`): no commander. */
export const HOOK_BUNDLE_DIR = join(ENGINE_DIR, '..', 'node_modules', '.cache', 'hookwire', 'hook');
export const HOOK_BUNDLE = join(HOOK_BUNDLE_DIR, 'hookMain.js');

/** The list of engine files a bundle was made of, written beside it by buildCli.mjs (paths under engine/). */
export const INPUTS_FILE = 'inputs.json';

/**
 * The bundle, when it exists and none of the engine files it was made of (nor package.json) is newer than it;
 * otherwise null. A hook call runs this once per tool call, so it stats only those files, listed at build time
 * (a bundle's own and its lazy chunks': ~100 of the engine's ~220), not every source: an edit that adds a file
 * to the bundle edits a file that imports it, and a removed input fails its stat. Without the list (a bundle
 * from before it), every engine source is compared, as before.
 */
export function freshBundle(bundle = CLI_BUNDLE) {
  let built;
  try {
    built = statSync(bundle).mtimeMs;
  } catch {
    return null;
  }
  let inputs = null;
  try {
    inputs = JSON.parse(readFileSync(join(bundle, '..', INPUTS_FILE), 'utf8'));
  } catch {
    // no list: compare every source below
  }
  if (Array.isArray(inputs)) {
    try {
      for (const f of inputs) if (statSync(join(ENGINE_DIR, f)).mtimeMs > built) return null;
      return statSync(join(ENGINE_DIR, '..', 'package.json')).mtimeMs > built ? null : bundle;
    } catch {
      return null; // an input is gone: the bundle is not what the sources make now
    }
  }
  const newer = (dir) =>
    readdirSync(dir, { withFileTypes: true }).some((d) => {
      const full = join(dir, d.name);
      return d.isDirectory() ? newer(full) : d.name.endsWith('.ts') && statSync(full).mtimeMs > built;
    });
  if (newer(ENGINE_DIR) || statSync(join(ENGINE_DIR, '..', 'package.json')).mtimeMs > built) return null;
  return bundle;
}
