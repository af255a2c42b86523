import { expect, type Locator, type Page } from '@playwright/test';

/** Where the focus is: inside the dialog, and which element (by test id or tag). */
const focusIn = (dialog: Locator) => dialog.evaluate((d) => {
  const el = document.activeElement as HTMLElement | null;
  return { inside: !!el && d.contains(el), id: el ? (el.dataset.testid ?? `${el.tagName}:${el.textContent?.slice(0, 20)}`) : '' };
});

/**
 * The checks every modal dialog of the app must pass, driven by the keyboard: it is a modal <dialog> (the page
 * behind is inert), the focus moved in, Tab and Shift+Tab cycle inside it, and Escape closes it and gives the
 * focus back to `opener` (pass `escape: false` to leave it open, e.g. to go on with the dialog).
 */
export async function expectModalFocus(page: Page, dialog: Locator, opener: Locator, { escape = true } = {}): Promise<void> {
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((d) => d.matches('dialog:modal'))).toBe(true);
  expect((await focusIn(dialog)).inside).toBe(true);
  const start = (await focusIn(dialog)).id;
  // Round the dialog with Tab, then back with Shift+Tab: every stop is inside, and each round ends where it began.
  for (const keyName of ['Tab', 'Shift+Tab']) {
    const seen: string[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press(keyName);
      const f = await focusIn(dialog);
      expect(f.inside, `${keyName} ${i + 1} left the dialog (focus on ${f.id})`).toBe(true);
      seen.push(f.id);
      if (f.id === start) break;
    }
    expect(seen.at(-1), `${keyName} never came back to ${start}: ${seen.join(', ')}`).toBe(start);
    expect(seen.length).toBeGreaterThan(1);
  }
  if (!escape) return;
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}
