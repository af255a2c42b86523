/**
 * Measures the replay debugger in a real Chromium with a 100,000-event trace (a script, not a test: it
 * prints numbers and asserts nothing).
 *
 *   npx tsx e2e/measure/debuggerPerf.ts            (HOOKWIRE_MEASURE_PORT, HOOKWIRE_MEASURE_EVENTS to change)
 *
 * 1. Import through the trace library's file picker: time from the file input's change to the trace opened,
 *    and events/s; beside it, the engine's own reader on the same text in Node (no storage) as the baseline.
 * 2. Replay of the whole trace in the worker: time to the complete timeline (fast pass) and to coverage
 *    (explain pass).
 * 3. Time from a step key press to the rendered explanation (goal < 50 ms): next step, next block, a far
 *    jump typed in the step field, first/last; beside it, the engine's own jump in Node as the baseline.
 * 4. Memory of the tab: JS heap of the page and of the replay worker, and the renderer process's RSS.
 */
import { startPreview } from './previewServer.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumExecutable } from '../chromium.ts';
import { compilePipeline } from '../../engine/compile/compilePipeline.ts';
import { createReplayer } from '../../engine/replay/createReplayer.ts';
import { readTrace } from '../../engine/trace/traceReader.ts';
import { traceToJsonl } from '../../engine/trace/traceToJsonl.ts';
import { demoPipeline } from '../../web/demo/demoPipeline.ts';
import { bigTrace, INSTALL_PROBE, status, timedKey as timedKeyProbe } from './debuggerProbe.ts';

// HOOKWIRE_MEASURE_APP names another checkout to build and measure with this same script (before/after).
const root = process.env.HOOKWIRE_MEASURE_APP ?? new URL('../..', import.meta.url).pathname;
const port = Number(process.env.HOOKWIRE_MEASURE_PORT ?? 4176);
const EVENTS = Number(process.env.HOOKWIRE_MEASURE_EVENTS ?? 100_000);
const outDir = `dist-measure-${port}`;
const base = `http://127.0.0.1:${port}`;

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!;
  return { median: q(0.5), p95: q(0.95), max: s[s.length - 1]!, n: s.length };
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const mb = (x: number) => `${(x / 1024 / 1024).toFixed(1)} MB`;

/** ms from a key press to the frame after the step view shows step `index` (debuggerProbe.ts). */
const timedKey = async (page: Page, keyName: string, index: number): Promise<number> => (await timedKeyProbe(page, keyName, index)).ms;


async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'hookwire-perf-'));
  const trace = bigTrace(EVENTS);
  const text = traceToJsonl(trace);
  const file = join(work, 'perf.jsonl');
  writeFileSync(file, text);
  console.log(`trace: ${EVENTS.toLocaleString('en')} events, ${mb(text.length)} (demo events repeated with fresh ids), pipeline: the demo (5 handlers)`);

  // Baselines in this process: the engine alone, no browser, no storage.
  const t0 = performance.now();
  const read = readTrace(text);
  const readMs = performance.now() - t0;
  const compiled = compilePipeline(demoPipeline());
  if (!compiled.ok) throw new Error('demo pipeline does not compile');
  const replayer = createReplayer(compiled.compiled, read.events);
  const t1 = performance.now();
  replayer.timeline();
  const fastPassMs = performance.now() - t1;
  const jumps: number[] = [];
  for (let k = 0; k < 40; k++) {
    const i = Math.floor((k * 7919 * 13) % EVENTS);
    const s = performance.now();
    replayer.jump(i);
    jumps.push(performance.now() - s);
  }

  const server = await startPreview(root, port, outDir);
  try {
    const executablePath = chromiumExecutable();
    const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--enable-precise-memory-info'] });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(base);
    await page.getByTestId('node-ev-tool-before').waitFor();
    await page.getByTestId('mode-debug').click();
    await page.getByTestId('step-view').waitFor();
    await page.evaluate(INSTALL_PROBE);

    // 1. Import.
    const opened = Date.now();
    await page.getByTestId('trace-file').setInputFiles(file);
    await page.locator('[data-testid="trace-item"][aria-current="true"]', { hasText: `${EVENTS.toLocaleString('en')} events` }).waitFor({ timeout: 600_000 });
    const importMs = (await page.evaluate('performance.now() - window.__importStart')) as number;
    console.log('\n1. Import (file picker → trace opened)');
    console.log(`   app:    ${ms(importMs)}  ${Math.round(EVENTS / (importMs / 1000)).toLocaleString('en')} events/s  (${mb(text.length / (importMs / 1000))}/s; reading, validating, storing in IndexedDB, in a worker)`);
    console.log(`   engine: ${ms(readMs)}  ${Math.round(EVENTS / (readMs / 1000)).toLocaleString('en')} events/s  (readTrace in Node, no storage: baseline)`);
    console.log(`   ratio app/engine ×${(importMs / readMs).toFixed(1)}`);

    // 2. Replay passes in the worker.
    // Polled from here: the app's CSP forbids the string eval that waitForFunction would use.
    const until = async (what: 'timeline' | 'coverage') => {
      for (;;) {
        if ((await status(page))[what]) return Date.now() - opened;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const timelineMs = await until('timeline');
    const coverageMs = await until('coverage');
    console.log('\n2. Replay in the worker (wall clock from the import start, import included)');
    console.log(`   timeline complete after ${ms(timelineMs)}; coverage (explain pass) after ${ms(coverageMs)}`);
    console.log(`   engine fast pass alone in Node: ${ms(fastPassMs)} (baseline)`);

    console.log('   …measuring step latency');
    // 3. Step latency.
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    const next: number[] = [];
    let pos = (await status(page)).position;
    for (let k = 0; k < 40; k++) next.push(await timedKey(page, 'ArrowRight', ++pos));
    const far: number[] = [];
    for (let k = 0; k < 20; k++) {
      const target = Math.floor(((k + 1) * 48611) % EVENTS);
      await page.getByTestId('goto-step').fill(String(target + 1));
      far.push(await timedKey(page, 'Enter', target));
    }
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    const ends = [await timedKey(page, 'End', EVENTS - 1), await timedKey(page, 'Home', 0), await timedKey(page, 'End', EVENTS - 1), await timedKey(page, 'Home', 0)];
    const blocks: number[] = [];
    // Where the next block is, the engine in this process says (the same trace and pipeline).
    let at = 0;
    for (let k = 0; k < 10; k++) {
      at = replayer.find({ kind: 'blocked' }, { from: at });
      if (at < 0) break;
      blocks.push(await timedKey(page, 'b', at));
    }
    console.log('\n3. Key press → explanation rendered (goal < 50 ms)');
    for (const [name, xs] of [['next step (→)', next], ['jump typed in the step field', far], ['first / last (Home/End)', ends], ['next block (B)', blocks]] as const) {
      const s = stats(xs);
      console.log(`   ${name.padEnd(30)} median ${ms(s.median).padStart(9)}  p95 ${ms(s.p95).padStart(9)}  max ${ms(s.max).padStart(9)}  (n=${s.n})  ${s.p95 < 50 ? 'goal met' : 'goal NOT met at p95'}`);
    }
    const worker = (await page.evaluate(`performance.getEntriesByName('hookwire:step-worker').map((e) => e.duration)`)) as number[];
    const ws = stats(worker.slice(-74));
    console.log(`   of which request → answer on the page (worker, IndexedDB, engine, and the page drawing the move meanwhile)  median ${ms(ws.median)}  p95 ${ms(ws.p95)}`);
    const js = stats(jumps);
    console.log(`   engine jump in Node (baseline)  median ${ms(js.median).padStart(9)}  p95 ${ms(js.p95).padStart(9)}; ratio app far jump / engine jump ×${(stats(far).median / js.median).toFixed(1)}`);

    // 4. Memory.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    const metrics = (await cdp.send('Performance.getMetrics')).metrics;
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    const workers = await Promise.all(page.workers().map(async (w) => ({ url: w.url(), heap: (await w.evaluate('self.performance && performance.memory ? performance.memory.usedJSHeapSize : -1')) as number })));
    const bcdp = await browser.newBrowserCDPSession();
    const info = (await bcdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
    const rss = info.processInfo
      .filter((p) => p.type === 'renderer')
      .map((p) => {
        const f = `/proc/${p.id}/status`;
        const m = existsSync(f) ? /VmRSS:\s+(\d+) kB/.exec(readFileSync(f, 'utf8')) : null;
        return m ? Number(m[1]) * 1024 : -1;
      });
    console.log('\n4. Memory of the tab (after a garbage collection)');
    console.log(`   page JS heap ${mb(heap)} (the trace file is ${mb(text.length)}: events stay in IndexedDB)`);
    for (const w of workers) console.log(`   worker ${w.url.split('/').pop()?.split('?')[0]} JS heap ${w.heap >= 0 ? mb(w.heap) : 'not reported'}`);
    const sorted = [...rss].sort((a, b) => b - a);
    console.log(`   renderer processes' RSS: ${sorted.map((r) => (r >= 0 ? mb(r) : 'unknown')).join(', ')} (the largest is the app's tab with its workers; the others are Chromium's spare renderers)`);
    await page.screenshot({ path: join(process.env.HOOKWIRE_SCREENS ?? join(tmpdir(), 'hookwire-screens'), 'debugger-100k.png') });
    await browser.close();
  } finally {
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
