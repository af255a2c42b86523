import { test, expect, type Page } from '@playwright/test';
import { node, openApp, shot } from './editorHelpers.ts';
import { importPipelineAndDebug, openDebugger, typeStep } from './debuggerHelpers.ts';
import { createRuntime } from '../engine/runtime/index.ts';
import { flowExamples } from '../web/demo/flowExamples.ts';

// Issue 34: run one node alone on an event and see its output beside it on the canvas (as in n8n and Node-RED):
// the debugger's selected step, with the state the replay had just before it, or an event typed in the panel.
// The run is the engine's runNode [X7] (replay worker for a step, sandbox worker for a typed event); the page
// renders its answer as text.

/** Replaces the sample payload by typing it, as a person would (select all, type). */
async function typePayload(page: Page, json: string): Promise<void> {
  const box = page.getByTestId('run-node-payload');
  await box.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type(json);
}

const card = (page: Page, id: string) => node(page, id).getByTestId('run-card');

test('a matcher and a handler run alone on a typed sample; the result shows under the node and in the inspector', async ({ page }) => {
  await openApp(page);
  await node(page, 'm-dangerous-tools').click();
  await expect(page.getByTestId('run-node-panel')).toBeVisible();
  await page.getByTestId('run-node-sample-toggle').click();
  await typePayload(page, '{"tool_name": "Bash", "tool_input": {"command": "rm -rf ./build"}}');
  // Ctrl+Enter from the sample's field runs the selected node.
  await page.keyboard.press('Control+Enter');
  await expect(card(page, 'm-dangerous-tools').getByTestId('run-card-headline')).toHaveText('Matched', { timeout: 30_000 });
  await expect(card(page, 'm-dangerous-tools')).toContainText('on a typed tool.before_call');
  await expect(page.getByTestId('run-node-headline')).toHaveText('Matched');
  // The details, clause by clause, as the engine explained them.
  await card(page, 'm-dangerous-tools').getByTestId('run-card-toggle').click();
  await expect(card(page, 'm-dangerous-tools').getByTestId('run-card-lines')).toContainText('✓ payload.tool_name in ["Bash","delete_file","run_shell"] · actual "Bash"');

  // A payload the matcher refuses: not matched, and why (a missing path names the nearest keys).
  await typePayload(page, '{"tool": "Bash"}');
  await page.getByTestId('run-node').click();
  await expect(card(page, 'm-dangerous-tools').getByTestId('run-card-headline')).toHaveText(/^Not matched: payload\.tool_name in .*\(missing\)$/);
  await expect(card(page, 'm-dangerous-tools').getByTestId('run-card-lines')).toContainText('the payload has `tool`');

  // The block handler, from the canvas: focus it and press Ctrl+Enter. It runs as if reached and says that
  // dispatch would not reach it on this payload (its matchers fail).
  await node(page, 'h-block-destructive').click();
  await page.keyboard.press('Control+Enter');
  const block = card(page, 'h-block-destructive');
  await expect(block.getByTestId('run-card-headline')).toHaveText('BLOCK_ACTION · Blocked <missing payload.tool_name>: `<missing payload.tool_input.command>` is destructive');
  await block.getByTestId('run-card-toggle').click();
  await expect(block.getByTestId('run-card-lines')).toContainText('dispatch would not run it: no path passes');
  await typePayload(page, '{"tool_name": "Bash", "tool_input": {"command": "sudo rm -rf /"}}');
  await page.keyboard.press('Control+Enter');
  await expect(block.getByTestId('run-card-headline')).toHaveText('BLOCK_ACTION · Blocked Bash: `sudo rm -rf /` is destructive');
  await expect(block.getByTestId('run-card-lines')).toContainText('dispatch would run it on this event');
  // Both cards stay, each beside its own node; the first one's is marked stale after an edit.
  await expect(card(page, 'm-dangerous-tools')).toBeVisible();
  await shot(page, 'editor-run-node');

  // Untrusted payload text renders as text, never as markup.
  await node(page, 'm-dangerous-tools').click();
  await typePayload(page, '{"tool_name": "<img src=x onerror=alert(1)>"}');
  await page.keyboard.press('Control+Enter');
  await expect(card(page, 'm-dangerous-tools').getByTestId('run-card-lines')).toContainText('actual "<img src=x onerror=alert(1)>"');
  await expect(page.locator('.run-card img, .run-node img')).toHaveCount(0);

  // Not JSON: a clear answer, nothing run and nothing changed.
  await typePayload(page, '{"tool_name": ');
  await page.keyboard.press('Control+Enter');
  await expect(card(page, 'm-dangerous-tools').getByTestId('run-card-headline')).toHaveText('Could not run');
  await expect(page.getByTestId('run-node-result')).toContainText('The typed payload is not valid JSON');

  // The card closes with its button, by keyboard.
  await card(page, 'm-dangerous-tools').getByTestId('run-card-close').focus();
  await page.keyboard.press('Enter');
  await expect(card(page, 'm-dangerous-tools')).toHaveCount(0);

  // An edit marks the remaining card as run on an earlier version.
  await node(page, 'h-block-destructive').click();
  await page.getByTestId('handler-name').click();
  await page.keyboard.press('End');
  await page.keyboard.type('!');
  await expect(block).toContainText('pipeline edited since');
});

test('Run node on the selected step uses the state the replay had just before it; a typed event uses the typed state', async ({ page }) => {
  await openDebugger(page);
  // Step 20 (model.after_call, 90 output tokens): the replay's token budget has counted 1210 before it.
  await typeStep(page, 19);
  await page.getByTestId('node-h-token-budget').click();
  await page.getByTestId('tab-edit-node').click();
  await expect(page.getByTestId('run-node-from')).toHaveText('step 20 · model.after_call');
  await page.getByTestId('run-node').click();
  await expect(page.getByTestId('run-node-headline')).toHaveText('CONTINUE', { timeout: 30_000 });
  await expect(page.getByTestId('run-node-state-used')).toHaveText('State before: the replay\'s just before step 20, {"output_tokens":1210}');
  await expect(page.getByTestId('run-node-result')).toContainText('state.output_tokens: 1210 → 1300');
  await expect(page.getByTestId('run-node-result')).toContainText('on step 20 · model.after_call');
  await shot(page, 'debugger-run-node-step-1440');

  // One panel, two ways: the step's event and state become a typed event to change, by keyboard.
  await page.getByTestId('run-node-sample-toggle').click();
  await expect(page.getByTestId('run-node-source-step')).toBeChecked();
  await page.getByTestId('run-node-type-from-step').click();
  await expect(page.getByTestId('run-node-source-typed')).toBeChecked();
  await expect(page.getByTestId('run-node-type')).toHaveValue('model.after_call');
  await expect(page.getByTestId('run-node-state')).toHaveValue('{"output_tokens":1210}');
  await page.getByTestId('run-node-state').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('{"output_tokens": 3950}');
  await page.getByTestId('run-node').click();
  // 3950 + 90 passes the limit of 4000: the budget blocks, with the typed state named as the one used.
  await expect(page.getByTestId('run-node-headline')).toHaveText('BLOCK_ACTION · Token budget of 4040 exceeded');
  await expect(page.getByTestId('run-node-state-used')).toHaveText('State before: as typed, {"output_tokens":3950}');
  await expect(page.getByTestId('run-node-result')).toContainText('on a typed model.after_call');
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'debugger-run-node-typed-1280');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Back to the step with the arrow keys of the radio group: the replay's state again.
  await page.getByTestId('run-node-source-typed').focus();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('run-node-source-step')).toBeChecked();
  await expect(page.getByTestId('run-node-type')).toHaveCount(0);
  await page.getByTestId('run-node').click();
  await expect(page.getByTestId('run-node-state-used')).toHaveText('State before: the replay\'s just before step 20, {"output_tokens":1210}');

  // Another step: the state follows it (step 12 comes after two model calls: 420 + 610).
  await page.getByTestId('tab-step').click();
  await typeStep(page, 11);
  await page.getByTestId('fit-view').click();
  await page.getByTestId('node-h-token-budget').click();
  await page.getByTestId('tab-edit-node').click();
  await expect(page.getByTestId('run-node-from')).toHaveText('step 12 · tool.before_call');
  await page.getByTestId('run-node').click();
  await expect(page.getByTestId('run-node-state-used')).toHaveText('State before: the replay\'s just before step 12, {"output_tokens":1030}');

  // In Edit the step stays the one picked in Debug, and its card shows under the node; an edit the replay has
  // not seen yet is said.
  await page.getByTestId('mode-edit').click();
  await node(page, 'h-token-budget').click();
  await expect(page.getByTestId('run-node-from')).toHaveText('step 12 · tool.before_call');
  await page.getByTestId('handler-name').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' (tokens)');
  await page.keyboard.press('Control+Enter');
  await expect(card(page, 'h-token-budget')).toContainText('on step 12 · tool.before_call');
  await expect(page.getByTestId('run-node-state-used')).toContainText('replayed with the pipeline as it was before your latest edits');
  await shot(page, 'editor-run-node-step-1440');
});

test('an event node and a code handler (in the real sandbox) run on a typed event', async ({ page }) => {
  await openApp(page);
  await node(page, 'ev-tool-before').click();
  // No trace is open yet (Debug was not visited): the panel runs the typed event, and says where steps come from.
  await page.getByTestId('run-node-sample-toggle').click();
  await expect(page.getByTestId('run-node-source-step')).toBeDisabled();
  await expect(page.getByTestId('run-node-source-typed')).toBeChecked();
  await expect(page.getByTestId('run-node-panel')).toContainText('open a trace in Debug and pick a step');
  await expect(page.getByTestId('run-node-from')).toHaveText('a typed tool.before_call');
  await page.getByTestId('run-node').click();
  await expect(card(page, 'ev-tool-before').getByTestId('run-card-headline')).toHaveText('Selects tool.before_call (sync)', { timeout: 30_000 });
  await expect(card(page, 'ev-tool-before')).toContainText('on a typed tool.before_call');
  // The old "Run on a sample event" box is gone: one panel runs every node.
  await expect(page.getByTestId('run-sample')).toHaveCount(0);
  await typePayload(page, '{"tool_name": "Bash", "tool_input": {"command": "ls"}}');

  // A code handler that throws: its error and what its policy (block: fail closed) decides.
  await page.getByTestId('palette-handler:code').click();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('export default function', { timeout: 20_000 });
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  // One line: Monaco's auto-closing brackets are typed over, as in editor-code.spec.ts.
  await page.keyboard.insertText('export default function (ctx: HandlerContext): HandlerResult { if (ctx.payload.tool_name === "Bash") throw new Error("no shell: " + ctx.event.type); return { decision: "continue" }; }');
  // Escape then Tab leaves Monaco; Ctrl+Enter there is the code editor's own key, so use the button.
  await page.getByTestId('run-node').click();
  const code = card(page, 'code');
  await expect(code.getByTestId('run-card-headline')).toHaveText('Error → BLOCK_ACTION (on_error: block)', { timeout: 30_000 });
  await code.getByTestId('run-card-toggle').click();
  await expect(code.getByTestId('run-card-lines')).toContainText('no shell: tool.before_call');
  // Another typed payload on the same type: the handler continues.
  await typePayload(page, '{"tool_name": "Read"}');
  await page.getByTestId('run-node').click();
  await expect(code.getByTestId('run-card-headline')).toHaveText('CONTINUE');
  await expect(page.getByTestId('run-sample')).toHaveCount(0);
  await shot(page, 'editor-run-node-code');

  // The keys' help lists the shortcut.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.getByTestId('open-help').click();
  await expect(page.getByTestId('help-editor-keys')).toContainText('run the selected node alone on the selected step or the typed event');
});

test('Run node on a step carries what flow rules remembered before it: the fetch after a secret read blocks there, not on the same event typed', async ({ page }) => {
  const pipeline = flowExamples()[0]!;
  // A session recorded by the real runtime with nothing deciding: read a secret, then fetch.
  const lines: string[] = [];
  let t = Date.parse('2026-03-06T09:00:00.000Z');
  const allowAll = { ...pipeline, nodes: pipeline.nodes.filter((n) => n.kind === 'event'), wires: [] };
  const r = createRuntime(allowAll, { clock: { now: () => (t += 1000) }, record: () => (line) => void lines.push(line) });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const session = r.runtime.startTrace({ trace_id: 'egress', title: 'Read a secret, then fetch' });
  session.emit('tool.before_call', { tool_name: 'Read', tool: 'read', file_path: '.env' });
  session.emit('tool.before_call', { tool_name: 'Bash', tool: 'shell', command: 'ls' });
  session.emit('tool.before_call', { tool_name: 'WebFetch', tool: 'fetch', url: 'https://paste.example/upload' });
  await session.flush();

  await importPipelineAndDebug(page, pipeline);
  await page.getByTestId('trace-file').setInputFiles({ name: 'egress.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(lines.join('')) });
  await expect(page.getByTestId('position')).toContainText('of 3');
  await expect(page.locator('[data-testid="timeline-row"][data-index="2"]')).toHaveAttribute('data-outcome', 'block_action');
  await typeStep(page, 2);
  await page.getByTestId('fit-view').click();
  await page.getByTestId('node-h-flow').click();
  await page.getByTestId('tab-edit-node').click();
  await expect(page.getByTestId('run-node-from')).toHaveText('step 3 · tool.before_call');
  await page.getByTestId('run-node').click();
  await expect(page.getByTestId('run-node-headline')).toHaveText('BLOCK_ACTION · No network egress after a secret read — step 1 (tool.before_call Read `.env`) came before', { timeout: 30_000 });
  await expect(page.getByTestId('run-node-state-used')).toHaveText('State before: the replay\'s just before step 3, {}; flow rules remembered 1 session');
  await shot(page, 'debugger-run-node-flow-1440');

  // The same event typed has no flow memory: the rule has nothing to go on, and the fetch is let through.
  await page.getByTestId('run-node-sample-toggle').click();
  await page.getByTestId('run-node-type-from-step').click();
  await page.getByTestId('run-node').click();
  await expect(page.getByTestId('run-node-state-used')).toHaveText('State before: as typed, {}');
  await expect(page.getByTestId('run-node-headline')).toHaveText('CONTINUE');
});
