/**
 * Typing cost in a real Chromium (a script, not a test: it prints numbers and asserts nothing).
 *
 *   npx tsx e2e/measure/typingCost.ts     (HOOKWIRE_MEASURE_RUNS, HOOKWIRE_MEASURE_PORT, HOOKWIRE_MEASURE_APP,
 *                                          HOOKWIRE_MEASURE_PROFILE=1 prints where the Name field's keys go)
 *
 * 200 characters typed with the real keyboard (page.keyboard.type) into three fields: the debugger's search
 * box (a field that does not edit the pipeline: the baseline), a code handler's Name field and its Monaco
 * editor (inside a comment, so IntelliSense's suggestions are not what is measured). For each, the page's
 * main-thread CPU (Chromium's TaskDuration, read through the DevTools protocol) while the keys go in, per key;
 * the same for the work the keys leave behind (the 2 s after the last key: deferred lint, save, check); and
 * the time from a key's keydown to the frame after it (median and p95 over the keys). Each run is a fresh
 * browser context; figures are medians over the runs.
 */
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { chromiumExecutable } from '../chromium.ts';
import { startPreview } from './previewServer.ts';

const root = process.env.HOOKWIRE_MEASURE_APP ?? new URL('../..', import.meta.url).pathname;
const port = Number(process.env.HOOKWIRE_MEASURE_PORT ?? 4179);
const RUNS = Number(process.env.HOOKWIRE_MEASURE_RUNS ?? 5);
const PROFILE = process.env.HOOKWIRE_MEASURE_PROFILE === '1';
const outDir = `dist-measure-${port}`;
const TEXT = 'the quick brown fox jumps over the lazy dog '.repeat(5).slice(0, 200);

interface Figures { cpuPerKey: number; afterMs: number; wallPerKey: number; frameMedian: number; frameP95: number }

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * (xs.length - 1)))]!;

async function taskMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration')!.value * 1000;
}

// Page code goes as text: tsx would add helpers (__name) to functions that the page does not have.
const WATCH_KEYS = `(() => {
  window.__frames = [];
  window.__onKey = (e) => {
    const t = performance.now();
    requestAnimationFrame(() => setTimeout(() => window.__frames.push(performance.now() - t), 0));
  };
  document.addEventListener('keydown', window.__onKey, true);
})()`;
const STOP_KEYS = `(() => { document.removeEventListener('keydown', window.__onKey, true); return window.__frames; })()`;

async function typeAndMeasure(page: Page, cdp: CDPSession): Promise<Figures> {
  await page.waitForTimeout(2000);
  await page.evaluate(WATCH_KEYS);
  const cpu0 = await taskMs(cdp);
  const t0 = performance.now();
  await page.keyboard.type(TEXT);
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))');
  const wall = performance.now() - t0;
  const cpu1 = await taskMs(cdp);
  await page.waitForTimeout(2000);
  const cpu2 = await taskMs(cdp);
  const frames = (await page.evaluate(STOP_KEYS)) as number[];
  return {
    cpuPerKey: (cpu1 - cpu0) / TEXT.length, afterMs: cpu2 - cpu1, wallPerKey: wall / TEXT.length,
    frameMedian: median(frames), frameP95: q(frames, 0.95),
  };
}

/** Self time per function while the Name field is typed into (unminified build). */
async function profileName(page: Page, cdp: CDPSession): Promise<void> {
  await page.getByTestId('handler-name').click();
  await page.keyboard.press('End');
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.keyboard.type(TEXT);
  await page.waitForTimeout(1500);
  const { profile } = await cdp.send('Profiler.stop');
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    const n = byId.get(id)!;
    const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  const top = [...self].filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)')).sort((a, b) => b[1] - a[1]).slice(0, 30);
  console.log('\nself time while typing 200 keys into Name (+1.5 s), ms:');
  for (const [k, ms] of top) console.log(`${ms.toFixed(1).padStart(8)}  ${k}`);
}

async function main(): Promise<void> {
  const server = await startPreview(root, port, outDir, PROFILE ? ['--minify', 'false'] : []);
  const results: Record<string, Figures[]> = { search: [], name: [], monaco: [] };
  try {
    const executablePath = chromiumExecutable();
    const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    for (let i = 0; i < (PROFILE ? 1 : RUNS); i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      page.on('pageerror', (e) => console.log('page error', e.message));
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
      await page.goto(server.base);
      await page.getByTestId('node-ev-tool-before').waitFor();
      await page.getByTestId('palette-handler:code').click();
      await page.locator('.monaco-editor .view-lines', { hasText: 'export default' }).waitFor({ timeout: 60_000 });
      if (PROFILE) {
        await profileName(page, cdp);
        await context.close();
        break;
      }
      await page.getByTestId('handler-name').click();
      await page.keyboard.press('End');
      results.name!.push(await typeAndMeasure(page, cdp));
      await page.locator('.monaco-editor .view-lines').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Enter');
      await page.keyboard.type('// ');
      results.monaco!.push(await typeAndMeasure(page, cdp));
      await page.getByTestId('mode-debug').click();
      await page.getByTestId('timeline-row').first().waitFor();
      await page.getByTestId('filter-search').click();
      results.search!.push(await typeAndMeasure(page, cdp));
      await context.close();
      console.log(`run ${i + 1}/${RUNS} done`);
    }
    await browser.close();
  } finally {
    server.stop();
  }
  if (PROFILE) return;
  const base = median(results.search!.map((f) => f.cpuPerKey));
  console.log(`\n200 keys, ${RUNS} runs (medians). CPU = page main thread (TaskDuration).`);
  console.log('field          CPU/key   vs search   CPU after (2 s)   wall/key   key→frame median / p95');
  for (const [name, fs] of Object.entries(results)) {
    const cpu = median(fs.map((f) => f.cpuPerKey));
    console.log(`${name.padEnd(12)} ${cpu.toFixed(2).padStart(6)} ms ${(cpu / base).toFixed(1).padStart(8)}x ${median(fs.map((f) => f.afterMs)).toFixed(0).padStart(12)} ms ${median(fs.map((f) => f.wallPerKey)).toFixed(1).padStart(8)} ms ${median(fs.map((f) => f.frameMedian)).toFixed(1).padStart(10)} / ${median(fs.map((f) => f.frameP95)).toFixed(1)} ms`);
  }
}

await main();
