import { expect, test } from '@playwright/test';
import { shot } from './editorHelpers.ts';

/**
 * A first visit loads a few megabytes of scripts before the app can draw (2.6–3.7 s on a busy machine): the page
 * says it is loading meanwhile, in the app's own frame, instead of staying blank, and the app replaces it.
 */
test('while the scripts load, the page says so in the app frame; the app then replaces it', async ({ page }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // Hold the app's entry script until the loading screen has been seen.
  await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'commit' });
  const boot = page.getByTestId('boot');
  await expect(boot).toBeVisible();
  await expect(boot).toContainText('Hookwire');
  await expect(boot).toHaveAttribute('role', 'status');
  await expect(boot).toContainText('Loading the editor…');
  await shot(page, 'boot-loading');
  release();
  await expect(page.getByTestId('node-ev-tool-before')).toBeVisible();
  await expect(boot).toHaveCount(0);
});
