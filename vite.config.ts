/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: '.',
  plugins: [react()],
  // No asset is inlined as a data: URL (fonts, icons): the CSP allows fonts and images from 'self' only.
  build: { outDir: 'dist/web', target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 6000, assetsInlineLimit: 0 },
  worker: { format: 'es' },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    pool: 'threads',
    testTimeout: 20_000,
  },
});
