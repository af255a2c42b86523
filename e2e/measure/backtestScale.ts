/**
 * The library and the backtest at a team's scale, in a real Chromium (a script, not a test: it prints numbers
 * and asserts nothing).
 *
 *   npx tsx e2e/measure/backtestScale.ts   (HOOKWIRE_MEASURE_PORT, HOOKWIRE_MEASURE_TRACES, HOOKWIRE_MEASURE_EVENTS,
 *                                           HOOKWIRE_MEASURE_RUNS; HOOKWIRE_MEASURE_APP names another checkout)
 *
 * 200 sessions of 400 events each (test/bench/benchTrace.ts: one tool call in forty an `rm -rf`) are imported
 * through the trace library's file picker; then a backtest of the demo pipeline against no pipeline runs over
 * all of them, by clicks, several times in a row. For each run: rows of the results drawn in the page (DOM),
 * the main thread's long tasks (> 50 ms, PerformanceObserver) from the click on Run to the results shown, and
 * the page's JS heap after a forced GC (DevTools protocol) once the results are shown: a heap that grows run
 * after run keeps something of each run.
 */
import { loadavg } from 'node:os';
import { chromium } from '@playwright/test';
import { chromiumExecutable } from '../chromium.ts';
import { sessionFiles } from '../../test/bench/benchTrace.ts';
import { startPreview } from './previewServer.ts';

const root = process.env.HOOKWIRE_MEASURE_APP ?? new URL('../..', import.meta.url).pathname;
const port = Number(process.env.HOOKWIRE_MEASURE_PORT ?? 4185);
const TRACES = Number(process.env.HOOKWIRE_MEASURE_TRACES ?? 200);
const EVENTS = Number(process.env.HOOKWIRE_MEASURE_EVENTS ?? 400);
const RUNS = Number(process.env.HOOKWIRE_MEASURE_RUNS ?? 4);
const mb = (x: number) => `${(x / 1024 / 1024).toFixed(1)} MB`;
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

const LONG_TASKS = `(() => {
  window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ entryTypes: ['longtask'] });
})()`;

async function main(): Promise<void> {
  const files = await sessionFiles(TRACES, EVENTS);
  console.log(`${TRACES} traces × ${EVENTS} events; app: ${root}; load average ${load()}`);
  const server = await startPreview(root, port, `dist-measure-${port}`);
  const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const m = (await cdp.send('Performance.getMetrics')).metrics;
      return m.find((x) => x.name === 'JSHeapUsedSize')!.value;
    };
    await page.goto(server.base);
    await page.getByTestId('node-ev-tool-before').waitFor();
    await page.evaluate(LONG_TASKS);
    await page.getByTestId('mode-debug').click();
    // When the first imported trace is listed (the library had the demo alone), seen from the page.
    await page.evaluate(`(() => {
      const listed = () => { const lib = document.querySelector('[data-testid="trace-library"]'); return Number(lib?.getAttribute('data-count') ?? document.querySelectorAll('[data-testid="trace-item"]').length); };
      const o = new MutationObserver(() => { if (listed() > 1) { window.__firstListed = performance.now(); o.disconnect(); } });
      o.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-count'] });
    })()`);
    const pageT0 = (await page.evaluate('performance.now()')) as number;
    const t0 = performance.now();
    await page.getByTestId('trace-file').setInputFiles(files);
    // Until here: Playwright handing the files to the page (its own script builds 200 File objects) and the input's
    // change handler; after: the import itself, apart.
    const longPick = (await page.evaluate('window.__long.splice(0)')) as number[];
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="trace-item"]').length >= n || document.querySelector('[data-testid="trace-library"]')?.getAttribute('data-count') === String(n), TRACES + 1, { timeout: 1_800_000, polling: 500 });
    const importMs = performance.now() - t0;
    const firstListed = ((await page.evaluate('window.__firstListed')) as number | undefined) ?? NaN;
    const libraryRows = await page.locator('[data-testid="trace-item"]').count();
    const libraryDom = await page.getByTestId('trace-library').evaluate((el) => el.getElementsByTagName('*').length);
    const longImport = (await page.evaluate('window.__long.splice(0)')) as number[];
    console.log(`files handed to the page and its change handler: long tasks ${longPick.length}, longest ${Math.max(0, ...longPick).toFixed(0)} ms`);
    console.log(`import of ${TRACES} files: ${(importMs / 1000).toFixed(1)} s, the first listed after ${((firstListed - pageT0) / 1000).toFixed(1)} s; library rows in the DOM: ${libraryRows} (${libraryDom} elements); long tasks: ${longImport.length} (sum ${longImport.reduce((a, b) => a + b, 0).toFixed(0)} ms), longest ${Math.max(0, ...longImport).toFixed(0)} ms; heap ${mb(await heap())}; load ${load()}`);
    // The library scrolled through, top to bottom, as a person looking for a session.
    await page.evaluate('window.__long.splice(0)');
    await page.getByTestId('trace-library').evaluate(async (el) => {
      for (let i = 0; i <= 20; i++) {
        el.scrollTop = (el.scrollHeight * i) / 20;
        await new Promise((r) => requestAnimationFrame(() => r(null)));
      }
    });
    const libScroll = (await page.evaluate('window.__long.splice(0)')) as number[];
    console.log(`   library scrolled through: long tasks ${libScroll.length}, longest ${Math.max(0, ...libScroll).toFixed(0)} ms`);

    await page.getByTestId('mode-backtest').click();
    await page.getByTestId('backtest-old').selectOption('none');
    await page.getByTestId('backtest-pick-shown').click();
    console.log(`backtest picker rows in the DOM: ${await page.locator('[data-testid="backtest-trace"]').count()}`);
    for (let run = 1; run <= RUNS; run++) {
      await page.evaluate('window.__long.splice(0)');
      const s = performance.now();
      await page.getByTestId('backtest-run').click();
      await page.getByTestId('backtest-results').waitFor({ timeout: 600_000 });
      const wall = performance.now() - s;
      const long = (await page.evaluate('window.__long.splice(0)')) as number[];
      const rows = await page.locator('[data-testid="backtest-row"]').count();
      const groups = await page.locator('[data-testid="backtest-trace-group"]').count();
      const dom = await page.evaluate(() => document.getElementsByTagName('*').length);
      console.log(`run ${run}: ${(wall / 1000).toFixed(1)} s to results; rows drawn ${rows} in ${groups} trace groups; DOM elements ${dom}; long tasks ${long.length} (sum ${long.reduce((a, b) => a + b, 0).toFixed(0)} ms, longest ${Math.max(0, ...long).toFixed(0)} ms); heap after GC ${mb(await heap())}; load ${load()}`);
      // Scroll the results to the bottom and back, as a person reading them: long tasks while scrolling.
      await page.evaluate('window.__long.splice(0)');
      await page.getByTestId('backtest-results').evaluate(async (el) => {
        for (let i = 0; i < 20; i++) {
          el.scrollTop = (el.scrollHeight * i) / 20;
          await new Promise((r) => requestAnimationFrame(() => r(null)));
        }
        el.scrollTop = 0;
      });
      const scrollLong = (await page.evaluate('window.__long.splice(0)')) as number[];
      console.log(`   scrolling through: long tasks ${scrollLong.length}, longest ${Math.max(0, ...scrollLong).toFixed(0)} ms`);
    }
  } finally {
    await browser.close();
    server.stop();
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
