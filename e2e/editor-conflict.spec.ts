import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { openApp, shot, waitSaved } from './editorHelpers.ts';

/**
 * Two tabs (two pages of one browser context, one IndexedDB) edit the same pipeline, and both edits are
 * made before either save lands. That is made deterministic without touching the app: a third connection
 * holds a readwrite transaction on the `pipelines` store, which queues both tabs' saves behind it in the
 * order they were made (IndexedDB runs overlapping readwrite transactions in creation order). Released,
 * A's save lands first and B's is refused: B shows the conflict banner, and each choice is clicked here.
 */

interface Row { id: string; name: string; revision: number; deleted_at?: number; doc: { name: string } }

/** Every stored library entry, read straight from IndexedDB. */
function storedPipelines(page: Page): Promise<Row[]> {
  return page.evaluate(() => new Promise<Row[]>((resolve, reject) => {
    const open = indexedDB.open('hookwire');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const req = db.transaction('pipelines', 'readonly').objectStore('pipelines').getAll();
      req.onsuccess = () => {
        db.close();
        resolve((req.result as Row[]).filter((r) => r.deleted_at === undefined));
      };
      req.onerror = () => reject(req.error);
    };
  }));
}

/** Holds a readwrite transaction on `pipelines` (a request loop keeps it alive) until `release` is called. */
async function holdPipelineWrites(page: Page): Promise<{ release: () => Promise<void> }> {
  await page.evaluate(() => new Promise<void>((resolve, reject) => {
    const g = globalThis as unknown as { releaseHold?: boolean; holdDone?: Promise<void> };
    g.releaseHold = false;
    const open = indexedDB.open('hookwire');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction('pipelines', 'readwrite');
      g.holdDone = new Promise((done) => (tx.oncomplete = () => (db.close(), done())));
      const store = tx.objectStore('pipelines');
      const spin = () => {
        if (!g.releaseHold) store.count().onsuccess = spin;
      };
      store.count().onsuccess = () => {
        spin();
        resolve();
      };
    };
  }));
  return {
    release: () => page.evaluate(async () => {
      const g = globalThis as unknown as { releaseHold?: boolean; holdDone?: Promise<void> };
      g.releaseHold = true;
      await g.holdDone;
    }),
  };
}

/** Tabs A and B on the demo pipeline; A renames it, then B renames it, before either save lands. */
async function conflict(page: Page, context: BrowserContext): Promise<{ a: Page; b: Page; id: string }> {
  const a = page;
  await openApp(a);
  const b = await context.newPage();
  await openApp(b);
  const [before] = await storedPipelines(a);
  expect(before).toMatchObject({ revision: 1 });

  const hold = await holdPipelineWrites(a);
  await a.getByTestId('pipeline-name').fill('Renamed in tab A');
  await expect(a.getByTestId('save-state')).toHaveAttribute('data-status', 'saving');
  await b.getByTestId('pipeline-name').fill('Renamed in tab B');
  await expect(b.getByTestId('save-state')).toHaveAttribute('data-status', 'saving');
  await hold.release();

  await waitSaved(a);
  await expect(b.getByTestId('conflict-banner')).toContainText('Another tab saved this pipeline (revision 2)');
  await expect(b.getByTestId('save-state')).toHaveAttribute('data-status', 'conflict');
  // Nothing of B's is written over A's save.
  expect(await storedPipelines(a)).toEqual([expect.objectContaining({ id: before!.id, name: 'Renamed in tab A', revision: 2 })]);
  return { a, b, id: before!.id };
}

test('two tabs: "Load theirs" drops this tab\'s edit and shows the other tab\'s save', async ({ page, context }) => {
  const { a, b, id } = await conflict(page, context);
  await shot(b, 'editor-conflict-banner');
  await b.getByTestId('conflict-load-theirs').click();
  await expect(b.getByTestId('conflict-banner')).toHaveCount(0);
  await expect(b.getByTestId('pipeline-title')).toHaveText('Renamed in tab A');
  await expect(b.getByTestId('pipeline-name')).toHaveValue('Renamed in tab A');
  expect(await storedPipelines(b)).toEqual([expect.objectContaining({ id, name: 'Renamed in tab A', revision: 2 })]);
  // B edits on top of theirs and saves normally, and A follows.
  await b.getByTestId('pipeline-name').fill('Then B again');
  await waitSaved(b);
  await expect(a.getByTestId('pipeline-title')).toHaveText('Then B again');
  expect(await storedPipelines(b)).toEqual([expect.objectContaining({ id, name: 'Then B again', revision: 3 })]);
});

test('two tabs: "Keep mine" writes this tab\'s version over the other\'s, which then follows', async ({ page, context }) => {
  const { a, b, id } = await conflict(page, context);
  await b.getByTestId('conflict-keep-mine').click();
  await waitSaved(b);
  await expect(b.getByTestId('conflict-banner')).toHaveCount(0);
  await expect(b.getByTestId('pipeline-title')).toHaveText('Renamed in tab B');
  expect(await storedPipelines(b)).toEqual([expect.objectContaining({ id, name: 'Renamed in tab B', revision: 3, doc: expect.objectContaining({ name: 'Renamed in tab B' }) })]);
  // Tab A had nothing unsaved: it reloads B's version and says so.
  await expect(a.getByTestId('pipeline-title')).toHaveText('Renamed in tab B');
  await expect(a.getByTestId('toast')).toContainText('another tab');
  await shot(a, 'editor-conflict-keep-mine-other-tab');
});

test('two tabs: "Save mine as a copy" keeps both versions in the library', async ({ page, context }) => {
  const { a, b, id } = await conflict(page, context);
  await b.getByTestId('conflict-save-copy').click();
  await expect(b.getByTestId('conflict-banner')).toHaveCount(0);
  await expect(b.getByTestId('pipeline-title')).toHaveText('Renamed in tab B (my copy)');
  const rows = await storedPipelines(b);
  expect(rows).toHaveLength(2);
  expect(rows).toContainEqual(expect.objectContaining({ id, name: 'Renamed in tab A', revision: 2 }));
  expect(rows).toContainEqual(expect.objectContaining({ name: 'Renamed in tab B (my copy)', revision: 1, doc: expect.objectContaining({ name: 'Renamed in tab B (my copy)' }) }));
  // A still has its own version open, and both entries are in each tab's library.
  await expect(a.getByTestId('pipeline-title')).toHaveText('Renamed in tab A');
  await b.getByTestId('tab-library').click();
  await expect(b.getByTestId('library-item')).toHaveCount(2);
  await expect(b.locator('[data-testid="library-item"][aria-current="true"]')).toHaveAttribute('data-name', 'Renamed in tab B (my copy)');
  await shot(b, 'editor-conflict-copy');
});

test('an edit that is not saved (a conflict) is never lost silently: leaving the tab asks first', async ({ page, context }) => {
  const { a, b } = await conflict(page, context);
  // More typing in the conflicted tab, with the real keyboard (also the user activation Chromium wants
  // before it shows a "Leave site?" prompt).
  await b.getByTestId('pipeline-name').click();
  await b.keyboard.press('End');
  await b.keyboard.type(' and more');
  const asked: string[] = [];
  b.on('dialog', (d) => {
    asked.push(d.type());
    void d.dismiss();
  });
  await b.close({ runBeforeUnload: true });
  await expect.poll(() => asked).toEqual(['beforeunload']);
  // Staying keeps the tab and its edit.
  expect(b.isClosed()).toBe(false);
  await expect(b.getByTestId('pipeline-name')).toHaveValue('Renamed in tab B and more');
  await expect(b.getByTestId('conflict-banner')).toBeVisible();

  // A tab whose edits are all saved closes without a question.
  await a.getByTestId('pipeline-name').click();
  await a.keyboard.press('End');
  await a.keyboard.type('!');
  await waitSaved(a);
  let askedA = false;
  a.on('dialog', (d) => {
    askedA = true;
    void d.dismiss();
  });
  await a.close({ runBeforeUnload: true });
  await expect.poll(() => a.isClosed()).toBe(true);
  expect(askedA).toBe(false);
});
