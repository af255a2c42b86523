import { test, expect } from '@playwright/test';
import { node, openApp, shot } from './editorHelpers.ts';

test('condition builder: a switched operator gets a value of its type, a group has one button row, the regex case toggle fits', async ({ page }) => {
  await openApp(page);
  await node(page, 'm-dangerous-tools').click();
  const summary = node(page, 'm-dangerous-tools').getByTestId('matcher-summary');

  // exists → equals: the exists flag (true) is not carried over as the value to compare with.
  await page.getByTestId('cond-0-op').selectOption('exists');
  await expect(page.getByTestId('cond-0-value')).toHaveValue('true');
  await page.getByTestId('cond-0-op').selectOption('eq');
  const value = page.getByTestId('cond-0-value');
  await expect(value).toHaveValue('');
  await expect(page.getByTestId('cond-0').getByLabel('Value type')).toHaveValue('text');
  await value.click();
  await page.keyboard.type('Bash');
  await expect(summary).toContainText('Bash');
  await page.getByTestId('condition-view-json').click();
  await expect.poll(async () => JSON.parse((await page.getByTestId('condition-json').inputValue()) || '{}')).toEqual({ 'payload.tool_name': { eq: 'Bash' } });
  await page.getByTestId('condition-view-builder').click();

  // One added group: one row of add buttons inside it (+ Condition, + Alternative), besides the top-level row.
  await page.getByTestId('cond-add-any').click();
  const group = page.getByTestId('cond-1');
  await expect(group.locator('.cond-actions')).toHaveCount(1);
  await expect(group.locator('.cond-actions').getByRole('button')).toHaveText([/Condition/, /Alternative/]);
  await page.getByTestId('cond-1-add-alternative').click();
  await expect(group.locator('.cond-item')).toHaveCount(2);
  await expect(group.locator('.cond-actions')).toHaveCount(2);

  // The regex case toggle is inside the inspector, not cut off, and works by mouse.
  await page.getByTestId('cond-1-0-0-op').selectOption('regex');
  await page.getByTestId('cond-1-0-0-value').click();
  await page.keyboard.type('^git push');
  const toggle = page.getByTestId('cond-1-0-0-value-ignore-case');
  await expect(toggle).toBeVisible();
  const inspector = await page.getByTestId('inspector').boundingBox();
  const label = await page.getByTestId('cond-1-0-0').locator('label.check').boundingBox();
  const clause = await page.getByTestId('cond-1-0-0').boundingBox();
  expect(inspector && label && clause).toBeTruthy();
  expect(label!.x + label!.width).toBeLessThanOrEqual(clause!.x + clause!.width);
  expect(clause!.x + clause!.width).toBeLessThanOrEqual(inspector!.x + inspector!.width);
  await toggle.click();
  await expect(toggle).toBeChecked();
  await page.getByTestId('cond-1-0-0').scrollIntoViewIfNeeded();
  await shot(page, 'editor-condition-fixed');
  await page.getByTestId('condition-view-json').click();
  await expect(page.getByTestId('condition-json')).toContainText('"flags": "i"');
});
