import { test, expect } from '@playwright/test';
import { node, openApp, shot } from './editorHelpers.ts';

test('a code handler is edited in Monaco (loaded lazily, offline) with type errors as markers', async ({ page }) => {
  // Monaco, its TypeScript worker and three sandbox runs: at a load of 20 on two cores this passes the default minute.
  test.setTimeout(120_000);
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await openApp(page);
  // The canvas is up without Monaco: no editor chunk has been fetched yet.
  expect(requests.some((u) => /MonacoEditor|editor\.api/.test(u))).toBe(false);

  await page.getByTestId('palette-handler:code').click();
  await expect(node(page, 'code')).toBeVisible();
  const editor = page.locator('.monaco-editor');
  await expect(editor).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('export default function');
  // The template type-checks against the handler API.
  await expect(page.getByTestId('code-markers')).toContainText('No problems', { timeout: 20_000 });

  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  // One line: Monaco's auto-closing brackets are typed over, as they are for a person typing.
  await page.keyboard.insertText('export default function (ctx: HandlerContext): HandlerResult { const n: number = ctx.event.type; return { decision: "block_action", reason: "n=" + n }; }');
  const marker = page.getByTestId('code-marker').first();
  await expect(marker).toContainText("Type 'string' is not assignable to type 'number'", { timeout: 20_000 });
  await expect(marker).toHaveAttribute('data-severity', 'error');
  await expect(page.locator('.monaco-editor .squiggly-error').first()).toBeVisible();
  await shot(page, 'editor-code');

  // Run node (the inspector's one run panel): no trace is open, so it runs on the typed event, in the real
  // QuickJS sandbox (types are stripped, so it runs).
  await expect(page.getByTestId('run-node-from')).toHaveText('a typed tool.before_call');
  await page.getByTestId('run-node').click();
  await expect(page.getByTestId('run-node-headline')).toHaveText('BLOCK_ACTION · n=tool.before_call', { timeout: 20_000 });
  // Another event type, typed into the panel's field.
  await page.getByTestId('run-node-sample-toggle').click();
  await page.getByTestId('run-node-type').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('model.after_call');
  await page.getByTestId('run-node').click();
  await expect(page.getByTestId('run-node-headline')).toHaveText('BLOCK_ACTION · n=model.after_call');
  await expect(page.getByTestId('run-node-state-used')).toHaveText('State before: as typed, {}');
  await page.getByTestId('run-node-panel').scrollIntoViewIfNeeded();
  await shot(page, 'editor-code-run');

  // The source is in the document: the node summary counts its lines, and undo in the app reverts it.
  await expect(node(page, 'code')).toContainText('TS · 1 line');
  await page.getByTestId('code-language').selectOption('js');
  await expect(node(page, 'code')).toContainText('JS · 1 line');
  // As JavaScript the type annotations are a syntax error: the run says so, and where.
  await page.getByTestId('run-node').click();
  await expect(page.getByTestId('run-node-headline')).toHaveText('Could not run');
  await expect(page.getByTestId('run-node-result')).toContainText('code_error: Unexpected token, expected "," (line 1, column 29)');

  // Nothing was fetched from outside the app (no CDN).
  const origin = new URL(page.url()).origin;
  expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);
});

test('the TypeScript worker is warmed while the template is read: its first request is answered before any key is pressed', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('palette-handler:code').click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('export default function', { timeout: 20_000 });
  // No key pressed in the editor: the warm-up request (a completion at the model's start, at idle) alone has
  // had its answer from the worker (MonacoEditor warmWorker sets data-ts-warm).
  await expect(page.getByTestId('monaco-host')).toHaveAttribute('data-ts-warm', 'done', { timeout: 30_000 });
});
