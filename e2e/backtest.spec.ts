import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { node, openApp, shot, waitSaved } from './editorHelpers.ts';
import { stepView } from './debuggerHelpers.ts';

/**
 * The Backtest view [B1]-[B4]: the demo pipeline is changed (the rm -rf block disabled, the token budget
 * lowered), traces of several agents are dropped in, picked by keyboard and mouse, and the run's differences
 * are the engine's; a differing step opens in the debugger with Compare pinned to the old version.
 */
const FORMATS = join(import.meta.dirname, '..', 'test', 'fixtures', 'formats');
const DROPPED = ['codex-rollout.jsonl', 'gemini-cli-session.jsonl', 'slugify.traj.json'];

async function dropFiles(page: Page, files: string[]): Promise<void> {
  const contents = files.map((f) => ({ name: f, text: readFileSync(join(FORMATS, f), 'utf8') }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.text], f.name, { type: 'application/json' }));
    return dt;
  }, contents);
  const target = page.getByTestId('backtest-traces');
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

test('a backtest over several traces, run by keyboard and mouse, opens a differing step in the debugger', async ({ page }) => {
  // Edits, four imports, a run and two trips into the debugger, on a machine other sessions share.
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openApp(page);

  // The change: the rm -rf block disabled (Space on its checkbox), the token budget typed down to 100.
  await node(page, 'h-block-destructive').click();
  await page.getByTestId('handler-enabled').focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('handler-enabled')).not.toBeChecked();
  await waitSaved(page);
  await node(page, 'h-token-budget').click();
  await page.getByTestId('budget-limit').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('100');
  await page.keyboard.press('Tab');
  await waitSaved(page);

  await page.getByTestId('mode-backtest').click();
  await expect(page.getByTestId('backtest-view')).toBeVisible();
  await expect(page.getByTestId('backtest-old')).toContainText('First version');
  await dropFiles(page, DROPPED);
  // The Gemini recording has a cut line: the same question as in Debug, asked here; its good events are kept.
  await page.getByTestId('import-keep').click();
  await expect(page.getByTestId('backtest-trace')).toHaveCount(1 + DROPPED.length);

  // Until the person picks, every trace of the library is picked, the dropped ones too. None, then the demo by
  // filtering and pressing Space on its checkbox; then every trace with "All shown".
  await expect(page.getByTestId('backtest-picked-count')).toHaveText(`${1 + DROPPED.length} of ${1 + DROPPED.length}`);
  await page.getByTestId('backtest-pick-none').click();
  await expect(page.getByTestId('backtest-picked-count')).toHaveText(`0 of ${1 + DROPPED.length}`);
  await page.getByTestId('backtest-trace-filter').click();
  await page.keyboard.type('demo');
  await expect(page.getByTestId('backtest-trace')).toHaveCount(1);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('backtest-picked-count')).toHaveText(`1 of ${1 + DROPPED.length}`);
  await page.getByTestId('backtest-trace-filter').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await page.getByTestId('backtest-pick-shown').click();
  await expect(page.getByTestId('backtest-picked-count')).toHaveText(`${1 + DROPPED.length} of ${1 + DROPPED.length}`);
  await page.getByTestId('backtest-run').focus();
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('backtest-results')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('backtest-headline')).toContainText(/\d+ new blocks?, 1 lifted block/);
  const demo = page.locator('[data-testid="backtest-trace-group"][data-name^="Demo"]');
  await expect(demo).toBeVisible();
  await expect(demo.locator('[data-testid="backtest-row"][data-category="lifted_block"]')).toHaveCount(1);
  await expect(page.getByTestId('backtest-coverage')).toBeVisible();
  await shot(page, 'backtest-1280');

  // The report saves as markdown for a pull request.
  const download = page.waitForEvent('download');
  await page.getByTestId('backtest-save-md').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^backtest-.*\.md$/);
  const text = readFileSync(await file.path(), 'utf8');
  expect(text).toMatch(/^### Hookwire backtest/);
  expect(text).toContain('lifted block');

  // The lifted block, by keyboard: focus its row and press Enter; the debugger shows that step, comparing.
  const row = demo.locator('[data-testid="backtest-row"][data-category="lifted_block"]');
  const step = Number(await row.getAttribute('data-step'));
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('debugger')).toBeVisible();
  await expect(stepView(page, step - 1)).toBeVisible();
  await expect(page.getByTestId('compare-panel')).toBeVisible();
  await expect(page.getByTestId('compare-panel')).toContainText(/Comparing with “Demo: agent safety policy at /);
  const current = page.locator(`[data-testid="compare-row"][data-index="${step - 1}"]`);
  await expect(current).toHaveAttribute('aria-current', 'true');
  await shot(page, 'backtest-drill-1280');

  // Back in Backtest the result is still there; a new-block row opens with the mouse.
  await page.getByTestId('mode-backtest').click();
  const newBlock = page.locator('[data-testid="backtest-row"][data-category="new_block"]').first();
  const other = Number(await newBlock.getAttribute('data-step'));
  await newBlock.click();
  await expect(stepView(page, other - 1)).toBeVisible();
  await expect(page.locator(`[data-testid="compare-row"][data-index="${other - 1}"]`)).toHaveAttribute('aria-current', 'true');
});
