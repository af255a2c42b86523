import { test, expect, type Page } from '@playwright/test';
import { shot, tabTo } from './editorHelpers.ts';
import { key, openDebugger, stepView } from './debuggerHelpers.ts';

// The debugger's single keys (Space plays, arrows step) are for the trace, not for a control the keyboard is on:
// Space and Enter press the focused button or tab, arrows move between tabs, and the focus stays where it was.

const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

test('Space presses the focused button or tab in the debugger instead of playing the trace, and the focus stays on it', async ({ page }) => {
  await openDebugger(page);
  await expect(stepView(page, 0)).toBeVisible();

  // A tab strip is one Tab stop, the selected tab (WAI-ARIA tabs): Tab from it leaves the strip, Shift+Tab
  // comes back to it, and the other tabs are reached with the arrows.
  await page.getByTestId('tab-timeline').focus();
  await page.keyboard.press('Tab');
  expect(await focusedTestId(page)).not.toMatch(/^tab-/);
  await page.keyboard.press('Shift+Tab');
  expect(await focusedTestId(page)).toBe('tab-timeline');
  await expect(page.getByTestId('tab-compare')).toHaveAttribute('tabindex', '-1');

  // Space on the focused Compare tab (a screen reader can move there without the arrows): the tab opens, the
  // trace stays on step 1.
  await page.getByTestId('tab-compare').focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('tab-compare')).toHaveAttribute('aria-selected', 'true');
  expect(await focusedTestId(page)).toBe('tab-compare');
  await expect(page.getByTestId('tab-compare')).toHaveAttribute('tabindex', '0');
  await expect(page.getByTestId('tab-timeline')).toHaveAttribute('tabindex', '-1');
  await expect(page.getByTestId('play')).toHaveCount(0); // the timeline's controls are behind the other tab
  await expect(stepView(page, 0)).toBeVisible();

  // Arrows on a tab move to the next tab (and open it), not to the next step.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tab-coverage')).toHaveAttribute('aria-selected', 'true');
  expect(await focusedTestId(page)).toBe('tab-coverage');
  await page.keyboard.press('Home');
  await expect(page.getByTestId('tab-timeline')).toHaveAttribute('aria-selected', 'true');
  expect(await focusedTestId(page)).toBe('tab-timeline');
  await expect(stepView(page, 0)).toBeVisible();

  // A button reached with Tab: Space presses it (Next block goes to step 12) and the focus stays on it.
  await tabTo(page, '[data-testid="next-block"]');
  await page.keyboard.press('Space');
  await expect(stepView(page, 11)).toBeVisible();
  expect(await focusedTestId(page)).toBe('next-block');
  // An arrow with the focus on that button steps the trace, and the keyboard user keeps their place.
  await page.keyboard.press('ArrowRight');
  await expect(stepView(page, 12)).toBeVisible();
  expect(await focusedTestId(page)).toBe('next-block');
  await shot(page, 'debugger-keyboard-controls');

  // The Step / Edit node tabs: Space opens Edit node, ArrowLeft comes back to Step.
  await page.getByTestId('tab-step').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tab-edit-node')).toHaveAttribute('aria-selected', 'true');
  expect(await focusedTestId(page)).toBe('tab-edit-node');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('tab-step')).toHaveAttribute('aria-selected', 'true');

  // With no control focused the keys still drive the trace: Space plays, Escape pauses.
  const before = await page.getByTestId('step-view').getAttribute('data-index');
  await key(page, 'Space');
  await expect(page.getByTestId('step-view')).not.toHaveAttribute('data-index', before!);
  await key(page, 'Escape');
});

test('a button clicked with the mouse still lets the keys drive the trace, as before', async ({ page }) => {
  await openDebugger(page);
  await page.getByTestId('next-block').click();
  await expect(stepView(page, 11)).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(stepView(page, 12)).toBeVisible();
  // The clicked button lets the focus go, so Space is the trace's play key again.
  expect(await focusedTestId(page)).toBe('BODY');
});

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test("Tab goes from the debugger's canvas straight to its nodes: its wires, which do nothing there, are no stops", async ({ page }) => {
    await openDebugger(page);
    await page.getByTestId('fit-view').click();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('canvas')).toBeFocused();
    await page.keyboard.press('Tab');
    // The first stop inside is a node (it was the first of the demo's nine wires).
    const focused = page.locator(':focus');
    await expect(focused).toHaveClass(/react-flow__node/);
    await expect(focused).toHaveAttribute('aria-label', /^Event tool\.before_call/);
    // Tabbing on through the canvas meets nodes and their breakpoint dots only, then the step panel.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const where = await page.evaluate(() => {
        const a = document.activeElement as HTMLElement | null;
        return a?.closest('.react-flow__edge') ? 'wire' : a?.closest('[data-testid="canvas"]') ? 'canvas' : 'out';
      });
      expect(where).not.toBe('wire');
      if (where === 'out') break;
    }
    await expect(page.getByTestId('right-toggle')).toBeFocused();
  });
});
