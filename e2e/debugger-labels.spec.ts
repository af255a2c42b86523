import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { node, shot, waitSaved } from './editorHelpers.ts';
import { openDebugger, timelineRow, typeStep } from './debuggerHelpers.ts';

/**
 * Labels become tests (issue 30, [B7]): a person marks the decision they expect of a step in the debugger, by
 * keyboard; the label shows on the timeline and in the step (met or not, by the engine's check), stays with the
 * stored trace, goes out with the trace's download, and the real CLI's `hookwire test` and `hookwire backtest`
 * check it; the Backtest view compares the current edit with the last export and lists the violated labels
 * first; the downloaded file imports back with its labels.
 */
const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'engine', 'node', 'bin.mjs');
const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });

test('a label marked by keyboard shows on the timeline, travels with the trace to hookwire test and backtest, and a backtest against the last export lists it', async ({ page }) => {
  // Two labels, a reload, two downloads, two CLI runs, an edit, a backtest and an import, on a shared machine.
  test.setTimeout(240_000);
  await openDebugger(page);

  // Step 12 (rm -rf) is blocked: the label's decision starts as the step's own; a note typed, Enter saves it.
  await typeStep(page, 11);
  const panel = page.getByTestId('label-panel');
  await expect(panel).toHaveAttribute('data-state', 'none');
  await expect(page.getByTestId('label-decision')).toHaveValue('block_action');
  await page.getByTestId('label-note').click();
  await page.keyboard.type('never delete the build cache');
  // A label never changes a decision [R19]: storing it must not open (and so replay) the trace again.
  const opens = () => page.evaluate(() => performance.getEntriesByName('hookwire:trace-open').length);
  const opened = await opens();
  expect(opened).toBeGreaterThan(0);
  await page.keyboard.press('Enter');
  await expect(panel).toHaveAttribute('data-state', 'met');
  await expect(page.getByTestId('label-note-text')).toHaveText('“never delete the build cache”');
  await expect(timelineRow(page, 11).getByTestId('row-label')).toHaveAttribute('data-expects', 'block_action');
  expect(await opens()).toBe(opened);

  // Step 18, the prompt injection, continues: labelled "should block" by keyboard, it is a label not met.
  await typeStep(page, 17);
  await expect(page.getByTestId('label-decision')).toHaveValue('continue');
  await page.getByTestId('label-note').click();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.type('B');
  await expect(page.getByTestId('label-decision')).toHaveValue('block_action');
  await page.keyboard.press('Tab');
  await page.keyboard.type('an injected upload must be stopped');
  await page.keyboard.press('Enter');
  await expect(panel).toHaveAttribute('data-state', 'violated');
  await expect(page.getByTestId('label-failures')).toHaveText('decision: expected block_action, got continue');
  await expect(timelineRow(page, 17).getByTestId('row-label')).toHaveAttribute('data-expects', 'block_action');
  await expect(page.getByTestId('row-label')).toHaveCount(2);
  expect(await opens()).toBe(opened);
  await shot(page, 'labels-step');

  // Stored with the trace: a reload shows both labels again.
  await page.reload();
  await expect(page.getByTestId('step-view')).toBeVisible();
  await expect(timelineRow(page, 11).getByTestId('row-label')).toHaveAttribute('data-expects', 'block_action');
  await expect(timelineRow(page, 17).getByTestId('row-label')).toHaveAttribute('data-expects', 'block_action');

  // The trace downloads with its labels as meta.expect; the pipeline is exported (the "last export").
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-labels-'));
  const row = page.getByTestId('trace-item').first();
  await row.hover();
  const [traceDownload] = await Promise.all([page.waitForEvent('download'), row.getByTestId('trace-download').click()]);
  const traceText = readFileSync(await traceDownload.path(), 'utf8');
  const tracePath = join(dir, 'demo.trace.jsonl');
  writeFileSync(tracePath, traceText);
  const lines = traceText.trimEnd().split('\n').map((l) => JSON.parse(l));
  expect(lines[12].meta.expect).toEqual({ decision: 'block_action', note: 'never delete the build cache' });
  expect(lines[18].meta.expect).toEqual({ decision: 'block_action', note: 'an injected upload must be stopped' });
  await page.getByTestId('mode-edit').click();
  await page.getByTestId('open-export').click();
  const [pipelineDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-download').click()]);
  const pipelinePath = join(dir, 'demo.pipeline.json');
  writeFileSync(pipelinePath, readFileSync(await pipelineDownload.path()));
  await page.keyboard.press('Escape');

  // The real CLI reads the labels as they are: `hookwire test` fails on the one not met, a backtest counts both.
  const tested = cli(['test', pipelinePath, tracePath]);
  expect(tested.status).toBe(1);
  expect(tested.stdout + tested.stderr).toContain('decision: expected block_action, got continue');
  const backtest = cli(['backtest', pipelinePath, pipelinePath, tracePath, '--json', '--fail-on', 'none', '--progress', 'never']);
  expect(backtest.status).toBe(0);
  const doc = JSON.parse(backtest.stdout);
  expect(doc.files[0].labels).toBe(2);
  expect(doc.files[0].violated_labels.map((v: { step: number }) => v.step)).toEqual([18]);

  // The current edit (the rm -rf block disabled) against the last export: both labels are violated now.
  // The editor opens the demo at zoom 1 from its top-left corner (it does not fit at a readable zoom at
  // 1440×900), so the handler is off screen to the right: Fit brings it into view, as a person would.
  // (Clicking it unseen leaned on Playwright scrolling the canvas's overflow-hidden pane, which a busy
  // machine's next render undid: the click then missed and no inspector opened.)
  await page.getByTestId('fit-view').click();
  await node(page, 'h-block-destructive').click();
  await page.getByTestId('handler-enabled').focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('handler-enabled')).not.toBeChecked();
  await waitSaved(page);
  await page.getByTestId('mode-backtest').click();
  const old = page.getByTestId('backtest-old');
  await expect(old.locator('option:checked')).toContainText('Last export');
  // The library's one trace, the labelled demo, is picked until the person picks.
  await expect(page.getByTestId('backtest-picked-count')).toHaveText('1 of 1');
  await page.getByTestId('backtest-run').focus();
  await page.keyboard.press('Enter');
  const violated = page.getByTestId('backtest-violated-labels');
  await expect(violated).toBeVisible({ timeout: 30_000 });
  await expect(violated).toContainText('2 of 2 labelled steps');
  await expect(violated.getByTestId('backtest-label-row')).toHaveCount(2);
  await expect(page.getByTestId('backtest-results')).toContainText(/as exported at/);
  await shot(page, 'labels-backtest');

  // The downloaded file imports back with its labels.
  await page.getByTestId('mode-debug').click();
  await page.getByTestId('trace-file').setInputFiles({ name: 'labelled.trace.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(traceText) });
  await expect(page.getByTestId('trace-item')).toHaveCount(2);
  await expect(page.getByTestId('position')).toContainText('of 22');
  await typeStep(page, 17);
  await expect(timelineRow(page, 17).getByTestId('row-label')).toHaveAttribute('data-expects', 'block_action');
  await expect(page.getByTestId('label-panel')).toHaveAttribute('data-state', 'violated');

  // A label is removed by keyboard, and only from the trace it was removed from.
  await page.getByTestId('label-remove').focus();
  await page.keyboard.press('Enter');
  await expect(panel).toHaveAttribute('data-state', 'none');
  await expect(timelineRow(page, 17).getByTestId('row-label')).toHaveCount(0);
  await typeStep(page, 11);
  await expect(timelineRow(page, 11).getByTestId('row-label')).toHaveAttribute('data-expects', 'block_action');
  await page.getByTestId('trace-item').nth(1).click();
  await typeStep(page, 17);
  await expect(panel).toHaveAttribute('data-state', 'violated');
});

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('labelling by keyboard keeps the keyboard in the form: Enter in the note, Update as it was, Remove', async ({ page }) => {
    await openDebugger(page);
    const panel = page.getByTestId('label-panel');
    await page.getByTestId('label-decision').focus();
    await page.keyboard.press('End');
    await expect(page.getByTestId('label-decision')).toHaveValue('terminate');
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('label-note')).toBeFocused();
    await page.keyboard.type('the run should stop here');
    await page.keyboard.press('Enter');
    await expect(panel).toHaveAttribute('data-state', 'violated');
    // The form saved anew has the keyboard where it was (it was on the page's body).
    await expect(page.getByTestId('label-note')).toBeFocused();
    await expect(page.getByTestId('label-note')).toHaveValue('the run should stop here');
    // Update with nothing changed: the form is not left disabled, and the keyboard stays on the button.
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('label-save')).toBeFocused();
    await expect(page.getByTestId('label-save')).toHaveText('Update label');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('label-save')).toBeFocused();
    await expect(page.getByTestId('label-note')).toBeEnabled();
    // Remove: the button goes with the label, the keyboard goes to "Label this step".
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('label-remove')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(panel).toHaveAttribute('data-state', 'none');
    await expect(page.getByTestId('label-save')).toHaveText('Label this step');
    await expect(page.getByTestId('label-save')).toBeFocused();
  });
});
