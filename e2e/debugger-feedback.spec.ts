import { test, expect } from '@playwright/test';
import { key, openDebugger, stepView } from './debuggerHelpers.ts';

test('feedback: "Break when it fires" shows its on state, a jump that finds nothing says so, the shortcuts popover closes on Escape and outside clicks', async ({ page }) => {
  await openDebugger(page);
  await key(page, 'b');
  await expect(stepView(page, 11)).toBeVisible();
  const card = page.locator('[data-testid="handler-card"][data-handler="h-block-destructive"]');
  const brk = card.getByTestId('break-on-handler');
  await expect(brk).toHaveAttribute('aria-pressed', 'false');
  await brk.click();
  await expect(brk).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('tab-breakpoints')).toContainText('1');
  await brk.click();
  await expect(brk).toHaveAttribute('aria-pressed', 'false');

  // From the last step there is no next block: a toast says so.
  await key(page, 'End');
  await expect(stepView(page, 21)).toBeVisible();
  await key(page, 'b');
  await expect(page.getByTestId('toast')).toContainText('No blocked step after this one.');

  // The shortcuts popover: Escape closes it, and so does a click elsewhere.
  await page.getByTestId('shortcuts').click();
  await expect(page.getByTestId('shortcuts-help')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shortcuts-help')).toHaveCount(0);
  await page.getByTestId('shortcuts').click();
  await expect(page.getByTestId('shortcuts-help')).toBeVisible();
  await page.getByTestId('step-view').click({ position: { x: 5, y: 5 } });
  await expect(page.getByTestId('shortcuts-help')).toHaveCount(0);
});
