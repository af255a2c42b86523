import { expect, test, type Page } from '@playwright/test';
import { node, openApp, openInspector, shot, waitSaved } from './editorHelpers.ts';
import { stepView } from './debuggerHelpers.ts';

/**
 * A first pipeline tried on sessions [B1]: the demo, never edited, has no earlier version, so the Backtest view
 * compares it with no pipeline (every event continues, as the sessions ran without hooks) and a run shows what
 * the pipeline alone would block. After an edit the history offers versions, and "No pipeline" stays a choice.
 */
/**
 * Runs the backtest over the demo trace with Enter. Until the person picks, every trace of the library is picked
 * (here the demo trace alone): the run is offered at once (nothing was picked, and the button could not run).
 */
async function runOnDemoTrace(page: Page): Promise<void> {
  await expect(page.getByTestId('backtest-picked-count')).toHaveText('1 of 1');
  await expect(page.locator('[data-testid="backtest-trace"][data-name^="Demo"] input')).toBeChecked();
  await expect(page.getByTestId('backtest-run')).toHaveText('Run backtest over 1 trace');
  await page.getByTestId('backtest-run').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('backtest-results')).toBeVisible({ timeout: 30_000 });
}

test('a pipeline with no earlier version backtests against no pipeline; the choice stays after an edit', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page);
  await page.getByTestId('mode-backtest').click();
  await expect(page.getByTestId('backtest-no-version')).toContainText('compared with no pipeline');
  await expect(page.getByTestId('backtest-old')).toHaveValue('none');

  // With nothing picked (None, by keyboard) the button says what it needs instead of offering a run over 0
  // traces; the demo trace picked again by keyboard (typed into the filter, Space on it).
  await expect(page.getByTestId('backtest-picked-count')).toHaveText('1 of 1');
  // The centre says what is left: with the trace picked by default, only the run (it asked for traces).
  await expect(page.getByTestId('backtest-idle')).toHaveText(/^1 trace picked: Run backtest replays it /);
  await page.getByTestId('backtest-pick-none').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('backtest-picked-count')).toHaveText('0 of 1');
  // The keyboard stays on None (it was disabled under the focus, which fell to the page's body).
  await expect(page.getByTestId('backtest-pick-none')).toBeFocused();
  await expect(page.getByTestId('backtest-pick-none')).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId('backtest-run')).toBeDisabled();
  await expect(page.getByTestId('backtest-run')).toHaveText('Pick the traces to run over');
  await expect(page.getByTestId('backtest-idle')).toHaveText(/^Pick the traces to run over /);
  await page.getByTestId('backtest-trace-filter').click();
  await page.keyboard.type('demo');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await runOnDemoTrace(page);
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

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('a differing row fits the results pane, and the keyboard follows it into Compare and along its rows', async ({ page }) => {
    test.setTimeout(120_000);
    await openApp(page, { fit: false });
    await page.getByTestId('mode-backtest').click();
    await runOnDemoTrace(page);

    // "Reason now" ends inside the results pane, in "…" (it ran under the pane's edge, cut off mid-word).
    const row = page.locator('[data-testid="backtest-row"][data-category="new_block"]');
    await expect(row).toHaveCount(1);
    const pane = (await page.getByTestId('backtest-results').boundingBox())!;
    const reason = (await row.locator('td.reason').boundingBox())!;
    expect(reason.x + reason.width).toBeLessThanOrEqual(pane.x + pane.width);
    await expect(row.locator('td.reason')).toHaveCSS('text-overflow', 'ellipsis');
    await shot(page, 'backtest-row-1280');

    // Enter opens the step; the keyboard is on its row in Compare (it was on the page's body).
    const step = Number(await row.getAttribute('data-step'));
    await row.focus();
    await page.keyboard.press('Enter');
    await expect(stepView(page, step - 1)).toBeVisible();
    const compareRow = (index: number) => page.locator(`[data-testid="compare-row"][data-index="${index}"]`);
    await expect(compareRow(step - 1)).toBeFocused();
    // Compare's rows go by keyboard too: Shift+Tab to the one before, Enter shows its step, the keyboard stays.
    await page.keyboard.press('Shift+Tab');
    const before = page.locator('[data-testid="compare-row"]:focus');
    await expect(before).toHaveCount(1);
    const index = Number(await before.getAttribute('data-index'));
    expect(index).toBeLessThan(step - 1);
    await page.keyboard.press('Enter');
    await expect(stepView(page, index)).toBeVisible();
    await expect(compareRow(index)).toBeFocused();
    await expect(compareRow(index)).toHaveAttribute('aria-current', 'true');
  });
});
