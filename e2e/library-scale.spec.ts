import { expect, test, type Page } from '@playwright/test';
import { sessionFiles } from '../test/bench/benchTrace.ts';
import { key } from './debuggerHelpers.ts';

/**
 * A team's library: 40 sessions (test/bench/benchTrace.ts) picked at once. They import a few at a time under one
 * progress bar, the library lists each as it is stored (it stayed empty until the last one, and the Backtest picker
 * said "0 of 0"), and the library and the Backtest picker draw the rows in view, not every trace; Tab still walks
 * every row. 40 keep the imports within a test's time on a busy machine (e2e/measure/backtestScale.ts does 200):
 * the rows drawn are bounded by the pane, not by the count, so 40 already tell drawing in view from drawing all.
 */
const SESSIONS = 40;

declare global {
  interface Window {
    __batchSeen?: { status: string; count: number }[];
  }
}

/** The index of the list row holding the keyboard, or null. */
const focusedRow = (page: Page) => page.evaluate(() => {
  const slot = document.activeElement?.closest<HTMLElement>('.virtual-row');
  return slot ? Number(slot.dataset.index) : null;
});

test('40 sessions picked at once: one progress, the library fills as they land, only the rows in view are drawn and Tab walks them all', async ({ page }) => {
  test.setTimeout(300_000); // 40 imports on a machine other sessions share
  const files = await sessionFiles(SESSIONS, 40);

  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.getByTestId('node-ev-tool-before')).toBeVisible();
  await page.getByTestId('mode-debug').click();
  // The library starts folded at this width: Ctrl+B unfolds it.
  await key(page, 'Control+b');
  await expect(page.locator('.workbench')).toHaveAttribute('data-left', 'open');
  const library = page.getByTestId('trace-library');
  await expect(library).toHaveAttribute('data-count', '1');
  // Every state the batch's status goes through, with the library's count at that moment (a record, not a timing).
  await page.evaluate(() => {
    const seen: { status: string; count: number }[] = (window.__batchSeen = []);
    new MutationObserver(() => {
      const status = document.querySelector('[data-testid="import-batch-status"]')?.textContent ?? '';
      const count = Number(document.querySelector('[data-testid="trace-library"]')?.getAttribute('data-count') ?? 0);
      const last = seen.at(-1);
      if (!last || last.status !== status || last.count !== count) seen.push({ status, count });
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-count'] });
  });

  await page.getByTestId('trace-file').setInputFiles(files);
  await expect(library).toHaveAttribute('data-count', String(SESSIONS + 1), { timeout: 240_000 });
  await expect(page.getByTestId('import-batch')).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: `Imported ${SESSIONS} of ${SESSIONS} files` })).toBeVisible();
  const seen = (await page.evaluate(() => window.__batchSeen))!;
  // One status for the batch, from the start; traces were listed while other files still waited: the library filled as they landed.
  expect(seen.some((x) => x.status.startsWith(`Importing ${SESSIONS} files: 0 done, `))).toBe(true);
  expect(seen.some((x) => x.status.includes('waiting') && x.count > 1)).toBe(true);

  // Only the rows in view (and a few either side) are drawn.
  const rows = page.getByTestId('trace-item');
  const drawn = await rows.count();
  expect(drawn).toBeLessThan(SESSIONS / 2);
  // Tab from the first row walks on past the rows drawn at first, to the last (the demo, the oldest), and Enter opens it.
  await rows.first().getByRole('button').first().focus();
  for (let i = 0; i < SESSIONS * 6 && (await focusedRow(page)) !== SESSIONS; i++) await page.keyboard.press('Tab');
  expect(await focusedRow(page)).toBe(SESSIONS);
  const demo = page.locator(`.virtual-row[data-index="${SESSIONS}"]`).getByTestId('trace-item');
  await expect(demo).toHaveAttribute('data-name', /Demo/);
  await page.keyboard.press('Enter');
  await expect(demo).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('position')).toContainText('of 22');
  expect(await rows.count()).toBeLessThan(SESSIONS / 2);
  // The wheel takes the list back to the top; the row holding the keyboard stays drawn, with the keyboard.
  await library.hover();
  await page.mouse.wheel(0, -20_000);
  await expect.poll(() => library.evaluate((el) => el.scrollTop)).toBe(0);
  await expect(rows.first()).toBeVisible();
  expect(await focusedRow(page)).toBe(SESSIONS);

  // The Backtest picker: every session listed, the rows in view drawn, and the last reached and picked by keyboard.
  await page.getByTestId('mode-backtest').click();
  const picker = page.getByTestId('backtest-traces');
  await expect(picker).toHaveAttribute('data-count', String(SESSIONS + 1));
  await expect(page.getByTestId('backtest-picked-count')).toHaveText(`${SESSIONS + 1} of ${SESSIONS + 1}`);
  const picks = page.getByTestId('backtest-trace');
  expect(await picks.count()).toBeLessThan(SESSIONS * 0.75);
  await page.getByTestId('backtest-pick-none').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('backtest-picked-count')).toHaveText(`0 of ${SESSIONS + 1}`);
  await picks.first().getByRole('checkbox').focus();
  for (let i = 0; i < SESSIONS * 2 && (await focusedRow(page)) !== SESSIONS; i++) await page.keyboard.press('Tab');
  expect(await focusedRow(page)).toBe(SESSIONS);
  await page.keyboard.press('Space');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('backtest-picked-count')).toHaveText(`2 of ${SESSIONS + 1}`);
  await expect(page.locator('[data-testid="backtest-trace"]:has(input:checked)')).toHaveCount(2);
  await expect(page.locator('[data-testid="backtest-trace"]:has(input:checked)').last()).toHaveAttribute('data-name', /Demo/);
  expect(await picks.count()).toBeLessThan(SESSIONS * 0.75);
  await expect(page.getByTestId('backtest-run')).toHaveText('Run backtest over 2 traces');
});
