import { test, expect } from '@playwright/test';
import { createRuntime, type Approver } from '../engine/runtime/index.ts';
import { openApp, shot } from './editorHelpers.ts';
import { goToStep, stepView, timelineRow } from './debuggerHelpers.ts';

// A pipeline that asks a person before a deploy and adds a note for the model to every tool call, and a
// trace of it recorded by the real runtime with a real approver (staging allowed, prod denied): the debugger
// must show each ASK with the answer the recording holds, without asking anyone.
const PIPELINE = {
  format: 'hookwire.pipeline', version: 1, name: 'Deploy approvals',
  nodes: [
    { id: 'tools', kind: 'event', pattern: 'tool.before_call' },
    { id: 'is-deploy', kind: 'matcher', label: 'Deploy tool', tools: ['Deploy'] },
    { id: 'ask-deploy', kind: 'handler', name: 'Ask before deploy', order: 10, action: { type: 'ask', reason: 'deploy to {{payload.tool_input.env}}?' } },
    { id: 'freeze-note', kind: 'handler', name: 'Freeze note', order: 20, action: { type: 'add_context', text: 'prod is frozen on Fridays' } },
  ],
  wires: [{ from: 'tools', to: 'is-deploy' }, { from: 'is-deploy', to: 'ask-deploy' }, { from: 'tools', to: 'freeze-note' }],
};

async function recordedTrace(): Promise<Buffer> {
  const lines: string[] = [];
  let t = Date.parse('2026-03-06T09:00:00.000Z');
  const approver: Approver = (req) => ((req.payload.tool_input as { env?: string }).env === 'prod' ? { answer: 'deny', reason: 'release manager: not on a Friday' } : 'allow');
  const r = createRuntime(PIPELINE, { clock: { now: () => (t += 1000) }, approver, record: () => (line) => void lines.push(line) });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const trace = r.runtime.startTrace({ trace_id: 'deploys', title: 'Friday deploys' });
  trace.emit('tool.before_call', { tool_name: 'Bash', tool_input: { command: 'npm test' } });
  trace.emit('tool.before_call', { tool_name: 'Deploy', tool_input: { env: 'staging' } });
  trace.emit('tool.before_call', { tool_name: 'Deploy', tool_input: { env: 'prod' } });
  await trace.flush();
  return Buffer.from(lines.join(''));
}

test('the debugger shows an ASK step with its recorded answer, the context for the model, a timeline badge and filter', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('open-import').click();
  await page.getByTestId('import-file').setInputFiles({ name: 'deploy.pipeline.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(PIPELINE)) });
  await expect(page.getByTestId('import-ok')).toContainText('4 nodes, 3 wires');
  await page.getByTestId('import-confirm').click();
  await expect(page.getByTestId('node-ask-deploy')).toContainText('Ask a person');

  await page.getByTestId('mode-debug').click();
  await page.getByTestId('trace-file').setInputFiles({ name: 'deploys.jsonl', mimeType: 'application/x-ndjson', buffer: await recordedTrace() });
  await expect(page.getByTestId('position')).toContainText('of 3');
  await expect(timelineRow(page, 1)).toHaveAttribute('data-outcome', 'ask');
  await expect(timelineRow(page, 1).getByTestId('row-decision')).toHaveText('Ask');
  await expect(timelineRow(page, 2).getByTestId('row-decision')).toHaveText('Ask · denied');
  await expect(timelineRow(page, 0)).toContainText('context');

  // The denied deploy: the question, who answered and why, replayed from the recording.
  await goToStep(page, 2);
  await expect(page.getByTestId('step-outcome')).toHaveText('ASK');
  await expect(page.getByTestId('step-reason')).toHaveText('deploy to prod?');
  const answer = page.getByTestId('step-approval');
  await expect(answer).toHaveAttribute('data-answer', 'deny');
  await expect(answer).toHaveAttribute('data-by', 'approver');
  await expect(answer).toHaveAttribute('data-outcome', 'denied');
  // Who answered, when, and why: the engine's wording, as `hookwire replay` prints it [AP1].
  await expect(answer).toContainText(/ask → denied by the approver at 2026-03-06T09:00:\d\d\.000Z: release manager: not on a Friday/);
  await expect(page.getByText('the action is blocked')).toBeVisible();
  await expect(page.getByTestId('recorded-approval')).toHaveText(' · answer: deny (approver)');
  await expect(page.getByTestId('step-context-item')).toHaveText(['prod is frozen on Fridays']);
  const note = page.locator('[data-testid="handler-card"][data-handler="freeze-note"]');
  await expect(note.getByTestId('handler-context')).toContainText('prod is frozen on Fridays');
  await shot(page, 'debugger-ask-denied');

  // The allowed one.
  await goToStep(page, 1);
  await expect(stepView(page, 1).getByTestId('step-approval')).toHaveAttribute('data-answer', 'allow');
  await expect(page.getByTestId('step-approval')).toContainText('ask → approved by the approver at 2026-03-06T09:00:');
  await expect(page.getByTestId('step-approval')).toHaveAttribute('data-outcome', 'approved');

  // Filter: only the ASK steps.
  await page.getByTestId('filter-decision').selectOption('ask');
  await expect(page.getByTestId('filter-count')).toHaveText('2 of 3');
  expect(await page.getByTestId('timeline-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-index')))).toEqual(['1', '2']);
  await page.getByTestId('filter-decision').selectOption('blocked');
  await expect(page.getByTestId('filter-count')).toHaveText('1 of 3');
  expect(await page.getByTestId('timeline-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-index')))).toEqual(['2']);
  await page.getByTestId('filter-clear').click();

  // Edit the question with the keyboard: the replay re-runs and the step shows the new reason, same answer.
  // The canvas keeps the deciding handler in view (the whole path does not fit at zoom 1 here).
  await goToStep(page, 2);
  const asker = page.locator('.react-flow__node[data-id="ask-deploy"]');
  await expect(asker).toBeInViewport({ ratio: 1 });
  await asker.click();
  await page.getByTestId('tab-edit-node').click();
  const reason = page.getByTestId('action-reason');
  await reason.click();
  await page.keyboard.press('End');
  await page.keyboard.type(' (needs a ticket)');
  await page.getByTestId('tab-step').click();
  await expect(page.getByTestId('step-reason')).toHaveText('deploy to prod? (needs a ticket)');
  await expect(page.getByTestId('step-approval')).toHaveAttribute('data-answer', 'deny');
  await shot(page, 'debugger-ask-edited');
});
