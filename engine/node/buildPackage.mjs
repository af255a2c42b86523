#!/usr/bin/env node
// Builds the package's dist/ (`npm run build:dist`; `npm pack` and `npm publish` run it as prepack):
//   dist/**/*.js + .d.ts   every engine module, by tsc (engine/tsconfig.dist.json): `hookwire`, `hookwire/node`
//   dist/cli/              the `hookwire` binary, bundled by esbuild (buildCli.mjs says why)
//   dist/schema/           the JSON Schemas (`hookwire/schema/*.json`)
//   dist/web/              the production build of the app, served by `hookwire ui`
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCli } from './buildCli.mjs';

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
if (!(await buildCli('node/bin.ts', join(dist, 'cli')))) process.exit(1);
cpSync(join(root, 'engine', 'schema'), join(dist, 'schema'), { recursive: true });
if (!only.has('--no-web')) run(bin('vite'), ['build', '--outDir', 'dist/web', '--emptyOutDir', '--sourcemap', 'false', '--logLevel', 'warn']);

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
