// A package-lock.json for a fresh project that depends on the packed tarball, built from the checkout's own
// lock: the tarball itself plus the closure of its production dependencies, each with the resolved URL and
// integrity npm already has in its cache from `npm ci`. With it `npm install --offline` installs exactly
// what a user's `npm install hookwire` would, without asking the registry for anything.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  [key: string]: unknown;
}

/** Where Node would find `name` when required from the package installed at `from` (a lock path). */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | null {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (Object.hasOwn(packages, candidate)) return candidate;
    if (!base) return null;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

export interface ConsumerProject {
  packageJson: Record<string, unknown>;
  lock: Record<string, unknown>;
  /** Lock paths (`node_modules/…`) of the production dependencies: what `npm install hookwire` adds. */
  production: string[];
}

/**
 * package.json and package-lock.json of a project `consumer` that depends on `tarball` (a file name beside
 * them), with `devPackages` (names in the checkout's lock, e.g. typescript) as its own devDependencies.
 */
export function consumerProject(repoRoot: string, tarball: string, integrity: string, devPackages: string[] = []): ConsumerProject {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<string, any>;
  const repoLock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const packages: Record<string, LockEntry> = {};
  const queue: string[] = [];
  let dev = false;
  const need = (from: string, name: string, optional: boolean) => {
    const at = locate(repoLock.packages, from, name);
    if (!at) {
      if (optional) return;
      throw new Error(`package-lock.json has no ${name} (needed by ${from || 'hookwire'}): run npm install`);
    }
    if (!Object.hasOwn(packages, at)) {
      const { dev: _d, devOptional: _o, ...entry } = repoLock.packages[at]!;
      packages[at] = dev ? { ...entry, dev: true } : entry;
      queue.push(at);
    }
  };
  const drain = () => {
    while (queue.length) {
      const at = queue.shift()!;
      const e = packages[at]!;
      for (const name of Object.keys(e.dependencies ?? {})) need(at, name, false);
      for (const name of Object.keys(e.optionalDependencies ?? {})) need(at, name, true);
      for (const name of Object.keys(e.peerDependencies ?? {})) need(at, name, e.peerDependenciesMeta?.[name]?.optional === true);
    }
  };
  for (const name of Object.keys(pkg.dependencies ?? {})) need('', name, false);
  drain();
  const production = Object.keys(packages);
  dev = true;
  for (const name of devPackages) need('', name, false);
  drain();
  const devDependencies = Object.fromEntries(devPackages.map((n) => [n, repoLock.packages[`node_modules/${n}`]!.version!]));
  const dependency = `file:${tarball}`;
  const self: LockEntry = {
    version: pkg.version,
    resolved: dependency,
    integrity,
    license: pkg.license,
    dependencies: pkg.dependencies,
    bin: pkg.bin,
    engines: pkg.engines,
  };
  return {
    production,
    packageJson: { name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies: { hookwire: dependency }, devDependencies },
    lock: {
      name: 'consumer',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name: 'consumer', version: '1.0.0', dependencies: { hookwire: dependency }, devDependencies }, 'node_modules/hookwire': self, ...packages },
    },
  };
}
