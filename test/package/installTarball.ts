// Packs the checkout and installs the tarball into a fresh project with no network: shared by the install
// test (test/package/install.test.ts) and the package benchmark (test/bench/package.bench.ts).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consumerProject } from './consumerLock.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function sh(cmd: string, args: string[], cwd: string, input?: string, env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, encoding: 'utf8', input, env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...env } });
}

export function ok(r: SpawnSyncReturns<string>, what: string): SpawnSyncReturns<string> {
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r;
}

export interface Installed {
  /** The temporary folder: the tarball and project/. */
  work: string;
  project: string;
  tarball: string;
  /** Lock paths of the production dependencies. */
  production: string[];
}

/** `npm pack` (prepack builds dist/), then `npm install --offline` of the tarball into work/project. */
export function packAndInstall(devPackages: string[] = []): Installed {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const work = mkdtempSync(join(tmpdir(), 'hookwire-install-'));
  const packed = ok(sh('npm', ['pack', '--pack-destination', work, '--silent'], REPO_ROOT), 'npm pack');
  const tarball = `${pkg.name}-${pkg.version}.tgz`;
  if (packed.stdout.trim().split('\n').at(-1) !== tarball) throw new Error(`npm pack printed ${packed.stdout}, expected ${tarball}`);
  const project = join(work, 'project');
  mkdirSync(project);
  copyFileSync(join(work, tarball), join(project, tarball));
  const integrity = `sha512-${createHash('sha512').update(readFileSync(join(project, tarball))).digest('base64')}`;
  const consumer = consumerProject(REPO_ROOT, tarball, integrity, devPackages);
  writeFileSync(join(project, 'package.json'), JSON.stringify(consumer.packageJson, null, 2));
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify(consumer.lock, null, 2));
  ok(sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], project), 'npm install --offline of the tarball');
  return { work, project, tarball, production: consumer.production };
}

/** Bytes of the files under `dir` (apparent size), leaving out `skip` (absolute paths). */
export function sizeOf(dir: string, skip: string[] = []): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (skip.includes(full)) continue;
    if (entry.isDirectory()) total += sizeOf(full, skip);
    else if (entry.isFile()) total += lstatSync(full).size;
  }
  return total;
}

/** What the runtime install weighs: hookwire without dist/web, and each top-level production dependency. */
export function runtimeSizes(installed: Installed): { own: number; deps: Record<string, number> } {
  const nm = join(installed.project, 'node_modules');
  const deps: Record<string, number> = {};
  for (const p of installed.production) {
    if (p.slice('node_modules/'.length).includes('/node_modules/')) continue; // counted with its parent
    deps[p.slice('node_modules/'.length)] = sizeOf(join(installed.project, p));
  }
  return { own: sizeOf(join(nm, 'hookwire'), [join(nm, 'hookwire', 'dist', 'web')]), deps };
}
