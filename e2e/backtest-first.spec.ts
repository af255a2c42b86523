import { expect, test } from '@playwright/test';
import { node, openApp, openInspector, shot, waitSaved } from './editorHelpers.ts';
import { stepView } from './debuggerHelpers.ts';

/**
 * A first pipeline tried on sessions [B1]: the demo, never edited, has no earlier version, so the Backtest view
 * compares it with no pipeline (every event continues, as the sessions ran without hooks) and a run shows what
 * the pipeline alone would block. After an edit the history offers versions, and "No pipeline" stays a choice.
 */
test('a pipeline with no earlier version backtests against no pipeline; the choice stays after an edit', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page);
  await page.getByTestId('mode-backtest').click();
  await expect(page.getByTestId('backtest-no-version')).toContainText('compared with no pipeline');
  await expect(page.getByTestId('backtest-old')).toHaveValue('none');

  // Pick the demo trace by keyboard and run.
  await page.getByTestId('backtest-trace-filter').click();
  await page.keyboard.type('demo');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('backtest-picked-count')).toHaveText(/^1 of /);
  await page.getByTestId('backtest-run').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('backtest-results')).toBeVisible({ timeout: 30_000 });
  // Without hooks nothing was blocked: the demo's rm -rf block is a new block, and nothing is lifted.
  await expect(page.getByTestId('backtest-headline')).toContainText(/^1 new block, 0 lifted blocks, /);
  await expect(page.getByTestId('backtest-results')).toContainText('no pipeline → Demo: agent safety policy (current)');
  await shot(page, 'backtest-first-1440');

  // The new block opens in the debugger, comparing with no pipeline.
  const row = page.locator('[data-testid="backtest-row"][data-category="new_block"]');
  await expect(row).toHaveCount(1);
  const step = Number(await row.getAttribute('data-step'));
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(stepView(page, step - 1)).toBeVisible();
  await expect(page.getByTestId('compare-panel')).toContainText('Comparing with “no pipeline”');

  // An edit makes a version: it becomes the default, and "No pipeline" is still there, picked by keyboard.
  // At 1440×900 the editor opens the demo at zoom 1 from its top-left corner, the handler off screen to the
  // right: Fit brings it into view, as a person would (clicking it unseen leaned on Playwright scrolling the
  // canvas's overflow-hidden pane, which a busy machine's next render undid, and the click missed).
  await page.getByTestId('mode-edit').click();
  await openInspector(page);
  await page.getByTestId('fit-view').click();
  await node(page, 'h-block-destructive').click();
  await page.getByTestId('handler-enabled').focus();
  await page.keyboard.press('Space');
  await waitSaved(page);
  await page.getByTestId('mode-backtest').click();
  const old = page.getByTestId('backtest-old');
  await expect(old).not.toHaveValue('none');
  await expect(page.getByTestId('backtest-no-version')).toHaveCount(0);
  await old.focus();
  await page.keyboard.press('End');
  await expect(old).toHaveValue('none');
  await page.getByTestId('backtest-run').focus();
  await page.keyboard.press('Enter');
  // With the rm -rf block off, the pipeline alone blocks nothing in this session.
  await expect(page.getByTestId('backtest-headline')).toContainText(/^0 new blocks, 0 lifted blocks, /, { timeout: 30_000 });
});
