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
    // The page's clock is the test's (it runs as usual until paused): the notice's timer is held below by pausing it.
    await page.clock.install();
    await openDebugger(page);
    // The library starts folded at this width: Ctrl+B unfolds it.
    await key(page, 'Control+b');
    await expect(page.locator('.workbench')).toHaveAttribute('data-left', 'open');
    // The fold button sat over the right end of "Import trace": a click there folded the panel.
    expect(overlap(await box(page.getByTestId('trace-import')), await box(page.getByTestId('left-toggle'))), 'the fold button covers Import trace').toBe(false);

    // Two recordings imported one after the other: one notice, the newest, over the canvas (they stacked up).
    await page.getByTestId('trace-file').setInputFiles({ name: 'rollout.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(readFormat(FORMAT_FIXTURES.codex)) });
    await expect(page.getByTestId('toast')).toContainText(TRACE_FORMAT_LABELS['codex-rollout']);
    // The clock paused before the second import: the notice cannot time out before the pointer is on it, however
    // slow the machine (the hover came right after it showed, a race against its 5 s timer). The clock moves in
    // 20 ms ticks, and only while the notice is not there yet.
    await page.clock.pauseAt(await page.evaluate(() => Date.now()) + 1000);
    await page.getByTestId('trace-file').setInputFiles({ name: 'spans.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(readFormat(FORMAT_FIXTURES.otlp)) });
    const otlpNotice = page.getByTestId('toast').filter({ hasText: TRACE_FORMAT_LABELS['otlp-json'] });
    await expect.poll(async () => {
      if ((await otlpNotice.count()) > 0) return true;
      await page.clock.runFor(20);
      return false;
    }, { intervals: [50], timeout: 30_000 }).toBe(true);
    // The pointer on it keeps it (it goes by itself after a while, but not while someone reads it).
    await page.getByTestId('toast').hover();
    await expect(page.getByTestId('toast')).toHaveAttribute('data-held', 'true');
    await expect(page.getByTestId('toast')).toHaveCount(1);
    // Held, it outlasts its 5 s: the clock runs on past them.
    await page.clock.runFor(6000);
    await expect(otlpNotice).toHaveCount(1);
    await page.clock.resume();
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
    // wrapped to two lines in the 256 px panel. They keep one line, the agent first: the format gives way (cut
    // to "SpecStory fro…", the agent was the part lost).
    const text = readFormat('specstory-cursor.md');
    const partial = importTrace(text, { fileName: 'specstory-cursor.md' }).problems.some((p) => p.severity === 'error');
    await page.getByTestId('trace-file').setInputFiles({ name: 'cursor-chat.md', mimeType: 'text/markdown', buffer: Buffer.from(text) });
    if (partial) {
      await page.getByTestId('import-keep').focus();
      await page.keyboard.press('Enter');
    }
    const row = page.locator('[data-testid="trace-item"][aria-current="true"]');
    await expect(row.getByTestId('trace-agent')).toHaveText('Cursor');
    const agent = await box(row.getByTestId('trace-agent'));
    const shown = await box(row.locator('.meta .cut'));
    expect(agent.x + agent.width, 'the agent is cut off').toBeLessThanOrEqual(shown.x + shown.width + 0.5);
    const metas = await page.locator('[data-testid="trace-item"] .meta').evaluateAll((els) => els.map((e) => ({
      text: e.textContent, lines: Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)),
    })));
    expect(metas.length).toBe(4);
    expect(metas.filter((m) => m.lines !== 1), 'details that wrap').toEqual([]);
    await expect(row.locator('.meta')).toHaveText(/^\d+ events · Cursor \(SpecStory\) · /);
    await shot(page, 'debugger-notices-1280');
  });
});
