import { test, expect } from '@playwright/test';
import { openDebugger, stepView, typeStep } from './debuggerHelpers.ts';
import { shot } from './editorHelpers.ts';

test('the scrubber over the timeline: keys on it move the replay, a click along it and a drag go to that step', async ({ page }) => {
  await openDebugger(page);
  const scrubber = page.getByTestId('scrubber');
  const position = page.getByTestId('position');
  const count = Number(/of ([\d,]+)/.exec((await position.textContent())!)![1]!.replace(/,/g, ''));
  expect(count).toBeGreaterThan(10);
  await expect(scrubber).toHaveAttribute('max', String(count - 1));
  await expect(scrubber).toHaveAttribute('aria-valuetext', `Step 1 of ${count}`);

  // By keyboard, on the focused scrubber: the arrows a step (the debugger's own keys leave it alone), End, Home, Page Up.
  await scrubber.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(position).toHaveAttribute('data-position', '3');
  await expect(stepView(page, 3)).toBeVisible();
  await expect(scrubber).toHaveAttribute('aria-valuetext', `Step 4 of ${count}`);
  await page.keyboard.press('ArrowLeft');
  await expect(position).toHaveAttribute('data-position', '2');
  await page.keyboard.press('End');
  await expect(position).toHaveAttribute('data-position', String(count - 1));
  await expect(stepView(page, count - 1)).toBeVisible();
  await page.keyboard.press('Home');
  await expect(position).toHaveAttribute('data-position', '0');
  await page.keyboard.press('PageUp');
  await expect(position).toHaveAttribute('data-position', String(Math.round(count / 10)));
  await expect(scrubber).toBeFocused();

  // A click at the far end of the track goes to the last step; a drag back to the start goes through the steps to the first.
  const box = (await scrubber.boundingBox())!;
  await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
  await expect(position).toHaveAttribute('data-position', String(count - 1));
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
  const mid = Number(await position.getAttribute('data-position'));
  expect(mid).toBeGreaterThan(0);
  expect(mid).toBeLessThan(count - 1);
  await page.mouse.move(box.x + 1, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(position).toHaveAttribute('data-position', '0');
  await expect(stepView(page, 0)).toBeVisible();
  // The timeline's current row follows.
  await expect(page.locator('[data-testid="timeline-row"][aria-selected="true"]')).toContainText('1');
  await shot(page, 'debugger-scrubber');
});

test('marks under the scrubber: the block, the divergence, a label typed by keyboard; the focus ring is the app\'s', async ({ page }) => {
  await openDebugger(page);
  const mark = (kind: string) => page.locator(`[data-testid="scrub-mark"][data-kind="${kind}"]`);
  const steps = async (kind: string) => (await mark(kind).evaluateAll((ms) => ms.map((m) => Number(m.getAttribute('data-step'))))).sort((a, b) => a - b);
  // The demo blocks step 12, which was recorded as a continue.
  await expect.poll(() => steps('block')).toEqual([11]);
  await expect.poll(() => steps('divergent')).toEqual([11]);
  await expect(mark('label')).toHaveCount(0);
  // A mark sits where the thumb is when the scrubber is on its step.
  await typeStep(page, 11);
  const thumbX = await page.getByTestId('scrubber').evaluate((el) => {
    const r = el.getBoundingClientRect();
    const input = el as HTMLInputElement;
    return r.left + 8 + (r.width - 16) * (Number(input.value) / Number(input.max));
  });
  const markBox = (await mark('block').boundingBox())!;
  expect(Math.abs(markBox.x + markBox.width / 2 - thumbX)).toBeLessThan(2);

  // Label step 3 by keyboard: its mark comes with the replay of the labelled trace.
  await typeStep(page, 2);
  await page.getByTestId('label-decision').focus();
  await page.keyboard.press('ArrowDown');
  await page.getByTestId('label-note').focus();
  await page.keyboard.type('a prompt is never blocked');
  await page.keyboard.press('Enter');
  await expect.poll(() => steps('label')).toEqual([2]);

  // The keyboard focus on the scrubber is the app's ring (2px of the accent), as on the canvas nodes.
  await page.getByTestId('step-first').focus();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('scrubber')).toBeFocused();
  const ring = await page.getByTestId('scrubber').evaluate((el) => {
    const s = getComputedStyle(el);
    return { style: s.outlineStyle, width: s.outlineWidth };
  });
  expect(ring.style).toBe('solid');
  expect(ring.width).toBe('2px');
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'debugger-scrubber-marks-1280');
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'debugger-scrubber-marks-1440');
});
