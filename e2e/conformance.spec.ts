import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { demoPipeline } from '../web/demo/demoPipeline.ts';
import { demoTraceJsonl } from '../web/demo/demoTrace.ts';
import { exportPipelineText } from '../web/model/exportPipeline.ts';
import { BIN } from '../test/conformance/flowSessions.ts';
import { FIXTURES_DIR, FIXTURE_FILES, HAVE_FIXTURES, NO_FIXTURES_MESSAGE, appReplayRows, cliReplayRows, fixture, key, openDebugger, stepView } from './debuggerHelpers.ts';

/**
 * Conformance (issue 7, item 4; SPEC P10): the same pipeline and trace give identical decisions and payloads
 * in Node (the `hookwire replay --json` CLI, run here as a subprocess) and in the browser app (its replay
 * worker over the trace stored in IndexedDB, and what the step view shows).
 */


let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookwire-conformance-'));
  writeFileSync(join(dir, 'demo.pipeline.json'), exportPipelineText(demoPipeline(), { layout: true }));
  writeFileSync(join(dir, 'demo.trace.jsonl'), demoTraceJsonl());
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the CLI is there', () => {
  expect(existsSync(BIN), `the hookwire CLI is missing at ${BIN}`).toBe(true);
});

test('demo pipeline over the demo trace: the app decides what the CLI decides, event by event, on screen too', async ({ page }) => {
  const cli = cliReplayRows(join(dir, 'demo.pipeline.json'), join(dir, 'demo.trace.jsonl'));
  expect(cli).toHaveLength(22);
  expect(cli.filter((r) => r.decision === 'block_action').map((r) => r.event_id)).toEqual(['demo:12:tool.before_call']);
  await openDebugger(page);
  expect(await appReplayRows(page)).toEqual(cli);

  // The step view shows the same decision, reason and deciding handler for every event.
  for (let i = 0; i < cli.length; i++) {
    const row = cli[i]!;
    await expect(stepView(page, i)).toBeVisible();
    await expect(page.getByTestId('step-outcome')).toHaveText(row.decision.toUpperCase());
    if (row.reason) await expect(page.getByTestId('step-reason')).toHaveText(row.reason);
    else await expect(page.getByTestId('step-reason')).toHaveCount(0);
    if (row.decided_by) await expect(page.locator(`[data-testid="handler-card"][data-handler="${row.decided_by}"]`)).toContainText('decided');
    if (i < cli.length - 1) await key(page, 'j');
  }
});

test.describe('real recordings', () => {
  test.skip(!HAVE_FIXTURES, NO_FIXTURES_MESSAGE);
  const FILES = FIXTURE_FILES;

  test('every fixture through the demo pipeline: identical decisions, reasons, deciding handlers and payloads', async ({ page }) => {
    test.setTimeout(120_000);
    await openDebugger(page);
    for (const rel of FILES) {
      const cli = cliReplayRows(join(dir, 'demo.pipeline.json'), join(FIXTURES_DIR, rel));
      const name = rel.split('/').pop()!;
      await page.getByTestId('trace-file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: fixture(rel) });
      await expect(page.locator('[data-testid="trace-item"][aria-current="true"]')).toContainText(`${cli.length} events`);
      await expect(page.getByTestId('position')).toContainText(`of ${cli.length}`);
      await expect(stepView(page, 0)).toBeVisible();
      const app = await appReplayRows(page);
      expect(app, `${rel}: the app and the CLI differ`).toEqual(cli);
    }
  });
});
