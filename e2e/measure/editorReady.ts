/**
 * Measures how soon the editor is usable in a real Chromium (a script, not a test: it prints numbers and
 * asserts nothing).
 *
 *   npx tsx e2e/measure/editorReady.ts        (HOOKWIRE_MEASURE_PORT, HOOKWIRE_MEASURE_RUNS to change)
 *
 * Each run is a fresh browser context (first run: the demo is seeded into an empty IndexedDB).
 * 1. First usable canvas: ms from navigation start to the demo's first node on screen.
 * 2. Monaco ready: ms from clicking "Code" in the palette to Monaco showing the template's text (the
 *    editor chunk is loaded lazily on that click), timed from Node.
 * Median and p95 over the runs.
 */
import { chromium } from '@playwright/test';
import { chromiumExecutable } from '../chromium.ts';
import { startPreview } from './previewServer.ts';

// HOOKWIRE_MEASURE_APP names another checkout to build and measure with this same script (before/after).
const root = process.env.HOOKWIRE_MEASURE_APP ?? new URL('../..', import.meta.url).pathname;
const port = Number(process.env.HOOKWIRE_MEASURE_PORT ?? 4177);
const RUNS = Number(process.env.HOOKWIRE_MEASURE_RUNS ?? 7);
const outDir = `dist-measure-${port}`;

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!;
  return `median ${q(0.5).toFixed(0).padStart(5)} ms   p95 ${q(0.95).toFixed(0).padStart(5)} ms   (n=${s.length})`;
};

async function main(): Promise<void> {
  const server = await startPreview(root, port, outDir);
  try {
    const executablePath = chromiumExecutable();
    const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    const canvas: number[] = [];
    const monaco: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      page.on('crash', () => console.log('page crashed'));
      page.on('pageerror', (e) => console.log('page error', e.message));
      // Page code goes as text: tsx would add helpers (__name) to functions that the page does not have.
      await page.addInitScript(`new MutationObserver((_, o) => {
        const n = document.querySelector('[data-testid="node-ev-tool-before"]');
        if (n && n.getBoundingClientRect().width > 0) { window.__firstNode = performance.now(); o.disconnect(); }
      }).observe(document, { childList: true, subtree: true, attributes: true })`);
      await page.goto(server.base);
      await page.getByTestId('node-ev-tool-before').waitFor();
      await page.waitForFunction('window.__firstNode > 0');
      canvas.push((await page.evaluate('window.__firstNode')) as number);
      // Timed from Node (a few ms of Playwright's own round trips are included).
      const t0 = performance.now();
      await page.getByTestId('palette-handler:code').click();
      await page.locator('.monaco-editor .view-lines', { hasText: 'export default' }).waitFor({ timeout: 60_000 });
      monaco.push(performance.now() - t0);
      await context.close();
    }
    console.log(`\nfirst usable canvas (navigation → first node)   ${stats(canvas)}`);
    console.log(`Monaco ready (palette click → template shown)  ${stats(monaco)}`);
    await browser.close();
  } finally {
    server.stop();
  }
}

await main();
