import { defineConfig } from '@playwright/test';
import { e2eChromium } from './chromium.ts';

const chromium = e2eChromium();
// Several people (or agents) may run the suite on one machine: each picks a port with HOOKWIRE_E2E_PORT.
const port = Number(process.env.HOOKWIRE_E2E_PORT ?? 4173);

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: process.env.HOOKWIRE_E2E_REPORT ?? '../.reports/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      ...(chromium.executablePath ? { executablePath: chromium.executablePath, env: chromium.env } : {}),
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync', ...chromium.args,
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: `npx vite build --outDir dist-e2e-${port} && npx vite preview --outDir dist-e2e-${port} --host 127.0.0.1 --port ${port} --strictPort`,
    cwd: '..',
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
    timeout: 180_000,
  },
});
