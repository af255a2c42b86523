// Where the prebuilt CLI lives and whether it is current. Plain CommonJS: the checkout's binary (bin.cjs) reads it
// before anything else loads, without the ES module loader (a hook call runs it once per tool call).
'use strict';
const { mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join, sep } = require('node:path');

const ENGINE_DIR = join(__dirname, '..') + sep;
/** node_modules/.cache is where tools keep derived files; `npm ci` wipes it and `prepare` rebuilds it. */
const CLI_BUNDLE_DIR = join(ENGINE_DIR, '..', 'node_modules', '.cache', 'hookwire', 'cli');
const CLI_BUNDLE = join(CLI_BUNDLE_DIR, 'cli.js');
/**
 * The forwarding command's own bundle (`claude-hook --server`): no packages, so it starts in little more than Node.
 * One CommonJS file (~8 KB; the agents' adapters beside it in agentHook.cjs), which bin.cjs requires: loaded as
 * an ES module it went through the ES module loader (resolve, an asynchronous read, a facade per Node built-in it
 * imports), ~15 ms of a forwarded call's CPU on Node 20 (npm run bench -- speed); through V8's code cache it cost
 * the same as a plain require.
 */
const FORWARD_BUNDLE_DIR = join(ENGINE_DIR, '..', 'node_modules', '.cache', 'hookwire', 'forward');
const FORWARD_BUNDLE = join(FORWARD_BUNDLE_DIR, 'forwardMain.cjs');
/** A deciding hook call's own bundle (`claude-hook <pipeline>`, `hook --agent <id> <pipeline>`): no commander. */
const HOOK_BUNDLE_DIR = join(ENGINE_DIR, '..', 'node_modules', '.cache', 'hookwire', 'hook');
const HOOK_BUNDLE = join(HOOK_BUNDLE_DIR, 'hookMain.js');

/**
 * The fast route of a deciding hook call (hookMain.ts `hookFastMain`): the hook entry as one CommonJS file without
 * the lazily loaded parts, which bin.cjs compiles through V8's code cache ({@link loadWithCodeCache}).
 */
const HOOK_FAST_BUNDLE_DIR = join(ENGINE_DIR, '..', 'node_modules', '.cache', 'hookwire', 'hook-fast');
const HOOK_FAST_BUNDLE = join(HOOK_FAST_BUNDLE_DIR, 'hookMain.cjs');

/**
 * The commands that read traces (a replay of 100k events spent ~200 ms of CPU before its first one, most of it
 * compiling the ES module chunks) run the CLI from one CommonJS file (readingMain.ts), which the binaries compile
 * through V8's code cache ({@link loadWithCodeCache}): the same cli.ts, loaded another way. Any other command, and
 * any call when that file is missing or stale, is the ES module CLI's.
 */
const READING_COMMANDS = new Set(['replay', 'import', 'backtest', 'verify', 'diff']);
const READING_BUNDLE_DIR = join(ENGINE_DIR, '..', 'node_modules', '.cache', 'hookwire', 'reading');
const READING_BUNDLE = join(READING_BUNDLE_DIR, 'readingMain.cjs');

/** The list of engine files a bundle was made of, written beside it by buildCli.mjs (paths under engine/). */
const INPUTS_FILE = 'inputs.json';

/**
 * The bundle, when it exists and none of the engine files it was made of (nor package.json) is newer than it;
 * otherwise null. A hook call runs this once per tool call, so it stats only those files, listed at build time
 * (a bundle's own and its lazy chunks': ~100 of the engine's ~220), not every source: an edit that adds a file
 * to the bundle edits a file that imports it, and a removed input fails its stat. Without the list (a bundle
 * from before it), every engine source is compared, as before.
 */
function freshBundle(bundle = CLI_BUNDLE) {
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
      // ENGINE_DIR ends in a separator and the listed paths are plain relative ones (esbuild's metafile): a
      // concatenation is the path, without path.join's normalising (most of this check's CPU, ~100 times per call).
      for (const f of inputs) if (statSync(ENGINE_DIR + f).mtimeMs > built) return null;
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

/**
 * Runs a CommonJS bundle compiled with V8's code cache, kept beside it: Node 20 has no compile cache
 * (`module.enableCompileCache` is 22.1+), and compiling the hook bundle was the largest part of what a hook call
 * adds to Node's own start. The cache file is named by the bundle's size and mtime, and a rebuild removes the
 * directory with it (buildCli.mjs); V8 itself refuses data from another V8, other flags or a source of another
 * length (`cachedDataRejected`), and then compiles the source as if there were no cache. Returns the bundle's
 * exports, whether a cache was there and whether V8 refused it, and `keep()`, which writes the cache (with the
 * functions compiled so far) when there was none or V8 refused it. Failing to read or write the cache only costs
 * the compile. `cacheFile`: where else to keep it (the installed package's binary: the user's cache directory, a
 * name that carries the build's identity, since npm gives every file of a package the same mtime); its
 * directory is made on the first write.
 */
function loadWithCodeCache(file, cacheFile = codeCacheBeside(file)) {
  const source = readFileSync(file, 'utf8');
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet
  }
  // Required here, not above: a call that loads no bundle this way (the forwarding command) does not load them.
  const { Script } = require('node:vm');
  // Module.createRequire, from the main module's own class: require('node:module') would load the ES module loader's
  // modules with it (~0.7 ms of a hook call's CPU on Node 20). node:module where there is no main module (a test runner).
  const createRequire = (require.main && require.main.constructor.createRequire) || require('node:module').createRequire;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  const keep = () => {
    if (cachedData !== undefined && !script.cachedDataRejected) return;
    try {
      mkdirSync(dirname(cacheFile), { recursive: true, mode: 0o700 });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      renameSync(tmp, cacheFile); // whole or absent
    } catch {
      // a read-only install: every call compiles
    }
  };
  return { exports: module.exports, keep, cached: cachedData !== undefined, rejected: cachedData !== undefined && script.cachedDataRejected === true };
}

/**
 * The code cache's file beside a bundle, named by its size and mtime; `tag` (a command's name) keeps one per
 * command, each holding the functions that command compiled (V8 caches only what ran before the cache was made).
 */
function codeCacheBeside(file, tag) {
  const { size, mtimeMs } = statSync(file);
  return join(dirname(file), `v8-code-cache-${tag ? `${tag}-` : ''}${size}-${Math.floor(mtimeMs)}.bin`);
}

module.exports = { ENGINE_DIR, CLI_BUNDLE_DIR, CLI_BUNDLE, FORWARD_BUNDLE_DIR, FORWARD_BUNDLE, HOOK_BUNDLE_DIR, HOOK_BUNDLE, HOOK_FAST_BUNDLE_DIR, HOOK_FAST_BUNDLE, READING_COMMANDS, READING_BUNDLE_DIR, READING_BUNDLE, INPUTS_FILE, freshBundle, loadWithCodeCache, codeCacheBeside };
