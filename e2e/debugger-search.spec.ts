import { test, expect, type Page } from '@playwright/test';
import { compilePipeline } from '../engine/compile/compilePipeline.ts';
import { compileBreakpoint, nextStop, type BreakpointSpec } from '../engine/replay/breakpoint.ts';
import { createReplayer } from '../engine/replay/createReplayer.ts';
import { traceToJsonl } from '../engine/trace/traceToJsonl.ts';
import type { Trace } from '../engine/trace/traceTypes.ts';
import { demoPipeline } from '../web/demo/demoPipeline.ts';
import { key, stepView, openDebugger, typeStep } from './debuggerHelpers.ts';
import { farTrace, FAR_EVENTS } from './farTrace.ts';
import { shot } from './editorHelpers.ts';

// "Next breakpoint" (C) on a 100,000-event trace: the replay worker searches from the step and answers at the
// first stop; while it looks, the debugger says how far it has got, and Cancel or Escape stops it on the step it
// was on. Where it stops is the engine's answer [R18], computed here in Node on the same trace.

const EVENTS = FAR_EVENTS;

/** The engine's next stop after `from` of each spec, over the same trace and pipeline, in this process. */
function engineStops(trace: Trace, specs: BreakpointSpec[]): (from: number) => number {
  const c = compilePipeline(demoPipeline());
  if (!c.ok) throw new Error('the demo pipeline does not compile');
  const replayer = createReplayer(c.compiled, trace.events);
  const all = specs.map((spec) => {
    const b = compileBreakpoint(c.compiled, spec);
    if (!b.ok) throw new Error(JSON.stringify(b.problems));
    return replayer.breakpointSteps(b.breakpoint);
  });
  return (from) => Math.min(...all.map((s) => nextStop(s, from)).map((x) => (x < 0 ? Infinity : x)));
}

/** F9 on a node, as a person selects it on the canvas and presses the key. */
async function breakOn(page: Page, nodeId: string, toast: string): Promise<void> {
  await page.getByTestId('fit-view').click();
  await page.getByTestId(`node-${nodeId}`).click();
  await key(page, 'F9');
  await expect(page.getByTestId('toast').filter({ hasText: toast })).toBeVisible();
}

const searching = (page: Page) => page.getByTestId('search-status');

test('C on a 100,000-event trace: the stop is the engine\'s, progress shows while it searches, Cancel and Escape leave the step', async ({ page }) => {
  // An import of 100,000 events and a replay of them in the worker: minutes at a load of 20 on two cores.
  test.setTimeout(600_000);
  const trace = farTrace();
  const dangerous: BreakpointSpec = { node: { id: 'm-dangerous-tools', on: 'matches' } };
  const firstDangerous = engineStops(trace, [dangerous]);
  // The search from the first step has to look at almost every step before it can answer.
  expect(firstDangerous(0)).toBeGreaterThan(EVENTS - 30);

  await openDebugger(page);
  await page.getByTestId('trace-file').setInputFiles({ name: 'far.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(traceToJsonl(trace)) });
  await expect(page.locator('[data-testid="trace-item"][aria-current="true"]', { hasText: '100,000 events' })).toBeVisible({ timeout: 400_000 });
  await expect(stepView(page, 0)).toBeVisible({ timeout: 60_000 });
  // Nothing searches yet: the live region is there, and silent.
  await expect(searching(page)).toHaveText('');

  await breakOn(page, 'm-dangerous-tools', 'Breakpoint added: “Dangerous tools” matches.');
  await key(page, 'Home');
  await expect(stepView(page, 0)).toBeVisible();

  // C, then Cancel (a click): the progress named the steps looked at; the debugger stays on step 1.
  await page.keyboard.press('c');
  await expect(searching(page)).toHaveText(/^Next breakpoint: Searching… [\d,]+ of 100,000 steps$/, { timeout: 30_000 });
  await expect(page.getByTestId('search-cancel')).toBeVisible();
  await shot(page, 'debugger-search-progress-1440');
  await page.getByTestId('search-cancel').click();
  await expect(searching(page)).toHaveText('');
  await expect(page.getByTestId('search-cancel')).toHaveCount(0);
  await expect(stepView(page, 0)).toBeVisible();
  await expect(page.getByTestId('paused-at')).toHaveCount(0);
  expect(((await page.evaluate('globalThis.hookwire.debugger.status()')) as { position: number }).position).toBe(0);

  // C, then Escape: the same.
  await key(page, 'c');
  await expect(searching(page)).toHaveText(/^Next breakpoint: Searching… [\d,]+ of 100,000 steps$/, { timeout: 30_000 });
  await page.keyboard.press('Escape');
  await expect(searching(page)).toHaveText('');
  await expect(stepView(page, 0)).toBeVisible();
  await expect(page.getByTestId('paused-at')).toHaveCount(0);

  // C, left to run: it stops where the engine says, near the end of the trace.
  await key(page, 'c');
  await expect(stepView(page, firstDangerous(0))).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('paused-at')).toHaveText(`Paused at step ${(firstDangerous(0) + 1).toLocaleString('en')}: “Dangerous tools” matches`);
  await expect(searching(page)).toHaveText('');

  // A second breakpoint with stops all along: from the middle of the trace, C stops at the first of either.
  const both = engineStops(trace, [dangerous, { node: { id: 'h-redact-secrets', on: 'fires' } }]);
  await breakOn(page, 'h-redact-secrets', 'Breakpoint added: “Redact secrets” fires.');
  await typeStep(page, 49_999);
  await key(page, 'c');
  await expect(stepView(page, both(49_999))).toBeVisible({ timeout: 60_000 });
  await key(page, 'c');
  await expect(stepView(page, both(both(49_999)))).toBeVisible({ timeout: 60_000 });
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'debugger-search-stopped-1280');
});
