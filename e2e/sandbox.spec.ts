import { test, expect, type Page } from '@playwright/test';
import { createNodeSandbox } from '../engine/node/loadQuickJS.ts';
import { runCodeOn, type CodeRunReport } from '../engine/sandbox/runCode.ts';
import { CASE_LIMITS, caseInput, checkCase, SANDBOX_CASES, stableReport } from '../test/shared/sandboxCases.ts';
import type { HookwireDevtools } from '../web/devtools.ts';

// The browser runner of the shared sandbox cases (the Node runner is test/engine/sandbox/sharedCases.test.ts),
// against the built app's sandbox in Chromium, through the `hookwire` test handle (web/devtools.ts).

declare global {
  // eslint-disable-next-line no-var
  var hookwire: HookwireDevtools;
}

async function openApp(page: Page): Promise<void> {
  await page.goto('/');
  await page.waitForFunction(() => typeof globalThis.hookwire?.sandbox?.runCase === 'function');
}

test('[S10] every shared case gives the same report in Chromium as in Node', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page);
  const node = await createNodeSandbox();
  const problems: string[] = [];
  for (const c of SANDBOX_CASES) {
    const inputs = c.inputs ?? [caseInput()];
    const limits = c.limits ?? CASE_LIMITS;
    // JSON text both ways: Playwright's own serialization would turn a "__proto__" key into a prototype.
    const text = await page.evaluate(async (args: string) => {
      const [spec, ins, lim] = JSON.parse(args) as Parameters<HookwireDevtools['sandbox']['runCase']>;
      return JSON.stringify(await globalThis.hookwire.sandbox.runCase(spec, ins, lim));
    }, JSON.stringify([c.spec, inputs, limits]));
    const inBrowser = JSON.parse(text) as CodeRunReport[];
    const inNode = runCodeOn(node, c.spec, inputs, limits);
    problems.push(...checkCase(c, inBrowser).map((p) => `${c.name} (Chromium): ${p}`));
    const a = JSON.stringify(inBrowser.map(stableReport));
    const b = JSON.stringify(inNode.map(stableReport));
    if (a !== b) problems.push(`${c.name}: Chromium and Node disagree\n  Chromium: ${a}\n  Node:     ${b}`);
  }
  node.dispose();
  expect(problems).toEqual([]);
});

test('[S10] the tab stays responsive while a handler loops in the sandbox worker', async ({ page }) => {
  await openApp(page);
  // A heartbeat on the page's own thread, and a handler that loops for 6 s in the worker (fuel to spare: the
  // wall-clock net of 6 s stops it [S13]).
  await page.evaluate(() => {
    const w = globalThis as typeof globalThis & { beats: number; settled: boolean; result: unknown };
    w.beats = 0;
    w.settled = false;
    setInterval(() => w.beats++, 20);
    const spec = { source: 'export default () => {\n  for (;;) {}\n};', language: 'js' as const, role: 'handler' as const };
    const input = { event: { type: 'tool.before_call', event_id: 'e', trace_id: 't', agent_id: 'a', ts: '' }, payload: {}, state: {}, meta: {}, now: 0 };
    void globalThis.hookwire.sandbox.runCaseInWorker(spec, [input], { timeoutMs: 6000, memoryBytes: 32 * 1024 * 1024, fuel: 1_000_000_000 }).then((r) => {
      w.result = r;
      w.settled = true;
    });
  });
  const beats = () => page.evaluate(() => (globalThis as typeof globalThis & { beats: number }).beats);
  const settled = () => page.evaluate(() => (globalThis as typeof globalThis & { settled: boolean }).settled);
  // While the loop runs, the page keeps answering: evaluate returns and the heartbeat keeps beating.
  const first = await beats();
  await expect.poll(beats).toBeGreaterThan(first + 10);
  expect(await settled()).toBe(false);
  // The renderer paints frames too: a screenshot needs one.
  await page.screenshot({ path: test.info().outputPath('page-while-handler-loops.png') });
  await expect(page.getByTestId('app-root')).toBeVisible();
  await expect.poll(beats).toBeGreaterThan(first + 20);
  expect(await settled()).toBe(false);
  // Then the loop ends with a timeout error: the wall-clock safety net.
  await expect.poll(settled, { timeout: 20_000 }).toBe(true);
  const result = await page.evaluate(() => (globalThis as typeof globalThis & { result: CodeRunReport[] }).result);
  expect(result).toMatchObject([{ ok: false, stage: 'call', error: { kind: 'timeout' } }]);
  expect(result[0]!.ok === false && result[0]!.error.message).toContain('wall-clock safety net of 6000 ms');
});

test('[S9] a worker that stops answering is terminated, and the next run gets a fresh one', async ({ page }) => {
  await openApp(page);
  const inWorker = async (source: string, limits: { timeoutMs: number; memoryBytes: number; fuel?: number }, watchdogMs?: number) => {
    const text = await page.evaluate(async (args: string) => {
      const [spec, input, lim, dog] = JSON.parse(args) as [Parameters<HookwireDevtools['sandbox']['runCase']>[0], object, { timeoutMs: number; memoryBytes: number; fuel?: number }, number | null];
      const options = dog === null ? {} : { watchdogMs: dog };
      return JSON.stringify(await globalThis.hookwire.sandbox.runCaseInWorker(spec, [input as never], lim, options));
    }, JSON.stringify([{ source, language: 'js', role: 'handler' }, caseInput(), limits, watchdogMs ?? null]));
    return JSON.parse(text) as CodeRunReport[];
  };
  // The sandbox's own limits are far away (60 s, fuel to spare); the page's watchdog (1 s) fires first.
  const stuck = await inWorker('export default () => { for (;;) {} };', { timeoutMs: 60_000, memoryBytes: 32 * 1024 * 1024, fuel: 1_000_000_000 }, 1000);
  expect(stuck).toMatchObject([{ ok: false, error: { kind: 'host', message: 'the sandbox worker did not answer within 1000 ms and was restarted' } }]);
  const after = await inWorker('export default () => block("after restart")', { timeoutMs: 5000, memoryBytes: 32 * 1024 * 1024 });
  expect(after).toMatchObject([{ ok: true, outcome: { decision: 'block_action', reason: 'after restart' } }]);
  expect(await page.evaluate(() => globalThis.hookwire.sandbox.workers())).toBe(2);
});

test('[S9][S12] twelve host failures in a row of calls in Chromium: each fails with host, every call after it runs normally', async ({ page }) => {
  await openApp(page);
  // A QuickJS stack larger than the thread's own: recursion as deep as the input asks is a real host failure.
  const spec = { source: 'function f(n) { return n <= 0 ? 0 : f(n - 1) + 1; }\nexport default (ctx) => { f(ctx.payload.depth); return block("ran " + ctx.payload.depth); };', language: 'js' as const, role: 'handler' as const, name: 'deep' };
  const inputs = Array.from({ length: 24 }, (_, i) => caseInput({ payload: { depth: i % 2 === 0 ? 1_000_000 : i } }));
  const text = await page.evaluate(async (args: string) => {
    const [s, ins] = JSON.parse(args) as [Parameters<HookwireDevtools['sandbox']['runCase']>[0], Parameters<HookwireDevtools['sandbox']['runCase']>[1]];
    return JSON.stringify(await globalThis.hookwire.sandbox.runCase(s, ins, { timeoutMs: 5000, memoryBytes: 256 * 1024 * 1024 }, { maxStackBytes: 4096 * 1024 }));
  }, JSON.stringify([spec, inputs]));
  const reports = JSON.parse(text) as CodeRunReport[];
  expect(reports).toHaveLength(24);
  reports.forEach((r, i) => {
    if (i % 2 === 0) expect(r, `call ${i}`).toMatchObject({ ok: false, error: { kind: 'host', message: expect.stringMatching(/replaced by a fresh one/) } });
    else expect(r, `call ${i}`).toMatchObject({ ok: true, outcome: { decision: 'block_action', reason: `ran ${i}` } });
  });
});
