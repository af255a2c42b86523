import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openDebugger, stepView, timelineRow, typeStep, startServe, connectLive } from './debuggerHelpers.ts';
import { shot } from './editorHelpers.ts';

// The live view flags a step where the local replay reaches the server's decision for another reason or by
// another handler [R6] (issue 34: the demo's "Block destructive commands" explained a block by the server's
// "No rm -rf" and nothing said so), against a real `hookwire serve` on loopback.

const ROOT = join(import.meta.dirname, '..');
let server: ChildProcess;
let port = 0;
let token = '';

function post(path: string, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
      let t = '';
      res.setEncoding('utf8').on('data', (d: string) => (t += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: t }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const hook = (id: string, command: string) =>
  post('/v1/claude/hook', { session_id: 'e2e-reason', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: id });

test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-e2e-reason-'));
  const pipelinePath = join(dir, 'p.json');
  writeFileSync(pipelinePath, readFileSync(join(ROOT, 'test', 'engine', 'node', 'fixtures', 'guard.pipeline.json'), 'utf8'));
  ({ server, port, token } = await startServe(pipelinePath, join(dir, 'state')));
});

test.afterAll(() => {
  server?.kill('SIGTERM');
});

test('live: the same block as the server by another handler and for another reason is flagged, on the row, the step and the panel', async ({ page }) => {
  await openDebugger(page);
  await connectLive(page, port, token);
  await expect(page.getByTestId('live-explained')).toHaveAttribute('data-theirs', 'true');
  // The server allows ls and blocks rm -rf with its "No rm -rf" (its reason names the command).
  expect((await hook('a', 'ls')).status).toBe(200);
  expect((await hook('b', 'rm -rf /tmp/x')).status).toBe(200);
  await expect(page.getByTestId('live-status-text')).toHaveText('Live · e2e-reason · 2 events');
  const rows = page.getByTestId('timeline-row');
  await expect(rows.nth(1)).toHaveAttribute('data-recorded', 'block_action');
  // With the server's own pipeline: the same decisions, for the same reasons, by the same handlers.
  await expect(page.getByTestId('live-disagree')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('live-disagree')).toHaveText('Every step replays as the server decided, for the server\'s reasons.');
  await expect(page.getByTestId('live-reason')).toHaveCount(0);
  await expect(page.getByTestId('row-reason')).toHaveCount(0);

  // The demo pipeline blocks rm -rf too, by its own "Block destructive commands": the same decision, another handler.
  await page.getByTestId('mode-edit').click();
  await page.getByTestId('tab-library').click();
  await page.locator('[data-testid="library-item"][data-name="Demo: agent safety policy"]').click();
  await page.getByTestId('mode-debug').click();
  await expect(page.getByTestId('live-explained')).toHaveAttribute('data-theirs', 'false');
  await expect(page.getByTestId('live-disagree')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('live-reason')).toHaveAttribute('data-count', '1');
  await expect(page.getByTestId('live-reason')).toHaveText('1 step reaches the server\'s decision for another reason or by another handler (“≠ recorded reason” in the timeline; the step says which).');
  await expect(timelineRow(page, 1).getByTestId('row-reason')).toHaveText('≠ recorded reason');
  await expect(timelineRow(page, 0).getByTestId('row-reason')).toHaveCount(0);
  await typeStep(page, 1);
  await expect(stepView(page, 1).getByTestId('note-divergence')).toHaveText(
    'Recorded BLOCK_ACTION by “block-rm” (destructive command: rm -rf /tmp/x); replay decides BLOCK_ACTION too by “Block destructive commands” (Blocked Bash: `rm -rf /tmp/x` is destructive): the same decision for another handler.',
  );
  await shot(page, 'live-reason-differs-1440');
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'live-reason-differs-1280');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Back to the server's pipeline, by keyboard: nothing is flagged.
  await page.getByTestId('live-use-server').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('live-explained')).toHaveAttribute('data-theirs', 'true');
  await expect(page.getByTestId('live-reason')).toHaveCount(0);
  await expect(page.getByTestId('row-reason')).toHaveCount(0);
});
