/**
 * Measures "continue to the next breakpoint hit" (C) in a real Chromium on a 100,000-event trace (a script, not
 * a test: it prints numbers and asserts nothing).
 *
 *   npx tsx e2e/measure/breakpointPerf.ts       (HOOKWIRE_MEASURE_PORT, HOOKWIRE_MEASURE_EVENTS to change)
 *
 * The trace is imported through the file picker and replayed whole (timeline and coverage). Then, for each node
 * of the demo, as a person would: the node is clicked on the canvas, F9 adds a breakpoint on it (a new search),
 * Home goes to the first step and C is pressed at once. Printed per breakpoint: ms from C's keydown to the
 * frame after the step view shows the stop the engine in this process names; the main thread's long tasks (>50
 * ms) and its longest gap between animation frames in that time; then C pressed again (the answer known). The
 * same search by the engine alone in Node is the baseline.
 *
 *   npx tsx e2e/measure/breakpointPerf.ts --searches [--base <worktree>]
 *
 * measures the other long searches instead, on a trace where nothing blocks or differs until its last steps
 * (e2e/farTrace.ts calmTrace): B and D pressed as soon as the trace shows its first step (the replay still running),
 * Shift+B from the last step, and the payload search typed into the filter ('sk-proj': from the last key to the
 * count shown), once while the replay runs and once after it. With `--base`, the app of that worktree (built with
 * `npm run prepare`) is a contender too, measured in turn with this one in each round, in one browser: before/after
 * numbers of one run. `--near` (nearTrace): B and D from the first step, whose match is at step 12. Each page is reloaded (so it replays again) before each measure and left to finish its replay
 * after it, so the other page is idle while one is measured.
 */
import { startPreview, type PreviewServer } from './previewServer.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumExecutable } from '../chromium.ts';
import { compilePipeline } from '../../engine/compile/compilePipeline.ts';
import { compileBreakpoint, nextStop, type BreakpointSpec } from '../../engine/replay/breakpoint.ts';
import { createReplayer } from '../../engine/replay/createReplayer.ts';
import { traceToJsonl } from '../../engine/trace/traceToJsonl.ts';
import { demoPipeline } from '../../web/demo/demoPipeline.ts';
import { bigTrace, INSTALL_PROBE, status, timedKey, type KeyTiming } from './debuggerProbe.ts';
import { calmTrace, nearTrace } from '../farTrace.ts';

const root = process.env.HOOKWIRE_MEASURE_APP ?? new URL('../..', import.meta.url).pathname;
const port = Number(process.env.HOOKWIRE_MEASURE_PORT ?? 4176);
const EVENTS = Number(process.env.HOOKWIRE_MEASURE_EVENTS ?? 100_000);
const outDir = `dist-measure-${port}`;
const base = `http://127.0.0.1:${port}`;

/** The breakpoints F9 makes on the demo's nodes: a handler fires, a matcher matches. */
const NODES: { id: string; spec: BreakpointSpec }[] = [
  { id: 'h-token-budget', spec: { node: { id: 'h-token-budget', on: 'fires' } } },
  { id: 'h-redact-secrets', spec: { node: { id: 'h-redact-secrets', on: 'fires' } } },
  { id: 'h-block-destructive', spec: { node: { id: 'h-block-destructive', on: 'fires' } } },
  { id: 'm-dangerous-tools', spec: { node: { id: 'm-dangerous-tools', on: 'matches' } } },
  { id: 'm-prompt-injection', spec: { node: { id: 'm-prompt-injection', on: 'matches' } } },
];

const ms = (x: number) => `${x.toFixed(0)} ms`.padStart(8);

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? null : (process.argv[i + 1] ?? null);
};

async function main(): Promise<void> {
  if (process.argv.includes('--searches')) return searches();
  const work = mkdtempSync(join(tmpdir(), 'hookwire-bp-'));
  const trace = bigTrace(EVENTS);
  const file = join(work, 'perf.jsonl');
  writeFileSync(file, traceToJsonl(trace));
  console.log(`trace: ${EVENTS.toLocaleString('en')} events (the demo's 22 repeated), pipeline: the demo`);

  // The engine alone in this process: where each breakpoint stops, and how long its whole search takes.
  const compiled = compilePipeline(demoPipeline());
  if (!compiled.ok) throw new Error('demo pipeline does not compile');
  const replayer = createReplayer(compiled.compiled, trace.events);
  replayer.timeline();
  replayer.coverage();
  const engine = new Map<string, { first: number; stops: number; ms: number }>();
  for (const n of NODES) {
    const b = compileBreakpoint(compiled.compiled, n.spec);
    if (!b.ok) throw new Error(JSON.stringify(b.problems));
    const t0 = performance.now();
    const stops = replayer.breakpointSteps(b.breakpoint);
    engine.set(n.id, { first: nextStop(stops, 0), stops: stops.length, ms: performance.now() - t0 });
  }

  const server = await startPreview(root, port, outDir);
  try {
    const executablePath = chromiumExecutable();
    const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(base);
    await page.getByTestId('node-ev-tool-before').waitFor();
    await page.getByTestId('mode-debug').click();
    await page.getByTestId('step-view').waitFor();
    await page.evaluate(INSTALL_PROBE);
    await page.getByTestId('trace-file').setInputFiles(file);
    await page.locator('[data-testid="trace-item"][aria-current="true"]', { hasText: `${EVENTS.toLocaleString('en')} events` }).waitFor({ timeout: 600_000 });
    for (;;) {
      if ((await status(page)).coverage) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    console.log('replayed (timeline and coverage)\n');
    console.log(`breakpoint (F9 on the node)      first stop  stops   C → stop shown   main thread: long tasks, longest, longest frame gap   C again (same)          engine search in Node`);
    for (const n of NODES) {
      const e = engine.get(n.id)!;
      await page.getByTestId('fit-view').click();
      await page.getByTestId(`node-${n.id}`).click();
      await page.evaluate('document.activeElement && document.activeElement.blur()');
      await page.keyboard.press('F9');
      await page.keyboard.press('Home');
      await page.locator('[data-testid="step-view"][data-index="0"]:not(.loading)').waitFor();
      // Every breakpoint added so far is enabled: C stops at the first stop of any of them.
      const first = Math.min(...NODES.slice(0, NODES.indexOf(n) + 1).map((m) => engine.get(m.id)!.first).filter((x) => x >= 0));
      const c = await timedKey(page, 'c', first, 120_000);
      await page.keyboard.press('Home');
      await page.locator('[data-testid="step-view"][data-index="0"]:not(.loading)').waitFor();
      const again = await timedKey(page, 'c', first);
      console.log(`${`${n.id} (${n.spec.node!.on})`.padEnd(32)} ${String(e.first + 1).padStart(10)} ${String(e.stops).padStart(6)} ${ms(c.ms)}          ${String(c.long).padStart(3)}, ${ms(c.longest)}, ${ms(c.gap)}             ${ms(again.ms)} (${again.long}, ${ms(again.longest).trim()}, ${ms(again.gap).trim()})   ${ms(e.ms)}`);
    }
    // A step asked for while a search runs: F9 on the audit log (a stop on every step, a new search), then → at
    // once, three times; the search answers between chunks of the trace, a step is answered between them.
    await page.getByTestId('fit-view').click();
    await page.getByTestId('node-h-audit-log').click();
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    await page.keyboard.press('Home');
    await page.locator('[data-testid="step-view"][data-index="0"]:not(.loading)').waitFor();
    await page.keyboard.press('F9');
    const during: string[] = [];
    for (let k = 1; k <= 3; k++) {
      const t = await timedKey(page, 'ArrowRight', k, 120_000);
      during.push(`${t.ms.toFixed(0)} ms (long tasks ${t.long}, longest ${t.longest.toFixed(0)} ms)`);
    }
    const idle = await timedKey(page, 'ArrowRight', 4, 120_000);
    console.log(`\n→ pressed right after F9 on the audit log (its search running): ${during.join(', ')}; a step after that: ${idle.ms.toFixed(0)} ms`);
    await page.screenshot({ path: join(process.env.HOOKWIRE_SCREENS ?? join(tmpdir(), 'hookwire-screens'), 'breakpoint-100k.png') });
    await browser.close();
  } finally {
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

interface Contender {
  name: string;
  page: Page;
  server: PreviewServer;
}

/** Reloads the debugger (the trace opens again and replays from scratch) and waits for its first step. */
async function reopen(page: Page): Promise<void> {
  // The trace opens again on the step it was left at: first step, so nothing is replayed ahead to show it.
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  await page.keyboard.press('Home');
  await page.locator('[data-testid="step-view"][data-index="0"]:not(.loading)').waitFor({ timeout: 120_000 });
  await new Promise((r) => setTimeout(r, 1000));
  await page.reload();
  await page.getByTestId('node-ev-tool-before').waitFor();
  await page.getByTestId('mode-debug').click();
  // The trace opens on the step it was left at: Home, as soon as a step shows.
  await page.locator('[data-testid="step-view"]:not(.loading)').waitFor({ timeout: 120_000 });
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  await page.keyboard.press('Home');
  await page.locator('[data-testid="step-view"][data-index="0"]:not(.loading)').waitFor({ timeout: 120_000 });
  await page.evaluate(INSTALL_PROBE);
}

async function replayDone(page: Page): Promise<void> {
  while (!(await status(page)).coverage) await new Promise((r) => setTimeout(r, 100));
}

/** Types `text` into the payload search and times its last key to the count the engine gives. */
async function timedFilter(page: Page, text: string, count: string): Promise<KeyTiming> {
  await page.getByTestId('filter-search').focus();
  await page.keyboard.type(text.slice(0, -1));
  await page.evaluate(`(() => { window.__probe.done = new Promise((resolve) => {
    const ready = () => document.querySelector('[data-testid="filter-count"]')?.textContent === ${JSON.stringify(count)};
    setTimeout(() => resolve(-1), 120000);
    const obs = new MutationObserver(() => { if (ready()) { obs.disconnect(); requestAnimationFrame(() => resolve(performance.now() - window.__probe.t0)); } });
    obs.observe(document.body, { subtree: true, childList: true, characterData: true });
  }); })()`);
  await page.keyboard.press(text.slice(-1));
  const t = (await page.evaluate('window.__probe.done')) as number;
  if (t < 0) throw new Error(`the filter did not show ${count}`);
  const [long, longest, gap] = (await page.evaluate(`(() => {
    const p = window.__probe, from = p.t0, to = p.t0 + ${t};
    const long = p.long.filter(([s]) => s >= from && s <= to);
    const gaps = p.gaps.filter(([s]) => s >= from && s <= to).map(([, g]) => g);
    return [long.length, Math.max(0, ...long.map(([, d]) => d)), Math.max(0, ...gaps)];
  })()`)) as [number, number, number];
  await page.getByTestId('filter-clear').focus();
  await page.keyboard.press('Enter');
  return { ms: t, long, longest, gap };
}

async function searches(): Promise<void> {
  const ROUNDS = Number(arg('--rounds') ?? 2);
  const work = mkdtempSync(join(tmpdir(), 'hookwire-search-'));
  // --near: the demo at the start too, so B and D from the first step match at step 12 (then far, from there).
  const near = process.argv.includes('--near');
  const trace = near ? nearTrace() : calmTrace();
  const file = join(work, 'calm.jsonl');
  writeFileSync(file, traceToJsonl(trace));
  const compiled = compilePipeline(demoPipeline());
  if (!compiled.ok) throw new Error('demo pipeline does not compile');
  const engine = createReplayer(compiled.compiled, trace.events);
  const last = trace.events.length - 1;
  const firstBlock = engine.find({ kind: 'blocked' }, { from: 0 });
  const firstDivergence = engine.find({ kind: 'divergent' }, { from: 0 });
  const prevBlock = engine.find({ kind: 'blocked' }, { from: last, direction: 'backward' });
  const secrets = trace.events.filter((e) => JSON.stringify(e.payload).toLowerCase().includes('sk-proj')).length;
  const count = `${secrets.toLocaleString('en')} of ${trace.events.length.toLocaleString('en')}`;
  console.log(`trace: ${trace.events.length.toLocaleString('en')} events (${near ? 'nearTrace' : 'calmTrace'}), first block ${firstBlock + 1}, first divergence ${firstDivergence + 1}, previous block from the last step ${prevBlock + 1}, 'sk-proj' in ${secrets}`);
  const apps: [string, string][] = [['this', root]];
  const base = arg('--base');
  if (base) apps.unshift(['base', base]);
  const executablePath = chromiumExecutable();
  const browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const contenders: Contender[] = [];
  try {
    for (const [k, [name, dir]] of apps.entries()) {
      const server = await startPreview(dir, port + k, `dist-measure-${port + k}`);
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      contenders.push({ name, page, server });
      await page.goto(server.base);
      await page.getByTestId('node-ev-tool-before').waitFor();
      await page.getByTestId('mode-debug').click();
      await page.getByTestId('step-view').waitFor();
      await page.getByTestId('trace-file').setInputFiles(file);
      await page.locator('[data-testid="trace-item"][aria-current="true"]', { hasText: '100,000 events' }).waitFor({ timeout: 600_000 });
      await replayDone(page);
      console.log(`${name}: imported and replayed`);
    }
    const fmt = (t: KeyTiming) => `${ms(t.ms)} (long tasks ${t.long}, longest ${t.longest.toFixed(0)} ms, frame gap ${t.gap.toFixed(0)} ms)`;
    const nearMeasures: [string, (page: Page) => Promise<KeyTiming>][] = [
      ['B at once (replay running), match near', async (page) => {
        await reopen(page);
        return timedKey(page, 'b', firstBlock, 120_000);
      }],
      ['D at once (replay running), match near', async (page) => {
        await reopen(page);
        return timedKey(page, 'd', firstDivergence, 120_000);
      }],
    ];
    const farMeasures: [string, (page: Page) => Promise<KeyTiming>][] = [
      ['B at once (replay running)', async (page) => {
        await reopen(page);
        return timedKey(page, 'b', firstBlock, 120_000);
      }],
      ['D at once (replay running)', async (page) => {
        await reopen(page);
        return timedKey(page, 'd', firstDivergence, 120_000);
      }],
      ['End, then Shift+B (replay running)', async (page) => {
        await reopen(page);
        await timedKey(page, 'End', last, 120_000);
        return timedKey(page, 'Shift+B', prevBlock, 120_000);
      }],
      ["'sk-proj' typed (replay running)", async (page) => {
        await reopen(page);
        return timedFilter(page, 'sk-proj', count);
      }],
      ["'sk-proj' typed (replay done)", async (page) => {
        await reopen(page);
        await replayDone(page);
        return timedFilter(page, 'sk-proj', count);
      }],
    ];
    const measures = near ? nearMeasures : farMeasures;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [what, measure] of measures) {
        for (const c of contenders) {
          const t = await measure(c.page);
          console.log(`round ${round}  ${what.padEnd(36)} ${c.name.padEnd(5)} ${fmt(t)}`);
          await replayDone(c.page);
        }
      }
    }
  } finally {
    await browser.close();
    for (const c of contenders) c.server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
