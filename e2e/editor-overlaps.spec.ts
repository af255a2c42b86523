import { test, expect, type Locator } from '@playwright/test';
import { overlap, screenBoxes, viewSettled, type Box } from './canvasGeometry.ts';
import { dropFromPalette, node, openApp, shot } from './editorHelpers.ts';
import { key } from './debuggerHelpers.ts';

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}

/** The minimap, when it shows, covers no node of the canvas that is on screen. */
async function expectMinimapClear(page: import('@playwright/test').Page, what: string): Promise<void> {
  await viewSettled(page, '[data-testid="canvas"]');
  const minimap = page.locator('[data-testid="canvas"] .react-flow__minimap');
  if ((await minimap.count()) === 0) return;
  const m = await box(minimap);
  const pane = await box(page.getByTestId('canvas'));
  for (const [id, b] of await screenBoxes(page, '[data-testid="canvas"]')) {
    if (overlap(b, pane)) expect(overlap(m, b), `${what}: the minimap covers ${id}`).toBe(false);
  }
}

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('the minimap never covers a node, and the inspector shows whole what "Run node" runs on', async ({ page }) => {
    await openApp(page, { fit: false });
    // The library and palette unfold (Ctrl+B): the demo runs past the pane's right edge and the minimap shows.
    // At its bottom right it sat over the Audit log.
    await key(page, 'Control+b');
    await expect(page.locator('.workbench')).toHaveAttribute('data-left', 'open');
    await expectMinimapClear(page, 'the library open');
    await shot(page, 'editor-overlaps-minimap');

    // A handler picked (Fit first, as a person brings it on screen): the inspector opens beside it.
    await page.getByTestId('fit-view').click();
    await viewSettled(page, '[data-testid="canvas"]');
    await node(page, 'h-block-destructive').click();
    await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'h-block-destructive');
    await expectMinimapClear(page, 'the inspector open');
    // "Run on: a typed tool.before_call" was cut to "a typed tool.befor…" (whole on hover only): it wraps instead.
    const from = page.getByTestId('run-node-from');
    await expect(from).toHaveText('a typed tool.before_call');
    const cut = await from.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    expect(cut, 'what it runs on is cut').toBe(false);
    const f = await box(from), toggle = await box(page.getByTestId('run-node-sample-toggle'));
    expect(f.x + f.width, 'inside its button').toBeLessThanOrEqual(toggle.x + toggle.width + 1);
    expect(overlap(f, await box(page.getByTestId('run-node'))), 'under the Run node button').toBe(false);
    // It still opens and closes by keyboard.
    const toggleButton = page.getByTestId('run-node-sample-toggle');
    const open = await toggleButton.getAttribute('aria-expanded');
    await toggleButton.focus();
    await page.keyboard.press('Enter');
    await expect(toggleButton).toHaveAttribute('aria-expanded', open === 'true' ? 'false' : 'true');
    await shot(page, 'editor-overlaps-run-on');
  });

  test('a node dropped or pasted against the pane\'s edge is wholly in view, its problem badge too', async ({ page }) => {
    await openApp(page);
    await key(page, 'Control+b');
    await expect(page.locator('.workbench')).toHaveAttribute('data-left', 'open');
    await page.getByTestId('tab-palette').click();
    const pane = page.getByTestId('canvas');
    const nodes = page.locator('[data-testid="canvas"] .react-flow__node');
    const added = page.locator('[data-testid="canvas"] .react-flow__node.selected');
    // The badge sits over the card's top-right corner, 8 px outside it: the pane's edge cut it off.
    const badgeInPane = async (what: string) => {
      await viewSettled(page, '[data-testid="canvas"]');
      const badge = added.getByTestId('node-problem-badge');
      await expect(badge, `${what}: an unwired matcher shows its problem`).toHaveCount(1);
      const b = await box(badge), p = await box(pane);
      const inside = b.x >= p.x && b.y >= p.y && b.x + b.width <= p.x + p.width && b.y + b.height <= p.y + p.height;
      expect(inside, `${what}: the badge ${JSON.stringify(b)} is outside the pane ${JSON.stringify(p)}`).toBe(true);
    };
    const count = await nodes.count();
    const p = await box(pane);
    // Dropped in the pane's top-right corner: the node is centred on the pointer, half of it past the edge.
    await dropFromPalette(page, 'matcher', p.width - 4, 4);
    await expect(nodes).toHaveCount(count + 1);
    await expect(added).toHaveCount(1);
    await badgeInPane('dropped');
    // Pasted (Ctrl+C, Ctrl+V): each paste lands 40 px right of and below the last, past the edge.
    await key(page, 'Control+c');
    for (let i = 1; i <= 2; i++) {
      await page.keyboard.press('Control+v');
      await expect(nodes).toHaveCount(count + 1 + i);
      await expect(added).toHaveCount(1);
      await badgeInPane(`paste ${i}`);
    }
    await shot(page, 'editor-overlaps-badge');
  });
});
