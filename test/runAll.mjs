#!/usr/bin/env node
// The whole suite, as `npm test` runs it: type-check, unit and property tests (vitest), end-to-end tests
// in a real Chromium (Playwright). Ends with one line `N passed, N failed` counted from the runners' JSON
// reports, which is the line CI reads.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const reports = join(root, '.reports');
const args = new Set(process.argv.slice(2));
const only = args.has('--unit') ? 'unit' : args.has('--e2e') ? 'e2e' : 'all';

rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

function run(cmd, argv, extraEnv = {}) {
  console.log(`\n$ ${cmd} ${argv.join(' ')}`);
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  return r.status ?? 1;
}

function findChromium() {
  if (process.env.PLAYWRIGHT_CHROMIUM) return process.env.PLAYWRIGHT_CHROMIUM;
  for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (existsSync(p)) return p;
  return null;
}

function ensureChromium() {
  if (findChromium()) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    console.log('No Chromium found: installing Debian\'s chromium with apt-get (about 30 s).');
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'chromium'], { DEBIAN_FRONTEND: 'noninteractive' });
    if (findChromium()) return true;
  }
  console.error([
    'No Chromium for the end-to-end tests. Do one of:',
    '  sudo apt-get update && sudo apt-get install -y chromium     (Debian/Ubuntu)',
    '  npx playwright install chromium                            (anywhere with internet access)',
    '  PLAYWRIGHT_CHROMIUM=/path/to/chrome npm test               (a browser you already have)',
  ].join('\n'));
  return false;
}

let passed = 0;
let failed = 0;

// Before any runner: the packed-package tests among the unit tests drive Chromium too (`npx hookwire ui`), so
// a fresh machine gets its browser first, not between the unit and the end-to-end tests.
const chromium = ensureChromium();

// Type-checking counts as one check per project: a type error anywhere is a failure.
for (const project of ['tsconfig.json', 'engine/tsconfig.json', 'engine/node/tsconfig.json', 'engine/adapters/tsconfig.json']) {
  if (only === 'e2e') break;
  const status = run('npx', ['tsc', '-p', project, '--noEmit']);
  if (status === 0) passed++; else { failed++; console.error(`type-check failed: ${project}`); }
}

if (only !== 'e2e') {
  run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'unit.json')}`]);
  const file = join(reports, 'unit.json');
  if (existsSync(file)) {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests + filesThatFailedToRun(r);
  } else {
    failed++;
    console.error('vitest wrote no report');
  }
}

if (only !== 'unit') {
  if (chromium) {
    run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], { CI: process.env.CI ?? '1' });
    const file = join(reports, 'e2e.json');
    if (existsSync(file)) {
      const s = JSON.parse(readFileSync(file, 'utf8')).stats ?? {};
      passed += (s.expected ?? 0) + (s.flaky ?? 0);
      failed += (s.unexpected ?? 0);
      if (s.skipped) console.log(`e2e: ${s.skipped} skipped`);
      if ((JSON.parse(readFileSync(file, 'utf8')).errors ?? []).length) failed++;
    } else {
      failed++;
      console.error('playwright wrote no report');
    }
  } else {
    failed++;
  }
}

// A test file that fails to load (a syntax error, a bad import) has no failed tests but must count as failed.
function filesThatFailedToRun(r) {
  return (r.testResults ?? []).filter((s) => s.status === 'failed' && !(s.assertionResults ?? []).some((a) => a.status === 'failed')).length;
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
