import { test, expect } from '@playwright/test';
import { openDebugger, stepView } from './debuggerHelpers.ts';
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
