import { test, expect } from '@playwright/test';
import { node, openApp, shot } from './editorHelpers.ts';

test('a syntax error in a code handler is in the problems list with its line, from the sandbox worker; clicking it selects the node', async ({ page }) => {
  await openApp(page);
  await expect(page.getByTestId('error-count')).toHaveText('0 errors');

  await page.getByTestId('palette-handler:code').click();
  await expect(node(page, 'code')).toBeVisible();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('export default function', { timeout: 20_000 });
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText('export default () => ({ decision: "continue" });');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.insertText('const broken = ;');

  // The engine's own code_error, compiled in the sandbox worker, beside the page's problems.
  const item = page.getByTestId('problem-item').filter({ hasText: 'code_error' });
  await expect(item).toHaveCount(1, { timeout: 20_000 });
  await expect(item).toHaveAttribute('data-node', 'code');
  await expect(item).toContainText(/line 2, column \d+/);
  await expect(page.getByTestId('error-count')).toHaveText('1 error');
  await expect(node(page, 'code')).toHaveClass(/has-error/);
  await expect(node(page, 'code').getByTestId('node-problem-badge')).toHaveAttribute('title', /Error: .*line 2/);
  // Monaco's own markers say the same, in the editor.
  await expect(page.getByTestId('code-marker').first()).toContainText('Expression expected', { timeout: 20_000 });
  await shot(page, 'editor-problems-code-error');

  // Select something else, then the problem: the code node is selected and inspected again.
  await node(page, 'ev-tool-before').click();
  await expect(page.getByTestId('code-field')).toHaveCount(0);
  await item.click();
  await expect(node(page, 'code')).toHaveClass(/selected/);
  await expect(page.getByTestId('code-field')).toBeVisible();

  // Fixing the code clears it (the check runs again after the edit).
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText('1;');
  await expect(page.getByTestId('problem-item').filter({ hasText: 'code_error' })).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('error-count')).toHaveText('0 errors');
});

test('[V11] a mistyped event pattern shows a did-you-mean warning in the Problems panel', async ({ page }) => {
  await openApp(page);
  await node(page, 'ev-tool-before').click();
  await page.getByTestId('event-pattern').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await expect(page.getByTestId('problem-item').filter({ hasText: 'did you mean "tool.before_call"' })).toHaveCount(1);
  await shot(page, 'editor-misspelled-event');
});
