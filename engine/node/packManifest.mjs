#!/usr/bin/env node
// The package.json that ships has no `scripts`: every one of them (`prepare` builds the checkout's CLI bundle,
// `test`, `dev`, …) runs files the package does not ship, and npm warns about a `prepare` it cannot run.
// `npm pack` and `npm publish` tar package.json as it is on disk between their prepack and postpack scripts, so
// prepack ends with `packManifest.mjs strip` (package.json without `scripts`, the original kept aside) and
// postpack runs `packManifest.mjs restore` (the original back, with its modification time, so the checkout's
// CLI bundle, which is stale when package.json is newer, stays fresh). npm runs postpack from the manifest it
// read before prepack, so the stripped file does not stop it. A pack that died between the two leaves the
// original aside: the next strip (or restore) puts it back first. test/package/install.test.ts checks both ends.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = join(root, 'package.json');
/** The original, with its times, while a pack runs. */
const aside = join(root, 'node_modules', '.cache', 'hookwire', 'package.json.packing');

function restore() {
  if (!existsSync(aside)) return false;
  const { atimeMs, mtimeMs } = statSync(aside);
  renameSync(aside, manifest);
  // In seconds with the fraction: a Date would round to the millisecond, a hair after the original.
  utimesSync(manifest, atimeMs / 1000, mtimeMs / 1000);
  return true;
}

function strip() {
  restore();
  const text = readFileSync(manifest, 'utf8');
  const { scripts, ...shipped } = JSON.parse(text);
  if (!scripts) return;
  mkdirSync(dirname(aside), { recursive: true });
  const { atimeMs, mtimeMs } = statSync(manifest);
  writeFileSync(`${aside}.tmp`, text);
  utimesSync(`${aside}.tmp`, atimeMs / 1000, mtimeMs / 1000);
  renameSync(`${aside}.tmp`, aside);
  writeFileSync(manifest, `${JSON.stringify(shipped, null, 2)}\n`);
  // The stripped file keeps the original's times too: scripts change no bundle, and a hook call made from the
  // checkout while a pack runs (the unit tests run the install test beside others) keeps its current bundle
  // instead of finding package.json newer and compiling the sources.
  utimesSync(manifest, atimeMs / 1000, mtimeMs / 1000);
}

const command = process.argv[2];
if (command === 'strip') strip();
else if (command === 'restore') restore();
else {
  console.error('usage: packManifest.mjs strip|restore');
  process.exit(2);
}
