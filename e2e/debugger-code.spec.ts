import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';
import type { Pipeline } from '../engine/model/pipelineTypes.ts';
import { demoPipeline } from '../web/demo/demoPipeline.ts';
import { demoTraceJsonl } from '../web/demo/demoTrace.ts';
import { shot } from './editorHelpers.ts';
import { goToStep, importPipelineAndDebug, key, stepView } from './debuggerHelpers.ts';

/**
 * Code handlers in the debugger: the replay worker loads QuickJS (web/sandbox) and runs them off the page's
 * thread; a handler that loops is stopped at its time limit, every event still gets its step, and the tab
 * keeps answering.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

function withCode(name: string, source: string, pattern: string, extra: { timeout_ms?: number; fuel?: number } = {}): Pipeline {
  const doc = demoPipeline();
  doc.name = name;
  doc.nodes.push(
    { id: 'ev-code', kind: 'event', pattern },
    { id: 'h-code', kind: 'handler', name, order: 15, enabled: true, shadow: false, on_error: 'block', action: { type: 'code', language: 'ts', source, ...extra } },
  );
  doc.wires.push({ from: 'ev-code', to: 'h-code' });
  doc.layout!.nodes.push({ id: 'ev-code', x: 0, y: 800 }, { id: 'h-code', x: 940, y: 800 });
  return doc;
}

const NO_ENV = `export default (ctx: { payload: { tool_input?: { file_path?: string } } }) => {
  const path = ctx.payload.tool_input?.file_path ?? '';
  log('checking', path);
  return path.endsWith('.env') ? block(\`reading \${path} is not allowed\`) : null;
};`;

test('a TypeScript code handler runs in the replay worker, and decides as the CLI does', async ({ page }) => {
  // A time limit well past the default 50 ms: this test compares the app's decisions with the CLI's, and on a
  // loaded 2-core machine a process descheduled for 50 ms mid-call times out (and so blocks) on one side only.
  const doc = withCode('No .env reads', NO_ENV, 'tool.before_call', { timeout_ms: 2000 });
  await importPipelineAndDebug(page, doc);
  await expect(page.getByTestId('step-view')).toBeVisible();
  await goToStep(page, 7);
  await expect(page.getByTestId('step-outcome')).toHaveText('BLOCK_ACTION');
  await expect(page.getByTestId('step-reason')).toHaveText('reading config/deploy.env is not allowed');
  const card = page.locator('[data-testid="handler-card"][data-handler="h-code"]');
  await expect(card).toHaveAttribute('data-status', 'fired');
  await expect(card).toContainText('checking config/deploy.env');
  await shot(page, 'debugger-code-handler');

  const dir = mkdtempSync(join(tmpdir(), 'hookwire-code-'));
  try {
    writeFileSync(join(dir, 'p.json'), JSON.stringify(doc));
    writeFileSync(join(dir, 't.jsonl'), demoTraceJsonl());
    const out = execFileSync(process.execPath, [join(ROOT, 'engine/node/bin.mjs'), 'replay', join(dir, 'p.json'), join(dir, 't.jsonl'), '--json', '--no-check'], { cwd: ROOT, encoding: 'utf8' }); // the CLI's replay, not the recording [R16]
    const cli = out.trim().split('\n').map((l) => JSON.parse(l));
    const app = await page.evaluate(() => (globalThis as unknown as { hookwire: { debugger: { decisions(): Promise<unknown[]> } } }).hookwire.debugger.decisions());
    expect(app).toEqual(cli);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a handler that loops runs out of fuel on every event; the tab keeps answering', async ({ page }) => {
  // [S13] fuel decides, the same on any machine; the wall-clock net stays far away.
  await importPipelineAndDebug(page, withCode('Loops forever', 'export default () => { for (;;) {} };', '*', { fuel: 200 }));
  await expect(page.getByTestId('step-view')).toBeVisible();
  // While the worker replays (200 units of fuel per event, twice), the page steps, switches tabs and draws.
  await key(page, 'j');
  await expect(stepView(page, 1)).toBeVisible();
  await page.getByTestId('tab-breakpoints').click();
  await expect(page.getByTestId('breakpoints-panel')).toBeVisible();
  await page.getByTestId('tab-timeline').click();
  const card = page.locator('[data-testid="handler-card"][data-handler="h-code"]');
  await expect(card).toHaveAttribute('data-status', 'error');
  await expect(card.getByTestId('handler-error')).toContainText('fuel');
  await expect(card.getByTestId('handler-error')).toContainText('policy: block');
  await expect(page.getByTestId('step-outcome')).toHaveText('BLOCK_ACTION');
  // Every event gets its step: the last one too (agent.end is async, so the error is logged, not enforced).
  await key(page, 'End');
  await expect(stepView(page, 21)).toBeVisible();
  await expect(page.locator('[data-testid="handler-card"][data-handler="h-code"]')).toHaveAttribute('data-status', 'error');
  await expect(page.getByTestId('step-outcome')).toHaveText('CONTINUE');
  await shot(page, 'debugger-looping-handler');
});
