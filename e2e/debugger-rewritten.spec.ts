import { test, expect } from '@playwright/test';
import type { Pipeline } from '../engine/app.ts';
import { demoPipeline } from '../web/demo/demoPipeline.ts';
import { importPipelineAndDebug, openDebugger, stepView, timelineRow, typeStep } from './debuggerHelpers.ts';
import { shot } from './editorHelpers.ts';

/**
 * A timeline row is flagged "rewritten" only when the handlers changed the payload's value: a redact rule at
 * a path whose pattern matched nothing hands back an equal copy, which is no rewrite (issue #34, broken 4).
 */
test('"rewritten" on a timeline row means the payload changed: a redact that matched nothing is not flagged', async ({ page }) => {
  const doc: Pipeline = demoPipeline();
  doc.name = 'Redact the response';
  const redact = doc.nodes.find((n) => n.kind === 'handler' && n.name === 'Redact secrets')!;
  if (redact.kind !== 'handler') throw new Error('no redact handler in the demo');
  redact.action = { type: 'rewrite', ops: [{ op: 'redact', path: 'payload.response', pattern: 'sk-[A-Za-z0-9]{16,}', replacement: '[REDACTED]' }] };
  await importPipelineAndDebug(page, doc);
  await expect(page.getByTestId('timeline-row').first()).not.toHaveAttribute('data-outcome', '', { timeout: 30_000 });

  // Step 5 (model.after_call, no key in the response): the rule ran and matched nothing.
  await typeStep(page, 4);
  await expect(stepView(page, 4)).toBeVisible();
  await expect(page.getByTestId('payload-unchanged')).toBeVisible();
  await expect(timelineRow(page, 4).locator('.flag.rewrite')).toHaveCount(0);
  // Step 11 (model.after_call whose response carries a key): redacted, and flagged.
  const flagged = page.locator('[data-testid="timeline-row"]:has(.flag.rewrite)');
  await expect(flagged).not.toHaveCount(0);
  const rows = await flagged.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-index'))));
  for (const i of rows) {
    await typeStep(page, i);
    await expect(page.getByTestId('payload-unchanged')).toHaveCount(0);
  }
  await shot(page, 'debugger-rewritten-flags');
});

/**
 * The timeline's one-line summary of a rewritten step is what the pipeline made of the payload: a secret the
 * pipeline redacts is not shown in the clear on the timeline (issue #34, "the timeline summary shows the raw
 * recorded secret"). The recorded payload is one deliberate press away, and hidden again the same way.
 */
test('a redacted secret stays redacted on the timeline; "recorded" reveals the recorded payload on purpose', async ({ page }) => {
  await openDebugger(page);
  await expect(page.getByTestId('timeline-row').nth(8)).toHaveAttribute('data-outcome', /.+/, { timeout: 30_000 });
  // Steps 9 (a tool result) and 11 (a model response) carry an sk- key the demo's "Redact secrets" rewrites.
  for (const i of [8, 10]) {
    const row = timelineRow(page, i);
    await expect(row.locator('.flag.rewrite')).toBeVisible();
    await expect(row.getByTestId('row-summary')).toHaveAttribute('data-shows', 'rewritten');
    await expect(row.getByTestId('row-summary')).toContainText('[REDACTED]');
    await expect(row.getByTestId('row-summary')).not.toContainText('sk-proj');
    expect(await row.getByTestId('row-summary').getAttribute('title')).not.toContain('sk-proj');
  }
  // No row anywhere shows the key while nothing is revealed.
  await expect(page.getByTestId('timeline').getByText(/sk-proj/)).toHaveCount(0);

  // The reveal, by keyboard: R on the current step shows its recorded payload; the step stays.
  const row9 = timelineRow(page, 8);
  await row9.click();
  await expect(page.getByTestId('position')).toHaveAttribute('data-position', '8');
  await expect(row9.getByTestId('row-reveal')).toHaveAttribute('title', /R on the current step/);
  await page.keyboard.press('r');
  await expect(row9.getByTestId('row-summary')).toHaveAttribute('data-shows', 'recorded');
  await expect(row9.getByTestId('row-summary')).toContainText('sk-proj4f9');
  await expect(row9.getByTestId('row-reveal')).toHaveAttribute('data-pressed', 'true');
  await expect(page.getByTestId('position')).toHaveAttribute('data-position', '8');
  const at = '8';
  // Only that row: step 11 still shows the pipeline's result.
  await expect(timelineRow(page, 10).getByTestId('row-summary')).not.toContainText('sk-proj');
  await shot(page, 'debugger-timeline-reveal');
  // And back, with the mouse this time.
  await row9.getByTestId('row-reveal').click();
  await expect(row9.getByTestId('row-summary')).toContainText('[REDACTED]');
  await expect(page.getByTestId('timeline').getByText(/sk-proj/)).toHaveCount(0);
  await expect(page.getByTestId('position')).toHaveAttribute('data-position', at!);
});
