import { test, expect } from '@playwright/test';
import { demoPipeline } from '../web/demo/demoPipeline.ts';
import { importPipelineAndDebug, key, stepView } from './debuggerHelpers.ts';
import { newCodeHandler, node, openApp, shot, waitSaved } from './editorHelpers.ts';

/**
 * A pipeline with a code handler that does not compile never leaves the debugger waiting: the replay runs
 * with the last version that loaded (said so), or the debugger says plainly that it cannot replay, and the
 * transport controls work (issue #34, broken 3).
 */

test('a syntax error typed before the debugger first opens: the replay runs with the last version that loaded', async ({ page }) => {
  await openApp(page);
  const lines = await newCodeHandler(page);
  await page.keyboard.type('export default 1 +;');
  await expect(lines).toContainText('export default 1 +;');
  await expect(page.getByTestId('problem-item').filter({ hasText: 'Unexpected token' }).first()).toBeVisible({ timeout: 30_000 });
  await waitSaved(page);
  await page.getByTestId('mode-debug').click();
  await expect(page.getByTestId('replay-compile-error')).toContainText('the replay shows the last version that loaded');
  // The replay is there: step 1 is explained and the controls work.
  await expect(stepView(page, 0)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('play')).toBeEnabled();
  await key(page, 'j');
  await expect(stepView(page, 1)).toBeVisible();
  await page.getByTestId('next-block').click();
  await expect(page.getByTestId('step-outcome')).toHaveText('BLOCK_ACTION');
  await shot(page, 'debugger-code-error-fallback');
});

test('a pipeline that has never loaded: the debugger says plainly it cannot replay, and replays once the error is fixed', async ({ page }) => {
  // A pipeline imported with a syntax error in its code: no version of it has ever loaded.
  const doc = demoPipeline();
  doc.name = 'Broken from the start';
  doc.nodes.push(
    { id: 'ev-code', kind: 'event', pattern: 'tool.before_call' },
    { id: 'h-code', kind: 'handler', name: 'Broken code', order: 15, enabled: true, shadow: false, on_error: 'block', action: { type: 'code', language: 'ts', source: 'export default 1 +;' } },
  );
  doc.wires.push({ from: 'ev-code', to: 'h-code' });
  await importPipelineAndDebug(page, doc);
  const banner = page.getByTestId('replay-compile-error');
  await expect(banner).toHaveAttribute('data-no-replay', 'true', { timeout: 30_000 });
  await expect(banner).toContainText('no earlier version of it loads: the trace cannot be replayed until it is fixed');
  await expect(page.getByTestId('step-empty')).toContainText('Not replayed: the pipeline has errors');
  await shot(page, 'debugger-code-error-no-replay');

  // Fix it in Edit, typed; back in Debug the replay is there and the controls work.
  await banner.getByRole('button', { name: 'Fix in Edit' }).click();
  await page.getByTestId('fit-view').click();
  await node(page, 'h-code').click();
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type('export default () => null;');
  await expect(page.getByTestId('problem-item').filter({ hasText: 'Unexpected token' })).toHaveCount(0, { timeout: 30_000 });
  await page.getByTestId('mode-debug').click();
  await expect(stepView(page, 0)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('replay-compile-error')).toHaveCount(0);
  await expect(page.getByTestId('play')).toBeEnabled();
  await key(page, 'End');
  await expect(stepView(page, 21)).toBeVisible();
});
