import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipelineVersionOf } from '../engine/trace/pipelineVersion.ts';
import { demoPipeline } from '../web/demo/demoPipeline.ts';
import { demoTraceJsonl } from '../web/demo/demoTrace.ts';
import { exportPipelineText } from '../web/model/exportPipeline.ts';
import { shot } from './editorHelpers.ts';
import { BIN, ROOT } from '../test/conformance/flowSessions.ts';
import { key, openDebugger, stepView, timelineRow } from './debuggerHelpers.ts';

// [R17] A decision recorded by another version of the pipeline is not a divergence: the debugger says which
// versions they are, as `hookwire replay` does (one rule, the engine's: engine/replay/pipelineScope.ts). Before,
// the debugger flagged the step divergent ("≠ recorded"), found it with D, and showed the divergence note, as if
// the pipeline open now should have reproduced a decision another pipeline made.
// The demo trace's step 12 (index 11) was recorded CONTINUE; the demo pipeline blocks it.

const OTHER = 'sha256:0123456789abcdef';

/** The demo trace with step 12's recorded decision naming `version`. */
function traceRecordedBy(version: string): string {
  return demoTraceJsonl()
    .split('\n')
    .map((line) => {
      if (!line.includes('"recorded"')) return line;
      const e = JSON.parse(line) as { event_id: string; recorded: Record<string, unknown> };
      return e.event_id === JSON.parse(demoTraceJsonl().split('\n')[12]!).event_id ? JSON.stringify({ ...e, recorded: { ...e.recorded, pipeline: version } }) : line;
    })
    .join('\n');
}

async function importTrace(page: import('@playwright/test').Page, name: string, text: string): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('trace-import').click()]);
  await chooser.setFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.getByTestId('position')).toContainText('of 22');
  await expect(timelineRow(page, 11)).toHaveAttribute('data-outcome', 'block_action', { timeout: 30_000 });
}

test('a step recorded by another pipeline version says so instead of diverging, as hookwire replay does; the same version still diverges', async ({ page }) => {
  await openDebugger(page);
  await importTrace(page, 'other-version.hwtrace.jsonl', traceRecordedBy(OTHER));
  // Not flagged: no "≠ recorded" on the row, D finds no divergence, and the step says which versions.
  await expect(timelineRow(page, 11)).not.toContainText('≠ recorded');
  await key(page, 'Home');
  await key(page, 'b');
  await expect(stepView(page, 11)).toBeVisible();
  await expect(page.getByTestId('note-divergence')).toHaveCount(0);
  const note = page.locator('[data-testid="step-note"][data-kind="other_pipeline"]');
  await expect(note).toContainText(`Recorded with pipeline version ${OTHER}; this is sha256:`);
  await expect(note).toContainText('Its recorded CONTINUE is not compared (BLOCK_ACTION here)');
  const mine = /this is (sha256:[0-9a-f]{16})/.exec((await note.textContent()) ?? '')![1]!;
  await shot(page, 'debugger-other-pipeline-version');
  await key(page, 'Home');
  await key(page, 'd');
  await expect(stepView(page, 0)).toBeVisible(); // nothing to go to

  // The CLI says the same of the same bytes: the step is not counted as differing, and its note names the version.
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-e2e-version-'));
  const pipelineText = exportPipelineText(demoPipeline(), { layout: true });
  writeFileSync(join(dir, 'demo.pipeline.json'), pipelineText);
  writeFileSync(join(dir, 'other.hwtrace.jsonl'), traceRecordedBy(OTHER));
  const cli = execFileSync(process.execPath, [BIN, 'replay', join(dir, 'demo.pipeline.json'), join(dir, 'other.hwtrace.jsonl')], { cwd: ROOT, encoding: 'utf8' });
  expect(cli).toContain(`recorded continue by ${OTHER}`);
  expect(cli).toContain('1 decision recorded by another pipeline version (sha256:0123456789abcdef) not checked');
  // The app's version of the demo pipeline is the version of the text Export writes, as the CLI reads that file.
  expect(mine).toBe(pipelineVersionOf(pipelineText));

  // Recorded by this very version: compared, and the block is a divergence again.
  await importTrace(page, 'same-version.hwtrace.jsonl', traceRecordedBy(mine));
  await expect(timelineRow(page, 11)).toContainText('≠ recorded continue');
  await key(page, 'Home');
  await key(page, 'd');
  await expect(stepView(page, 11)).toBeVisible();
  await expect(page.getByTestId('note-divergence')).toContainText('Recorded CONTINUE; replay decides BLOCK_ACTION');
  await expect(page.locator('[data-testid="step-note"][data-kind="other_pipeline"]')).toHaveCount(0);
});
