/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The engine is pure (test/engine/purity.test.ts): importing one of its modules only defines things. Saying so
// lets the bundler drop every engine module the app does not use, although web/ imports the engine through one
// face that re-exports many (engine/app.ts); without it the face's modules are kept for their top-level
// `const x = f()`, and the workers carried the whole face. Other modules keep the bundler's own judgement.
const ENGINE = fileURLToPath(new URL('./engine/', import.meta.url));
const treeshake = { moduleSideEffects: (id: string) => (id.startsWith(ENGINE) ? false : undefined) };

export default defineConfig({
  root: '.',
  plugins: [react()],
  // No asset is inlined as a data: URL (fonts, icons): the CSP allows fonts and images from 'self' only.
  build: { outDir: 'dist/web', target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 6000, assetsInlineLimit: 0, rolldownOptions: { treeshake } },
  worker: { format: 'es', rolldownOptions: { treeshake } },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    pool: 'threads',
    testTimeout: 20_000,
  },
});
