import { test, expect, type Page } from '@playwright/test';
import { newEmptyPipeline, openApp, shot, waitSaved } from './editorHelpers.ts';

/** Each canvas node's place in flow coordinates and its size. */
async function flowBoxes(page: Page): Promise<{ id: string; x: number; y: number; width: number; height: number }[]> {
  return page.locator('[data-testid="canvas"] .react-flow__node').evaluateAll((els) => els.map((e) => {
    const el = e as HTMLElement;
    const m = /translate\(\s*(-?[\d.]+)px,\s*(-?[\d.]+)px\)/.exec(el.style.transform)!;
    return { id: el.dataset.id!, x: Number(m[1]), y: Number(m[2]), width: el.offsetWidth, height: el.offsetHeight };
  }));
}

const input = (page: Page) => page.getByTestId('quick-add-input');
const active = (page: Page) => page.locator('[data-testid="quick-add-option"][aria-selected="true"]');

/** Ctrl+K, the search typed, then the keys given (Enter adds): returns the node added. */
async function quickAdd(page: Page, text: string, ...keys: string[]) {
  const before = new Set((await flowBoxes(page)).map((b) => b.id));
  await page.keyboard.press('Control+k');
  await expect(input(page)).toBeFocused();
  await page.keyboard.type(text);
  for (const k of keys) await page.keyboard.press(k);
  await expect(page.getByTestId('quick-add')).toHaveCount(0);
  await expect(page.locator('[data-testid="canvas"] .react-flow__node')).toHaveCount(before.size + 1);
  await page.waitForTimeout(150); // measured
  const added = (await flowBoxes(page)).find((b) => !before.has(b.id))!;
  // The keyboard is on the new node, and it is the one selected (the inspector shows it).
  await expect(page.locator(`.react-flow__node[data-id="${added.id}"]`)).toBeFocused();
  return added;
}

test('Ctrl+K quick-add: type a node\'s name, pick with the arrows, Enter adds it in flow order with the keyboard on it', async ({ page }) => {
  await openApp(page);
  await newEmptyPipeline(page);
  await page.getByTestId('canvas').click({ position: { x: 300, y: 300 } });
  const inPalette = await page.locator('.palette-item').count();

  // The search: words in any order; the label that starts with the text comes first.
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('quick-add')).toBeVisible();
  await expect(input(page)).toBeFocused();
  // It offers what the palette offers.
  expect(inPalette).toBeGreaterThan(20);
  await expect(page.getByTestId('quick-add-option')).toHaveCount(inPalette);
  await page.keyboard.type('call tool');
  await expect(page.getByTestId('quick-add-option')).toHaveCount(2);
  await expect(active(page)).toHaveAttribute('data-key', 'event:tool.before_call');
  await expect(input(page)).toHaveAttribute('aria-activedescendant', (await active(page).getAttribute('id'))!);
  await page.keyboard.press('ArrowDown');
  await expect(active(page)).toHaveAttribute('data-key', 'event:tool.after_call');
  await page.keyboard.press('ArrowDown'); // wraps
  await expect(active(page)).toHaveAttribute('data-key', 'event:tool.before_call');
  await shot(page, 'quick-add-open');
  // Nothing matches: said; Enter adds nothing; Escape closes and nothing was added.
  await page.keyboard.type(' zzz');
  await expect(page.getByTestId('quick-add-option')).toHaveCount(0);
  await expect(page.getByTestId('quick-add-status')).toHaveText('No node matches “call tool zzz”.');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('quick-add')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('quick-add')).toHaveCount(0);
  await expect(page.locator('[data-testid="canvas"] .react-flow__node')).toHaveCount(0);

  // An event, a matcher and a handler by typing alone: each lands one column on, level with the one before.
  const ev = await quickAdd(page, 'tool bef', 'Enter');
  expect(ev.id).toMatch(/^ev/);
  const m = await quickAdd(page, 'match', 'Enter');
  // "blo" lists Block first; ↓ goes to Terminate, ↑ back to Block.
  const h = await quickAdd(page, 'blo', 'ArrowDown', 'ArrowUp', 'Enter');
  expect(m.x, 'the matcher is right of its event').toBeGreaterThan(ev.x + ev.width);
  expect(h.x, 'the handler is right of the matcher').toBeGreaterThan(m.x + m.width);
  expect(Math.abs(m.y - ev.y), 'the matcher is level with the event').toBeLessThan(2);
  expect(Math.abs(h.y - m.y), 'the handler is level with the matcher').toBeLessThan(2);
  await expect(page.getByTestId('handler-kind')).toHaveValue('block');
  // The keyboard is on the new handler: F2 renames it at once.
  await page.keyboard.press('F2');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('No rm');
  await page.keyboard.press('Enter');
  await expect(page.locator(`.react-flow__node[data-id="${h.id}"]`)).toContainText('No rm');
  await waitSaved(page);
  await shot(page, 'quick-add-flow');
});

test('Ctrl+K is the editor\'s (not the read-only debugger canvas\'s), and the help lists it', async ({ page }) => {
  await openApp(page);
  await page.keyboard.press('?');
  await expect(page.getByTestId('help-editor-keys')).toContainText('Ctrl/⌘+K');
  await page.keyboard.press('Escape');
  await page.getByTestId('mode-debug').click();
  await expect(page.getByTestId('step-view')).toBeVisible();
  await page.keyboard.press('Control+k');
  await page.waitForTimeout(200);
  await expect(page.getByTestId('quick-add')).toHaveCount(0);
});

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('a node added by Ctrl+K lands in sight, even as the inspector it opens narrows the canvas', async ({ page }) => {
    // The demo fills the canvas at zoom 1 and the inspector starts folded: the code handler's column spot is
    // below the view, and selecting it unfolds the (wide) code inspector. It stayed below the pane before.
    await openApp(page, { fit: false });
    await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+k');
    await expect(input(page)).toBeFocused();
    await page.keyboard.type('code');
    await expect(active(page)).toHaveAttribute('data-key', 'handler:code');
    await page.keyboard.press('Enter');
    const added = page.locator('[data-testid="canvas"] .react-flow__node.selected');
    await expect(added).toBeFocused();
    await expect(page.locator('.monaco-editor .view-lines')).toContainText('export default function', { timeout: 20_000 });
    const inside = async (): Promise<string> => {
      const pane = (await page.getByTestId('canvas').boundingBox())!;
      const box = (await added.boundingBox())!;
      const out = [box.x < pane.x && 'left', box.y < pane.y && 'top', box.x + box.width > pane.x + pane.width && 'right', box.y + box.height > pane.y + pane.height && 'bottom'].filter(Boolean);
      return out.length === 0 ? 'inside' : `out at ${out.join(', ')}`;
    };
    await expect.poll(inside).toBe('inside');
    await shot(page, 'quick-add-code-1280');
  });
});
