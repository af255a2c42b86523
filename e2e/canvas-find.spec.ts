import { expect, test, type Locator, type Page } from '@playwright/test';
import { exportPipelineText } from '../web/model/exportPipeline.ts';
import { bigPipeline } from './measure/bigPipeline.ts';
import { node } from './editorHelpers.ts';

/**
 * A team's pipeline is not the demo: 300 nodes and 400 wires (e2e/measure/bigPipeline.ts). Fitted on a
 * 1280×720 screen its node text is a few pixels high, so a node is found by name (Ctrl/⌘+F on the canvas, or
 * Find beside Fit), and the view goes to the selection (Shift+2) and back to the whole (Shift+1), in Edit and
 * in Debug.
 */
const BIG = bigPipeline();

async function openBig(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await expect(page.getByTestId('node-ev-tool-before')).toBeVisible();
  await page.getByTestId('open-import').click();
  await page.getByTestId('import-file').setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(exportPipelineText(BIG, { layout: true })) });
  await page.getByTestId('import-confirm').click();
  await expect(page.getByTestId('pipeline-title')).toHaveText(BIG.name);
  await expect(page.locator('.react-flow__node')).toHaveCount(BIG.nodes.length);
}

/** The node's box lies inside the canvas pane (what a person can see of it). */
async function inPane(page: Page, target: Locator): Promise<boolean> {
  const pane = await page.getByTestId('canvas').boundingBox();
  const box = await target.boundingBox();
  if (!pane || !box) return false;
  return box.x >= pane.x && box.y >= pane.y && box.x + box.width <= pane.x + pane.width && box.y + box.height <= pane.y + pane.height;
}

const wrapper = (page: Page, id: string): Locator => page.locator(`.react-flow__node[data-id="${id}"]`);

const width = async (target: Locator): Promise<number> => (await target.boundingBox())?.width ?? 0;

test('in a 300-node pipeline at 1280×720 a node is found by name with the keyboard, and the view zooms to it and back', async ({ page }) => {
  test.slow(); // a 300-node import and render on a machine other sessions share
  await openBig(page);
  await page.getByTestId('fit-view').click();
  const target = node(page, 'h-137');
  // Fitted, the node is a sliver: less than half its width at zoom 1.
  await expect.poll(() => width(target)).toBeLessThan(120);
  const fitted = await width(target);

  await page.keyboard.press('ControlOrMeta+f');
  await expect(page.getByTestId('find-node-input')).toBeFocused();
  await page.keyboard.type('handler 13');
  // 'Handler 13' first, then 'Handler 130' … 'Handler 139': the rows drawn are the best 50 at most.
  await expect(page.getByTestId('find-node-option').first()).toHaveAttribute('data-id', 'h-13');
  await page.keyboard.type('7');
  await expect(page.getByTestId('find-node-option')).toHaveCount(1);
  await expect(page.getByTestId('find-node-status')).toContainText('1 of 300');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('find-node')).toHaveCount(0);
  // Selected, with the keyboard on it, in view and readable.
  await expect(wrapper(page, 'h-137')).toBeFocused();
  await expect(page.locator('.react-flow__node.selected')).toHaveAttribute('data-id', 'h-137');
  await expect.poll(() => inPane(page, target)).toBe(true);
  await expect.poll(() => width(target)).toBeGreaterThan(fitted * 2);

  // Shift+1: the whole pipeline again; Shift+2: back to the selection.
  await page.keyboard.press('Shift+Digit1');
  await expect.poll(() => width(target)).toBeLessThan(fitted + 2);
  await page.keyboard.press('Shift+Digit2');
  await expect.poll(() => width(target)).toBeGreaterThan(fitted * 2);
  await expect.poll(() => inPane(page, target)).toBe(true);

  // Many matches: the list draws 50 rows and says how many there are.
  await page.keyboard.press('ControlOrMeta+f');
  await page.keyboard.type('handler');
  await expect(page.getByTestId('find-node-option')).toHaveCount(50);
  await expect(page.getByTestId('find-node-status')).toContainText('First 50 of 150 matches');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('find-node')).toHaveCount(0);
});

test('in Debug, Find beside Fit goes to a matcher of the 300-node pipeline by mouse and keyboard', async ({ page }) => {
  test.slow();
  await openBig(page);
  await page.getByTestId('mode-debug').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(BIG.nodes.length);
  await page.getByTestId('fit-view').click();
  await page.getByTestId('find-node-open').click();
  await expect(page.getByTestId('find-node-input')).toBeFocused();
  await page.keyboard.type('matcher 11');
  await page.keyboard.press('ArrowDown'); // 'Matcher 11', then 'Matcher 110': the second
  await expect(page.getByTestId('find-node-option').nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('find-node-option').nth(1)).toHaveAttribute('data-id', 'm-110');
  await page.keyboard.press('Enter');
  const target = node(page, 'm-110');
  await expect(wrapper(page, 'm-110')).toBeFocused();
  await expect(page.locator('.react-flow__node.selected')).toHaveAttribute('data-id', 'm-110');
  await expect.poll(() => inPane(page, target)).toBe(true);
  await expect.poll(() => width(target)).toBeGreaterThan(100);
});
