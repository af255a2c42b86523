import { test, expect } from '@playwright/test';
import { node, openApp, shot } from './editorHelpers.ts';

test('library: create, rename, duplicate, delete with undo; everything survives a reload', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('tab-library').click();
  const items = page.getByTestId('library-item');
  await expect(items).toHaveCount(1);

  // "New pipeline" asks for the name; what is typed replaces the name it offers.
  await page.getByTestId('library-new').click();
  await expect(page.getByTestId('new-pipeline-name')).toHaveValue('Untitled pipeline');
  await expect(page.getByTestId('new-pipeline-name')).toBeFocused();
  await page.keyboard.type('Scratch');
  await page.keyboard.press('Enter');
  await expect(items).toHaveCount(2);
  await expect(page.getByTestId('pipeline-title')).toHaveText('Scratch');
  await expect(page.getByTestId('empty-canvas')).toBeVisible();

  // Rename the open pipeline from the library (an undoable edit of its name).
  await items.filter({ hasText: 'Scratch' }).getByTestId('library-rename').click();
  await page.getByTestId('rename-input').fill('Billing guard');
  await page.getByTestId('rename-input').press('Enter');
  await expect(page.getByTestId('pipeline-title')).toHaveText('Billing guard');
  await expect(items.filter({ hasText: 'Billing guard' })).toHaveCount(1);

  // Rename one that is not open.
  await items.filter({ hasText: 'Demo: agent safety policy' }).getByTestId('library-rename').click();
  await page.getByTestId('rename-input').fill('Safety policy');
  await page.getByTestId('rename-input').press('Enter');
  await expect(items.filter({ hasText: 'Safety policy' })).toHaveCount(1);

  await items.filter({ hasText: 'Safety policy' }).getByTestId('library-duplicate').click();
  await expect(items).toHaveCount(3);
  await expect(page.getByTestId('pipeline-title')).toHaveText('Safety policy (copy)');
  await expect(node(page, 'h-audit-log')).toBeVisible();
  await shot(page, 'editor-library');

  await items.filter({ hasText: 'Billing guard' }).getByTestId('library-delete').click();
  await expect(items).toHaveCount(2);
  await expect(page.getByTestId('toast')).toContainText('Deleted “Billing guard”.');
  await page.getByTestId('toast-action').click();
  await expect(items).toHaveCount(3);

  // Deleting the open one opens another.
  await items.filter({ hasText: 'Safety policy (copy)' }).getByTestId('library-delete').click();
  await expect(items).toHaveCount(2);
  await expect(page.getByTestId('pipeline-title')).not.toHaveText('Safety policy (copy)');

  await page.reload();
  await page.getByTestId('tab-library').click();
  // The list renders once IndexedDB has answered (nothing, not an empty list, before that).
  await expect(items).toHaveCount(2);
  const names = await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-name')).sort());
  expect(names).toEqual(['Billing guard', 'Safety policy']);
});

test('deleting the last pipeline leaves a clear empty state with a way on', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('tab-library').click();
  await page.getByTestId('library-item').getByTestId('library-delete').click();
  await expect(page.getByTestId('no-pipeline')).toBeVisible();
  await shot(page, 'editor-no-pipeline');
  await page.getByTestId('no-pipeline').getByRole('button', { name: 'Open the demo' }).click();
  await expect(node(page, 'ev-tool-before')).toBeVisible();
  await expect(page.getByTestId('library-item')).toHaveCount(1);
});

test.describe('at 1280×720, by keyboard', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('the library keeps the keyboard on a row after a rename or a delete, and "Flow examples…" is readable', async ({ page }) => {
    await openApp(page, { fit: false });
    await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ControlOrMeta+b');
    await page.getByTestId('tab-library').click();
    const items = page.getByTestId('library-item');
    await expect(items).toHaveCount(1);

    // "Flow examples…" has room for its words (it was cut to "F" beside the two buttons), and the keyboard picks one.
    const select = page.getByTestId('library-flow-examples');
    const panel = (await page.getByTestId('library').boundingBox())!;
    const box = (await select.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(120);
    expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
    await page.getByTestId('library-demo').focus();
    await page.keyboard.press('Tab');
    await expect(select).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(items).toHaveCount(2);
    await expect(page.getByTestId('pipeline-title')).toHaveText(/^Flow: /);

    // Rename by keyboard: Enter gives the keyboard back to the row (it went to the page's body).
    const demo = items.filter({ hasText: 'Demo: agent safety policy' });
    await demo.getByTestId('library-rename').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('rename-input')).toBeFocused();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Safety policy');
    await page.keyboard.press('Enter');
    const safety = items.filter({ hasText: 'Safety policy' });
    await expect(safety.locator('.lib-open')).toBeFocused();
    // Escape too.
    await page.keyboard.press('Tab');
    await expect(safety.getByTestId('library-rename')).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.type(' (not kept)');
    await page.keyboard.press('Escape');
    await expect(safety.locator('.lib-open')).toBeFocused();
    await expect(safety).toHaveAttribute('data-name', 'Safety policy');

    // Delete by keyboard: the keyboard moves to the next row, then to "New pipeline" when none is left.
    const first = items.first();
    const second = await items.nth(1).getAttribute('data-name');
    await first.getByTestId('library-delete').focus();
    await page.keyboard.press('Enter');
    await expect(items).toHaveCount(1);
    await expect(items.filter({ hasText: second! }).locator('.lib-open')).toBeFocused();
    await items.first().getByTestId('library-delete').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('no-pipeline')).toBeVisible();
    await expect(page.getByTestId('library-new')).toBeFocused();
    await shot(page, 'library-keyboard-1280');
  });
});
