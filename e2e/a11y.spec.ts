import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test, expect, type Page } from '@playwright/test';
import { openDebugger } from './debuggerHelpers.ts';
import { openApp } from './editorHelpers.ts';

/**
 * axe-core on every screen: no serious or critical violation. axe is put into the page through the
 * DevTools protocol (page.evaluate), which the app's strict CSP does not govern; @axe-core/playwright would
 * do the same but needs Node 22.
 */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation { id: string; impact: string; help: string; nodes: { target: string[]; any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } }[] }[] }

const colors = (n: Violation['nodes'][number]) => {
  const d = n.any[0]?.data;
  return d?.fgColor ? ` [${d.fgColor} on ${d.bgColor}: ${d.contrastRatio}]` : '';
};

async function seriousViolations(page: Page, screen: string): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }).then((r) => r.violations)`)) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${screen}: ${v.id} (${v.impact}) ×${v.nodes.length}: ${v.help} — ${v.nodes.slice(0, 40).map((n) => n.target.join(' ') + colors(n)).join(' | ')}`);
}

test('no serious or critical axe-core violation in the editor: canvas, inspector, library, dialogs', async ({ page }) => {
  await openApp(page);
  const found: string[] = [];
  found.push(...(await seriousViolations(page, 'editor')));
  await page.getByTestId('node-ev-tool-before').click({ button: 'right' });
  await expect(page.getByRole('menu')).toBeVisible();
  found.push(...(await seriousViolations(page, 'canvas context menu')));
  await page.keyboard.press('Escape');
  await page.getByTestId('node-h-redact-secrets').click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'h-redact-secrets');
  found.push(...(await seriousViolations(page, 'editor + inspector')));
  await page.getByTestId('tab-library').click();
  found.push(...(await seriousViolations(page, 'library')));
  await page.getByTestId('open-export').click();
  found.push(...(await seriousViolations(page, 'export dialog')));
  await page.keyboard.press('Escape');
  await page.getByTestId('open-import').click();
  found.push(...(await seriousViolations(page, 'import dialog')));
  await page.keyboard.press('Escape');
  expect(found).toEqual([]);
});

test('no serious or critical axe-core violation on the history, the Problems list, the full-screen code editor and Compare with a version', async ({ page }) => {
  // Monaco and four axe runs: 57 s of the default 60 at load 15 here.
  test.setTimeout(150_000);
  await openApp(page);
  const found: string[] = [];
  await page.getByTestId('palette-handler:code').click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('export default function', { timeout: 20_000 });
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-status', 'saved');
  await page.getByTestId('tab-history').click();
  await expect(page.getByTestId('history-item')).toHaveCount(2);
  found.push(...(await seriousViolations(page, 'history')));
  await page.keyboard.press('Control+Shift+M');
  await expect(page.getByTestId('problem-item').first()).toBeFocused();
  found.push(...(await seriousViolations(page, 'problems list focused')));
  await page.getByTestId('code-expand').click();
  await expect(page.getByTestId('code-box')).toHaveAttribute('data-expanded', 'true');
  found.push(...(await seriousViolations(page, 'full-screen code editor')));
  await page.keyboard.press('Escape');
  await page.getByTestId('mode-debug').click();
  await page.getByTestId('tab-compare').click();
  await expect(page.getByTestId('compare-version')).toBeVisible();
  found.push(...(await seriousViolations(page, 'compare with a version')));
  expect(found).toEqual([]);
});

test('no serious or critical axe-core violation in the debugger: step, edit node, every bottom tab', async ({ page }) => {
  await openDebugger(page);
  const found: string[] = [];
  found.push(...(await seriousViolations(page, 'debugger')));
  for (const tab of ['breakpoints', 'compare', 'coverage'] as const) {
    await page.getByTestId(`tab-${tab}`).click();
    found.push(...(await seriousViolations(page, `debugger ${tab}`)));
  }
  await page.getByTestId('tab-edit-node').click();
  found.push(...(await seriousViolations(page, 'debugger edit node')));
  expect(found).toEqual([]);
  // A tablist holds only tabs, whatever else shows beside them (the replay's progress note comes and goes, so
  // axe sees it only when a scan catches it).
  const strays = await page.locator('[role="tablist"] > :not([role="tab"])').evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 80)));
  expect(strays).toEqual([]);
});

test('canvas nodes and wires have names a screen reader can say, and in the debugger what each did on the step', async ({ page }) => {
  await openApp(page);
  await expect(page.getByRole('group', { name: 'Handler Block destructive commands, block' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Matcher Dangerous tools' })).toBeVisible();
  await expect(page.locator('.react-flow__edge[aria-label="Wire from Dangerous tools to Destructive command"]')).toHaveCount(1);
  // Tab reaches a node: what is focused has its name (not the card's text run together, nor an internal id).
  await page.locator('.react-flow__node').first().focus();
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')).toMatch(/^(Event|Matcher|Handler) \S/);
  await page.getByTestId('mode-debug').click();
  await page.getByTestId('goto-step').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('12');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('group', { name: 'Handler Block destructive commands, block: decided this step' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Handler Block prompt injection, block' })).toBeVisible();
  expect(await seriousViolations(page, 'debugger step 12')).toEqual([]);
});
