import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

/** Shared steps of the editor specs. Elements are found by data-testid or role. */
/**
 * Opens the app on the demo, ready to edit: by default it unfolds the inspector (at the 1440×900 test window it
 * opens folded, so the whole demo shows at zoom 1) and presses Fit, as a person does before working on the
 * pipeline, so every node stays in the pane while the inspector shows one (Playwright cannot click a node outside
 * it: it scrolls the pane's hidden overflow). `{ fit: false }` keeps the opening view and panels (for the tests of
 * that view).
 */
export async function openApp(page: Page, options: { fit?: boolean } = {}): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('node-ev-tool-before')).toBeVisible();
  if (options.fit === false) return;
  await openInspector(page);
  await page.getByTestId('fit-view').click();
}

/**
 * Unfolds the inspector by its rail's button when it is folded, as a person does to reach the pipeline's own
 * settings: in a window without room for it beside the demo (1440×900 among them) Edit opens with it folded.
 */
export async function openInspector(page: Page): Promise<void> {
  const toggle = page.getByTestId('right-toggle');
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await expect(page.getByTestId('inspector')).toBeVisible();
}

export async function newEmptyPipeline(page: Page): Promise<void> {
  await page.getByTestId('tab-library').click();
  await page.getByTestId('library-new').click();
  // The dialog asks for a name; Enter keeps the one it offers.
  await expect(page.getByTestId('new-pipeline-name')).toBeFocused();
  await expect(page.getByTestId('new-pipeline-name')).not.toHaveValue('');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('empty-canvas')).toBeVisible();
  await page.getByTestId('tab-palette').click();
}

/** Drags a palette entry onto the canvas at a point relative to the canvas. */
export async function dropFromPalette(page: Page, item: string, x: number, y: number): Promise<void> {
  await page.getByTestId(`palette-${item}`).dragTo(page.getByTestId('canvas'), { targetPosition: { x, y } });
}

function center(box: { x: number; y: number; width: number; height: number } | null): { x: number; y: number } {
  if (!box) throw new Error('element has no box');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

export const node = (page: Page, id: string): Locator => page.getByTestId(`node-${id}`);
export const edges = (page: Page): Locator => page.locator('.react-flow__edge');

/** Presses on a node's output handle and moves to another node's input handle; `release` ends the drag. */
export async function dragWire(page: Page, from: string, to: string, release = true): Promise<void> {
  const a = center(await node(page, from).locator('.react-flow__handle.source').boundingBox());
  const b = center(await node(page, to).locator('.react-flow__handle.target').boundingBox());
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 6 });
  await page.mouse.move(b.x, b.y, { steps: 6 });
  if (release) await page.mouse.up();
}

/** Drags a node by its title by (dx, dy) screen pixels. */
export async function dragNode(page: Page, id: string, dx: number, dy: number): Promise<void> {
  const box = await node(page, id).boundingBox();
  if (!box) throw new Error(`node ${id} is not on screen`);
  const x = box.x + box.width / 2;
  const y = box.y + 12;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 5 });
  await page.mouse.move(x + dx, y + dy, { steps: 5 });
  await page.mouse.up();
}

export async function waitSaved(page: Page): Promise<void> {
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-status', 'saved');
}

/** Screenshots to look at (1440x900), kept outside test-results/ so a parallel run cannot wipe them. */
export const SCREENS_DIR = process.env.HOOKWIRE_SCREENS ?? join(tmpdir(), 'hookwire-screens');

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENS_DIR, `${name}.png`) });
}

/** The open pipeline as the export dialog shows it (with layout), parsed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function exportedDoc(page: Page): Promise<any> {
  await page.getByTestId('open-export').click();
  const text = await page.getByTestId('export-preview').textContent();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('export-dialog')).toHaveCount(0);
  return JSON.parse(text ?? '');
}

/** Presses Tab until `reached()` holds (at most `max` presses): keyboard navigation only. */
export async function tabUntil(page: Page, reached: () => Promise<boolean>, what: string, max = 150): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await reached()) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${what}`);
}

/** Presses Tab until the focused element matches `selector`. */
export const tabTo = (page: Page, selector: string, max = 120): Promise<void> =>
  tabUntil(page, () => page.evaluate((sel) => !!document.activeElement?.matches(sel), selector), selector, max);

/** Adds a code handler from the palette and empties its Monaco editor (select all, Delete), focused for typing. */
export async function newCodeHandler(page: Page): Promise<Locator> {
  await page.getByTestId('palette-handler:code').click();
  const lines = page.locator('.monaco-editor .view-lines');
  await expect(lines).toContainText('export default function', { timeout: 20_000 });
  await lines.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  return lines;
}

/** The source of the (first) code handler of an exported document. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const codeSource = (doc: any): string => doc.nodes.find((n: { action?: { type: string } }) => n.action?.type === 'code').action.source;
