import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { createImportStream } from '../engine/trace/importStream.ts';
import { TRACE_FORMAT_LABELS } from '../engine/trace/detectTraceFormat.ts';
import { writeWorkload, type Workload } from '../test/bench/formatWorkloads.ts';
import { openDebugger } from './debuggerHelpers.ts';

// Issue 29, in the app: a large session file goes through the real file picker into the import worker, which reads
// File.stream() chunks into the engine's streaming importers, as `hookwire import` does; a file of a format that must
// hold all of it, past what the app holds, is refused with the way on, and the tab goes on working.
const dir = mkdtempSync(join(tmpdir(), 'hookwire-e2e-large-'));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `steps` steps of a generated recording to a file (never held whole here); returns its path and size. */
function writeRecording(format: Workload, steps: number, name: string): { path: string; bytes: number } {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  let bytes = 0;
  let parts: string[] = [];
  const flush = () => {
    bytes += writeSync(fd, parts.join(''));
    parts = [];
  };
  writeWorkload(format, steps, (t) => {
    parts.push(t);
    if (parts.length > 2000) flush();
  });
  flush();
  closeSync(fd);
  return { path, bytes };
}

test('a 40 MB Claude Code transcript imports through the file picker, streamed in the worker', async ({ page }) => {
  test.setTimeout(300_000);
  const { path, bytes } = writeRecording('claude-code', 33_000, 'session-large.jsonl');
  expect(bytes).toBeGreaterThan(35e6);
  // What the engine makes of the same bytes (counted, not kept).
  let events = 0;
  const s = createImportStream({ fileName: 'session-large.jsonl', onEvent: () => void events++ });
  writeWorkload('claude-code', 33_000, (t) => s.push(t));
  expect(s.end().problems.filter((p) => p.severity === 'error')).toEqual([]);

  await openDebugger(page);
  const items = await page.getByTestId('trace-item').count();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('trace-import').click()]);
  await chooser.setFiles(path);
  // Chromium does not expose performance.memory in a worker, and the CLI's peak RSS is measured by importMemory.bench.ts.
  await expect(page.getByTestId('toast').filter({ hasText: TRACE_FORMAT_LABELS['claude-code'] })).toBeVisible({ timeout: 280_000 });
  await expect(page.getByTestId('trace-item')).toHaveCount(items + 1);
  const current = page.locator('[data-testid="trace-item"][aria-current="true"]');
  await expect(current).toContainText(`${events.toLocaleString('en')} events`);
  await expect(page.getByTestId('position')).toContainText(`of ${events.toLocaleString('en')}`);
});

test('a span file past what the app holds is refused once its format is known, with the command that reads it, and the tab goes on', async ({ page }) => {
  test.setTimeout(120_000);
  // ~70 MB of spans, one a line: their events are ordered over the whole file, so every span would be held.
  const { path, bytes } = writeRecording('otel-spans-jsonl', 45_000, 'spans-large.jsonl');
  expect(bytes).toBeGreaterThan(64 * 1024 * 1024);
  await openDebugger(page);
  const items = await page.getByTestId('trace-item').count();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('trace-import').click()]);
  await chooser.setFiles(path);
  const dialog = page.getByTestId('import-result');
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await expect(dialog).toContainText('Cannot import spans-large.jsonl');
  await expect(dialog.getByTestId('import-line-problem')).toContainText(`past the 64 MB the app holds`);
  await expect(dialog).toContainText('npx hookwire import "spans-large.jsonl" -o "spans-large.hwtrace.jsonl"');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // Nothing was stored, and the app still answers: the next step of the trace shown is a key press away.
  await expect(page.getByTestId('trace-item')).toHaveCount(items);
  await expect(page.getByTestId('step-view')).toBeVisible();
});
