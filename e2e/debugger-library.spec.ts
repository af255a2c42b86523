import { test, expect } from '@playwright/test';
import { importTrace } from '../engine/trace/importTrace.ts';
import { traceToJsonl } from '../engine/trace/traceToJsonl.ts';
import { demoTrace } from '../web/demo/demoTrace.ts';
import { shot } from './editorHelpers.ts';
import { brokenDemoTrace, dropFile, fixture, HAVE_FIXTURES, key, NO_FIXTURES_MESSAGE, openDebugger, stepView } from './debuggerHelpers.ts';

test('a broken trace file: every bad line with its number, keep the good events, still there after a reload', async ({ page }) => {
  await openDebugger(page);
  const file = brokenDemoTrace({ 4: '{"event_id": "cut", "type": ', 7: '{"event_id":"x","type":"tool.before_call","ts":"yesterday","payload":{}}' });
  await page.getByTestId('trace-file').setInputFiles({ name: 'broken.jsonl', mimeType: 'application/x-ndjson', buffer: file });
  const dialog = page.getByTestId('import-result');
  await expect(dialog).toBeVisible();
  const problems = page.getByTestId('import-line-problem');
  await expect(problems).toHaveCount(2);
  await expect(problems.nth(0)).toHaveAttribute('data-line', '4');
  await expect(problems.nth(0)).toHaveAttribute('data-code', 'not_json');
  await expect(problems.nth(0)).toContainText('line 4');
  await expect(problems.nth(1)).toHaveAttribute('data-line', '7');
  await expect(problems.nth(1)).toContainText('ts');
  await expect(page.getByTestId('import-summary')).toContainText('20 events were read; 2 lines were dropped');
  await shot(page, 'debugger-import-broken');
  // The dialog opens on its answer (it opened on the ×): Enter keeps the good events.
  await expect(page.getByTestId('import-keep')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('trace-item')).toHaveCount(2);
  await expect(page.locator('[data-testid="trace-item"][aria-current="true"]')).toContainText('20 events');
  await expect(page.getByTestId('position')).toContainText('of 20');

  // Rename it, reload: the library and the open trace are still there.
  await page.locator('[data-testid="trace-item"][aria-current="true"]').getByTestId('trace-rename').click();
  await expect(page.getByTestId('trace-rename-input')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Partly broken session');
  await page.keyboard.press('Enter');
  // The row shows the new name once it is stored; a reload before that would race the write.
  await expect(page.locator('[data-testid="trace-item"][aria-current="true"]')).toContainText('Partly broken session');
  await page.reload();
  await page.getByTestId('mode-debug').click();
  await expect(page.locator('[data-testid="trace-item"][aria-current="true"]')).toContainText('Partly broken session');
  await expect(page.getByTestId('position')).toContainText('of 20');
  await expect(page.getByTestId('step-view')).toBeVisible();

  // A file that is no trace at all is refused and nothing is stored; deleting has an undo.
  await page.getByTestId('trace-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just some notes\n') });
  await expect(page.getByTestId('import-line-problem')).toContainText('cannot import notes.txt');
  await expect(page.getByTestId('import-result-close')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('import-result')).toHaveCount(0);
  await expect(page.getByTestId('trace-item')).toHaveCount(2);
  await page.locator('[data-testid="trace-item"][aria-current="true"]').getByTestId('trace-delete').click();
  await expect(page.getByTestId('trace-item')).toHaveCount(1);
  await expect(page.getByTestId('debug-no-trace')).toBeVisible();
  await page.getByTestId('toast-action').click();
  await expect(page.getByTestId('trace-item')).toHaveCount(2);
});

test('a discarded partial import leaves nothing behind', async ({ page }) => {
  await openDebugger(page);
  await page.getByTestId('trace-file').setInputFiles({ name: 'half.jsonl', mimeType: 'application/x-ndjson', buffer: brokenDemoTrace({ 3: 'not json' }) });
  await page.getByTestId('import-discard').click();
  await expect(page.getByTestId('trace-item')).toHaveCount(1);
  const rows = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('hookwire');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const count = (store: string) => new Promise<number>((resolve) => {
      const r = db.transaction(store).objectStore(store).count();
      r.onsuccess = () => resolve(r.result);
    });
    return { traces: await count('traces'), chunks: await count('traceChunks') };
  });
  expect(rows).toEqual({ traces: 1, chunks: 1 });
});

test('a large import shows its progress and can be cancelled, leaving nothing stored', async ({ page }) => {
  await openDebugger(page);
  const base = demoTrace();
  const events = Array.from({ length: 120_000 }, (_, i) => ({ ...base.events[i % base.events.length]!, event_id: `big-${i}` }));
  const buffer = Buffer.from(traceToJsonl({ header: { ...base.header, title: 'Big' }, events }));
  await page.getByTestId('trace-file').setInputFiles({ name: 'big.jsonl', mimeType: 'application/x-ndjson', buffer });
  const progress = page.getByTestId('import-progress');
  await expect(progress).toBeVisible();
  await expect(progress.getByRole('progressbar')).toBeVisible();
  await expect(progress).toContainText(/Reading · [\d,]+ events/);
  await shot(page, 'debugger-import-progress');
  await progress.getByTestId('import-cancel').click();
  await expect(progress).toHaveCount(0);
  await expect(page.getByTestId('toast')).toContainText('Import of big.jsonl cancelled; nothing was stored.');
  await expect(page.getByTestId('trace-item')).toHaveCount(1);
  const chunks = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve) => {
      const r = indexedDB.open('hookwire');
      r.onsuccess = () => resolve(r.result);
    });
    return new Promise<number>((resolve) => {
      const r = db.transaction('traceChunks').objectStore('traceChunks').count();
      r.onsuccess = () => resolve(r.result);
    });
  });
  expect(chunks).toBe(1);
});

test.describe('real recordings', () => {
  test.skip(!HAVE_FIXTURES, NO_FIXTURES_MESSAGE);

  test('a Claude Code transcript by file picker and OpenTelemetry spans by drag and drop, recognised by content', async ({ page }) => {
    await openDebugger(page);
    const cc = fixture('claude-code/spotter_tool_heavy.jsonl');
    const expected = importTrace(cc.toString('utf8'), { fileName: 'transcript' }).trace!;
    const toolCalls = expected.events.filter((e) => e.type === 'tool.before_call').length;
    // No extension: the content says what it is.
    await page.getByTestId('trace-file').setInputFiles({ name: 'transcript', mimeType: 'application/octet-stream', buffer: cc });
    await expect(page.getByTestId('toast')).toContainText('Claude Code session transcript');
    await expect(page.getByTestId('position')).toContainText(`of ${expected.events.length}`);
    await expect(page.locator('[data-testid="trace-item"][aria-current="true"]')).toContainText('Claude Code');
    await expect(stepView(page, 0)).toHaveAttribute('data-outcome', 'continue');
    await expect(page.getByTestId('step-type')).toHaveText('agent.start');
    await key(page, 'j');
    await key(page, 'j');
    await expect(stepView(page, 2)).toBeVisible();
    await page.getByTestId('filter-type').selectOption('tool.before_call');
    await expect(page.getByTestId('filter-count')).toHaveText(`${toolCalls} of ${expected.events.length}`);
    await key(page, 'Home');
    const first = expected.events.findIndex((e) => e.type === 'tool.before_call');
    await expect(stepView(page, first)).toBeVisible();
    await expect(page.getByTestId('step-type')).toHaveText('tool.before_call');
    await expect(page.locator('[data-testid="handler-card"][data-handler="h-audit-log"]')).toHaveAttribute('data-status', 'fired');
    await shot(page, 'debugger-claude-code');

    const otel = fixture('otel-genai/OPENAI_trace.json').toString('utf8');
    const otelTrace = importTrace(otel, { fileName: 'spans.json' }).trace!;
    await dropFile(page, 'spans.json', otel);
    await expect(page.getByTestId('toast').filter({ hasText: 'OpenTelemetry' })).toBeVisible();
    await expect(page.getByTestId('position')).toContainText(`of ${otelTrace.events.length}`);
    await expect(page.getByTestId('trace-item')).toHaveCount(3);
    await shot(page, 'debugger-otel');
  });
});

test('closing a partial-import dialog with × keeps the import for later; it is never silently discarded', async ({ page }) => {
  await openDebugger(page);
  await page.getByTestId('trace-file').setInputFiles({ name: 'half.jsonl', mimeType: 'application/x-ndjson', buffer: brokenDemoTrace({ 3: 'not json' }) });
  const dialog = page.getByTestId('import-result');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  const item = page.locator('[data-testid="trace-item"][data-name]').filter({ hasText: 'review import' });
  await expect(item).toHaveCount(1);
  await shot(page, 'debugger-import-closed-for-later');
  // Opening it asks again; Escape also keeps it; Keep then opens it.
  await item.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('trace-item')).toHaveCount(2);
  await item.click();
  await page.getByTestId('import-keep').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('position')).toContainText('of 21');
});
