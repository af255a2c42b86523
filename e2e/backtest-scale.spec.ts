import { expect, test } from '@playwright/test';
import { sessionFiles } from '../test/bench/benchTrace.ts';

/**
 * A backtest over a team's library: 40 sessions (test/bench/benchTrace.ts, each with an `rm -rf` the demo
 * pipeline blocks), run against no pipeline. Every session differs, so the results list 40 trace groups; they
 * are drawn where the pane is scrolled to, not all at once, and the mouse wheel reaches the last.
 */
// 40 keep the imports within a test's time on a busy machine (200 took 288 s to import there); the groups drawn are
// bounded by the pane, not by the count, so 40 already tell drawing in view from drawing all.
const SESSIONS = 40;

test('a backtest over 40 sessions draws the trace groups in view and the wheel reaches the last', async ({ page }) => {
  test.setTimeout(480_000); // 40 imports and a backtest over them on a machine other sessions share
  const files = await sessionFiles(SESSIONS, 40);

  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.getByTestId('node-ev-tool-before')).toBeVisible();
  await page.getByTestId('mode-debug').click();
  await page.getByTestId('trace-file').setInputFiles(files);
  await page.getByTestId('mode-backtest').click();
  // The picker lists every trace (it draws those in view: e2e/library-scale.spec.ts).
  await expect(page.getByTestId('backtest-traces')).toHaveAttribute('data-count', String(SESSIONS + 1), { timeout: 300_000 });

  await page.getByTestId('backtest-old').selectOption('none');
  // The demo may be picked already: none, then every session shown by the filter.
  await page.getByTestId('backtest-pick-none').click();
  await page.getByTestId('backtest-trace-filter').click();
  await page.keyboard.type('session-');
  await expect(page.getByTestId('backtest-traces')).toHaveAttribute('data-count', String(SESSIONS));
  await page.getByTestId('backtest-pick-shown').click();
  await expect(page.getByTestId('backtest-picked-count')).toHaveText(`${SESSIONS} of ${SESSIONS + 1}`);
  await page.getByTestId('backtest-run').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('backtest-results')).toBeVisible({ timeout: 120_000 });

  const list = page.getByTestId('backtest-group-list');
  await expect(list).toHaveAttribute('data-count', String(SESSIONS));
  const drawn = page.getByTestId('backtest-trace-group');
  await expect(drawn.first()).toBeVisible();
  expect(await drawn.count()).toBeLessThan(SESSIONS / 2);

  // The wheel over the results, to the end: the last group is drawn and in view, and still only a few are.
  await page.getByTestId('backtest-headline').hover();
  const last = page.locator(`.bt-group-slot[data-index="${SESSIONS - 1}"]`);
  await expect.poll(async () => {
    await page.mouse.wheel(0, 5000);
    return last.isVisible();
  }, { timeout: 60_000 }).toBe(true);
  expect(await drawn.count()).toBeLessThan(SESSIONS / 2);
  // A row of it opens by keyboard as before.
  await last.getByTestId('backtest-row').first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('mode-debug')).toHaveAttribute('aria-pressed', 'true');
});
