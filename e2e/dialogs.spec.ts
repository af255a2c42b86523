import { test, expect } from '@playwright/test';
import { expectModalFocus } from './dialogHelpers.ts';
import { brokenDemoTrace, openDebugger } from './debuggerHelpers.ts';
import { openApp, shot } from './editorHelpers.ts';

/**
 * Every dialog of the app is a native modal <dialog>: the focus moves in, Tab cycles inside, Escape closes
 * it and the focus goes back to the button that opened it (all by the real keyboard). The live view's
 * push dialog is checked in debugger-live.spec.ts (it needs a running server), the full-screen code editor
 * in editor-code-fullscreen.spec.ts.
 */

test('Export dialog: focus in, Tab cycles, Escape closes and gives the focus back to Export', async ({ page }) => {
  await openApp(page);
  const opener = page.getByTestId('open-export');
  await opener.focus();
  await page.keyboard.press('Enter');
  await expectModalFocus(page, page.getByTestId('export-dialog'), opener);
  // The × button closes it too, and the focus comes back.
  await opener.press('Enter');
  await expect(page.getByTestId('export-dialog')).toBeVisible();
  await page.getByTestId('export-dialog').getByTestId('dialog-close').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('export-dialog')).toHaveCount(0);
  await expect(opener).toBeFocused();
});

test('Import dialog: focus in, Tab cycles (typing in its text box too), Escape closes and gives the focus back to Import', async ({ page }) => {
  await openApp(page);
  const opener = page.getByTestId('open-import');
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('import-dialog');
  await expectModalFocus(page, dialog, opener, { escape: false });
  await page.getByTestId('import-text').focus();
  await page.keyboard.type('{ "not": "a pipeline" }');
  await shot(page, 'dialog-import-modal');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
});

test('Import result dialog (a partly broken trace): focus in, Tab cycles, Escape decides later and gives the focus back to Import trace', async ({ page }) => {
  await openDebugger(page);
  const opener = page.getByTestId('trace-import');
  const chooser = page.waitForEvent('filechooser');
  await opener.click();
  await (await chooser).setFiles({ name: 'broken.jsonl', mimeType: 'application/x-ndjson', buffer: brokenDemoTrace({ 4: '{"event_id": "cut", "type": ' }) });
  const dialog = page.getByTestId('import-result');
  await expectModalFocus(page, dialog, opener);
  // Escape decided nothing: the import waits in the library.
  await expect(page.getByTestId('trace-item').filter({ hasText: 'review import' })).toHaveCount(1);
});
