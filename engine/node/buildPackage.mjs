#!/usr/bin/env node
// Builds the package's dist/ (`npm run build:dist`; `npm pack` and `npm publish` run it as prepack):
//   dist/**/*.js + .d.ts   every engine module, by tsc (engine/tsconfig.dist.json): `hookwire`, `hookwire/node`
//   dist/sandbox/sucraseTransform.js   Sucrase's `transform` bundled in (bundleSucrase below says why)
//   dist/vendor/zod.js     zod bundled in, and the modules that use it pointed at it (bundleZod says why)
//   dist/vendor/sql.js/    sql.js's WebAssembly build alone, and the modules that use it pointed at it (vendorSqlJs)
//   dist/cli/              the `hookwire` binary (bin.cjs, a CommonJS front for the ES module CLI bin.js), bundled by esbuild (buildCli.mjs says why)
//   dist/schema/           the JSON Schemas (`hookwire/schema/*.json`)
//   dist/web/              the production build of the app, served by `hookwire ui`
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { buildCli, buildPackageBin, zodEnglishOnlyPlugin } from './buildCli.mjs';

const root = new URL('../../', import.meta.url).pathname;
const dist = join(root, 'dist');
const only = new Set(process.argv.slice(2)); // e.g. `--no-web` while working on the engine

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`build failed: ${cmd} ${args.join(' ')}`);
    process.exit(1);
  }
}

const bin = (name) => join(root, 'node_modules', '.bin', name);
rmSync(dist, { recursive: true, force: true });
run(bin('tsc'), ['-p', 'engine/tsconfig.dist.json']);
rewriteDeclarationImports(dist);
opaqueQuickJSTypes(dist);
await bundleSucrase(join(dist, 'sandbox'));
await bundleZod(dist);
const sqlJs = vendorSqlJs(dist);
// The ES module CLI (bin.ts → bin.js), then beside it the hook calls' CommonJS bundles and the CommonJS front
// that runs them and imports bin.js for the rest (buildPackageBin says why). The fast route's bundle leaves its
// lazily loaded parts out: hookFastMain takes only calls that need none (hookMain.ts).
if (!(await buildCli('node/bin.ts', join(dist, 'cli'), false, `../${relative(dist, sqlJs)}`))) process.exit(1);
await buildCli('node/serve/forwardMain.ts', join(dist, 'cli', 'forward'), false, `../../${relative(dist, sqlJs)}`, 'lazy-files');
await buildCli('node/hookMain.ts', join(dist, 'cli', 'hook-fast'), false, `../../${relative(dist, sqlJs)}`, 'without-lazy-parts');
// The commands that read traces: the whole CLI as one CommonJS file (readingMain.ts says why).
await buildCli('node/readingMain.ts', join(dist, 'cli', 'reading'), false, `../../${relative(dist, sqlJs)}`, 'whole');
await buildPackageBin(join(dist, 'cli'));
cpSync(join(root, 'engine', 'schema'), join(dist, 'schema'), { recursive: true });
if (!only.has('--no-web')) run(bin('vite'), ['build', '--outDir', 'dist/web', '--emptyOutDir', '--sourcemap', 'false', '--logLevel', 'warn']);

/**
 * The engine uses one function of Sucrase (`transform`, to strip TypeScript from code handlers), but the
 * package brings its command line and require hook along: ten more packages, 1.6 MB of the runtime install.
 * So the published module is Sucrase's `transform` bundled (~200 KB, no Node built-ins: the `hookwire` entry
 * stays pure), with Sucrase's license, and Sucrase is a devDependency. Its declaration names no Sucrase type:
 * nothing public exposes it.
 */
async function bundleSucrase(outDir) {
  await bundlePackage('sucrase', { entryPoints: [join(root, 'engine', 'sandbox', 'sucraseTransform.ts')] }, join(outDir, 'sucraseTransform.js'), 'its transform only');
  writeFileSync(join(outDir, 'sucraseTransform.d.ts'), '/** Sucrase\'s `transform`, bundled (engine-internal). */\nexport declare function transform(code: string, options: { transforms: string[]; [option: string]: unknown }): { code: string; sourceMap?: unknown };\n');
}

/** One minified ES module of (a part of) an npm package, no Node built-ins, headed by the package's license. */
async function bundlePackage(name, input, outfile, what) {
  const { build } = await import('esbuild');
  const license = readFileSync(join(root, 'node_modules', name, 'LICENSE'), 'utf8').trim();
  const { version, repository } = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'));
  const url = (typeof repository === 'string' ? repository : repository?.url ?? '').replace(/^git\+/, '').replace(/\.git$/, '');
  await build({
    ...input,
    outfile,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    banner: { js: `/*! ${name} ${version} (${url}), bundled: ${what}.\n${license}\n*/` },
    logLevel: 'warning',
  });
}

/**
 * zod checks pipeline and trace files, but as a dependency it is 5.9 MB of an install (zod 3, 4 and mini,
 * each as ESM, CommonJS and types) for the ~450 KB the engine loads. The package's public types are written
 * out (model/pipelineTypes.ts, trace/traceTypes.ts) and name no zod type, so zod is bundled like Sucrase:
 * dist/vendor/zod.js, with zod's license, and the emitted modules import it by relative path. The
 * declarations of the schema modules themselves (not reachable from any entry point: the `exports` map has
 * no deep paths) are dropped, and the build fails if any other declaration still names zod.
 */
async function bundleZod(dir) {
  await bundlePackage('zod', { stdin: { contents: "export { z } from 'zod';", resolveDir: root, loader: 'js' }, plugins: [zodEnglishOnlyPlugin] }, join(dir, 'vendor', 'zod.js'), 'its `z` API, English messages only');
  const reachable = publicDeclarations(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    if (file.startsWith(join(dir, 'vendor')) || file.startsWith(join(dir, 'web')) || file.startsWith(join(dir, 'cli'))) continue;
    const text = readFileSync(file, 'utf8');
    // `from 'zod'`, and `import("zod").…`, which tsc writes for an inferred type that names zod.
    if (!/\bfrom\s*['"]zod['"]|\bimport\s*\(\s*['"]zod['"]\s*\)/.test(text)) continue;
    if (entry.name.endsWith('.d.ts')) {
      if (reachable.has(file)) throw new Error(`${file}: a public declaration names zod, which the package does not install`);
      rmSync(file);
    } else if (entry.name.endsWith('.js')) {
      const rel = relative(entry.parentPath, join(dir, 'vendor', 'zod.js'));
      writeFileSync(file, text.replace(/(\bfrom\s*)(['"])zod\2/g, `$1$2${rel.startsWith('.') ? rel : `./${rel}`}$2`));
    }
  }
}

/**
 * sql.js reads agents' session databases (goose, OpenCode), but its package is 31 MB installed (asm.js,
 * debug and browser builds, zips) for the two files Node loads: the WebAssembly build's loader and its .wasm.
 * So the package ships those two (the loader as .cjs: it is CommonJS, and finds the .wasm beside itself),
 * with sql.js's license, and sql.js is a devDependency; the emitted modules import the copy by relative path.
 * The build fails if a public declaration names sql.js. Returns the loader's path.
 */
function vendorSqlJs(dir) {
  const from = join(root, 'node_modules', 'sql.js');
  const to = join(dir, 'vendor', 'sql.js');
  mkdirSync(to, { recursive: true });
  cpSync(join(from, 'dist', 'sql-wasm.js'), join(to, 'sql-wasm.cjs'));
  cpSync(join(from, 'dist', 'sql-wasm.wasm'), join(to, 'sql-wasm.wasm'));
  cpSync(join(from, 'LICENSE'), join(to, 'LICENSE'));
  const loader = join(to, 'sql-wasm.cjs');
  const reachable = publicDeclarations(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(js|d\.ts)$/.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    if (file.startsWith(join(dir, 'vendor')) || file.startsWith(join(dir, 'web')) || file.startsWith(join(dir, 'cli'))) continue;
    const text = readFileSync(file, 'utf8');
    const names = /(\bfrom\s*|\bimport\s*\(\s*)(['"])sql\.js\2/g;
    if (!names.test(text)) continue;
    if (entry.name.endsWith('.d.ts')) {
      if (reachable.has(file)) throw new Error(`${file}: a public declaration names sql.js, which the package does not install`);
      continue;
    }
    const rel = relative(entry.parentPath, loader);
    writeFileSync(file, text.replace(names, `$1$2${rel.startsWith('.') ? rel : `./${rel}`}$2`));
  }
  return loader;
}

/** The declaration files a user's compiler can load: those of the `exports` entry points and what they import. */
function publicDeclarations(dir) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const stack = Object.values(pkg.exports)
    .filter((target) => typeof target === 'string' && target.endsWith('.js'))
    .map((target) => join(root, target.replace(/\.js$/, '.d.ts')));
  const seen = new Set();
  while (stack.length) {
    const file = stack.pop();
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      stack.push(join(dirname(file), m[1]).replace(/\.(js|ts)$/, '.d.ts'));
    }
  }
  return seen;
}

/**
 * The public declarations name one QuickJS type, the loaded module (`createQuickJSSandbox(module)`,
 * `loadQuickJS().module`). Importing it from quickjs-emscripten-core makes a consumer's compiler load all of
 * QuickJS's declarations, which need `Disposable` and `Symbol.dispose` (lib esnext.disposable) and the
 * `WebAssembly` namespace (lib dom): a strict NodeNext project on the default lib of ES2022, or on
 * `lib: ["esnext"]`, got 5 to 12 errors it could do nothing about. So the package declares the module as an
 * interface of its own, with the four methods a caller may use, which the real module satisfies (the install
 * test passes one), and the build fails if a public declaration still reaches QuickJS's types.
 */
function opaqueQuickJSTypes(dir) {
  const own = join(dir, 'sandbox', 'quickjsModule.d.ts');
  writeFileSync(own, [
    '/**',
    ' * A loaded QuickJS WebAssembly module: quickjs-emscripten-core\'s `QuickJSWASMModule`, declared here without',
    ' * its types (they need lib esnext.disposable and lib dom). `loadQuickJS()` gives one; a module made with',
    ' * quickjs-emscripten-core itself is one too. Cast to the library\'s type to use the rest of its API.',
    ' */',
    'export interface QuickJSWASMModule {',
    '    newRuntime(options?: object): unknown;',
    '    newContext(options?: object): unknown;',
    '    evalCode(code: string, options?: object): unknown;',
    '    getWasmMemory(): unknown;',
    '}',
    '',
  ].join('\n'));
  const importLine = /^import type \{ QuickJSWASMModule \} from 'quickjs-emscripten-core';$/m;
  for (const file of publicDeclarations(dir)) {
    const text = readFileSync(file, 'utf8');
    if (!importLine.test(text)) continue;
    const rel = relative(dirname(file), own).replace(/\.d\.ts$/, '.js');
    writeFileSync(file, text.replace(importLine, `import type { QuickJSWASMModule } from '${rel.startsWith('.') ? rel : `./${rel}`}';`));
  }
  for (const file of publicDeclarations(dir)) {
    if (/['"](quickjs-emscripten-core|@jitl\/[^'"]*)['"]/.test(readFileSync(file, 'utf8'))) throw new Error(`${file}: a public declaration reaches QuickJS's types`);
  }
}

/**
 * tsc rewrites `./x.ts` to `./x.js` in the JavaScript it emits (rewriteRelativeImportExtensions) but copies
 * the specifiers of the .d.ts files as written. TypeScript 5 resolves those to the .d.ts anyway; older
 * TypeScript and other tools refuse a `.ts` path in a declaration file, so they get the `.js` path that
 * the JavaScript beside them uses. test/package/install.test.ts type-checks the installed result.
 */
function rewriteDeclarationImports(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'utf8');
    const out = text.replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*?)\.ts\2/g, '$1$2$3.js$2');
    if (out !== text) writeFileSync(file, out);
  }
}
