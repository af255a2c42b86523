/**
 * Where the page's main thread spends an import of many small files (a script: it prints, asserts nothing).
 *
 *   npx tsx e2e/measure/importProfile.ts   (HOOKWIRE_PROFILE_PICK, HOOKWIRE_MEASURE_PORT, HOOKWIRE_MEASURE_TRACES, HOOKWIRE_MEASURE_EVENTS,
 *                                           HOOKWIRE_MEASURE_APP names another checkout)
 *
 * The app is built unminified (names in the profile), the files go through the trace library's picker, and a
 * DevTools CPU profile of the page's main thread is taken until the library lists them all; the functions with
 * the most self time and the heaviest bottom-up callers are printed.
 */
import { chromium } from '@playwright/test';
import { chromiumExecutable } from '../chromium.ts';
import { sessionFiles } from '../../test/bench/benchTrace.ts';
import { startPreview } from './previewServer.ts';

const root = process.env.HOOKWIRE_MEASURE_APP ?? new URL('../..', import.meta.url).pathname;
const port = Number(process.env.HOOKWIRE_MEASURE_PORT ?? 4182);
const TRACES = Number(process.env.HOOKWIRE_MEASURE_TRACES ?? 200);
const EVENTS = Number(process.env.HOOKWIRE_MEASURE_EVENTS ?? 400);

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

async function main(): Promise<void> {
  const files = await sessionFiles(TRACES, EVENTS);
  const server = await startPreview(root, port, `dist-measure-${port}`, ['--minify', 'false']);
  const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const cdp = await page.context().newCDPSession(page);
    await page.goto(server.base);
    await page.getByTestId('node-ev-tool-before').waitFor();
    await page.getByTestId('mode-debug').click();
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
    await cdp.send('Profiler.start');
    const t0 = performance.now();
    await page.getByTestId('trace-file').setInputFiles(files);
    // HOOKWIRE_PROFILE_PICK=1: only the hand-over of the files and the input's change handler.
    if (!process.env.HOOKWIRE_PROFILE_PICK) await page.waitForFunction((n) => document.querySelector('[data-testid="trace-library"]')?.getAttribute('data-count') === String(n) || document.querySelectorAll('[data-testid="trace-item"]').length >= n, TRACES + 1, { timeout: 900_000, polling: 500 });
    const ms = performance.now() - t0;
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    console.log(`import of ${TRACES} files: ${(ms / 1000).toFixed(1)} s`);
    report(profile);
  } finally {
    await browser.close();
    server.stop();
  }
}

function report(p: Profile): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const name = (n: ProfileNode) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
  const selfBy = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    const n = byId.get(id)!;
    selfBy.set(name(n), (selfBy.get(name(n)) ?? 0) + t);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = name(byId.get(at)!);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + t);
    }
  }
  const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, t]) => `  ${t.toFixed(0).padStart(7)} ms  ${n}`).join('\n');
  console.log(`self time:\n${top(selfBy, 30)}\ninclusive time:\n${top(inclusive, 50)}`);
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
