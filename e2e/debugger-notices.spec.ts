import { test, expect, type Locator } from '@playwright/test';
import { importTrace } from '../engine/trace/importTrace.ts';
import { TRACE_FORMAT_LABELS } from '../engine/trace/detectTraceFormat.ts';
import { FORMAT_FIXTURES, readFormat } from '../test/shared/formatFixtures.ts';
import { overlap, type Box } from './canvasGeometry.ts';
import { shot } from './editorHelpers.ts';
import { key, openDebugger } from './debuggerHelpers.ts';

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('the trace library by keyboard: its fold button clear of Import trace, each row on one line, one import notice at a time, Escape dismisses it', async ({ page }) => {
    await openDebugger(page);
    // The library starts folded at this width: Ctrl+B unfolds it.
    await key(page, 'Control+b');
    await expect(page.locator('.workbench')).toHaveAttribute('data-left', 'open');
    // The fold button sat over the right end of "Import trace": a click there folded the panel.
    expect(overlap(await box(page.getByTestId('trace-import')), await box(page.getByTestId('left-toggle'))), 'the fold button covers Import trace').toBe(false);

    // Two recordings imported one after the other: one notice, the newest, over the canvas (they stacked up).
    await page.getByTestId('trace-file').setInputFiles({ name: 'rollout.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(readFormat(FORMAT_FIXTURES.codex)) });
    await expect(page.getByTestId('toast')).toContainText(TRACE_FORMAT_LABELS['codex-rollout']);
    await page.getByTestId('trace-file').setInputFiles({ name: 'spans.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(readFormat(FORMAT_FIXTURES.otlp)) });
    await expect(page.getByTestId('toast')).toContainText(TRACE_FORMAT_LABELS['otlp-json']);
    // The pointer on it keeps it (it goes by itself after a while, but not while someone reads it).
    await page.getByTestId('toast').hover();
    await expect(page.getByTestId('toast')).toHaveAttribute('data-held', 'true');
    await expect(page.getByTestId('toast')).toHaveCount(1);
    // It is announced (a polite live region) and says Escape dismisses it.
    await expect(page.locator('.toasts')).toHaveAttribute('aria-live', 'polite');
    await expect(page.getByTestId('toast').getByRole('button', { name: 'Dismiss' })).toHaveAttribute('title', 'Dismiss (Escape)');

    // Escape in a field is the field's (here it clears the payload search): the notice stays.
    await page.getByTestId('filter-search').focus();
    await page.keyboard.type('rm');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('filter-search')).toHaveValue('');
    await expect(page.getByTestId('toast')).toHaveCount(1);
    // Elsewhere Escape dismisses it; the debugger's own Escape (pause) still happens, and the step stays.
    await key(page, 'Escape');
    await expect(page.getByTestId('toast')).toHaveCount(0);
    await expect(page.getByTestId('step-view')).toBeVisible();

    // A SpecStory export of a Cursor chat: its row's details ("30 events · SpecStory from Cursor · just now")
    // wrapped to two lines in the 256 px panel. They keep one line; the format gives way.
    const text = readFormat('specstory-cursor.md');
    const partial = importTrace(text, { fileName: 'specstory-cursor.md' }).problems.some((p) => p.severity === 'error');
    await page.getByTestId('trace-file').setInputFiles({ name: 'cursor-chat.md', mimeType: 'text/markdown', buffer: Buffer.from(text) });
    if (partial) {
      await page.getByTestId('import-keep').focus();
      await page.keyboard.press('Enter');
    }
    const row = page.locator('[data-testid="trace-item"][aria-current="true"]');
    await expect(row.getByTestId('trace-agent')).toHaveText(' from Cursor');
    const metas = await page.locator('[data-testid="trace-item"] .meta').evaluateAll((els) => els.map((e) => ({
      text: e.textContent, lines: Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)),
    })));
    expect(metas.length).toBe(4);
    expect(metas.filter((m) => m.lines !== 1), 'details that wrap').toEqual([]);
    await expect(row.locator('.meta')).toHaveText(/^\d+ events · SpecStory from Cursor · /);
    await shot(page, 'debugger-notices-1280');
  });
});
