import { test, expect } from '@playwright/test';
import { edges, exportedDoc, node, openApp, shot } from './editorHelpers.ts';

test('event mode, handler settings and rewrite rules edit the document', async ({ page }) => {
  await openApp(page);
  // An exact event's mode is declared in the pipeline's event_types [D8].
  await node(page, 'ev-tool-after').click();
  await page.getByTestId('mode-async').click();
  await expect(node(page, 'ev-tool-after')).toContainText('async');
  let doc = await exportedDoc(page);
  expect(doc.event_types).toEqual([{ type: 'tool.after_call', mode: 'async' }]);
  await node(page, 'ev-tool-after').click();
  await page.getByTestId('mode-sync').click();
  expect((await exportedDoc(page)).event_types).toEqual([]);

  // The canvas opens at a readable zoom 1 that leaves the handlers out at this window size: Fit first.
  await page.getByTestId('fit-view').click();
  await node(page, 'h-block-injection').click();
  await page.getByTestId('handler-order').fill('7');
  await page.getByTestId('handler-enabled').uncheck();
  await page.getByTestId('handler-shadow').check();
  await page.getByTestId('handler-on-error').selectOption('continue');
  await page.getByTestId('handler-timeout').fill('250');
  await page.getByTestId('handler-breaker').check();
  await page.getByTestId('action-reason').fill('Injection: {{payload.prompt}}');
  const h = node(page, 'h-block-injection');
  await expect(h).toContainText('#7');
  await expect(h).toContainText('disabled');
  await expect(h).toContainText('shadow');
  await expect(h).toContainText('250 ms');
  await shot(page, 'editor-handler-settings');
  doc = await exportedDoc(page);
  expect(doc.nodes.find((n: { id: string }) => n.id === 'h-block-injection')).toEqual({
    id: 'h-block-injection', kind: 'handler', name: 'Block prompt injection', order: 7, enabled: false, shadow: true, timeout_ms: 250,
    on_error: 'continue', breaker: { threshold: 3, cooldown_ms: 60000 }, action: { type: 'block', reason: 'Injection: {{payload.prompt}}' },
  });

  // Changing the kind gives the new kind's settings; the rewrite rules editor adds operations.
  await node(page, 'h-block-injection').click();
  await page.getByTestId('handler-kind').selectOption('rewrite');
  await expect(h).toHaveAttribute('data-action', 'rewrite');
  await page.getByTestId('rewrite-add-op').click();
  await page.getByTestId('rewrite-op-1').getByLabel('Path').fill('payload.prompt');
  await page.getByTestId('rewrite-op-1').getByLabel('Value', { exact: true }).fill('[filtered]');
  await expect(h).toContainText('set prompt = "[filtered]"');
  await shot(page, 'editor-rewrite');
});

test('problems list selects the node; multi-select, delete and auto-layout', async ({ page }) => {
  await openApp(page);
  // Break a regex: the engine's problem appears on the node and in the list.
  await node(page, 'm-destructive-command').click();
  await page.getByTestId('cond-0-value').fill('(?<=x)');
  await expect(node(page, 'm-destructive-command').getByTestId('node-problem-badge')).toHaveText('1');
  await page.getByTestId('canvas').click({ position: { x: 600, y: 700 } });
  await expect(page.getByTestId('inspector')).not.toHaveAttribute('data-node-id', 'm-destructive-command');
  await page.getByTestId('problem-item').first().click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'm-destructive-command');
  await expect(page.getByTestId('inspector-problems')).toContainText(/regex|regular expression/i);
  await shot(page, 'editor-problem');
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('error-count')).toHaveText('0 errors');
  await page.getByTestId('fit-view').click();

  // Ctrl-click adds to the selection; Delete removes both nodes and their wires.
  await node(page, 'ev-tool-after').click();
  await node(page, 'ev-model-after').click({ modifiers: ['Control'] });
  await expect(page.getByTestId('inspector')).toContainText('2 nodes selected');
  await page.keyboard.press('Delete');
  await expect(page.locator('.react-flow__node')).toHaveCount(11);
  await expect(edges(page)).toHaveCount(6);
  await page.keyboard.press('Control+z');
  await expect(edges(page)).toHaveCount(9);

  // Auto-layout moves nodes (positions only) and is one undo step.
  const before = (await exportedDoc(page)).layout.nodes;
  await page.getByTestId('auto-layout').click();
  const after = await exportedDoc(page);
  expect(after.layout.nodes).not.toEqual(before);
  await shot(page, 'editor-auto-layout');
  await page.getByTestId('undo').click();
  expect((await exportedDoc(page)).layout.nodes).toEqual(before);
});

test('path inputs complete from known field paths', async ({ page }) => {
  await openApp(page);
  await node(page, 'm-dangerous-tools').click();
  await expect(page.getByTestId('cond-0-path')).toHaveAttribute('list', 'hw-field-paths');
  await expect(page.locator('#hw-field-paths option[value="payload.tool_name"]')).toBeAttached();
  const options = await page.locator('#hw-field-paths option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
  expect(options).toEqual(expect.arrayContaining(['payload.tool_name', 'payload.tool_input.command', 'payload.usage.output_tokens', 'event.agent_id']));
  await expect(page.getByTestId('cond-0-path')).toHaveAttribute('list', 'hw-field-paths');
});
