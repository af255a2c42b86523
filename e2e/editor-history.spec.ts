import { test, expect, type Page } from '@playwright/test';
import { node, openApp, shot, tabTo, waitSaved } from './editorHelpers.ts';

/**
 * Automatic version history in real IndexedDB: every save that changes the pipeline is a version (saves
 * within a minute are one), the History tab lists them with a summary, Restore is one undoable edit, a
 * named version stays, and the debugger's Compare works against any earlier version. The browser's clock
 * is set by Playwright (Date only; timers run), so "a minute later" needs no waiting.
 */
const T0 = Date.parse('2026-12-01T10:00:00Z');
const items = (page: Page) => page.getByTestId('history-item');

async function typeInto(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type(text);
}

test('version history: every save is a version, restore is undoable, Compare against any earlier version', async ({ page }) => {
  await page.clock.setFixedTime(T0);
  await openApp(page);
  const blockTitle = node(page, 'h-block-destructive').locator('.title');
  const original = (await blockTitle.textContent()) ?? '';

  // A minute later: fix the prompt-injection matcher's path (typed; every keystroke saves, one version).
  await page.clock.setFixedTime(T0 + 60_000);
  await node(page, 'm-prompt-injection').click();
  await typeInto(page, 'cond-0-path', 'payload.user_input');
  await waitSaved(page);

  // Two minutes later: rename the block handler on the canvas (F2).
  await page.clock.setFixedTime(T0 + 3 * 60_000);
  await node(page, 'h-block-destructive').click();
  await page.keyboard.press('F2');
  await page.keyboard.type('Stop rm -rf');
  await page.keyboard.press('Enter');
  await waitSaved(page);

  await page.getByTestId('tab-history').click();
  await expect(items(page)).toHaveCount(3);
  await expect(items(page).getByTestId('history-summary')).toHaveText(['changed “Stop rm -rf”', /^changed “/, 'First version']);
  await expect(items(page).nth(0)).toHaveAttribute('aria-current', 'true');

  // Name the first version: it is kept for good.
  await items(page).nth(2).getByTestId('history-name').click();
  await page.keyboard.type('as seeded');
  await page.keyboard.press('Enter');
  await expect(items(page).nth(2).getByTestId('history-label')).toHaveText('as seeded');
  await shot(page, 'editor-history');

  // Restore the first version: one edit, saved as a new version; Ctrl+Z takes it back (and the version goes).
  await page.clock.setFixedTime(T0 + 5 * 60_000);
  await items(page).nth(2).getByTestId('history-restore').click();
  await expect(blockTitle).toHaveText(original);
  await waitSaved(page);
  await expect(items(page)).toHaveCount(4);
  await expect(items(page).nth(0).getByTestId('history-summary')).toContainText('changed “');
  await page.getByTestId('canvas').click({ position: { x: 600, y: 700 } });
  await page.keyboard.press('Control+z');
  await expect(blockTitle).toHaveText('Stop rm -rf');
  await waitSaved(page);
  await expect(items(page)).toHaveCount(3);

  // Compare in the debugger against the named first version (nothing was pinned by hand).
  await page.getByTestId('mode-debug').click();
  await expect(page.getByTestId('step-view')).toBeVisible();
  await page.getByTestId('tab-compare').click();
  await expect(page.getByTestId('pin-version')).toBeVisible();
  const pick = page.getByTestId('compare-version');
  const seeded = await pick.locator('option', { hasText: 'as seeded' }).getAttribute('value');
  await pick.selectOption(seeded!);
  await expect(page.getByTestId('compare-panel')).toContainText('Comparing with “as seeded”');
  await expect(page.getByTestId('compare-summary')).toContainText('1 event continued before now blocks');
  await expect(page.getByTestId('compare-row')).toHaveAttribute('data-index', '17');
  // And against the previous one (the matcher fixed, the handler not yet renamed): no decision changes.
  const previous = await pick.locator('option', { hasText: 'changed “' }).first().getAttribute('value');
  await pick.selectOption(previous!);
  await expect(page.getByTestId('compare-summary')).toContainText('No event changes');
  await shot(page, 'debugger-compare-history');
});

test('a database from the previous schema (v2) with a pipeline in it upgrades in the browser: the pipeline opens and history starts from it', async ({ page }) => {
  // A page of the app's origin that does not start the app, to write the old database first.
  await page.route('**/blank-for-upgrade', (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }));
  await page.goto('/blank-for-upgrade');
  await page.evaluate(async () => {
    const doc = {
      format: 'hookwire.pipeline', version: 1, name: 'Kept across the upgrade', event_types: [],
      nodes: [
        { id: 'ev', kind: 'event', pattern: 'tool.before_call' },
        { id: 'h', kind: 'handler', name: 'Audit tools', order: 10, enabled: true, shadow: false, on_error: 'block', action: { type: 'audit' } },
      ],
      wires: [{ from: 'ev', to: 'h' }],
      layout: { nodes: [{ id: 'ev', x: 0, y: 0 }, { id: 'h', x: 320, y: 0 }] },
    };
    // Dexie stores schema version n as IndexedDB version n × 10; these are the stores of Dexie version 2.
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open('hookwire', 20);
      req.onupgradeneeded = () => {
        const db = req.result;
        const pipelines = db.createObjectStore('pipelines', { keyPath: 'id' });
        pipelines.createIndex('updated_at', 'updated_at');
        pipelines.createIndex('deleted_at', 'deleted_at');
        db.createObjectStore('settings', { keyPath: 'key' });
        db.createObjectStore('traces', { keyPath: 'id' }).createIndex('updated_at', 'updated_at');
        db.createObjectStore('traceChunks', { keyPath: ['trace_id', 'chunk'] });
      };
      req.onerror = () => reject(req.error);
      req.onsuccess = () => {
        const db = req.result;
        const tx = db.transaction(['pipelines', 'settings'], 'readwrite');
        tx.objectStore('pipelines').put({ id: 'old-1', format: 'hookwire.stored-pipeline', store_version: 1, doc, name: doc.name, revision: 4, saved_by: 'old-tab', created_at: 1000, updated_at: Date.parse('2026-11-30T09:00:00Z') });
        tx.objectStore('settings').put({ key: 'editor.demoSeeded', value: true });
        tx.objectStore('settings').put({ key: 'editor.lastOpened', value: 'old-1' });
        tx.oncomplete = () => {
          db.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
    });
  });

  await page.goto('/');
  await expect(page.getByTestId('pipeline-title')).toHaveText('Kept across the upgrade');
  await expect(node(page, 'h')).toBeVisible();
  await page.getByTestId('tab-history').click();
  await expect(items(page)).toHaveCount(1);
  await expect(items(page).getByTestId('history-summary')).toHaveText('As saved before version history began');

  // The next edit is the second version.
  await node(page, 'h').click();
  await page.keyboard.press('F2');
  await page.keyboard.type('Audit every tool');
  await page.keyboard.press('Enter');
  await waitSaved(page);
  await expect(items(page).getByTestId('history-summary')).toHaveText(['changed “Audit every tool”', 'As saved before version history began']);
});

test('a restore within the minute of an edit keeps the edited version in the history (after a reload too), and the focus stays on Restore', async ({ page }) => {
  await page.clock.setFixedTime(T0);
  await openApp(page);
  // Ten seconds later, fix the matcher's path by typing: one version beside the first.
  await page.clock.setFixedTime(T0 + 10_000);
  await node(page, 'm-prompt-injection').click();
  await typeInto(page, 'cond-0-path', 'payload.user_input');
  await waitSaved(page);
  await page.getByTestId('tab-history').click();
  await expect(items(page).getByTestId('history-summary')).toHaveText([/^changed “Prompt injection”/, 'First version']);

  // Twenty seconds later, still within that version's minute: restore the first version with the keyboard.
  await page.clock.setFixedTime(T0 + 30_000);
  await tabTo(page, '[data-testid="history-restore"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cond-0-path')).toHaveValue('payload.input');
  await waitSaved(page);
  // The version left is still there to go back to; the restore is the new current one.
  await expect(items(page).getByTestId('history-summary')).toHaveText([/^Restored 10:00:00 · changed “Prompt injection”/, /^changed “Prompt injection”/, 'First version']);
  await expect(page.locator(':focus')).toHaveAttribute('data-testid', 'history-restore');
  await shot(page, 'editor-history-restore-within-minute');

  // After a reload, that version can be restored: the fix comes back.
  await page.reload();
  await expect(node(page, 'ev-tool-before')).toBeVisible();
  await page.getByTestId('tab-history').click();
  await expect(items(page)).toHaveCount(3);
  await items(page).nth(1).getByTestId('history-restore').click();
  await node(page, 'm-prompt-injection').click();
  await expect(page.getByTestId('cond-0-path')).toHaveValue('payload.user_input');
});
