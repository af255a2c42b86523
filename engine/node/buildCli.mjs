#!/usr/bin/env node
// Bundles the CLI into ES modules, so that `hookwire` — above all `hookwire claude-hook`, which Claude Code
// runs for every tool call — starts fast. Measured (`npm run bench -- package`): one claude-hook call costs
// ~0.2 s of CPU as tsc's one-file-per-module output or as a bundle of our code alone (Node spends it
// resolving and compiling zod's hundred modules), about half of that as one minified bundle with the
// packages inside. The QuickJS packages stay outside: they find their .wasm beside their own files.
//
// Two callers, one set of options: `npm install` in a checkout (prepare) bundles engine/node/cli.ts into
// node_modules/.cache/hookwire/ for engine/node/bin.cjs; `npm pack` (engine/node/buildPackage.mjs) bundles
// engine/node/bin.ts into dist/cli/, the installed package's `bin`.
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_BUNDLE_DIR, ENGINE_DIR, FORWARD_BUNDLE_DIR, HOOK_BUNDLE_DIR, HOOK_FAST_BUNDLE_DIR, INPUTS_FILE, READING_BUNDLE_DIR, READING_COMMANDS } from './cliBundle.cjs';

/**
 * In the CLI's bundles re2js is engine/node/lazyRe2.ts, which requires the library on first use: most hook
 * calls never need it (the file says why). Exported for the test of the hook call's module graph.
 */
export const lazyRe2Plugin = {
  name: 'hookwire-lazy-re2js',
  setup(b) {
    b.onResolve({ filter: /^re2js$/ }, (args) => (args.importer.endsWith('lazyRe2.ts') ? undefined : { path: join(ENGINE_DIR, 'node', 'lazyRe2.ts') }));
  },
};

/**
 * zod's `z` namespace re-exports its ~60 translations of error messages (`z.locales`), 360 KB that every command
 * would parse on start-up, though Hookwire only ever uses the English one (which zod installs itself). In the
 * CLI's bundles and in the package's dist/vendor/zod.js (buildPackage.mjs) `z.locales` holds English alone.
 */
export const zodEnglishOnlyPlugin = {
  name: 'hookwire-zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir) ? { path: join(args.resolveDir, '..', 'locales', 'en.js'), namespace: 'hookwire-zod-locales' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'hookwire-zod-locales' }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, loader: 'js', resolveDir: join(args.path, '..') }));
  },
};

/**
 * sql.js (SQLite as WebAssembly, for agents' session databases) stays outside the bundle: it finds its .wasm
 * beside its own file. A checkout loads it from node_modules; the package ships a copy (buildPackage.mjs,
 * vendorSqlJs) and its CLI imports that by `sqlJs`, a path relative to the bundle's directory.
 */
function sqlJsPlugin(sqlJs) {
  return {
    name: 'hookwire-sql-js',
    setup(b) {
      b.onResolve({ filter: /^sql\.js$/ }, () => ({ path: sqlJs, external: true }));
    },
  };
}

/**
 * The fast hook route's CommonJS bundle (hookMain.ts `hookFastMain`) has no lazily loaded parts: every dynamic
 * import in it is this module, which fails. hookFastMain takes only calls that load none of them; were one
 * loaded anyway, the call would fail closed like any other error of a hook call.
 */
const noLazyPartsPlugin = {
  name: 'hookwire-no-lazy-parts',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'hookwire-no-lazy-part' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'hookwire-no-lazy-part' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`the fast hook route does not load ${args.path.replace(/^.*\//, '')}`)});`,
      loader: 'js',
    }));
  },
};

/**
 * The reading commands' bundle ('whole', readingMain.ts) runs only READING_COMMANDS (the binaries send it no
 * other): the modules cli.ts imports for the other commands' actions are left out, each a module that fails if
 * loaded. ~150 KB less in an install whose budget is 10 MB (test/package/install.test.ts).
 */
const readingOnlyPlugin = {
  name: 'hookwire-reading-only',
  setup(b) {
    const reading = new RegExp(`^\\./commands/(${[...READING_COMMANDS].join('|')})Command\\.ts$`);
    b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' && /[\\/]node[\\/]cli\.ts$/.test(args.importer) && !reading.test(args.path) ? { path: args.path, namespace: 'hookwire-not-reading' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'hookwire-not-reading' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`the reading commands' bundle does not load ${args.path.replace(/^.*\//, '')}`)});`,
      loader: 'js',
    }));
  },
};

/**
 * The forwarding command's bundle leaves each engine module it imports dynamically (the agents' adapters, which
 * only `hook --agent` needs) to a CommonJS file of its own beside it, required on first use: inside the bundle,
 * even unrun, they cost a claude-hook call their compile (~3-5 ms of CPU on Node 20). Each import is noted in
 * `lazy` (absolute path → file name) for buildCli to bundle.
 */
function lazyFilesPlugin(lazy) {
  return {
    name: 'hookwire-lazy-files',
    setup(b) {
      b.onResolve({ filter: /\.ts$/ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const path = join(args.resolveDir, args.path);
        const file = basename(path).replace(/\.ts$/, '.cjs');
        if ([...lazy].some(([p, f]) => f === file && p !== path)) throw new Error(`two lazily loaded modules named ${file}`);
        lazy.set(path, file);
        return { path: `./${file}`, external: true };
      });
    },
  };
}

/**
 * Bundles `entry` (a path under engine/) into `outdir`: entry file, lazily loaded command chunks; with
 * `listInputs` (a checkout's bundles) also the list of engine files it was made of; `sqlJs`, where the
 * bundle imports sql.js from (see sqlJsPlugin); `commonjs`: one CommonJS file, which bin.cjs runs —
 * 'lazy-files' puts each lazily loaded part in a CommonJS file of its own beside it (the forwarding
 * command, see lazyFilesPlugin), 'without-lazy-parts' leaves them out (the fast hook route: every dynamic import
 * fails), 'whole' keeps them inside, initialised on first import (the reading commands' CLI, readingMain.ts).
 */
export async function buildCli(entry, outdir, listInputs = false, sqlJs = 'sql.js', commonjs = false) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    // A linked install of a checkout without its devDependencies: bin.cjs runs the sources instead.
    console.warn('hookwire: esbuild is not installed (run `npm ci` in the checkout); the CLI is not prebuilt.');
    return false;
  }
  rmSync(outdir, { recursive: true, force: true }); // chunk names carry hashes: no stale ones
  const build = sourceHash();
  const lazy = new Map();
  const bundle = async (path) => {
    const result = await esbuild.build({
      entryPoints: [path],
      // One CommonJS file is named after its entry (hookMain.ts → hookMain.cjs); ES modules come with their chunks.
      ...(commonjs ? { outfile: join(outdir, basename(path).replace(/\.ts$/, '.cjs')) } : { outdir }),
      bundle: true,
      splitting: !commonjs,
      // HOOKWIRE_BUILD_MINIFY=0: readable bundles, for `node --cpu-prof` profiles with the functions' own names.
      minify: process.env.HOOKWIRE_BUILD_MINIFY !== '0',
      platform: 'node',
      format: commonjs ? 'cjs' : 'esm',
      target: 'node20',
      // A lazily loaded file is required, as its importer was (import() would go through the ES module loader). In
      // 'whole', what is left to import() is outside the bundle (sql.js): required too, since a bundle compiled
      // through vm.Script (cliBundle.cjs loadWithCodeCache) has no import().
      ...(commonjs === 'lazy-files' || commonjs === 'whole' ? { supported: { 'dynamic-import': false } } : {}),
      external: ['quickjs-emscripten-core', '@jitl/*'],
      // Bundled CommonJS packages call require() for Node built-ins; ES modules have no require of their own.
      // A CommonJS bundle has require, and its own file's URL stands for import.meta.url (lazyRe2.ts), made when
      // first read: node:url's pathToFileURL at every start was ~0.3 ms of a hook call's CPU. In 'whole',
      // import.meta.resolve is require.resolve's answer as a URL: runBacktestFiles.ts asks it only for a TypeScript
      // entry (running from sources), which a bundle never is.
      banner: { js: commonjs ? `const __hookwireMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };${commonjs === 'whole' ? " const __hookwireResolve = (s) => require('node:url').pathToFileURL(require.resolve(s)).href;" : ''}` : "import { createRequire as __hookwireRequire } from 'node:module'; const require = __hookwireRequire(import.meta.url);" },
      // The build's identity: engine/node/pipelineCache.ts keys what it remembers by it, so that a pipeline
      // validated by one build is validated again by the next.
      define: { __HOOKWIRE_BUILD__: JSON.stringify(build), ...(commonjs ? { 'import.meta.url': '__hookwireMeta.url' } : {}), ...(commonjs === 'whole' ? { 'import.meta.resolve': '__hookwireResolve' } : {}) },
      logLevel: 'warning',
      absWorkingDir: ENGINE_DIR,
      plugins: [...(commonjs === 'without-lazy-parts' ? [noLazyPartsPlugin] : commonjs === 'lazy-files' ? [lazyFilesPlugin(lazy)] : commonjs === 'whole' ? [readingOnlyPlugin] : []), lazyRe2Plugin, zodEnglishOnlyPlugin, sqlJsPlugin(sqlJs)],
      metafile: true,
    });
    return Object.keys(result.metafile.inputs);
  };
  const inputs = new Set(await bundle(fileURLToPath(new URL(entry, new URL('../', import.meta.url)))));
  for (const done = new Set(); done.size < lazy.size; ) {
    for (const path of [...lazy.keys()].filter((p) => !done.has(p))) {
      done.add(path);
      for (const f of await bundle(path)) inputs.add(f);
    }
  }
  // What the bundle is made of, for cliBundle.cjs's freshness check (engine files only; package.json is
  // checked apart, and stands for the packages). Written last: a bundle whose list is missing is compared
  // with every source.
  if (!listInputs) return true;
  // A plugin's stand-in module (`<namespace>:<path>`) is no file.
  const list = [...inputs].filter((f) => !f.startsWith('..') && !f.includes('node_modules') && !/^[a-z-]+:/.test(f)).sort();
  writeFileSync(join(outdir, INPUTS_FILE), `${JSON.stringify(list)}\n`);
  return true;
}

/**
 * The installed package's binary, dist/cli/bin.cjs: engine/node/packageBin.cjs with what it requires of ours
 * (crashFailsClosed.cjs, cliBundle.cjs) in one CommonJS file, so that a hook call starts without the ES module
 * loader and with one file to read. Its `import('./bin.js')` (the ES module CLI, bin.ts) stays a real import()
 * of that file: bundled, or turned into require(), it would be a second copy of the CLI's modules. The bundles
 * it requires by computed path (forward/, hook-fast/) are built beside it by buildPackage.mjs.
 */
export async function buildPackageBin(outdir) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(ENGINE_DIR, 'node', 'packageBin.cjs')],
    outfile: join(outdir, 'bin.cjs'),
    bundle: true,
    minify: process.env.HOOKWIRE_BUILD_MINIFY !== '0',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // The code cache of the fast route is named by the build (packageBin.cjs, codeCacheFile).
    define: { __HOOKWIRE_BUILD__: JSON.stringify(sourceHash()) },
    logLevel: 'warning',
    plugins: [{ name: 'hookwire-es-module-cli', setup: (b) => b.onResolve({ filter: /^\.\/bin\.js$/ }, (args) => ({ path: args.path, external: true })) }],
  });
}

/** A hash of every engine source and package.json: what a build is made of. */
function sourceHash() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const d of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(dir, d.name);
      if (d.isDirectory()) walk(full);
      else if (/\.(ts|mjs|cjs|json)$/.test(d.name)) hash.update(full.slice(ENGINE_DIR.length)).update('\0').update(readFileSync(full));
    }
  };
  walk(ENGINE_DIR);
  hash.update(readFileSync(join(ENGINE_DIR, '..', 'package.json')));
  return hash.digest('hex').slice(0, 32);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildCli('node/cli.ts', CLI_BUNDLE_DIR, true);
  // `claude-hook --server` (once per tool call) starts from its own entry: ~60 ms of CPU instead of the CLI's.
  // One CommonJS file, which bin.cjs requires; the agents' adapters,
  // which only `hook --agent` needs, in a file of their own beside it.
  await buildCli('node/serve/forwardMain.ts', FORWARD_BUNDLE_DIR, true, 'sql.js', 'lazy-files');
  // `claude-hook <pipeline>` (once per tool call, deciding here) too: without commander and the CLI's tables.
  await buildCli('node/hookMain.ts', HOOK_BUNDLE_DIR, true);
  // The same entry as one CommonJS file without the lazy parts, for bin.cjs's fast route (hookMain.ts says which calls).
  // Its freshness list is the ES module bundle's, lazy parts included: the pipeline cache entries it trusts were
  // validated by parsePipeline, so an edit there (or to any part it leaves out) must stop the fast route too.
  if (await buildCli('node/hookMain.ts', HOOK_FAST_BUNDLE_DIR, false, 'sql.js', 'without-lazy-parts')) copyFileSync(join(HOOK_BUNDLE_DIR, INPUTS_FILE), join(HOOK_FAST_BUNDLE_DIR, INPUTS_FILE));
  // The commands that read traces: the whole CLI as one CommonJS file, compiled through V8's code cache (readingMain.ts).
  await buildCli('node/readingMain.ts', READING_BUNDLE_DIR, true, 'sql.js', 'whole');
}
