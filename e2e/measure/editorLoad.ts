/**
 * Measures the editor in a real Chromium (a script, not a test: it prints numbers and asserts nothing).
 *
 *   npx tsx e2e/measure/editorLoad.ts
 *
 * 1. Initial load: every JavaScript file the browser fetched before the first canvas node was interactive,
 *    with its gzipped size (gzip -9 of the built file), against the 400 KB goal; Monaco must not be among them.
 * 2. A 300-node / 400-wire pipeline, imported through the app's own Import dialog: time until every node is
 *    rendered and measured, then time for "fit view"; side by side with the 13-node demo as the baseline.
 */
import { startPreview } from './previewServer.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { chromiumExecutable } from '../chromium.ts';
import { bigPipeline } from './bigPipeline.ts';
import { exportPipelineText } from '../../web/model/exportPipeline.ts';
import { demoPipeline } from '../../web/demo/demoPipeline.ts';

const root = new URL('../..', import.meta.url).pathname;
const port = Number(process.env.HOOKWIRE_MEASURE_PORT ?? 4175);
const outDir = `dist-measure-${port}`;
const base = `http://127.0.0.1:${port}`;

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}


/** Imports pipeline text through the Import dialog; returns ms from the click to all nodes rendered. */
async function importAndRender(page: Page, text: string, nodes: number): Promise<{ render: number; fit: number }> {
  await page.getByTestId('open-import').click();
  await page.getByTestId('import-file').setInputFiles({ name: 'pipeline.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.getByTestId('import-ok').waitFor();
  // Page code goes as text: tsx would add helpers (__name) to functions that the page does not have.
  const render = (await page.evaluate(`(async () => {
    const t0 = performance.now();
    document.querySelector('[data-testid="import-confirm"]').click();
    await new Promise((resolve) => {
      const check = () => {
        const shown = document.querySelectorAll('.react-flow__node');
        const ready = shown.length === ${nodes} && [...shown].every((n) => n.style.visibility !== 'hidden');
        if (ready) resolve(); else requestAnimationFrame(check);
      };
      check();
    });
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t0;
  })()`)) as number;
  const fit = (await page.evaluate(`(async () => {
    const t0 = performance.now();
    document.querySelector('.react-flow__controls-fitview').click();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t0;
  })()`)) as number;
  return { render, fit };
}

async function main(): Promise<void> {
  const server = await startPreview(root, port, outDir);
  try {
    const executablePath = chromiumExecutable();
    const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const scripts: string[] = [];
    page.on('response', (r) => {
      const url = new URL(r.url());
      if (url.origin === base && url.pathname.endsWith('.js')) scripts.push(url.pathname);
    });

    const t0 = Date.now();
    await page.goto(base);
    await page.getByTestId('node-ev-tool-before').waitFor();
    const interactiveMs = Date.now() - t0;
    const before = [...new Set(scripts)];
    let total = 0;
    console.log('\n1. JavaScript fetched before the canvas was interactive');
    for (const path of before) {
      const bytes = readFileSync(join(root, outDir, path));
      const gz = gzipSync(bytes, { level: 9 }).length;
      total += gz;
      console.log(`   ${path.padEnd(48)} ${kb(bytes.length).padStart(10)} raw ${kb(gz).padStart(10)} gzip`);
    }
    const monaco = before.some((p) => /Monaco|editor\.api/.test(p));
    console.log(`   total ${kb(total)} gzipped (goal < 400 KB: ${total < 400 * 1024 ? 'met' : 'NOT met'}); Monaco in it: ${monaco ? 'yes' : 'no'}; first node after ${interactiveMs} ms`);

    console.log('\n2. Render and fit view, imported through the Import dialog (median of 3 runs each)');
    const cases = [
      { name: 'demo (baseline)', text: exportPipelineText(demoPipeline(), { layout: true }), nodes: 13, wires: 9 },
      { name: 'big', text: exportPipelineText(bigPipeline(), { layout: true }), nodes: 300, wires: 400 },
    ];
    const results: { render: number; fit: number }[] = [];
    for (const c of cases) {
      const runs: { render: number; fit: number }[] = [];
      for (let i = 0; i < 3; i++) runs.push(await importAndRender(page, c.text, c.nodes));
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[1] as number;
      const r = { render: median(runs.map((x) => x.render)), fit: median(runs.map((x) => x.fit)) };
      results.push(r);
      console.log(`   ${c.name.padEnd(16)} ${String(c.nodes).padStart(4)} nodes ${String(c.wires).padStart(4)} wires   render ${r.render.toFixed(0).padStart(5)} ms   fit view ${r.fit.toFixed(1).padStart(6)} ms`);
    }
    const [demo, big] = results as [{ render: number; fit: number }, { render: number; fit: number }];
    console.log(`   ratio big/demo: render ×${(big.render / demo.render).toFixed(1)}, fit view ×${(big.fit / demo.fit).toFixed(1)}`);
    await browser.close();
  } finally {
    server.stop();
  }
}

await main();
