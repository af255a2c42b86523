import { test, expect, type Page } from '@playwright/test';
import { importTrace } from '../engine/trace/importTrace.ts';
import { traceToJsonl } from '../engine/trace/traceToJsonl.ts';
import { demoTrace } from '../web/demo/demoTrace.ts';
import { fixture, HAVE_FIXTURES, NO_FIXTURES_MESSAGE, openDebugger, stepView, typeStep } from './debuggerHelpers.ts';
import { node, openApp, shot } from './editorHelpers.ts';

/** The small display fixes, as a user meets them: numbers, times, rows, notes, and a did-you-mean. */

async function importByPicker(page: Page, name: string, buffer: Buffer): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('trace-import').click();
  await (await chooser).setFiles({ name, mimeType: 'application/octet-stream', buffer });
}

test('step numbers have the same thousands separators everywhere: "Step 1,040 / 1,200", the step field included', async ({ page }) => {
  await openDebugger(page);
  const demo = demoTrace();
  const events = Array.from({ length: 1200 }, (_, i) => ({ ...demo.events[i % demo.events.length]!, event_id: `sep-${i}` }));
  await importByPicker(page, 'long.jsonl', Buffer.from(traceToJsonl({ header: { ...demo.header, trace_id: 'sep', title: 'Long' }, events })));
  await expect(page.getByTestId('position')).toContainText('of 1,200');
  await typeStep(page, 1039);
  await expect(page.getByTestId('goto-step')).toHaveValue('1,040');
  await expect(page.getByTestId('position')).toHaveText(/Step\s*of 1,200/);
  await expect(page.getByTestId('step-view').locator('.dbg-step-no')).toHaveText('Step 1,040 of 1,200');
  await expect(page.getByTestId('canvas-step').locator('.num')).toHaveText('Step 1,040 / 1,200');
  await expect(page.locator('[data-testid="timeline-row"][data-index="1039"] .num')).toHaveText('1,040');
  // Leaving the field without typing keeps the step (the separator is not read as the end of the number).
  await page.getByTestId('goto-step').click();
  await page.keyboard.press('Tab');
  await expect(stepView(page, 1039)).toBeVisible();
  await expect(page.getByTestId('goto-step')).toHaveValue('1,040');
  await shot(page, 'debugger-separators');
});

test('a counterfactual step\'s note takes its tone from the note\'s kind', async ({ page }) => {
  await openDebugger(page);
  await typeStep(page, 17);
  const note = page.locator('[data-testid="step-note"][data-kind="counterfactual"]');
  await expect(note).toHaveCount(1);
  await expect(note).toHaveClass(/\bcf\b/);
});

test('a mistyped event type typed with the keyboard gets a did-you-mean in the Problems panel', async ({ page }) => {
  await openApp(page);
  await node(page, 'ev-tool-before').click();
  await page.getByTestId('event-pattern').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('tool.before_cal');
  await expect(page.getByTestId('problem-item').filter({ hasText: 'did you mean "tool.before_call"' })).toHaveCount(1);
});

test.describe('real recordings', () => {
  test.skip(!HAVE_FIXTURES, NO_FIXTURES_MESSAGE);

  test('SWE-agent steps show no 1970-01-01 (a .traj has no times): the time says "not recorded"', async ({ page }) => {
    await openDebugger(page);
    const traj = fixture('swe-agent/pydicom__pydicom-1458.gpt4.traj');
    const expected = importTrace(traj.toString('utf8'), { fileName: 'run.traj' }).trace!;
    await importByPicker(page, 'pydicom__pydicom-1458.gpt4.traj', traj);
    await expect(page.getByTestId('position')).toContainText(`of ${expected.events.length}`);
    for (const index of [0, 5]) {
      await typeStep(page, index);
      await expect(page.getByTestId('event-time')).toHaveText('not recorded');
      await expect(page.getByTestId('step-time')).toHaveCount(0);
      await expect(page.getByTestId('step-view')).not.toContainText('1970');
    }
    await expect(page.getByTestId('timeline')).not.toContainText('1970');
    await shot(page, 'debugger-swe-agent-times');
  });

  test('Claude Code model.after_call rows read as text, not raw JSON', async ({ page }) => {
    await openDebugger(page);
    const cc = fixture('claude-code/spotter_tool_heavy.jsonl');
    const expected = importTrace(cc.toString('utf8'), { fileName: 'transcript.jsonl' }).trace!;
    const calls = expected.events.map((e, i) => [e.type, i] as const).filter(([t]) => t === 'model.after_call').map(([, i]) => i);
    expect(calls.length).toBeGreaterThan(0);
    await importByPicker(page, 'transcript.jsonl', cc);
    await expect(page.getByTestId('position')).toContainText(`of ${expected.events.length}`);
    for (const i of calls) {
      const summary = page.locator(`[data-testid="timeline-row"][data-index="${i}"] .summary`);
      await summary.scrollIntoViewIfNeeded();
      const text = (await summary.textContent()) ?? '';
      expect(text.trim().startsWith('{'), `row ${i + 1} shows raw JSON: ${text}`).toBe(false);
      expect(text).not.toContain('"message_id"');
    }
  });
});
