import { test, expect } from '@playwright/test';
import { shot } from './editorHelpers.ts';
import { flowNode, goToStep, key, openDebugger, stepView, timelineRow } from './debuggerHelpers.ts';

// The demo trace (web/demo/demoTrace.ts) through the demo pipeline: step 12 (index 11) blocks `rm -rf`,
// steps 9 and 11 redact an sk- key, step 18 is a prompt injection the "Prompt injection" matcher misses
// because it reads `payload.input` and the event carries `user_input`.

test('first run: the demo trace shows a block, a rewrite and a hook that does not fire, on screen', async ({ page }) => {
  await openDebugger(page);
  await expect(page.getByTestId('trace-item')).toHaveCount(1);
  await expect(page.getByTestId('trace-item')).toContainText('Demo: coding agent session');
  await expect(page.getByTestId('position')).toContainText('of 22');
  await expect(stepView(page, 0)).toBeVisible();

  // B: the next block.
  await key(page, 'b');
  await expect(stepView(page, 11)).toBeVisible();
  await expect(page.getByTestId('step-outcome')).toHaveText('BLOCK_ACTION');
  await expect(page.getByTestId('step-reason')).toHaveText('Blocked Bash: `rm -rf build/ ~/.cache` is destructive');
  await expect(page.getByTestId('step-decided-by')).toContainText('Decided by “Block destructive commands”');
  await expect(page.getByTestId('note-divergence')).toContainText('Recorded CONTINUE; replay decides BLOCK_ACTION');
  await expect(page.locator('[data-testid="handler-card"][data-handler="h-block-destructive"]')).toHaveAttribute('data-status', 'fired');
  await expect(page.locator('[data-testid="handler-card"][data-handler="h-audit-log"]')).toHaveAttribute('data-status', 'not_reached');
  // The canvas lights the path: event, both matchers passed, the block handler fired and decided.
  await expect(flowNode(page, 'ev-tool-before')).toHaveClass(/dbg-event/);
  await expect(flowNode(page, 'm-dangerous-tools')).toHaveClass(/dbg-pass/);
  await expect(flowNode(page, 'm-destructive-command')).toHaveClass(/dbg-pass/);
  await expect(flowNode(page, 'h-block-destructive')).toHaveClass(/dbg-fired.*dbg-decider/);
  await expect(flowNode(page, 'h-audit-log')).toHaveClass(/dbg-skipped/);
  await expect(timelineRow(page, 11)).toHaveAttribute('data-outcome', 'block_action');
  await expect(timelineRow(page, 11)).toContainText('≠ recorded continue');
  await shot(page, 'debugger-block');

  // ← three times: step 9, the Read of config/deploy.env whose result carries a key.
  for (let i = 0; i < 3; i++) await key(page, 'ArrowLeft');
  await expect(stepView(page, 8)).toBeVisible();
  const change = page.locator('[data-testid="payload-change"][data-path="payload.tool_response"]');
  await expect(change.getByTestId('diff-removed')).toHaveText('sk-proj4f9Qz8LmN2vX7rT1bK6w');
  await expect(change.getByTestId('diff-added')).toHaveText('[REDACTED]');
  await expect(change).toContainText('OPENAI_API_KEY=');
  await expect(flowNode(page, 'h-redact-secrets')).toHaveClass(/dbg-fired/);
  await page.getByTestId('payload-toggle').click();
  await expect(page.getByTestId('payload-before')).toContainText('sk-proj4f9Qz8LmN2vX7rT1bK6w');
  await expect(page.getByTestId('payload-after')).toContainText('OPENAI_API_KEY=[REDACTED]');
  await shot(page, 'debugger-rewrite');

  // End, then ↑ four times: step 18, the prompt injection.
  await key(page, 'End');
  await expect(stepView(page, 21)).toBeVisible();
  for (let i = 0; i < 4; i++) await key(page, 'ArrowUp');
  await expect(stepView(page, 17)).toBeVisible();
  await expect(page.getByTestId('step-outcome')).toHaveText('CONTINUE');
  const card = page.locator('[data-testid="handler-card"][data-handler="h-block-injection"]');
  await expect(card).toHaveAttribute('data-status', 'not_matched');
  await expect(card.getByTestId('near-miss-hint')).toHaveText('`payload.input` is missing; the payload has `user_input`');
  await expect(card.getByTestId('handler-why')).toHaveText('“Block prompt injection” did not fire: matcher “Prompt injection” failed: `payload.input` is missing; the payload has `user_input`.');
  // "Why didn't it fire?" for a handler picked from the list; the canvas focuses its path.
  await page.getByTestId('why-handler').selectOption('h-block-injection');
  await expect(page.getByTestId('why-answer')).toContainText('`payload.input` is missing; the payload has `user_input`');
  await expect(flowNode(page, 'm-prompt-injection')).toHaveClass(/dbg-fail/);
  await expect(flowNode(page, 'h-block-injection')).toHaveClass(/dbg-missed/);
  await expect(page.getByTestId('step-note').first()).toContainText('ounterfactual');
  await shot(page, 'debugger-not-fired');

  // Why for a handler that fired, and for one that listens to other events.
  await page.getByTestId('why-handler').selectOption('h-audit-log');
  await expect(page.getByTestId('why-answer')).toHaveAttribute('data-kind', 'fired');
  await page.getByTestId('why-handler').selectOption('h-redact-secrets');
  await expect(page.getByTestId('why-answer')).toContainText('it listens to tool.after_call, model.after_call, and this event is input.received');

  // The keys are listed one click away.
  await page.getByTestId('shortcuts').click();
  await expect(page.getByTestId('shortcuts-help')).toContainText('next / previous block');

  // Home, then D: the next divergence from the recording is the block.
  await key(page, 'Home');
  await expect(stepView(page, 0)).toBeVisible();
  await key(page, 'd');
  await expect(stepView(page, 11)).toBeVisible();
});

test('filters by decision, type and handler, search in payloads, and coverage', async ({ page }) => {
  await openDebugger(page);
  const rows = page.getByTestId('timeline-row');
  await page.getByTestId('filter-decision').selectOption('blocked');
  await expect(page.getByTestId('filter-count')).toHaveText('1 of 22');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-index', '11');
  await page.getByTestId('filter-clear').click();
  await expect(rows.first()).toHaveAttribute('data-index', '0');

  await page.getByTestId('filter-search').fill('sk-proj');
  await expect(page.getByTestId('filter-count')).toHaveText('2 of 22');
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-index')))).toEqual(['8', '10']);
  // → steps through the visible rows only.
  await key(page, 'ArrowRight');
  await expect(stepView(page, 8)).toBeVisible();
  await key(page, 'ArrowRight');
  await expect(stepView(page, 10)).toBeVisible();
  await page.getByTestId('filter-search').fill('');
  await page.getByTestId('filter-type').selectOption('model.after_call');
  await page.getByTestId('filter-handler').selectOption('h-token-budget');
  await expect(page.getByTestId('filter-count')).toHaveText('4 of 22');
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-index')))).toEqual(['4', '10', '14', '19']);
  await shot(page, 'debugger-filters');

  await page.getByTestId('tab-coverage').click();
  await expect(page.getByTestId('tab-coverage')).toContainText('1');
  const never = page.locator('[data-testid="coverage-handler"][data-never="true"]');
  await expect(never).toHaveCount(1);
  await expect(never).toContainText('Block prompt injection');
  await expect(page.getByTestId('coverage-panel')).toContainText('4 of 5');
  await shot(page, 'debugger-coverage');
});

test('breakpoints: play stops at the first block, then where a handler fires', async ({ page }) => {
  await openDebugger(page);
  await page.getByTestId('tab-breakpoints').click();
  await page.getByTestId('bp-kind').selectOption('decision');
  await page.getByTestId('bp-value').selectOption('blocked');
  await page.getByTestId('bp-add').click();
  await expect(page.getByTestId('bp-label')).toHaveText('Decision: Blocked (block, terminate, denied ask)');
  await page.getByTestId('tab-timeline').click();
  await page.getByTestId('speed').selectOption('25');
  await page.getByTestId('play').click();
  await expect(page.getByTestId('paused-at')).toHaveText(/Paused at step 12: Decision: Blocked/);
  await expect(stepView(page, 11)).toBeVisible();
  await expect(page.getByTestId('play')).toHaveAttribute('aria-label', 'Play');
  await shot(page, 'debugger-breakpoint');

  // A breakpoint on a handler firing, added from its card: "Redact secrets" next fires at step 13.
  await goToStep(page, 8);
  await page.locator('[data-testid="handler-card"][data-handler="h-redact-secrets"]').getByTestId('break-on-handler').click();
  await goToStep(page, 11);
  await key(page, ' ');
  await expect(page.getByTestId('paused-at')).toHaveText('Paused at step 13: “Redact secrets” fires');
  await expect(stepView(page, 12)).toBeVisible();
  // C jumps straight to the next one.
  await key(page, 'c');
  await expect(stepView(page, 14)).toBeVisible();
  await page.getByTestId('tab-breakpoints').click();
  await expect(page.getByTestId('breakpoint')).toHaveCount(2);
  await page.getByTestId('bp-remove').first().click();
  await page.getByTestId('bp-remove').first().click();
  await expect(page.getByTestId('breakpoint')).toHaveCount(0);

  // A breakpoint on an event type, from the step view: every input.received.
  await page.getByTestId('tab-timeline').click();
  await goToStep(page, 1);
  await page.getByTestId('break-on-type').click();
  await key(page, 'Home');
  await key(page, 'c');
  await expect(stepView(page, 1)).toBeVisible();
  await key(page, 'c');
  await expect(stepView(page, 17)).toBeVisible();
  await expect(page.getByTestId('paused-at')).toHaveText('Paused at step 18: Event type input.received');
});

test('live edit: fixing the matcher re-runs the replay; the pinned version shows what changed', async ({ page }) => {
  await openDebugger(page);
  await goToStep(page, 17);
  await expect(page.getByTestId('step-outcome')).toHaveText('CONTINUE');
  await page.getByTestId('tab-compare').click();
  await page.getByTestId('pin-version').click();
  await expect(page.getByTestId('compare-summary')).toHaveText('No event changes: both pipelines decide the same on all 22 events.');

  // Select the matcher on the canvas and edit its path in the Edit node tab.
  await page.getByTestId('node-m-prompt-injection').click();
  await page.getByTestId('tab-edit-node').click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'm-prompt-injection');
  await page.getByTestId('cond-0-path').fill('payload.user_input');
  await page.getByTestId('tab-step').click();
  await expect(page.getByTestId('step-outcome')).toHaveText('BLOCK_ACTION');
  await expect(page.getByTestId('step-reason')).toHaveText('Possible prompt injection in the user input');
  await expect(flowNode(page, 'm-prompt-injection')).toHaveClass(/dbg-pass/);
  await expect(flowNode(page, 'h-block-injection')).toHaveClass(/dbg-decider/);
  await expect(page.getByTestId('compare-summary')).toContainText('1 event continued before now blocks');
  await expect(page.getByTestId('compare-row')).toHaveCount(1);
  await expect(page.getByTestId('compare-row')).toHaveAttribute('data-index', '17');
  await expect(page.getByTestId('tab-compare')).toContainText('1');
  await shot(page, 'debugger-live-edit');
  await page.getByTestId('tab-timeline').click();
  await expect(timelineRow(page, 17)).toHaveAttribute('data-outcome', 'block_action');
  await expect(timelineRow(page, 17)).toContainText('changed');

  // The edit is the editor's: saved, and undone with the editor's undo.
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-status', 'saved');
  await key(page, 'Control+z');
  await expect(page.getByTestId('step-outcome')).toHaveText('CONTINUE');
  await page.getByTestId('tab-compare').click();
  await expect(page.getByTestId('compare-summary')).toContainText('No event changes');
});

test('a pipeline with an error keeps the last good replay and says so', async ({ page }) => {
  await openDebugger(page);
  await goToStep(page, 11);
  // Fit first: the debugger opens at a readable zoom 1 that can leave this matcher outside the pane.
  await page.getByTestId('fit-view').click();
  await page.getByTestId('node-m-destructive-command').click();
  await page.getByTestId('tab-edit-node').click();
  await page.getByTestId('cond-0-value').fill('(unclosed');
  await expect(page.getByTestId('replay-compile-error')).toContainText('the replay shows the last version that loaded');
  await page.getByTestId('tab-step').click();
  await expect(page.getByTestId('step-outcome')).toHaveText('BLOCK_ACTION');
});
