import { test, expect } from '@playwright/test';
import { node, openApp, shot, waitSaved } from './editorHelpers.ts';

test('rename on canvas: double-click or F2, Enter commits, Escape cancels, undo takes it back', async ({ page }) => {
  await openApp(page);
  const handler = node(page, 'h-block-destructive');
  const title = handler.locator('.title');
  const before = (await title.textContent()) ?? '';

  // Double-click the node: its title becomes a box with the name selected; typing replaces it.
  await handler.dblclick();
  const box = page.getByTestId('node-rename');
  await expect(box).toBeFocused();
  await page.keyboard.type('Stop rm -rf');
  await shot(page, 'editor-rename');
  await page.keyboard.press('Enter');
  await expect(box).toHaveCount(0);
  await expect(title).toHaveText('Stop rm -rf');
  await expect(page.getByTestId('inspector').getByLabel('Name', { exact: true })).toHaveValue('Stop rm -rf');
  await waitSaved(page);

  // F2 on the selected node; Escape cancels and leaves the name alone. (Fit first: the canvas opens at a readable
  // zoom 1 that does not show the whole demo at this window size.)
  await page.getByTestId('fit-view').click();
  await node(page, 'm-dangerous-tools').click();
  await page.keyboard.press('F2');
  await expect(box).toBeFocused();
  await page.keyboard.type('Nope');
  await page.keyboard.press('Escape');
  await expect(box).toHaveCount(0);
  await expect(node(page, 'm-dangerous-tools').locator('.title')).toHaveText('Dangerous tools');

  // Space types a space in the box (the canvas' pan key does not take it).
  await page.keyboard.press('F2');
  await page.keyboard.type('Risky');
  await page.keyboard.press('Space');
  await page.keyboard.type('tools');
  await page.keyboard.press('Enter');
  await expect(node(page, 'm-dangerous-tools').locator('.title')).toHaveText('Risky tools');

  // The rename is a typed change: undo takes each back.
  await page.getByTestId('canvas').click({ position: { x: 600, y: 700 } });
  await page.keyboard.press('Control+z');
  await expect(node(page, 'm-dangerous-tools').locator('.title')).toHaveText('Dangerous tools');
  await page.keyboard.press('Control+z');
  await expect(title).toHaveText(before);
});
