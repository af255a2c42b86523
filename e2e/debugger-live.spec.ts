import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { goToStep, key, openDebugger, stepView, startServe, connectLive } from './debuggerHelpers.ts';
import { expectModalFocus } from './dialogHelpers.ts';

// The live view against a real `hookwire serve` on loopback: its events arrive in the debugger's timeline
// with the server's decisions, as a person watching a running agent would see them.

const ROOT = join(import.meta.dirname, '..');
let server: ChildProcess;
let port = 0;
let token = '';
let pipelinePath = '';
let stateDir = '';

function post(path: string, body: unknown, method = 'POST'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
      let t = '';
      res.setEncoding('utf8').on('data', (d: string) => (t += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: t }));
    });
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : JSON.stringify(body));
  });
}

const hook = (id: string, command = 'ls') =>
  post('/v1/claude/hook', { session_id: 'e2e-live', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: id });

// A real server, a restart and the replay worker on a shared 2-core machine: more than the default minute.
test.describe.configure({ timeout: 240_000 });

test.beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-e2e-live-'));
  const doc = JSON.parse(readFileSync(join(ROOT, 'test', 'engine', 'node', 'fixtures', 'guard.pipeline.json'), 'utf8'));
  doc.nodes.push({ id: 'calls', kind: 'handler', name: 'Two tool calls', order: 50, action: { type: 'budget', key: 'tool_calls', limit: 2, reason: 'only two tool calls' } });
  doc.wires.push({ from: 'before', to: 'calls' });
  pipelinePath = join(dir, 'p.json');
  writeFileSync(pipelinePath, JSON.stringify(doc));
  stateDir = join(dir, 'state');
  await startServer('0');
});

/** `hookwire serve` on the test's pipeline and state dir (port '0': any free one). */
async function startServer(onPort: string): Promise<void> {
  ({ server, port, token } = await startServe(pipelinePath, stateDir, onPort));
}

test.afterAll(() => {
  server?.kill('SIGTERM');
});

test('a live session arrives in the timeline with the server\'s decisions; pause holds it, step back, keep it, push a pipeline after its diff', async ({ page }) => {
  await openDebugger(page);
  await connectLive(page, port, token);
  await expect(page.getByTestId('live-status-text')).toHaveText(`Live on http://127.0.0.1:${port} · waiting for a session`);
  await expect(page.getByTestId('live-pipeline')).toContainText('server pipeline: guard sha256:');
  // The debugger explains with the server's own pipeline, opened from the server and named as such.
  await expect(page.getByTestId('live-explained')).toHaveAttribute('data-theirs', 'true');
  await expect(page.getByTestId('live-explained')).toContainText('Explained with the server\'s pipeline (“guard · from serve” in your library)');

  // Three tool calls against a budget of two: the third is denied by the server.
  for (const id of ['a', 'b', 'c']) await hook(id);
  await expect(page.getByTestId('live-status-text')).toHaveText('Live · e2e-live · 3 events');
  const rows = page.getByTestId('timeline-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toHaveAttribute('data-recorded', 'block_action');
  await expect(rows.nth(0)).toHaveAttribute('data-recorded', 'continue');
  await expect(page.getByTestId('live-last')).toContainText('last server decision: block_action');
  // The newest event is the current step.
  await expect(stepView(page, 2)).toBeVisible();

  // Paused: arrivals wait, the timeline holds still, and stepping back works as in any trace.
  await page.getByTestId('live-pause').click();
  await hook('d', 'rm -rf /');
  await hook('e');
  await expect(page.getByTestId('live-waiting')).toHaveText('2 waiting');
  await expect(rows).toHaveCount(3);
  await key(page, 'ArrowLeft');
  await expect(stepView(page, 1)).toBeVisible();
  await page.screenshot({ path: 'test-results/live-paused.png' });

  await page.getByTestId('live-pause').click();
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(3)).toHaveAttribute('data-recorded', 'block_action');
  await expect(stepView(page, 4)).toBeVisible();
  // Replayed with the server's pipeline, every step agrees with the server, for the server's reasons.
  await expect(page.getByTestId('live-disagree')).toHaveAttribute('data-count', '0');
  await expect(rows.locator('.flag.diverge')).toHaveCount(0);
  await goToStep(page, 2);
  await expect(page.getByTestId('step-view')).toContainText('only two tool calls');
  await page.screenshot({ path: 'test-results/live-server-pipeline.png' });

  // Another pipeline opened in the editor: the panel says the steps are not explained with the server's, and
  // every step where that pipeline decides otherwise than the server did is flagged.
  await page.getByTestId('mode-edit').click();
  await page.getByTestId('tab-library').click();
  await page.locator('[data-testid="library-item"][data-name="Demo: agent safety policy"]').click();
  await page.getByTestId('mode-debug').click();
  await expect(page.getByTestId('live-explained')).toHaveAttribute('data-theirs', 'false');
  await expect(page.getByTestId('live-explained')).toContainText('Explained with “Demo: agent safety policy”, not the server\'s pipeline');
  await expect(page.getByTestId('live-disagree')).not.toHaveAttribute('data-count', '0');
  const flagged = Number(await page.getByTestId('live-disagree').getAttribute('data-count'));
  await expect(rows.locator('.flag.diverge')).toHaveCount(flagged);
  await page.screenshot({ path: 'test-results/live-other-pipeline.png' });
  // Back to the server's, by keyboard.
  await page.getByTestId('live-use-server').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('live-explained')).toHaveAttribute('data-theirs', 'true');
  await expect(page.getByTestId('live-disagree')).toHaveAttribute('data-count', '0');

  // Keep: the session stays in the library as a trace of its own.
  await page.getByTestId('live-keep').click();
  await expect(page.locator('[data-testid="trace-item"][data-name^="e2e-live (kept"]')).toHaveCount(1);
  await expect(page.getByTestId('live-status-text')).toHaveText(`Live on http://127.0.0.1:${port} · waiting for a session`);

  // Push of the server's own pipeline, unchanged: nothing to push.
  await page.getByTestId('live-push').click();
  await expect(page.getByTestId('live-push-same')).toBeVisible();
  await page.keyboard.press('Escape');
  // Push of another pipeline: the diff comes first, and the dialog says plainly it replaces the server's
  // pipeline with a different one; only the explicit button sends it.
  await page.getByTestId('mode-edit').click();
  await page.getByTestId('tab-library').click();
  await page.locator('[data-testid="library-item"][data-name="Demo: agent safety policy"]').click();
  await page.getByTestId('mode-debug').click();
  // The dialog by keyboard first: focus in, Tab cycles, Escape closes and the focus is back on Push.
  await page.getByTestId('live-push').focus();
  await page.keyboard.press('Enter');
  await expectModalFocus(page, page.getByTestId('live-push-dialog'), page.getByTestId('live-push'));
  await page.getByTestId('live-push').click();
  const dialog = page.getByTestId('live-push-dialog');
  await expect(dialog.getByTestId('live-diff').locator('li').first()).toBeVisible();
  await expect(dialog.getByTestId('live-push-what')).toHaveText('The server runs “guard”. Pushing replaces it with the editor\'s “Demo: agent safety policy”.');
  await expect(dialog.getByTestId('live-push-other')).toContainText('This is a different pipeline');
  await expect(dialog.getByTestId('live-push-confirm')).toHaveText('Replace with “Demo: agent safety policy”');
  const before = JSON.parse((await post('/v1/pipeline', null, 'GET')).body);
  expect(before.name).toBe('guard');
  await page.screenshot({ path: 'test-results/live-push-diff.png' });
  await dialog.getByTestId('live-push-confirm').click();
  await expect(dialog).toHaveCount(0);
  const after = JSON.parse((await post('/v1/pipeline', null, 'GET')).body);
  expect(after.name).not.toBe('guard');
  expect(after.version).not.toBe(before.version);
  await expect(page.getByTestId('live-pipeline')).toContainText(`server pipeline: ${after.name} ${after.version}`);
});

test('`hookwire ui --live` opens the app with #live=…&token=…: it connects at once and drops the token from the address', async ({ page }) => {
  await page.goto(`/#live=${encodeURIComponent(`http://127.0.0.1:${port}`)}&token=${token}`);
  await expect(page.getByTestId('live-status-text')).toHaveText(/^Live on http:\/\/127\.0\.0\.1:\d+ · waiting for a session$|^Live · /);
  expect(new URL(page.url()).hash).toBe('');
  await hook('from-ui-live', 'pwd');
  await expect(page.getByTestId('live-status-text')).toContainText('e2e-live');
  await expect(page.getByTestId('timeline-row').last()).toHaveAttribute('data-recorded', /continue|block_action/);
});

const hookIn = (session: string, id: string, command = 'ls') =>
  post('/v1/claude/hook', { session_id: session, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: id });

test('several sessions: each is followed from its first event (what came before the connection too), and another is picked by keyboard', async ({ page }) => {
  // Two calls of one agent before the debugger connects (the server's pipeline may be the one an earlier test
  // pushed: every call here is decided the same by both).
  await hookIn('agent-a', 'a1');
  await hookIn('agent-a', 'a2');
  await openDebugger(page);
  await connectLive(page, port, token);
  await expect(page.getByTestId('live-status-text')).toHaveText(`Live on http://127.0.0.1:${port} · waiting for a session`);

  // Its third call is denied; the timeline holds the whole session, the calls from before it connected too.
  await hookIn('agent-a', 'a3', 'rm -rf /');
  await expect(page.getByTestId('live-status-text')).toHaveText('Live · agent-a · 3 events');
  const rows = page.getByTestId('timeline-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toHaveAttribute('data-recorded', 'block_action');
  await expect(rows.nth(0)).toHaveAttribute('data-recorded', 'continue');

  // A second agent: its events are counted, not mixed into the followed one's timeline.
  await hookIn('agent-b', 'b1');
  await hookIn('agent-b', 'b2', 'rm -rf /');
  const picker = page.getByTestId('live-session');
  await expect(picker.locator('option')).toHaveText(['agent-a · 3 events · last: block_action', 'agent-b · 2 events · last: block_action']);
  await expect(rows).toHaveCount(3);

  // Picked with the keyboard: agent-b's session from its first event, then what arrives.
  await picker.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('live-status-text')).toHaveText('Live · agent-b · 2 events');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-recorded', 'continue');
  await expect(rows.nth(1)).toHaveAttribute('data-recorded', 'block_action');
  await hookIn('agent-b', 'b3');
  await expect(page.getByTestId('live-status-text')).toHaveText('Live · agent-b · 3 events');
  await expect(rows).toHaveCount(3);
  // agent-a keeps sending: counted in the picker, not shown.
  await hookIn('agent-a', 'a4', 'rm -rf /');
  await expect(picker.locator('option').first()).toHaveText('agent-a · 4 events · last: block_action');
  await expect(rows).toHaveCount(3);
  // Only the followed session's trace is in the library (the one followed before was not kept).
  await expect(page.locator('[data-testid="trace-item"][data-name^="Live: "]')).toHaveCount(1);
  await page.screenshot({ path: 'test-results/live-sessions.png' });
});

test('a restart of serve: the live view reconnects on its own (with backoff), keeps the followed trace, and goes on', async ({ page }) => {
  await openDebugger(page);
  await connectLive(page, port, token);
  await expect(page.getByTestId('live-status-text')).toHaveText(`Live on http://127.0.0.1:${port} · waiting for a session`);
  await hookIn('restart', 'r1');
  await hookIn('restart', 'r2', 'rm -rf /');
  await expect(page.getByTestId('live-status-text')).toHaveText('Live · restart · 2 events');
  const traceItem = page.locator('[data-testid="trace-item"][data-name="Live: restart"]');
  await expect(traceItem).toHaveCount(1);

  // serve stops: the panel says it is reconnecting, the trace stays in the library and in the timeline.
  const stopped = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await stopped;
  await expect(page.getByTestId('live-bar')).toHaveAttribute('data-status', 'reconnecting');
  await expect(page.getByTestId('live-status-text')).toContainText(`Reconnecting to http://127.0.0.1:${port} (attempt`);
  await expect(traceItem).toHaveCount(1);
  await expect(page.getByTestId('timeline-row')).toHaveCount(2);
  await page.screenshot({ path: 'test-results/live-reconnecting.png' });

  // Back on the same port and state dir (the same token): the view reconnects with no click, and what the
  // session sent while it was away joins the trace, then what comes next.
  await startServer(String(port));
  await hookIn('restart', 'r3');
  await expect(page.getByTestId('live-bar')).toHaveAttribute('data-status', 'live', { timeout: 30_000 });
  await hookIn('restart', 'r4', 'rm -rf /');
  await expect(page.getByTestId('live-status-text')).toHaveText('Live · restart · 4 events');
  await expect(page.getByTestId('timeline-row')).toHaveCount(4);
  await expect(page.getByTestId('timeline-row').nth(3)).toHaveAttribute('data-recorded', 'block_action');
  await expect(traceItem).toHaveCount(1);
  await page.screenshot({ path: 'test-results/live-reconnected.png' });
});
