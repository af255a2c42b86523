import { test, expect } from '@playwright/test';
import type { Pipeline } from '../engine/app.ts';
import { demoPipeline } from '../web/demo/demoPipeline.ts';
import { importPipelineAndDebug, stepView, timelineRow, typeStep } from './debuggerHelpers.ts';
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
