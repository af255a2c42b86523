import { test, expect, type Page } from '@playwright/test';
import { key, openDebugger } from './debuggerHelpers.ts';
import { shot } from './editorHelpers.ts';
import { viewSettled } from './canvasGeometry.ts';

// "Break when it fires" in a handler's canvas menu is that handler's *fires* breakpoint only (265a63f): a
// "blocks" breakpoint on the same handler is another trigger, neither shown as the menu's on state nor removed
// by it. Everything is done with the real keyboard and mouse.

const labels = (page: Page) => page.getByTestId('bp-label');
const menuItem = (page: Page) => page.getByRole('menuitemcheckbox', { name: 'Break when it fires' });

test('"Break when it fires" adds and removes only the handler\'s fires breakpoint, beside a blocks one on the same handler', async ({ page }) => {
  await openDebugger(page);

  // A "blocks" breakpoint on "Block destructive commands", added by keyboard in the Breakpoints tab.
  await key(page, 'Shift+F9');
  await expect(page.getByTestId('bp-kind')).toBeFocused();
  await page.keyboard.type('a handler');
  await expect(page.getByTestId('bp-kind')).toHaveValue('handler');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('bp-value')).toBeFocused();
  await page.keyboard.type('Block destructive');
  await expect(page.getByTestId('bp-value')).toHaveValue('h-block-destructive');
  await page.keyboard.press('Tab');
  await page.keyboard.type('blocks');
  await expect(page.getByTestId('bp-on')).toHaveValue('blocks');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('bp-add')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(labels(page)).toHaveText(['“Block destructive commands” blocks']);

  // The handler's menu, by a right click: the fires breakpoint is not there yet, whatever the blocks one.
  await page.getByTestId('fit-view').click();
  await viewSettled(page, '.dbg-canvas-wrap');
  const handler = page.locator('.dbg-canvas-wrap .react-flow__node[data-id="h-block-destructive"]');
  await handler.click({ button: 'right' });
  await expect(menuItem(page)).toHaveAttribute('aria-checked', 'false');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(labels(page)).toHaveText(['“Block destructive commands” blocks', '“Block destructive commands” fires']);

  // By keyboard (Shift+F10 on the focused node): now on; choosing it again removes the fires one only.
  await handler.focus();
  await page.keyboard.press('Shift+F10');
  await expect(menuItem(page)).toHaveAttribute('aria-checked', 'true');
  await shot(page, 'debugger-break-menu-on');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(labels(page)).toHaveText(['“Block destructive commands” blocks']);
  await handler.focus();
  await page.keyboard.press('Shift+F10');
  await expect(menuItem(page)).toHaveAttribute('aria-checked', 'false');
  await page.keyboard.press('Escape');
  await expect(labels(page)).toHaveText(['“Block destructive commands” blocks']);
});
