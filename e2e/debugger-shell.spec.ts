import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { shot } from './editorHelpers.ts';
import { flowNode, key, openDebugger, stepView, typeStep } from './debuggerHelpers.ts';
import { viewSettled } from './canvasGeometry.ts';

// Debugger shell: the "why didn't it fire?" pick, URLs, trace download and small display fixes.

test('"why didn\'t it fire?" outlines the picked handler without hiding what fired, and a step change clears it', async ({ page }) => {
  await openDebugger(page);
  await typeStep(page, 17);
  // Pick the handler that missed by clicking it on the canvas (Fit first: at zoom 1 the step's lit path is in view,
  // the handler that missed is not).
  await page.getByTestId('fit-view').click();
  await flowNode(page, 'h-block-injection').click();
  await expect(page.getByTestId('why-handler')).toHaveValue('h-block-injection');
  await expect(page.getByTestId('why-answer')).toContainText('`payload.input` is missing');
  await expect(flowNode(page, 'h-block-injection')).toHaveClass(/dbg-missed.*dbg-focus|dbg-focus.*dbg-missed/);
  await expect(flowNode(page, 'm-prompt-injection')).toHaveClass(/dbg-focus/);
  // The audit handler fired on this step: it keeps its colours, it is not dimmed.
  await expect(flowNode(page, 'h-audit-log')).toHaveClass(/dbg-fired/);
  await expect(flowNode(page, 'h-audit-log')).not.toHaveClass(/dbg-dim/);
  await shot(page, 'debugger-why-focus');

  // Next step: the pick is gone, nothing is outlined.
  await key(page, 'ArrowRight');
  await expect(stepView(page, 18)).toBeVisible();
  await expect(page.getByTestId('why-handler')).toHaveValue('');
  await expect(page.locator('.react-flow__node.dbg-focus')).toHaveCount(0);
  // Back: still cleared (the pick was about step 18 only).
  await key(page, 'ArrowLeft');
  await expect(stepView(page, 17)).toBeVisible();
  await expect(page.getByTestId('why-handler')).toHaveValue('');
});

test('"why didn\'t it fire?" picked by keyboard at zoom 1: the view keeps the matcher that stopped the handler in sight', async ({ page }) => {
  await openDebugger(page);
  await typeStep(page, 17);
  await page.getByTestId('why-handler').focus();
  await page.keyboard.type('Block prompt');
  await expect(page.getByTestId('why-handler')).toHaveValue('h-block-injection');
  await expect(page.getByTestId('why-answer')).toContainText('`payload.input` is missing');
  await expect(page.locator('.dbg-canvas-wrap')).toHaveAttribute('data-anchor', 'm-prompt-injection');
  await viewSettled(page, '.dbg-canvas-wrap'); // the view pans in 200 ms
  const pane = (await page.locator('.dbg-canvas-wrap').boundingBox())!;
  const matcher = (await flowNode(page, 'm-prompt-injection').boundingBox())!;
  expect(matcher.x >= pane.x - 1 && matcher.x + matcher.width <= pane.x + pane.width + 1, 'the failed matcher is in view').toBe(true);
  expect(matcher.y >= pane.y - 1 && matcher.y + matcher.height <= pane.y + pane.height + 1, 'the failed matcher is in view').toBe(true);
  await shot(page, 'debugger-why-anchor-matcher');
});

test('the URL keeps mode, pipeline, trace and step: reload lands on the same step, Back goes back', async ({ page }) => {
  await openDebugger(page);
  await typeStep(page, 11);
  await expect(page).toHaveURL(/[?&]mode=debug/);
  await expect(page).toHaveURL(/[?&]step=12(&|$)/);
  await expect(page).toHaveURL(/[?&]trace=/);
  const traceId = new URL(page.url()).searchParams.get('trace')!;

  // Reload: still the debugger, step 12, same trace.
  await page.reload();
  await expect(stepView(page, 11)).toBeVisible();
  await expect(page.getByTestId('mode-debug')).toHaveAttribute('aria-pressed', 'true');
  await shot(page, 'debugger-url-reload');

  // Back goes to Edit (where we were before Debug); Forward returns to step 12.
  await page.goBack();
  await expect(page).toHaveURL(/[?&]mode=edit/);
  await expect(page.getByTestId('node-ev-tool-before')).toBeVisible();
  await expect(page.getByTestId('step-view')).toHaveCount(0);
  await page.goForward();
  await expect(stepView(page, 11)).toBeVisible();

  // An untrusted link: junk values are ignored, the app still opens.
  await page.goto('/?mode=debug&trace=%3Cscript%3E&step=-4&pipeline=__proto__x');
  await expect(page.getByTestId('step-view')).toBeVisible();
  // A step past the end lands on the last one.
  await page.goto(`/?mode=debug&trace=${encodeURIComponent(traceId)}&step=999999999`);
  await expect(stepView(page, 21)).toBeVisible();
});

test('Debug clicked the moment the app shows stays Debug: the start-up does not switch back to Edit', async ({ page }) => {
  // A first visit on a slow machine: the demo trace is still being stored when the button is clicked.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
  await page.goto('/');
  await page.getByTestId('mode-debug').click();
  await expect(page.getByTestId('step-view')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('mode-debug')).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/[?&]mode=debug/);
});

test('downloads the stored trace as trace v1 JSONL from the library row, and it imports back the same', async ({ page }) => {
  await openDebugger(page);
  const row = page.getByTestId('trace-item').first();
  await row.hover();
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('trace-download').click()]);
  expect(download.suggestedFilename()).toBe('Demo-coding-agent-session.trace.jsonl');
  const text = readFileSync(await download.path(), 'utf8');
  const lines = text.trimEnd().split('\n');
  expect(lines).toHaveLength(23);
  const header = JSON.parse(lines[0]!);
  expect(header.format).toBe('hookwire.trace');
  expect(header.version).toBe(1);
  expect(JSON.parse(lines[12]!).type).toBe('tool.before_call');

  // The file goes back into the library as a 22-event Hookwire trace with step 12 still a block.
  await page.getByTestId('trace-file').setInputFiles({ name: 'again.trace.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(text) });
  await expect(page.getByTestId('trace-item')).toHaveCount(2);
  await expect(page.getByTestId('position')).toContainText('of 22');
  await typeStep(page, 11);
  await expect(page.getByTestId('step-outcome')).toHaveText('BLOCK_ACTION');
});

test('"Demo" adds the demo pipeline under a name no other pipeline has', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('node-ev-tool-before')).toBeVisible();
  await page.getByTestId('tab-library').click();
  await page.getByTestId('library-demo').click();
  await expect(page.getByTestId('library')).toContainText('Demo: agent safety policy (2)');
  await page.getByTestId('library-demo').click();
  await expect(page.getByTestId('library')).toContainText('Demo: agent safety policy (3)');
});
