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
    // A failed test keeps its trace: every action with a DOM snapshot around it, console, network and sources, and
    // the screenshot at the failure. Not the screencast (the filmstrip): recorded for every test, it made Chromium
    // draw, read back and encode frames all the while, about a third of the suite's CPU (docs/performance.md).
    trace: { mode: 'retain-on-failure', snapshots: true, screenshots: false, sources: true },
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
