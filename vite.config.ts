/// <reference types="vitest/config" />
import { configDefaults } from 'vitest/config';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The engine is pure (test/engine/purity.test.ts): importing one of its modules only defines things. Saying so
// lets the bundler drop every engine module the app does not use, although web/ imports the engine through one
// face that re-exports many (engine/app.ts); without it the face's modules are kept for their top-level
// `const x = f()`, and the workers carried the whole face. Other modules keep the bundler's own judgement.
const ENGINE = fileURLToPath(new URL('./engine/', import.meta.url));
const treeshake = { moduleSideEffects: (id: string) => (id.startsWith(ENGINE) ? false : undefined) };

const UNIT = ['test/**/*.test.ts', 'test/**/*.test.tsx'];
/** Unit files that run one at a time, after the others: the ones that run two busy processes beside what they check ([S13]: decisions under load), and the ones that rebuild what the others run. */
const BUSY = [
  'test/engine/node/netUnderLoad.test.ts',
  'test/engine/adapters/underLoad.test.ts',
  'test/engine/node/recordingLockLoad.test.ts',
  'test/engine/sandbox/fuel.test.ts',
  // And the files that rewrite what every CLI process of the other files reads: commandAdapter's beforeAll builds
  // the CLI's bundles again (buildCli.mjs writes them in place), and the install test's `npm pack` strips and
  // restores package.json. Beside the other files a CLI process could read a bundle half written.
  'test/engine/node/serve/commandAdapter.test.ts',
  'test/package/install.test.ts',
];

export default defineConfig({
  root: '.',
  plugins: [react()],
  // No asset is inlined as a data: URL (fonts, icons): the CSP allows fonts and images from 'self' only.
  build: { outDir: 'dist/web', target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 6000, assetsInlineLimit: 0, rolldownOptions: { treeshake } },
  worker: { format: 'es', rolldownOptions: { treeshake } },
  test: {
    environment: 'node',
    pool: 'threads',
    // A net for a test that hangs, not a speed check: with three files at a time on a shared machine, a test that
    // takes 5-10 s alone can take three times that, and a file's beforeAll that starts a server (vitest's default
    // hookTimeout: 10 s) timed out at load 18 even one file at a time.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most unit files wait on child processes and servers (the CLI, `serve`, npm, tsc), so on 2 cores three files
    // at a time finish sooner than one (vitest's default there: one file after another). The files that start
    // busy processes of their own to check that a decision does not depend on load run after them, one at a
    // time: beside other files they would starve them, and be starved past their own far wall-clock nets.
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, exclude: [...configDefaults.exclude, ...BUSY], maxWorkers: 3 } },
      { extends: true, test: { name: 'busy', include: BUSY, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
