import { test, expect } from '@playwright/test';
import { node, openApp, shot, waitSaved } from './editorHelpers.ts';

test('a storage error (quota) is shown, not swallowed, and a retry saves once space is back', async ({ page, baseURL }) => {
  // A real quota in a real Chromium: the origin gets 1 MB (it must be set before the origin's storage opens).
  const cdp = await page.context().newCDPSession(page);
  const origin = new URL(baseURL as string).origin;
  await page.goto('about:blank');
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1_000_000 });
  await openApp(page);
  const big = 'x'.repeat(2_000_000);
  await page.getByTestId('pipeline-description').evaluate((el, value) => {
    // One paste of 2 MB of text, as a user would; typing it would take minutes.
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
    setter.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, big);
  await expect(page.getByTestId('storage-error')).toContainText('QuotaExceededError');
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-status', 'error');
  await shot(page, 'editor-storage-error');

  // The edit is still in the tab; once space is back, Retry saves it.
  await expect(page.getByTestId('pipeline-description')).toHaveValue(big);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 100_000_000 });
  await page.getByTestId('retry-save').click();
  await waitSaved(page);
  await expect(page.getByTestId('storage-error')).toHaveCount(0);
  await page.reload();
  await expect(node(page, 'ev-any')).toBeVisible();
  expect(await page.getByTestId('pipeline-description').inputValue()).toHaveLength(big.length);
});

test('two tabs: a save in one tab reaches the other, never silently overwritten', async ({ page, context }) => {
  await openApp(page);
  const other = await context.newPage();
  await openApp(other);

  await page.getByTestId('pipeline-name').fill('Edited in tab A');
  await waitSaved(page);
  // Tab B had no unsaved edits: it reloads the stored version and says so.
  await expect(other.getByTestId('pipeline-title')).toHaveText('Edited in tab A');
  await expect(other.getByTestId('toast')).toContainText('another tab');
  await other.close();
});

test('two tabs: another tab\'s save keeps this tab\'s selection, inspector, focus and undo, with one toast', async ({ page, context }) => {
  await openApp(page);
  const other = await context.newPage();
  await openApp(other);

  // Tab A: select a handler, rename it with the real keyboard (an undo step), and keep typing focus there.
  await page.getByTestId('node-h-redact-secrets').click();
  const name = page.getByTestId('handler-name');
  await name.click();
  await page.keyboard.press('End');
  await page.keyboard.type(' (A)');
  await waitSaved(page);
  const renamed = await name.inputValue();

  // Tab B saves twice (the pipeline's name, typed in two goes).
  await other.getByTestId('pipeline-name').click();
  await other.keyboard.press('End');
  await other.keyboard.type(' from B');
  await waitSaved(other);
  await other.keyboard.type('!');
  await waitSaved(other);

  await expect(page.getByTestId('pipeline-title')).toHaveText(/from B!$/);
  // A's place is kept: the same node in the inspector, the focus in its field, one toast however many saves.
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'h-redact-secrets');
  await expect(name).toBeFocused();
  await expect(name).toHaveValue(renamed);
  await expect(page.getByTestId('toast')).toHaveCount(1);
  // A's undo still undoes A's own edit, and keeps B's.
  await page.keyboard.press('Control+z');
  await expect(name).not.toHaveValue(renamed);
  await expect(page.getByTestId('pipeline-title')).toHaveText(/from B!$/);
  await shot(page, 'editor-other-tab-keeps-place');
  await other.close();
});
