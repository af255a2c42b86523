import { test, expect, type Page } from '@playwright/test';
import { node, openApp, shot } from './editorHelpers.ts';

// The app ships its Content Security Policy as a meta tag (index.html); `hookwire ui` serves the same as
// headers. Every screen is visited under it and any `securitypolicyviolation` (an eval probe, a data: image
// or font, an inline script) fails the test, as does a CSP message from a worker on the console.
// connect-src: the debugger's live view may reach a `hookwire serve` on this machine (loopback only).
const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; connect-src 'self' http://127.0.0.1:* http://localhost:*";

async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('__cspViolation', (text: string) => void seen.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(t: string): void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(`console: ${m.text()}`);
  });
  return seen;
}

test('every screen works under the strict CSP with no violation', async ({ page }) => {
  const violations = await watchViolations(page);
  await openApp(page);
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(meta).toBe(POLICY);

  // Edit mode: the canvas, the inspector of a node, the library, the export dialog.
  await node(page, 'ev-tool-before').click();
  await page.getByTestId('tab-library').click();
  await expect(page.getByTestId('library-item').first()).toBeVisible();
  await page.getByTestId('tab-palette').click();
  await page.getByTestId('open-export').click();
  await expect(page.getByTestId('export-dialog')).toBeVisible();
  await page.keyboard.press('Escape');

  // A code handler in Monaco, typed into with the keyboard until a type error draws a squiggle.
  await page.getByTestId('palette-handler:code').click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('export default function', { timeout: 20_000 });
  await expect(page.getByTestId('code-markers')).toContainText('No problems', { timeout: 20_000 });
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  // No space typed: React Flow's space-to-pan handler still swallows it in Monaco (issue 15).
  await page.keyboard.type('undeclaredName;');
  await expect(page.getByTestId('code-marker').first()).toContainText("Cannot find name 'undeclaredName'", { timeout: 20_000 });
  const squiggle = page.locator('.monaco-editor .squiggly-error').first();
  await expect(squiggle).toBeVisible();
  // Drawn by the app's CSS gradient, not by Monaco's data: SVG (which the CSP would refuse).
  expect(await squiggle.evaluate((el) => getComputedStyle(el).backgroundImage)).toContain('linear-gradient');
  await shot(page, 'csp-editor-code');
  // Undone (the name would throw at the module's top level), then run on a typed event in the sandbox worker.
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('code-markers')).toContainText('No problems', { timeout: 20_000 });
  await page.getByTestId('run-node').click();
  await expect(page.getByTestId('run-node-headline')).toHaveText('CONTINUE', { timeout: 20_000 });

  // Debug mode: the replay worker, the step view, the timeline, the trace library, the node editor tab.
  await page.getByTestId('mode-debug').click();
  await expect(page.getByTestId('step-view')).toBeVisible();
  await expect(page.getByTestId('timeline-row').first()).not.toHaveAttribute('data-outcome', '', { timeout: 20_000 });
  await expect(page.getByTestId('trace-library')).toBeVisible();
  await page.getByTestId('tab-edit-node').click();
  await page.getByTestId('tab-step').click();
  await shot(page, 'csp-debugger');

  // Fonts were loaded from files (no inlined data: font), and the favicon is a file too.
  const fontsLoaded = await page.evaluate(async () => {
    await document.fonts.ready;
    return [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family);
  });
  expect(fontsLoaded.join(' ')).toMatch(/Inter/);
  expect(await page.locator('link[rel="icon"]').getAttribute('href')).not.toMatch(/^data:/);

  expect(violations).toEqual([]);
});
