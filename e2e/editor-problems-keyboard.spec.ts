import { test, expect, type Page } from '@playwright/test';
import { codeSource, exportedDoc, newCodeHandler, node, openApp, shot, tabUntil, waitSaved } from './editorHelpers.ts';

/** The Problems panel by keyboard: Ctrl+Shift+M and Tab reach it, arrows move, Enter jumps (to the line, for code), Escape goes back. */

const focused = (page: Page) => page.evaluate(() => {
  const el = document.activeElement as HTMLElement | null;
  return {
    option: el?.getAttribute('role') === 'option' ? el.textContent ?? '' : null,
    inMonaco: !!el?.closest('.monaco-editor'),
    node: el?.closest('.react-flow__node')?.getAttribute('data-id') ?? null,
  };
});

test('Problems panel by keyboard: Ctrl+Shift+M, arrows, Enter puts the Monaco cursor on the error line, Escape returns', async ({ page }) => {
  await openApp(page);
  const lines = await newCodeHandler(page);
  await page.keyboard.type('const a = 1;');
  await page.keyboard.press('Enter');
  await page.keyboard.type('const b = 2;');
  await page.keyboard.press('Enter');
  await page.keyboard.type('const broken = ;');
  const codeError = page.getByTestId('problem-item').filter({ hasText: 'code_error' }).filter({ hasText: 'line 3' });
  await expect(codeError).toHaveCount(1, { timeout: 20_000 });

  // From a canvas node, the shortcut puts the focus on the first problem; the arrows move through them.
  await node(page, 'ev-tool-before').click();
  await page.keyboard.press('Control+Shift+M');
  const items = page.getByTestId('problem-item');
  const count = await items.count();
  expect(count).toBeGreaterThan(1);
  await expect(items.nth(0)).toBeFocused();
  await expect(items.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await expect(items.nth(0)).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('End');
  await expect(items.nth(count - 1)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(items.nth(0)).toBeFocused();
  await shot(page, 'editor-problems-keyboard');

  // Escape goes back to the node the focus came from.
  await page.keyboard.press('Escape');
  expect((await focused(page)).node).toBe('ev-tool-before');

  // Enter on the code error: the code node is inspected and Monaco's cursor is on line 3, where typing goes.
  await page.keyboard.press('Control+Shift+M');
  for (let i = 0; i < count && !(await codeError.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(codeError).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await focused(page)).inMonaco, { timeout: 20_000 }).toBe(true);
  await page.keyboard.type('X');
  await waitSaved(page);
  const source = codeSource(await exportedDoc(page));
  expect(source.split('\n')[2]).toContain('X');
  expect(source.split('\n')[0]).toBe('const a = 1;');

  // From Monaco, the shortcut and Escape come back to the editor.
  await lines.click();
  await page.keyboard.press('Control+Shift+M');
  expect((await focused(page)).option).not.toBeNull();
  await page.keyboard.press('Escape');
  expect((await focused(page)).inMonaco).toBe(true);
});

test('Problems panel by Tab: the list is one Tab stop; Enter on a node problem selects and focuses the node', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('palette-handler:block').click();
  const warning = page.getByTestId('problem-item').filter({ hasText: 'unreachable_handler' });
  await expect(warning).toHaveCount(1);
  const id = await warning.getAttribute('data-node');
  await node(page, 'ev-tool-before').click();
  await tabUntil(page, async () => (await focused(page)).option !== null, 'a problem in the list');
  // One Tab stop: the next Tab leaves the list.
  await page.keyboard.press('Tab');
  expect((await focused(page)).option).toBeNull();
  await page.keyboard.press('Shift+Tab');
  expect((await focused(page)).option).not.toBeNull();
  const items = page.getByTestId('problem-item');
  for (let i = 0; i < (await items.count()) && !(await warning.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(node(page, id!)).toHaveClass(/selected/);
  await expect.poll(async () => (await focused(page)).node).toBe(id);
});
