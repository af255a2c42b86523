import { test, expect, type Page } from '@playwright/test';
import { key, openDebugger, stepView, timelineRow, typeStep } from './debuggerHelpers.ts';
import { join } from 'node:path';
import { SCREENS_DIR, shot } from './editorHelpers.ts';

// Breakpoints with a condition and a hit count (issue 34), by keyboard: F9 on a node, Shift+F9 to the list,
// Tab/Enter/Space/Delete in it, the condition and hit count typed. Where they stop is the engine's [R18]
// (demo trace: "Redact secrets" fires on steps 5, 7, 9, 11, 13, 15, 20; tool_name is Bash on 6, 7, 12, 13;
// "Dangerous tools" lets 6 and 12 through).

/** The steps the scrubber marks as breakpoint stops (every step: the timeline's rows are only those on screen). */
async function markedSteps(page: Page): Promise<number[]> {
  const marks = page.locator('[data-testid="scrub-mark"][data-kind="breakpoint"]');
  return (await marks.evaluateAll((ms) => ms.map((m) => Number(m.getAttribute('data-step'))))).sort((a, b) => a - b);
}

test('breakpoints by keyboard: F9 on a node, a condition and a hit count typed, marks on the timeline, play stops there, kept over a reload', async ({ page }) => {
  // A play, a reload and two replays: at a load of 20 on two cores this takes more than the default minute.
  test.setTimeout(150_000);
  await openDebugger(page);
  // F9 on the selected handler: "Redact secrets" fires (step 5, where it fires, brings it into view).
  await typeStep(page, 4);
  await page.getByTestId('node-h-redact-secrets').click();
  await key(page, 'F9');
  await expect(page.getByTestId('toast').filter({ hasText: 'Breakpoint added: “Redact secrets” fires.' })).toBeVisible();
  await expect.poll(() => markedSteps(page)).toEqual([4, 6, 8, 10, 12, 14, 19]);

  // Shift+F9: the list, the focus on the breakpoint's box; Tab to Edit, Enter opens its editor.
  await key(page, 'Shift+F9');
  await expect(page.getByTestId('bp-enabled')).toBeFocused();
  await expect(page.getByTestId('bp-label')).toHaveText('“Redact secrets” fires');
  await expect(page.getByTestId('bp-stops')).toHaveText('stops 7×');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('bp-edit')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('bp-cond-path')).toBeFocused();
  await page.keyboard.type('payload.tool_name');
  await page.keyboard.press('Tab'); // operator: equals
  await page.keyboard.press('Tab');
  await page.keyboard.type('Bash');
  await page.keyboard.press('Tab'); // which hits: from the Nth on → only the Nth
  await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('bp-hits-mode')).toHaveValue('at');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('2');
  await expect(page.getByTestId('bp-hits-text')).toHaveText('only the 2nd hit');
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'debugger-breakpoint-editor-1280');
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'debugger-breakpoint-editor-1440');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('bp-editor')).toHaveCount(0);
  await expect(page.getByTestId('bp-edit')).toBeFocused();
  await expect(page.getByTestId('bp-label')).toHaveText('“Redact secrets” fires when tool_name = Bash (the 2nd hit only)');
  // It fires with Bash on 7 and 13: the 2nd hit is step 13.
  await expect(page.getByTestId('bp-stops')).toHaveText('stops 1×');

  await page.getByTestId('tab-timeline').click();
  await expect.poll(() => markedSteps(page)).toEqual([12]);
  await key(page, 'Home');
  await expect(stepView(page, 0)).toBeVisible();
  await key(page, ' ');
  // Play asks the worker for each step: on a loaded machine 12 steps can take longer than the default wait.
  await expect(page.getByTestId('paused-at')).toHaveText('Paused at step 13: “Redact secrets” fires when tool_name = Bash (the 2nd hit only)', { timeout: 30_000 });
  await expect(stepView(page, 12)).toBeVisible();
  await expect(timelineRow(page, 12).getByTestId('row-breakpoint')).toBeVisible();
  await shot(page, 'debugger-breakpoint-hit-1440');
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'debugger-breakpoint-hit-1280');
  await page.setViewportSize({ width: 1440, height: 900 });

  // F9 on a matcher: "Dangerous tools" matches (6 and 12). C from the start goes to the first stop of either.
  await typeStep(page, 5);
  await page.getByTestId('fit-view').click();
  await page.getByTestId('node-m-dangerous-tools').click();
  await key(page, 'F9');
  await expect(page.getByTestId('toast').filter({ hasText: 'Breakpoint added: “Dangerous tools” matches.' })).toBeVisible();
  await expect.poll(() => markedSteps(page)).toEqual([5, 11, 12]);
  await key(page, 'Home');
  await key(page, 'c');
  await expect(stepView(page, 5)).toBeVisible();
  await expect(page.getByTestId('paused-at')).toHaveText('Paused at step 6: “Dangerous tools” matches');

  // Kept with the trace and pipeline: after a reload both are there, as they were.
  await page.reload();
  await expect(page.getByTestId('step-view')).toBeVisible();
  await key(page, 'Shift+F9');
  await expect(page.getByTestId('bp-label')).toHaveText(['“Redact secrets” fires when tool_name = Bash (the 2nd hit only)', '“Dangerous tools” matches']);
  await expect(page.getByTestId('bp-enabled').first()).toBeFocused();

  // Space disables the first: only the matcher's stops are marked, and C goes past step 13.
  await page.keyboard.press(' ');
  await expect(page.getByTestId('breakpoint').first()).toHaveAttribute('data-enabled', 'false');
  await expect(page.getByTestId('bp-stops').first()).toHaveCount(1);
  await page.getByTestId('tab-timeline').click();
  await expect.poll(() => markedSteps(page)).toEqual([5, 11]);
  await key(page, 'End');
  await key(page, 'c');
  await expect(page.getByTestId('toast').filter({ hasText: 'No breakpoint stops after this step.' })).toBeVisible();

  // A condition the engine refuses says why, and stops nothing; Delete removes a breakpoint.
  await key(page, 'Shift+F9');
  await expect(page.getByTestId('bp-enabled').first()).toBeFocused();
  await page.keyboard.press('Tab'); // Edit of the first
  await expect(page.getByTestId('bp-edit').first()).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('tool_name');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('bp-problem')).toHaveText(/^Not searched: path "tool_name" must start with payload\., state\., meta\. or event\./);
  await page.getByTestId('bp-enabled').nth(1).focus();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('breakpoint')).toHaveCount(1);
  await expect(page.getByTestId('breakpoint')).toHaveAttribute('data-id', 'handler:h-redact-secrets');
});

test('a condition alone over the state before the step, added and typed by keyboard', async ({ page }) => {
  await openDebugger(page);
  await key(page, 'Shift+F9');
  // No breakpoint yet: the focus is on the Add form's kind.
  await expect(page.getByTestId('bp-kind')).toBeFocused();
  for (let k = 0; k < 4; k++) await page.keyboard.press('ArrowDown'); // "a condition holds"
  await expect(page.getByTestId('bp-kind')).toHaveValue('condition');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('bp-add')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('bp-cond-path')).toBeFocused();
  // The token budget's state: more than 300 output tokens counted before the step.
  await page.keyboard.type('state.output_tokens');
  await page.keyboard.press('Tab');
  for (let k = 0; k < 9; k++) await page.keyboard.press('ArrowDown'); // equals … exists, then ">"
  await expect(page.getByTestId('bp-cond-op')).toHaveValue('gt');
  await page.keyboard.press('Tab');
  await page.keyboard.type('300');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('bp-label')).toHaveText('When state.output_tokens > 300');
  const stops = await page.getByTestId('bp-stops').textContent();
  expect(stops).toMatch(/^stops \d+×$/);
  await page.getByTestId('tab-timeline').click();
  await expect.poll(async () => (await markedSteps(page)).length).toBeGreaterThan(0);
  const marked = await markedSteps(page);
  // Every step from the first marked one on is marked (the budget only grows), and the first is after a model call.
  expect(marked.length).toBe(Number(/\d+/.exec(stops!)![0]));
  expect(marked).toEqual(Array.from({ length: marked.length }, (_, k) => marked[0]! + k));
  await key(page, 'Home');
  await key(page, 'c');
  await expect(stepView(page, marked[0]!)).toBeVisible();
});

const dot = (page: Page, id: string) => page.getByTestId(`node-${id}`).getByTestId('node-breakpoint-dot');

test('the canvas dot shows each node\'s breakpoints and toggles them; a breakpoint\'s trigger is edited in place by keyboard, checked, and kept', async ({ page }) => {
  await openDebugger(page);
  await page.getByTestId('fit-view').click();
  // Every handler and matcher has a dot (shown faint until it has a breakpoint); event nodes have none.
  await expect(page.getByTestId('node-ev-tool-before').getByTestId('node-breakpoint-dot')).toHaveCount(0);
  const redact = page.getByRole('button', { name: 'Breakpoint on “Redact secrets”' });
  await expect(redact).toHaveAttribute('aria-pressed', 'false');
  await expect(dot(page, 'h-redact-secrets')).toHaveAttribute('data-state', 'none');

  // Clicking the dot adds the handler's breakpoint ("fires") to the one list; the row and the scrubber show it.
  await redact.click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Breakpoint added: “Redact secrets” fires.' })).toBeVisible();
  await expect(redact).toHaveAttribute('aria-pressed', 'true');
  await expect(dot(page, 'h-redact-secrets')).toHaveAttribute('data-state', 'on');
  await expect.poll(() => markedSteps(page)).toEqual([4, 6, 8, 10, 12, 14, 19]);
  await shot(page, 'debugger-breakpoint-dot-1440');
  // Close up, on a step where the handler fires: the dot beside the debugger's tag over the node.
  await typeStep(page, 4);
  await page.getByTestId('zoom-in').click();
  await page.getByTestId('zoom-in').click();
  await expect(dot(page, 'h-redact-secrets')).toBeInViewport();
  const box = (await page.getByTestId('node-h-redact-secrets').boundingBox())!;
  await page.screenshot({ path: join(SCREENS_DIR, 'debugger-breakpoint-dot-closeup.png'), clip: { x: box.x - 30, y: box.y - 30, width: box.width + 60, height: box.height + 60 } });
  await page.getByTestId('fit-view').click();

  // Its trigger, edited in place: Shift+F9, Tab to Edit, Enter; Shift+Tab from the condition reaches what stops.
  await key(page, 'Shift+F9');
  await expect(page.getByTestId('bp-enabled')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('bp-edit')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('bp-cond-path')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('bp-edit-on')).toBeFocused();
  await page.keyboard.press('ArrowDown'); // fires → blocks
  await expect(page.getByTestId('bp-edit-on')).toHaveValue('blocks');
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('bp-edit-value')).toBeFocused();
  await expect(page.getByTestId('bp-edit-value')).toHaveValue('h-redact-secrets');
  // The handlers in the pipeline's order: up to "Block destructive commands".
  for (let k = 0; k < 8 && (await page.getByTestId('bp-edit-value').inputValue()) !== 'h-block-destructive'; k++) await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('bp-edit-value')).toHaveValue('h-block-destructive');
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'debugger-breakpoint-trigger-edit-1280');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('bp-cond-path').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('bp-editor')).toHaveCount(0);
  await expect(page.getByTestId('bp-label')).toHaveText('“Block destructive commands” blocks');
  // The id follows the trigger; the focus is back on the row's Edit button.
  await expect(page.getByTestId('breakpoint')).toHaveAttribute('data-id', 'handler:h-block-destructive:blocks');
  await expect(page.getByTestId('bp-edit')).toBeFocused();
  // The dots follow the store: the old node has none, the new one has it.
  await expect(dot(page, 'h-redact-secrets')).toHaveAttribute('data-state', 'none');
  await expect(dot(page, 'h-block-destructive')).toHaveAttribute('data-state', 'on');
  // It stops where "Block destructive commands" blocks, no longer where "Redact secrets" fires.
  await page.getByTestId('tab-timeline').click();
  await expect.poll(() => markedSteps(page)).not.toEqual([4, 6, 8, 10, 12, 14, 19]);
  await expect.poll(async () => (await markedSteps(page)).length).toBeGreaterThan(0);

  // A trigger another breakpoint has is refused with a message, and nothing changes.
  await redact.click();
  await key(page, 'Shift+F9');
  await expect(page.getByTestId('bp-enabled').first()).toBeFocused();
  await expect(page.getByTestId('breakpoint')).toHaveCount(2);
  await page.getByTestId('bp-edit').nth(1).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('ArrowDown'); // blocks
  await page.keyboard.press('Shift+Tab');
  for (let k = 0; k < 8 && (await page.getByTestId('bp-edit-value').inputValue()) !== 'h-block-destructive'; k++) await page.keyboard.press('ArrowUp');
  await page.getByTestId('bp-cond-path').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('bp-edit-error')).toHaveText('There is already a breakpoint on “Block destructive commands” blocks: edit that one, or choose another trigger.');
  await shot(page, 'debugger-breakpoint-trigger-duplicate-1440');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('bp-label')).toHaveText(['“Block destructive commands” blocks', '“Redact secrets” fires']);

  // Another kind: the second becomes "the event type is tool.after_call"; its dot goes.
  await page.getByTestId('bp-edit').nth(1).focus();
  await page.keyboard.press('Enter');
  for (let k = 0; k < 3; k++) await page.keyboard.press('Shift+Tab');
  await expect(page.getByTestId('bp-edit-kind')).toBeFocused();
  for (let k = 0; k < 2; k++) await page.keyboard.press('ArrowDown'); // a handler → a matcher → the event type
  await expect(page.getByTestId('bp-edit-kind')).toHaveValue('event_type');
  await page.keyboard.press('Tab');
  for (let k = 0; k < 12 && (await page.getByTestId('bp-edit-value').inputValue()) !== 'tool.after_call'; k++) await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('bp-edit-value')).toHaveValue('tool.after_call');
  await page.getByTestId('bp-cond-path').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('bp-label')).toHaveText(['“Block destructive commands” blocks', 'Event type tool.after_call']);
  await expect(dot(page, 'h-redact-secrets')).toHaveAttribute('data-state', 'none');

  // Kept in IndexedDB: after a reload the edited triggers are there; Space disables one and its dot is a ring.
  await page.reload();
  await expect(page.getByTestId('step-view')).toBeVisible();
  await key(page, 'Shift+F9');
  await expect(page.getByTestId('bp-label')).toHaveText(['“Block destructive commands” blocks', 'Event type tool.after_call']);
  await expect(page.getByTestId('bp-enabled').first()).toBeFocused();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('breakpoint').first()).toHaveAttribute('data-enabled', 'false');
  await page.getByTestId('fit-view').click();
  await expect(dot(page, 'h-block-destructive')).toHaveAttribute('data-state', 'off');

  // F9 on the selected node does what its dot does: removes its breakpoints, with Undo in the toast.
  await page.getByTestId('node-h-block-destructive').click();
  await key(page, 'F9');
  const removed = page.getByTestId('toast').filter({ hasText: 'Breakpoint removed: “Block destructive commands” blocks.' });
  await expect(removed).toBeVisible();
  await expect(dot(page, 'h-block-destructive')).toHaveAttribute('data-state', 'none');
  await removed.getByRole('button', { name: 'Undo' }).click();
  await expect(dot(page, 'h-block-destructive')).toHaveAttribute('data-state', 'off');
  await key(page, 'Shift+F9');
  await expect(page.getByTestId('bp-label')).toHaveText(['Event type tool.after_call', '“Block destructive commands” blocks']);
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'debugger-breakpoint-dots-1280');
});
