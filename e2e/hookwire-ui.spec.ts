import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startUi } from '../engine/node/commands/uiCommand.ts';
import type { UiServer } from '../engine/node/uiServer.ts';
import { demoTraceJsonl } from '../web/demo/demoTrace.ts';
import { openInspector } from './editorHelpers.ts';

// `hookwire ui pipeline.json trace.jsonl`, as a person runs it: the real command's server (node:http on
// loopback, the token in the printed address) serving this run's production build, opened in Chromium.
// Issue 34 item 7 (a pipeline the engine refuses).

const ROOT = join(import.meta.dirname, '..');
const WEB = join(ROOT, `dist-e2e-${process.env.HOOKWIRE_E2E_PORT ?? 4173}`);
const SCHEMA = join(ROOT, 'engine', 'schema');
const quiet = { out: () => {}, err: () => {} } as never;

let servers: UiServer[] = [];
test.afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function ui(files: string[]): Promise<string> {
  const server = await startUi(files, { port: '0' }, quiet, { web: WEB, schema: SCHEMA });
  servers.push(server);
  return server.url;
}

function files(): { dir: string; pipeline: string; trace: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-e2e-ui-'));
  const pipeline = join(dir, 'guard.pipeline.json');
  writeFileSync(pipeline, readFileSync(join(ROOT, 'test', 'engine', 'node', 'fixtures', 'guard.pipeline.json')));
  const trace = join(dir, 'run.jsonl');
  writeFileSync(trace, demoTraceJsonl());
  return { dir, pipeline, trace };
}

test('a pipeline the engine refuses: nothing is added, and its problems are in the Problems panel, not "0 errors" of another', async ({ page }) => {
  const { dir } = files();
  const bad = JSON.parse(readFileSync(join(ROOT, 'test', 'engine', 'node', 'fixtures', 'guard.pipeline.json'), 'utf8'));
  bad.name = 'broken guard';
  bad.nodes.find((n: { id: string }) => n.id === 'rm').when = { 'payload.tool_input.command': { regex: 'rm (-rf' } };
  bad.wires.push({ from: 'before', to: 'nowhere' });
  const path = join(dir, 'broken.pipeline.json');
  writeFileSync(path, JSON.stringify(bad));
  await page.goto(await ui([path]));

  await expect(page.getByTestId('toast').filter({ hasText: 'broken.pipeline.json cannot be opened' })).toContainText('listed in the Problems panel. Nothing was added.');
  const refused = page.getByTestId('refused-file');
  await expect(refused).toBeVisible();
  await expect(refused).toContainText('broken.pipeline.json cannot be opened');
  // The counts include the refused file's errors: never "0 errors" while the file given is broken.
  await expect(page.getByTestId('error-count')).not.toHaveText('0 errors');
  const problems = refused.getByTestId('refused-problem');
  expect(await problems.count()).toBeGreaterThanOrEqual(2);
  await expect(problems.filter({ hasText: 'nowhere' })).toHaveCount(1);
  await expect(problems.filter({ hasText: /regex|regular expression|pattern/i }).first()).toBeVisible();
  // Nothing named "broken guard" went into the library.
  await page.getByTestId('tab-library').click();
  await expect(page.locator('[data-testid="library-item"][data-name="broken guard"]')).toHaveCount(0);

  // Reachable by keyboard, and dismissed by keyboard: the counts go back to the open pipeline's.
  await problems.first().focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(problems.first()).toBeFocused();
  await refused.getByTestId('refused-dismiss').focus();
  await page.keyboard.press('Enter');
  await expect(refused).toHaveCount(0);
  await expect(page.getByTestId('error-count')).toHaveText('0 errors');
});

test('the printed address opened a second time finds what the first made: no second copy, and an edit made since is kept', async ({ page, context }) => {
  // Two full app loads and an edit, on a machine other sessions share.
  test.setTimeout(150_000);
  const { pipeline, trace } = files();
  const url = await ui([pipeline, trace]);
  await page.goto(url);
  await expect(page.getByTestId('pipeline-title')).toHaveText('guard', { timeout: 30_000 });
  // The trace imported from the file (the library also holds the demo's own trace).
  const fromFile = (p: typeof page) => p.locator('[data-testid="trace-item"][title$="from run.jsonl"]');
  await expect(fromFile(page)).toHaveCount(1, { timeout: 30_000 });

  // An edit by keyboard: the pipeline renamed in Edit mode.
  await page.getByTestId('mode-edit').click();
  await page.keyboard.press('Escape');
  await openInspector(page);
  await page.getByTestId('pipeline-name').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' edited');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-status', 'saved');
  await expect(page.getByTestId('pipeline-title')).toHaveText('guard edited');
  await page.close();

  // The same address again, in a new tab, as a second click on the printed link opens it.
  const again = await context.newPage();
  await again.goto(url);
  await expect(again.getByTestId('trace-item').first()).toBeVisible({ timeout: 30_000 });
  await expect(again.getByTestId('pipeline-title')).toHaveText('guard edited');
  // Give a second import its chance to show before counting (the first one above took under a second).
  await again.waitForTimeout(1500);
  await expect(fromFile(again)).toHaveCount(1);
  await again.getByTestId('mode-edit').click();
  await again.getByTestId('tab-library').click();
  await expect(again.locator('[data-testid="library-item"][data-name="guard edited"]')).toHaveCount(1);
  await expect(again.locator('[data-testid="library-item"][data-name="guard"]')).toHaveCount(0);
});
