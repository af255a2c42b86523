import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { PIPELINE_SCHEMA_ID } from '../engine/model/pipelineTypes.ts';
import { demoTraceJsonl } from '../web/demo/demoTrace.ts';
import { demoPipeline } from '../web/demo/demoPipeline.ts';
import { exportedDoc, node, openApp, shot, tabTo, waitSaved } from './editorHelpers.ts';

async function download(page: import('@playwright/test').Page, layout: boolean): Promise<{ text: string; path: string; name: string }> {
  await page.getByTestId('open-export').click();
  const box = page.getByTestId('export-layout');
  if ((await box.isChecked()) !== layout) await box.click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-download').click()]);
  const path = await file.path();
  await page.keyboard.press('Escape');
  return { text: readFileSync(path, 'utf8'), path, name: file.suggestedFilename() };
}

test('export then import round-trips exactly, with and without layout', async ({ page }) => {
  await openApp(page);
  await node(page, 'h-block-destructive').click();
  await page.getByTestId('handler-shadow').check();
  await waitSaved(page);
  await page.getByTestId('open-export').click();
  await shot(page, 'editor-export');
  await page.keyboard.press('Escape');

  const withLayout = await download(page, true);
  expect(withLayout.name).toBe('demo-agent-safety-policy.pipeline.json');
  const doc = JSON.parse(withLayout.text);
  expect(doc.format).toBe('hookwire.pipeline');
  expect(doc.version).toBe(1);
  expect(doc.layout.nodes).toHaveLength(13);
  // [V10] The file names the package's JSON Schema first, for completion in editors such as VS Code.
  expect(Object.keys(doc)[0]).toBe('$schema');
  expect(doc.$schema).toBe(PIPELINE_SCHEMA_ID);

  await page.getByTestId('open-import').click();
  await page.getByTestId('import-file').setInputFiles(withLayout.path);
  await expect(page.getByTestId('import-ok')).toContainText('13 nodes, 9 wires');
  await shot(page, 'editor-import-ok');
  await page.getByTestId('import-confirm').click();
  await expect(page.getByTestId('import-dialog')).toHaveCount(0);
  // The import is a new library entry, opened; exporting it again gives the same bytes.
  await page.getByTestId('tab-library').click();
  await expect(page.getByTestId('library-item')).toHaveCount(2);
  const again = await download(page, true);
  expect(again.text).toBe(withLayout.text);

  const bare = await download(page, false);
  expect(JSON.parse(bare.text).layout).toBeUndefined();
  await page.getByTestId('open-import').click();
  await page.getByTestId('import-text').fill(bare.text);
  await page.getByTestId('import-confirm').click();
  await expect(page.getByTestId('library-item')).toHaveCount(3);
  // Laid out automatically, same semantics.
  const imported = await exportedDoc(page);
  const { layout: _l, ...semantics } = imported;
  expect(`${JSON.stringify(semantics, null, 2)}\n`).toBe(bare.text);
  expect(imported.layout.nodes).toHaveLength(13);
});

test('importing a broken file shows every problem and changes nothing', async ({ page }) => {
  await openApp(page);
  const before = await exportedDoc(page);

  await page.getByTestId('open-import').click();
  const broken = structuredClone(before);
  broken.nodes[1].when = { 'payload.tool_name': { regex: '(unclosed' } };
  broken.nodes[3].order = 'ten';
  broken.wires.push({ from: 'h-audit-log', to: 'ev-any' }, { from: 'ev-any', to: 'ghost' });
  await page.getByTestId('import-file').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
  await expect(page.getByTestId('import-refused')).toBeVisible();
  const codes = await page.getByTestId('import-problem').evaluateAll((els) => els.map((e) => e.getAttribute('data-code')));
  expect(codes).toEqual(expect.arrayContaining(['schema', 'bad_wire', 'missing_node']));
  await expect(page.getByTestId('import-problems')).toContainText('nodes[3].order');
  await expect(page.getByTestId('import-confirm')).toBeDisabled();
  await shot(page, 'editor-import-broken');

  await page.getByTestId('import-text').fill('{ "format": "hookwire.pipeline", "version": 1,\n  "name": }');
  await expect(page.getByTestId('import-problem')).toHaveAttribute('data-code', 'not_json');
  await expect(page.getByTestId('import-problem')).toContainText('not valid JSON');
  await page.getByTestId('import-text').fill('{ "format": "hookwire.pipeline", "version": 99, "name": "x", "nodes": [], "wires": [] }');
  await expect(page.getByTestId('import-problem')).toHaveAttribute('data-code', 'future_version');
  await page.keyboard.press('Escape');

  await page.getByTestId('tab-library').click();
  await expect(page.getByTestId('library-item')).toHaveCount(1);
  expect(await exportedDoc(page)).toEqual(before);
  await page.reload();
  await expect(node(page, 'ev-any')).toBeVisible();
  expect(await exportedDoc(page)).toEqual(before);
});

test('a recorded run opened in Import pipeline is recognised as a trace, and one button imports it into the debugger', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('open-import').click();
  await page.getByTestId('import-file').setInputFiles({ name: 'session.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(demoTraceJsonl()) });
  await expect(page.getByTestId('import-refused')).toBeVisible();
  await expect(page.getByTestId('import-is-trace')).toContainText('This is a recorded run (Hookwire trace v1 (JSON Lines)), not a pipeline');
  await shot(page, 'editor-import-is-trace');
  // By keyboard: Tab to the button, Enter.
  await tabTo(page, '[data-testid="import-as-trace"]');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('import-dialog')).toHaveCount(0);
  await expect(page.getByTestId('mode-debug')).toHaveAttribute('aria-pressed', 'true');
  const current = page.locator('[data-testid="trace-item"][aria-current="true"]');
  await expect(current).toContainText('session');
  await expect(page.getByTestId('trace-item')).toHaveCount(2);
  await expect(page.getByTestId('position')).toContainText('of 22');
  // A pipeline with a mistake is not taken for a trace.
  await page.getByTestId('open-import').click();
  await page.getByTestId('import-text').click();
  await page.keyboard.type('{ "format": "hookwire.pipeline", "version": 1, "name": "x", "nodes": [], "wires": [');
  await expect(page.getByTestId('import-refused')).toBeVisible();
  await expect(page.getByTestId('import-is-trace')).toHaveCount(0);
});

test.describe('at 1280×720, by keyboard', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('Import pipeline: the dialog opens on "choose a file", Enter picks one, Tab reaches the import', async ({ page }) => {
    await openApp(page, { fit: false });
    await page.getByTestId('open-import').focus();
    await page.keyboard.press('Enter');
    // "choose a file" was a label around the hidden input: no Tab stop, out of the keyboard's reach.
    await expect(page.getByTestId('import-choose')).toBeFocused();
    const doc = { ...demoPipeline(), name: 'Picked by keyboard' };
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
    await chooser.setFiles({ name: 'picked.pipeline.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
    await expect(page.getByTestId('import-ok')).toContainText('“Picked by keyboard” loads: 13 nodes, 9 wires');
    await tabTo(page, '[data-testid="import-confirm"]', 6);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('import-dialog')).toHaveCount(0);
    await expect(page.getByTestId('pipeline-title')).toHaveText('Picked by keyboard');
  });
});
