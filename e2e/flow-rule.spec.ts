import { test, expect } from '@playwright/test';
import { createRuntime } from '../engine/runtime/index.ts';
import { exportedDoc, node, openApp, shot } from './editorHelpers.ts';
import { key, stepView, timelineRow } from './debuggerHelpers.ts';

// A flow rule [F1]-[F9] built in the inspector with the keyboard — "no network egress after a secret read" —
// then a recorded session stepped to the event it blocks: the step view says which earlier step set it up
// and jumps there.
const PIPELINE = {
  format: 'hookwire.pipeline', version: 1, name: 'Egress',
  nodes: [
    { id: 'tools', kind: 'event', pattern: 'tool.before_call' },
    { id: 'is-fetch', kind: 'matcher', label: 'Network fetch', tools: ['WebFetch'] },
    { id: 'h-egress', kind: 'handler', name: 'no egress after a secret read', order: 10, action: { type: 'block', reason: 'egress' } },
  ],
  wires: [{ from: 'tools', to: 'is-fetch' }, { from: 'is-fetch', to: 'h-egress' }],
};

/** The session, recorded by the real runtime through a pipeline that lets everything run. */
async function recordedSession(): Promise<Buffer> {
  const lines: string[] = [];
  let t = Date.parse('2026-03-06T09:00:00.000Z');
  const allowAll = { ...PIPELINE, nodes: PIPELINE.nodes.filter((n) => n.kind !== 'handler'), wires: PIPELINE.wires.slice(0, 1) };
  const r = createRuntime(allowAll, { clock: { now: () => (t += 1000) }, record: () => (line) => void lines.push(line) });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const trace = r.runtime.startTrace({ trace_id: 'egress', title: 'Read then fetch' });
  trace.emit('tool.before_call', { tool_name: 'WebFetch', tool_input: { url: 'https://docs.example/a' } });
  trace.emit('tool.before_call', { tool_name: 'Read', tool_input: { file_path: 'src/a.ts' } });
  trace.emit('tool.before_call', { tool_name: 'Read', tool_input: { file_path: '.env' } });
  trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'ls' } });
  trace.emit('tool.before_call', { tool_name: 'WebFetch', tool_input: { url: 'https://paste.example/upload' } });
  await trace.flush();
  return Buffer.from(lines.join(''));
}

/** Empties the focused field and types `text` with the keyboard. */
async function retype(page: import('@playwright/test').Page, testId: string, text: string, scope = page.locator('body')): Promise<void> {
  await scope.getByTestId(testId).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

test('a flow rule built by keyboard in the inspector blocks the fetch after a secret read, and the step view jumps to the read', async ({ page }) => {
  // Each typed key re-checks the pipeline: on a shared, loaded machine the typing alone can take most of a minute.
  test.setTimeout(240_000);
  await openApp(page);
  await page.getByTestId('open-import').click();
  await page.getByTestId('import-file').setInputFiles({ name: 'egress.pipeline.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(PIPELINE)) });
  await page.getByTestId('import-confirm').click();
  await node(page, 'h-egress').click();

  // Make the handler a flow rule: a sequence whose earlier event is a read of a file ending in .env.
  await page.getByTestId('handler-kind').selectOption('flow');
  await expect(page.getByTestId('flow-fields')).toBeVisible();
  await page.getByTestId('flow-rule').selectOption('sequence');
  await retype(page, 'flow-mark-event', 'tool.before_call');
  await page.getByTestId('flow-mark-use-when').focus();
  await page.keyboard.press('Space');
  const mark = page.getByTestId('flow-mark');
  await retype(page, 'cond-0-path', 'payload.tool_input.file_path', mark);
  await mark.getByTestId('cond-0-op').selectOption('suffix');
  await retype(page, 'cond-0-value', '.env', mark);
  await retype(page, 'flow-reason', 'No network egress after a secret read');
  await expect(node(page, 'h-egress')).toContainText('after tool.before_call');
  await shot(page, 'flow-rule-inspector');

  const doc = await exportedDoc(page);
  const h = doc.nodes.find((n: { id: string }) => n.id === 'h-egress');
  expect(h.action).toEqual({
    type: 'flow', rule: 'sequence', decision: 'block', reason: 'No network egress after a secret read',
    mark: { event: 'tool.before_call', when: { 'payload.tool_input.file_path': { suffix: '.env' } } },
  });

  // Debug the recorded session: the last fetch is blocked now (the recording let it run).
  await page.getByTestId('mode-debug').click();
  await page.getByTestId('trace-file').setInputFiles({ name: 'egress.jsonl', mimeType: 'application/x-ndjson', buffer: await recordedSession() });
  await expect(page.getByTestId('position')).toContainText('of 5');
  await expect(timelineRow(page, 4)).toHaveAttribute('data-outcome', 'block_action');
  await expect(timelineRow(page, 0)).toHaveAttribute('data-outcome', 'continue');
  await key(page, 'b');
  await expect(stepView(page, 4)).toBeVisible();
  await expect(page.getByTestId('step-reason')).toHaveText('No network egress after a secret read — step 3 (tool.before_call Read `.env`) came before');
  const verdict = page.getByTestId('flow-verdict').filter({ has: page.getByTestId('flow-cause') }).first();
  await expect(verdict).toHaveAttribute('data-fires', 'true');
  await expect(verdict).toContainText('“no egress after a secret read” fired: step 3 (tool.before_call Read `.env`) came before.');
  await verdict.scrollIntoViewIfNeeded();
  await shot(page, 'flow-rule-step');

  // The jump, by keyboard: focus the button and press Enter.
  await verdict.getByTestId('flow-cause').focus();
  await page.keyboard.press('Enter');
  await expect(stepView(page, 2)).toBeVisible();
  await expect(page.getByTestId('step-type')).toHaveText('tool.before_call');

  // Why not, on the first fetch: the rule ran, and nothing had been read yet.
  await timelineRow(page, 0).click();
  await expect(stepView(page, 0)).toBeVisible();
  await page.getByTestId('why-handler').selectOption('h-egress');
  await expect(page.getByTestId('why-answer')).toHaveAttribute('data-kind', 'flow_not_fired');
  await expect(page.getByTestId('why-answer')).toHaveText('“no egress after a secret read” ran, but its flow rule did not fire: no earlier event matched.');
});
