import { test, expect, type Page } from '@playwright/test';
import { edges, node, openApp, shot, tabUntil, waitSaved } from './editorHelpers.ts';
import { openDebugger } from './debuggerHelpers.ts';
import { viewSettled } from './canvasGeometry.ts';

const menu = (page: Page) => page.getByRole('menu');
const focusedNode = (page: Page) => page.evaluate(() => (document.activeElement?.closest('.react-flow__node') as HTMLElement | null)?.dataset.id ?? null);
const focusedItem = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

/** A point of the pane at least 160 px from every node, where a new node fits as it is. */
async function freePanePoint(page: Page): Promise<{ x: number; y: number }> {
  const pane = (await page.getByTestId('canvas').boundingBox())!;
  const boxes = await page.locator('[data-testid="canvas"] .react-flow__node').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
  const wires = await page.evaluate(() => [...document.querySelectorAll<SVGPathElement>('[data-testid="canvas"] .react-flow__edge-path')].flatMap((p) => {
    const m = p.getScreenCTM()!;
    const len = p.getTotalLength();
    return Array.from({ length: Math.ceil(len / 5) + 1 }, (_, i) => p.getPointAtLength(Math.min(len, i * 5)).matrixTransform(m)).map((q) => ({ x: q.x, y: q.y }));
  }));
  for (let y = pane.y + 60; y < pane.y + pane.height - 60; y += 20) {
    for (let x = pane.x + 140; x < pane.x + pane.width - 140; x += 20) {
      const far = boxes.every((b) => x < b.x - 160 || x > b.x + b.width + 160 || y < b.y - 80 || y > b.y + b.height + 80)
        && wires.every((q) => Math.abs(q.x - x) > 130 || Math.abs(q.y - y) > 70);
      const onPane = await page.evaluate(([px, py]) => !!document.elementFromPoint(px!, py!)?.classList.contains('react-flow__pane'), [x, y]);
      if (far && onPane) return { x, y };
    }
  }
  throw new Error('no free spot on the pane');
}

test('right-click a node, a wire and the pane: duplicate, delete a wire, add a node where the pointer is', async ({ page }) => {
  await openApp(page);
  await viewSettled(page, '[data-testid="canvas"]');
  const nodes = page.locator('[data-testid="canvas"] .react-flow__node');
  const count = await nodes.count();

  // A node: the menu opens at the pointer with the focus on its first item; arrows move, Enter chooses.
  const box = (await node(page, 'm-prompt-injection').boundingBox())!;
  await page.mouse.click(box.x + 40, box.y + 20, { button: 'right' });
  await expect(menu(page)).toHaveAttribute('aria-label', 'matcher Prompt injection');
  await expect(menu(page)).toBeVisible();
  await expect(menu(page).getByRole('menuitem')).toHaveText([/Rename/, /Duplicate/, /Connect to/, /Delete/]);
  expect(await focusedItem(page)).toBe('ctx-rename');
  await shot(page, 'context-menu-node');
  await page.keyboard.press('ArrowDown');
  expect(await focusedItem(page)).toBe('ctx-duplicate');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp'); // wraps to the last
  expect(await focusedItem(page)).toBe('ctx-delete');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  const before = await nodes.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
  await page.keyboard.press('Enter');
  await expect(menu(page)).toHaveCount(0);
  await expect(nodes).toHaveCount(count + 1);
  // The copy lands on free space, not on the original or any other node.
  const copy = (await page.locator('[data-testid="canvas"] .react-flow__node.selected').boundingBox())!;
  for (const b of before) expect(copy.x < b.x + b.width && b.x < copy.x + copy.width && copy.y < b.y + b.height && b.y < copy.y + copy.height).toBe(false);
  await expect.poll(() => focusedNode(page)).toBe('m-prompt-injection');

  // A wire: delete it.
  const wires = await edges(page).count();
  const wire = page.locator(`.react-flow__edge[data-id='${JSON.stringify(['m-prompt-injection', 'h-block-injection'])}'] path.react-flow__edge-path`);
  const w = (await wire.boundingBox())!;
  await page.mouse.click(w.x + w.width / 2, w.y + w.height / 2, { button: 'right' });
  await expect(menu(page)).toBeVisible();
  await menu(page).getByRole('menuitem', { name: 'Delete wire' }).click();
  await expect(edges(page)).toHaveCount(wires - 1);

  // The pane: "Add node here…" opens a list; the node lands where the pointer was.
  await page.getByTestId('fit-view').click();
  await page.getByTestId('zoom-out').click();
  await page.getByTestId('zoom-out').click();
  await viewSettled(page, '[data-testid="canvas"]');
  const at = await freePanePoint(page);
  await page.mouse.click(at.x, at.y, { button: 'right' });
  await expect(menu(page)).toBeVisible();
  await page.keyboard.press('Enter'); // "Add node here…"
  await expect(page.getByTestId('ctx-add-matcher')).toBeVisible();
  await page.getByTestId('ctx-add-matcher').click();
  await expect(nodes).toHaveCount(count + 2);
  const added = (await page.locator('[data-testid="canvas"] .react-flow__node.selected').boundingBox())!;
  expect(Math.abs(added.x + added.width / 2 - at.x)).toBeLessThan(8);
  expect(Math.abs(added.y + added.height / 2 - at.y)).toBeLessThan(8);

  // Escape closes without doing anything; a click outside too.
  const again = await freePanePoint(page);
  await page.mouse.click(again.x, again.y, { button: 'right' });
  await expect(menu(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu(page)).toHaveCount(0);
  await expect(nodes).toHaveCount(count + 2);
  await waitSaved(page);
});

test('by keyboard: Shift+F10 and the ContextMenu key on a focused node rename it and connect it; Escape gives the focus back', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('canvas').focus();
  await tabUntil(page, async () => (await focusedNode(page)) === 'ev-input', 'node ev-input', 60);

  await page.keyboard.press('Shift+F10');
  await expect(menu(page)).toBeVisible();
  expect(await focusedItem(page)).toBe('ctx-rename');
  await page.keyboard.press('Escape');
  await expect(menu(page)).toHaveCount(0);
  await expect.poll(() => focusedNode(page)).toBe('ev-input');

  // Rename in place.
  await page.keyboard.press('Shift+F10');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('node-rename')).toBeFocused();
  await page.keyboard.type('User input');
  await page.keyboard.press('Enter');
  await expect(node(page, 'ev-input')).toContainText('User input');

  // Connect to…: → opens the list of nodes the engine's wire rule accepts, ← goes back, Enter wires.
  const wires = await edges(page).count();
  await page.locator('.react-flow__node[data-id="ev-input"]').focus();
  await page.keyboard.press('ContextMenu');
  await expect(menu(page)).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  expect(await focusedItem(page)).toBe('ctx-connect');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('ctx-connect-h-redact-secrets')).toBeVisible();
  // Only valid targets: not itself, not another event.
  await expect(page.getByTestId('ctx-connect-ev-tool-before')).toHaveCount(0);
  await page.keyboard.press('ArrowLeft');
  expect(await focusedItem(page)).toBe('ctx-rename');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  while ((await focusedItem(page)) !== 'ctx-connect-h-redact-secrets') await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(menu(page)).toHaveCount(0);
  await expect(edges(page)).toHaveCount(wires + 1);
  await expect(page.locator(`.react-flow__edge[data-id='${JSON.stringify(['ev-input', 'h-redact-secrets'])}']`)).toHaveCount(1);
  await expect.poll(() => focusedNode(page)).toBe('ev-input');

  // Delete by menu; the focus goes back to the canvas.
  await page.keyboard.press('Shift+F10');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await expect(node(page, 'ev-input')).toHaveCount(0);
  await expect(page.getByTestId('canvas')).toBeFocused();
  // The pane's own menu by keyboard.
  await page.keyboard.press('Shift+F10');
  await expect(menu(page)).toBeVisible();
  expect(await focusedItem(page)).toBe('ctx-add');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('canvas')).toBeFocused();
});

test('in the debugger a handler\'s menu sets "Break when it fires", with its on state', async ({ page }) => {
  await openDebugger(page);
  await page.getByTestId('fit-view').click();
  await viewSettled(page, '.dbg-canvas-wrap');
  const handler = page.locator('.dbg-canvas-wrap .react-flow__node[data-id="h-block-injection"]');
  await handler.click({ button: 'right' });
  await expect(menu(page)).toBeVisible();
  const item = page.getByRole('menuitemcheckbox', { name: 'Break when it fires' });
  await expect(item).toHaveAttribute('aria-checked', 'false');
  await page.keyboard.press('Enter');
  await expect(menu(page)).toHaveCount(0);
  await page.getByTestId('tab-breakpoints').click();
  await expect(page.getByTestId('breakpoint').filter({ hasText: 'Block prompt injection' })).toHaveCount(1);
  await handler.click({ button: 'right' });
  await expect(page.getByRole('menuitemcheckbox', { name: 'Break when it fires' })).toHaveAttribute('aria-checked', 'true');
  await shot(page, 'context-menu-debugger');
  await page.keyboard.press('Enter');
  await handler.focus();
  await page.keyboard.press('Shift+F10');
  await expect(page.getByRole('menuitemcheckbox', { name: 'Break when it fires' })).toHaveAttribute('aria-checked', 'false');
  await page.keyboard.press('Escape');
  await expect.poll(() => focusedNode(page)).toBe('h-block-injection');
});
