import { test, expect } from '@playwright/test';
import { dragNode, dragWire, dropFromPalette, edges, exportedDoc, newEmptyPipeline, node, openApp, shot, waitSaved } from './editorHelpers.ts';

test('first run opens the demo pipeline with no problems', async ({ page }) => {
  await openApp(page);
  await expect(page.getByTestId('pipeline-title')).toHaveText('Demo: agent safety policy');
  await expect(page.locator('.react-flow__node')).toHaveCount(13);
  await expect(edges(page)).toHaveCount(9);
  await expect(node(page, 'm-dangerous-tools').getByTestId('matcher-summary')).toHaveText('tool_name in [Bash, delete_file, run_shell]');
  await expect(page.getByTestId('error-count')).toHaveText('0 errors');
  await shot(page, 'editor-demo');
});

test('builds a pipeline on an empty canvas by drag and drop and wiring', async ({ page }) => {
  await openApp(page);
  await newEmptyPipeline(page);
  await dropFromPalette(page, 'event:tool.before_call', 160, 200);
  await dropFromPalette(page, 'matcher', 480, 200);
  await dropFromPalette(page, 'handler:block', 800, 200);
  await expect(page.locator('.react-flow__node')).toHaveCount(3);
  // Unwired nodes are reported by the engine's lint, on the nodes and in the list.
  await expect(page.getByTestId('warning-count')).not.toHaveText('0 warnings');

  await dragWire(page, 'ev-tool-before-call', 'matcher');
  await dragWire(page, 'matcher', 'block');
  await expect(edges(page)).toHaveCount(2);
  await expect(page.getByTestId('error-count')).toHaveText('0 errors');
  await expect(page.getByTestId('warning-count')).toHaveText('0 warnings');
  await waitSaved(page);

  // The new matcher's summary shows its default condition; the handler its kind and order.
  await expect(node(page, 'matcher').getByTestId('matcher-summary')).toHaveText('has tool_name');
  await expect(node(page, 'block')).toContainText('#10');
  await shot(page, 'editor-built');
});

test('refuses an invalid wire while it is drawn and says why', async ({ page }) => {
  await openApp(page);
  await newEmptyPipeline(page);
  await dropFromPalette(page, 'matcher', 200, 200);
  await dropFromPalette(page, 'matcher', 560, 200);
  await dragWire(page, 'matcher', 'matcher-2');
  await expect(edges(page)).toHaveCount(1);

  // matcher-2 → matcher would close a cycle: the line turns red with the reason before release.
  await dragWire(page, 'matcher-2', 'matcher', false);
  await expect(page.getByTestId('connection-hint')).toHaveText('This wire would close a cycle.');
  await shot(page, 'editor-invalid-wire');
  await page.mouse.up();
  await expect(page.getByTestId('toast')).toContainText('Wire refused: This wire would close a cycle.');
  await expect(edges(page)).toHaveCount(1);
  // The toast sits at the foot of the canvas: it covers neither the Problems panel (its Hide) nor the inspector.
  const toast = (await page.getByTestId('toast').boundingBox())!;
  const canvas = (await page.getByTestId('canvas').boundingBox())!;
  for (const id of ['problems-toggle', 'inspector']) {
    const b = (await page.getByTestId(id).boundingBox())!;
    const apart = toast.x + toast.width <= b.x || b.x + b.width <= toast.x || toast.y + toast.height <= b.y || b.y + b.height <= toast.y;
    expect(apart, `the toast covers ${id}`).toBe(true);
  }
  expect(toast.y + toast.height).toBeLessThanOrEqual(canvas.y + canvas.height);
  await shot(page, 'editor-toast');

  // A handler has no output handle and an event no input handle: those wires cannot even start.
  await dropFromPalette(page, 'handler:block', 560, 420);
  await expect(node(page, 'block').locator('.react-flow__handle.source')).toHaveCount(0);
  await dropFromPalette(page, 'event:agent.start', 200, 420);
  await expect(node(page, 'ev-agent-start').locator('.react-flow__handle.target')).toHaveCount(0);
});

test('editing a condition changes the node summary; builder and JSON stay in sync', async ({ page }) => {
  await openApp(page);
  await node(page, 'm-dangerous-tools').click();
  const value = page.getByTestId('cond-0-value');
  await expect(value).toHaveValue('Bash, delete_file, run_shell');
  await value.fill('Bash, write_file');
  const summary = node(page, 'm-dangerous-tools').getByTestId('matcher-summary');
  await expect(summary).toHaveText('tool_name in [Bash, write_file]');

  await page.getByTestId('cond-0-op').selectOption('nin');
  await expect(summary).toHaveText('tool_name not in [Bash, write_file]');

  await page.getByTestId('cond-add-any').click();
  await page.getByTestId('cond-1-0-0-path').fill('payload.tool_input.command');
  await page.getByTestId('cond-1-0-0-op').selectOption('prefix');
  await page.getByTestId('cond-1-0-0-value').fill('git push');
  await expect(summary).toHaveText('tool_name not in [Bash, write_file] and tool_input.command starts with "git push"');
  await shot(page, 'editor-condition-builder');

  await page.getByTestId('condition-view-json').click();
  const json = page.getByTestId('condition-json');
  expect(JSON.parse(await json.inputValue())).toEqual({
    'payload.tool_name': { nin: ['Bash', 'write_file'] },
    any: [{ 'payload.tool_input.command': { prefix: 'git push' } }],
  });
  await json.fill('{ "payload.tool_name": { "regex": { "pattern": "^mcp__", "flags": "i" } } }');
  await expect(summary).toHaveText('tool_name matches /^mcp__/i');
  await json.fill('{ "payload.tool_name": ');
  await expect(page.getByRole('alert')).toContainText('Not valid JSON yet');
  await expect(summary).toHaveText('tool_name matches /^mcp__/i');
  await shot(page, 'editor-condition-json');
  await page.getByTestId('condition-view-builder').click();
  await expect(page.getByTestId('cond-0-value')).toHaveValue('^mcp__');

  // A bad regex is the engine's problem, shown on the node and in the list.
  await page.getByTestId('cond-0-value').fill('(unclosed');
  await expect(node(page, 'm-dangerous-tools').getByTestId('node-problem-badge')).toBeVisible();
  await expect(page.getByTestId('problem-item').first()).toContainText(/regular expression|regex/i);
});

test('undo and redo every edit, by keyboard and toolbar', async ({ page }) => {
  await openApp(page);
  await node(page, 'h-audit-log').click();
  await page.getByTestId('handler-name').fill('Audit everything');
  await expect(node(page, 'h-audit-log')).toContainText('Audit everything');
  await page.keyboard.press('Escape');
  await page.getByTestId('canvas').click({ position: { x: 500, y: 30 } });

  // Delete a node with the keyboard, then undo both edits.
  await node(page, 'ev-any').click();
  await page.keyboard.press('Delete');
  await expect(node(page, 'ev-any')).toHaveCount(0);
  await expect(edges(page)).toHaveCount(8);
  await page.keyboard.press('Control+z');
  await expect(node(page, 'ev-any')).toBeVisible();
  await expect(edges(page)).toHaveCount(9);
  await page.getByTestId('undo').click();
  await expect(node(page, 'h-audit-log')).toContainText('Audit log');
  await page.keyboard.press('Control+Shift+z');
  await expect(node(page, 'h-audit-log')).toContainText('Audit everything');
  await page.getByTestId('redo').click();
  await expect(node(page, 'ev-any')).toHaveCount(0);

  // Copy/paste and duplicate are edits too.
  await node(page, 'm-prompt-injection').click();
  await page.keyboard.press('Control+c');
  await page.keyboard.press('Control+v');
  await expect(node(page, 'm-prompt-injection-2')).toBeVisible();
  await page.keyboard.press('Control+d');
  await expect(node(page, 'm-prompt-injection-3')).toBeVisible();
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  await expect(page.locator('.react-flow__node')).toHaveCount(12);
});

test('reload keeps everything', async ({ page }) => {
  await openApp(page);
  await node(page, 'h-token-budget').click();
  await page.getByTestId('budget-limit').fill('2500');
  await dropFromPalette(page, 'handler:terminate', 700, 650);
  await expect(node(page, 'terminate')).toBeVisible();
  await dragNode(page, 'ev-input', 60, 90);
  await waitSaved(page);
  const before = await exportedDoc(page);
  const position = (doc: { layout: { nodes: { id: string; x: number; y: number }[] } }) => doc.layout.nodes.find((p) => p.id === 'ev-input');
  expect(position(before)).not.toEqual({ id: 'ev-input', x: 0, y: 170 });

  await page.reload();
  await expect(node(page, 'terminate')).toBeVisible();
  await expect(node(page, 'h-token-budget')).toContainText('limit 2500');
  const after = await exportedDoc(page);
  expect(after).toEqual(before);
  expect(position(after)).toEqual(position(before));
});
