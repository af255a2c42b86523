import { test, expect } from '@playwright/test';
import { exportedDoc, newCodeHandler, node, openApp, shot, waitSaved } from './editorHelpers.ts';

// The fixes of a new user's walk through the editor (#34), each with the real keyboard.

test('? opens the keyboard help (not while typing in a field); Escape closes it', async ({ page }) => {
  await openApp(page);
  await node(page, 'h-audit-log').click();
  await page.getByTestId('handler-name').click();
  await page.keyboard.press('End');
  await page.keyboard.type('?');
  await expect(page.getByTestId('handler-name')).toHaveValue(/\?$/);
  await expect(page.getByTestId('help-dialog')).toHaveCount(0);
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  await expect(page.getByTestId('help-dialog')).toBeVisible();
  await expect(page.getByTestId('help-editor-keys')).toContainText('Ctrl/⌘+Shift+M');
  await expect(page.getByTestId('help-debugger-keys')).toContainText('next step');
  await shot(page, 'editor-help');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('help-dialog')).toHaveCount(0);
  // The top bar's button opens it too.
  await page.getByTestId('open-help').click();
  await expect(page.getByTestId('help-dialog')).toBeVisible();
});

test('Problems name the node by its name and id, and follow a rename', async ({ page }) => {
  // Monaco and the sandbox worker load first: slow on a busy machine.
  test.setTimeout(120_000);
  await openApp(page);
  await newCodeHandler(page);
  await page.keyboard.type('let broken = ;');
  const item = page.getByTestId('problem-item').filter({ hasText: 'code_error' });
  await expect(item).toHaveCount(1, { timeout: 20_000 });
  const name = await page.getByTestId('handler-name').inputValue();
  await expect(item.locator('.where')).toHaveText(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(code\\):1:\\d+ · code_error$`));
  await page.getByTestId('handler-name').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Dangerous tools');
  await expect(item.locator('.where')).toHaveText(/^Dangerous tools \(code\):1:\d+ · code_error$/);
  await shot(page, 'editor-problems-named');
});

test("the budget handler's default reason follows its state key; its export has one amount", async ({ page }) => {
  await openApp(page);
  await page.getByTestId('palette-handler:budget').click();
  await expect(page.getByTestId('budget-reason')).toHaveValue('Budget of {{state.calls}} calls exceeded');
  await page.getByTestId('budget-key').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('tokens');
  await expect(page.getByTestId('budget-reason')).toHaveValue('Budget of {{state.tokens}} tokens exceeded');
  await page.getByTestId('budget-amount-path').click();
  await page.keyboard.type('payload.usage.output_tokens');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('budget-amount')).toHaveValue('');
  const doc = await exportedDoc(page);
  const action = doc.nodes.find((n: { action?: { type: string; key?: string } }) => n.action?.type === 'budget' && n.action.key === 'tokens').action;
  expect(action).toMatchObject({ key: 'tokens', amount_path: 'payload.usage.output_tokens', reason: 'Budget of {{state.tokens}} tokens exceeded' });
  expect(action).not.toHaveProperty('amount');
  // A reason the user wrote stays when the key changes again.
  await page.getByTestId('budget-reason').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Too many tokens');
  await page.getByTestId('budget-key').click();
  await page.keyboard.type('_out');
  await expect(page.getByTestId('budget-reason')).toHaveValue('Too many tokens');
});

test('a code handler gets a code editor of a usable width', async ({ page }) => {
  await openApp(page);
  await newCodeHandler(page);
  const editor = await page.locator('.monaco-editor').boundingBox();
  // 40% of the 1440 px window (it was ~330 px).
  expect(editor!.width).toBeGreaterThanOrEqual(500);
  await shot(page, 'editor-code-width');
});

test('typing is saved once the keys pause, and closing right after typing asks first or has saved', async ({ page, context }) => {
  await openApp(page);
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.getByTestId('pipeline-name').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' typed fast');
  await waitSaved(page);
  await page.reload();
  await expect(page.getByTestId('pipeline-title')).toHaveText(/ typed fast$/);

  // Close straight after the last key: either the page asks (something is unsaved) or it had saved it.
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.getByTestId('pipeline-name').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' and closed');
  const asked: string[] = [];
  page.on('dialog', (d) => {
    asked.push(d.type());
    void d.dismiss();
  });
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => asked.length > 0 || page.isClosed()).toBe(true);
  if (page.isClosed()) {
    const again = await context.newPage();
    await again.goto('/');
    await expect(again.getByTestId('pipeline-title')).toHaveText(/ typed fast and closed$/);
  } else {
    // Staying keeps the edit, and it is saved.
    expect(asked).toEqual(['beforeunload']);
    await expect(page.getByTestId('pipeline-name')).toHaveValue(/ typed fast and closed$/);
    await waitSaved(page);
    await page.reload();
    await expect(page.getByTestId('pipeline-title')).toHaveText(/ typed fast and closed$/);
  }
});
