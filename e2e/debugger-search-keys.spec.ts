import { test, expect, type Page } from '@playwright/test';
import { compilePipeline } from '../engine/compile/compilePipeline.ts';
import { createReplayer } from '../engine/replay/createReplayer.ts';
import { traceToJsonl } from '../engine/trace/traceToJsonl.ts';
import { demoPipeline } from '../web/demo/demoPipeline.ts';
import { key, stepView, openDebugger } from './debuggerHelpers.ts';
import { shot } from './editorHelpers.ts';
import { calmTrace, FAR_EVENTS } from './farTrace.ts';

// The other long searches of the debugger on a 100,000-event trace, as "next breakpoint" (debugger-search.spec.ts):
// B / D (next blocked step, next divergence) pressed while the trace is still replaying search from the step in
// the replay worker and answer at the first match [R11]; the payload search of the timeline filter [R20] looks a
// chunk at a time. Both say how far they have looked, and Cancel or Escape stops them, leaving the step, the
// filter and the timeline as they were. Where they land is the engine's answer, computed here in Node.

const searching = (page: Page) => page.getByTestId('search-status');
const filterStatus = (page: Page) => page.getByTestId('filter-status');
const position = async (page: Page) => ((await page.evaluate('globalThis.hookwire.debugger.status()')) as { position: number }).position;

test('B, D and the payload search on a 100,000-event trace: progress, Cancel and Escape leave things as they were, and the answers are the engine\'s', async ({ page }) => {
  test.setTimeout(600_000);
  const trace = calmTrace();
  const c = compilePipeline(demoPipeline());
  if (!c.ok) throw new Error('the demo pipeline does not compile');
  const engine = createReplayer(c.compiled, trace.events);
  const firstBlock = engine.find({ kind: 'blocked' }, { from: 0 });
  const firstDivergence = engine.find({ kind: 'divergent' }, { from: 0 });
  // Both are in the demo at the end: a search from the first step looks at almost every step.
  expect(firstBlock).toBeGreaterThan(FAR_EVENTS - 30);
  expect(firstDivergence).toBeGreaterThan(FAR_EVENTS - 30);
  const withSecret = trace.events.filter((e) => JSON.stringify(e.payload).toLowerCase().includes('sk-proj')).length;

  await openDebugger(page);
  await page.getByTestId('trace-file').setInputFiles({ name: 'calm.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(traceToJsonl(trace)) });
  await expect(page.locator('[data-testid="trace-item"][aria-current="true"]', { hasText: '100,000 events' })).toBeVisible({ timeout: 400_000 });
  await expect(stepView(page, 0)).toBeVisible({ timeout: 60_000 });

  // At once, while the trace replays: the filter "Redact secrets fired" needs the explain pass, which the worker runs
  // a chunk at a time for it; how far it has looked shows in the filter bar, and Cancel (a click) leaves the filter
  // as it was (none: every step shows).
  await page.getByTestId('filter-handler').focus();
  await page.keyboard.type('Redact');
  await expect(filterStatus(page)).toHaveText(/^Filter: Searching… \d+% of 100,000 steps$/, { timeout: 30_000 });
  await shot(page, 'debugger-filter-progress-1440');
  await page.getByTestId('filter-cancel').click();
  await expect(filterStatus(page)).toHaveText('');
  await expect(page.getByTestId('filter-handler')).toHaveValue('');
  await expect(page.getByTestId('filter-count')).toHaveCount(0);

  // D searches from the step, and Cancel (a click) stops it on step 1.
  await key(page, 'd');
  await expect(searching(page)).toHaveText(/^Next divergence: Searching… [\d,]+ of 100,000 steps$/, { timeout: 30_000 });
  await page.getByTestId('search-cancel').click();
  await expect(searching(page)).toHaveText('');
  await expect(page.getByTestId('search-cancel')).toHaveCount(0);
  await expect(stepView(page, 0)).toBeVisible();
  expect(await position(page)).toBe(0);

  // B: the same with Escape.
  await key(page, 'b');
  await expect(searching(page)).toHaveText(/^Next blocked step: Searching… [\d,]+ of 100,000 steps$/, { timeout: 30_000 });
  await shot(page, 'debugger-search-block-progress-1440');
  await page.keyboard.press('Escape');
  await expect(searching(page)).toHaveText('');
  await expect(stepView(page, 0)).toBeVisible();
  expect(await position(page)).toBe(0);

  // B left to run: the engine's first blocked step; Shift+B from the last step: the engine's previous one.
  await key(page, 'b');
  await expect(stepView(page, firstBlock)).toBeVisible({ timeout: 120_000 });
  await expect(searching(page)).toHaveText('');
  await key(page, 'End');
  await expect(stepView(page, FAR_EVENTS - 1)).toBeVisible({ timeout: 60_000 });
  await key(page, 'Shift+B');
  await expect(stepView(page, engine.find({ kind: 'blocked' }, { from: FAR_EVENTS - 1, direction: 'backward' }))).toBeVisible({ timeout: 30_000 });
  await key(page, 'Home');
  await expect(stepView(page, 0)).toBeVisible();
  await key(page, 'd');
  await expect(stepView(page, firstDivergence)).toBeVisible({ timeout: 120_000 });

  // The payload search, typed: Escape in the field stops it, and the filter is as it was (none: the field empties).
  const box = page.getByTestId('filter-search');
  await box.click();
  await page.keyboard.type('sk-proj');
  await expect(filterStatus(page)).toHaveText(/^Filter: Searching… \d+% of 100,000 steps$/, { timeout: 30_000 });
  await page.keyboard.press('Escape');
  await expect(filterStatus(page)).toHaveText('');
  await expect(box).toHaveValue('');
  await expect(page.getByTestId('filter-count')).toHaveCount(0);
  await expect(stepView(page, firstDivergence)).toBeVisible();

  // Left to run: the engine's count.
  await page.keyboard.type('sk-proj');
  await expect(page.getByTestId('filter-count')).toHaveText(`${withSecret.toLocaleString('en')} of 100,000`, { timeout: 120_000 });
  await expect(filterStatus(page)).toHaveText('');
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'debugger-filter-done-1280');
});
