import { test, expect, type Page } from '@playwright/test';
import { codeSource, exportedDoc, newCodeHandler, openApp, shot, waitSaved } from './editorHelpers.ts';

/**
 * The code editor's full-screen mode: a button and Ctrl+Shift+E open it, Escape or the button return, and
 * the editor is the same one throughout (text, cursor and focus kept), typed into with the real keyboard.
 */

const box = (page: Page) => page.getByTestId('code-box');
const isModal = (page: Page) => box(page).evaluate((d) => d.matches(':modal'));
const focusInEditor = (page: Page) => page.evaluate(() => !!document.activeElement?.closest('[data-testid="code-box"] .monaco-editor'));

test('full-screen code editor: Ctrl+Shift+E and the button open it, Escape and the button leave, text and cursor kept', async ({ page }) => {
  await openApp(page);
  const lines = await newCodeHandler(page);
  await page.keyboard.type('const a = 1;');
  await shot(page, 'editor-code-inline');
  const inline = await box(page).boundingBox();
  expect(await isModal(page)).toBe(false);

  // The shortcut, from inside the editor: the same editor fills the window, the cursor where it was.
  await page.keyboard.press('Control+Shift+E');
  await expect(box(page)).toHaveAttribute('data-expanded', 'true');
  expect(await isModal(page)).toBe(true);
  const full = await box(page).boundingBox();
  expect(full!.width).toBeGreaterThan(inline!.width * 2);
  expect(full!.height).toBeGreaterThan(inline!.height * 2);
  expect(await focusInEditor(page)).toBe(true);
  await page.keyboard.type(' const b = 2;');
  await page.keyboard.press('Space');
  await page.keyboard.type('// full screen');
  await expect(lines).toContainText('const a = 1; const b = 2; // full screen');
  await expect(page.getByTestId('code-collapse')).toBeVisible();
  await shot(page, 'editor-code-fullscreen');

  // The page behind is inert while it is open: a click where the Debug button is does not switch modes.
  const debugAt = await page.getByTestId('mode-debug').boundingBox();
  await page.mouse.click(debugAt!.x + debugAt!.width / 2, debugAt!.y + debugAt!.height / 2);
  await expect(page.getByTestId('palette-handler:code')).toBeAttached();
  expect(await page.getByTestId('mode-debug').getAttribute('aria-pressed')).not.toBe('true');
  expect(await isModal(page)).toBe(true);
  await page.locator('.monaco-editor .view-lines').click({ position: { x: 400, y: 5 } });
  await page.keyboard.press('End');

  // Escape returns, focus stays in the editor, and typing goes on at the same place.
  await page.keyboard.press('Escape');
  await expect(box(page)).toHaveAttribute('data-expanded', 'false');
  expect(await isModal(page)).toBe(false);
  expect(await focusInEditor(page)).toBe(true);
  await page.keyboard.type(' // back');
  await expect(lines).toContainText('const a = 1; const b = 2; // full screen // back');

  // The button opens it; an Escape that closes Monaco's suggestion list stays in full screen.
  await page.getByTestId('code-expand').click();
  expect(await isModal(page)).toBe(true);
  expect(await focusInEditor(page)).toBe(true);
  await page.keyboard.press('Enter');
  await page.keyboard.type('Math.');
  await expect(page.locator('.monaco-editor .suggest-widget.visible')).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Escape');
  await expect(page.locator('.monaco-editor .suggest-widget.visible')).toHaveCount(0);
  expect(await isModal(page)).toBe(true);
  for (let i = 0; i < 'Math.'.length; i++) await page.keyboard.press('Backspace');
  await page.getByTestId('code-collapse').click();
  expect(await isModal(page)).toBe(false);
  expect(await focusInEditor(page)).toBe(true);
  await waitSaved(page);
  expect(codeSource(await exportedDoc(page))).toBe('const a = 1; const b = 2; // full screen // back\n');
});

test('full-screen code editor in the debugger\'s Edit node tab: Space and typing work, Escape returns', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('palette-handler:code').click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('export default function', { timeout: 20_000 });
  await waitSaved(page);
  await page.getByTestId('mode-debug').click();
  await page.getByTestId('tab-edit-node').click();
  const lines = page.locator('.monaco-editor .view-lines');
  await expect(lines).toContainText('export default function', { timeout: 20_000 });
  await page.getByTestId('code-expand').click();
  expect(await isModal(page)).toBe(true);
  expect(await focusInEditor(page)).toBe(true);
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('// typed');
  await page.keyboard.press('Space');
  await page.keyboard.type('in the debugger');
  await expect(lines).toContainText('// typed in the debugger');
  // Space typed text: it did not start playback behind the dialog.
  await expect(page.getByTestId('play')).not.toHaveAttribute('aria-pressed', 'true');
  await shot(page, 'debugger-code-fullscreen');
  await page.keyboard.press('Control+Shift+E');
  expect(await isModal(page)).toBe(false);
  expect(await focusInEditor(page)).toBe(true);
  await page.getByTestId('mode-edit').click();
  await waitSaved(page);
  expect(codeSource(await exportedDoc(page))).toContain('// typed in the debugger');
});
