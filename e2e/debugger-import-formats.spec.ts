import { test, expect } from '@playwright/test';
import { TRACE_FORMAT_LABELS, type TraceFormat } from '../engine/trace/detectTraceFormat.ts';
import { importTrace } from '../engine/trace/importTrace.ts';
import { FORMAT_FIXTURES, readFormat } from '../test/shared/formatFixtures.ts';
import { shot, tabTo } from './editorHelpers.ts';
import { key, openDebugger, stepView } from './debuggerHelpers.ts';

// Each new format, imported the way a user does it: the Import button, the file picker, then the
// keyboard to filter and step. The counts on screen must be the engine's import of the same bytes.
const CASES: { file: string; format: TraceFormat; short: string }[] = [
  { file: FORMAT_FIXTURES.codex, format: 'codex-rollout', short: 'Codex CLI' },
  { file: FORMAT_FIXTURES.otlp, format: 'otlp-json', short: 'OTLP/JSON' },
  { file: FORMAT_FIXTURES.spansJsonl, format: 'otel-spans-jsonl', short: 'OTel spans' },
  { file: FORMAT_FIXTURES.console, format: 'otel-console', short: 'OTel console' },
  { file: FORMAT_FIXTURES.mini, format: 'mini-swe-agent', short: 'mini-swe-agent' },
];

test('each new recording format imports through the file picker, recognised by content, and steps by keyboard', async ({ page }) => {
  await openDebugger(page);
  let items = 1;
  for (const c of CASES) {
    const text = readFormat(c.file);
    const expected = importTrace(text, { fileName: c.file }).trace!;
    const tools = expected.events.filter((e) => e.type === 'tool.before_call').length;
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('trace-import').click()]);
    // A neutral name: the content, not the extension, says what it is.
    await chooser.setFiles({ name: `recording-${c.format}.data`, mimeType: 'application/octet-stream', buffer: Buffer.from(text) });
    await expect(page.getByTestId('toast').filter({ hasText: TRACE_FORMAT_LABELS[c.format] })).toBeVisible();
    items++;
    await expect(page.getByTestId('trace-item')).toHaveCount(items);
    const current = page.locator('[data-testid="trace-item"][aria-current="true"]');
    await expect(current).toContainText(c.short);
    await expect(current).toContainText(`${expected.events.length} events`);
    await expect(page.getByTestId('position')).toContainText(`of ${expected.events.length}`);
    await expect(page.getByTestId('step-type')).toHaveText('agent.start');
    await key(page, 'j');
    await expect(stepView(page, 1)).toBeVisible();
    await expect(page.getByTestId('step-type')).toHaveText(expected.events[1]!.type);
    await page.getByTestId('filter-type').selectOption('tool.before_call');
    await expect(page.getByTestId('filter-count')).toHaveText(`${tools} of ${expected.events.length}`);
    await key(page, 'Home');
    const first = expected.events.findIndex((e) => e.type === 'tool.before_call');
    await expect(stepView(page, first)).toBeVisible();
    await expect(page.getByTestId('step-type')).toHaveText('tool.before_call');
    await expect(page.getByTestId('step-view')).toContainText(String(expected.events[first]!.payload.tool_name));
    await shot(page, `debugger-import-${c.format}`);
    await page.getByTestId('filter-type').selectOption('');
  }
  // Every row's details ("16 events · OTel spans · just now") stay on one line under its name, current or not.
  const metas = await page.locator('[data-testid="trace-item"] .meta').evaluateAll((els) => els.map((e) => ({ text: e.textContent, lines: Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)) })));
  expect(metas.filter((m) => m.lines !== 1), 'details that wrap').toEqual([]);
});

test("OTLP/JSON with Hookwire's own spans: the recorded decisions come back, and a divergence from them is found by keyboard", async ({ page }) => {
  await openDebugger(page);
  const text = readFormat(FORMAT_FIXTURES.otlpHookwire);
  const expected = importTrace(text, { fileName: FORMAT_FIXTURES.otlpHookwire }).trace!;
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('trace-import').click()]);
  await chooser.setFiles({ name: 'collector-export.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.getByTestId('position')).toContainText(`of ${expected.events.length}`);
  // The demo pipeline's "Dangerous tools" matcher lists Bash, not bash: replay continues where production blocked.
  await expect(page.getByTestId('timeline-row').filter({ hasText: 'recorded block' })).toBeVisible();
  await key(page, 'd');
  const blocked = expected.events.findIndex((e) => e.recorded?.decision === 'block_action');
  await expect(stepView(page, blocked)).toBeVisible();
  await expect(page.getByTestId('note-divergence')).toBeVisible();
  await expect(page.getByTestId('step-view')).toContainText('rm -rf is not allowed');
  await shot(page, 'debugger-import-hookwire-spans');
});

test('a pipeline file picked in Import trace is added as a pipeline and the debugger replays with it; a broken one says what it is', async ({ page }) => {
  await openDebugger(page);
  const doc = {
    format: 'hookwire.pipeline', version: 1, name: 'Picked by mistake',
    nodes: [{ id: 'ev', kind: 'event', pattern: 'tool.before_call' }, { id: 'h', kind: 'handler', name: 'Block every tool', action: { type: 'block', reason: 'no tools today' } }],
    wires: [{ from: 'ev', to: 'h' }],
  };
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('trace-import').click()]);
  await chooser.setFiles({ name: 'guard.trace.jsonl', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc, null, 2)) });
  await expect(page.getByTestId('toast').filter({ hasText: 'is a pipeline, not a recorded run' })).toContainText('“Picked by mistake”');
  await expect(page.getByTestId('pipeline-title')).toHaveText('Picked by mistake');
  await expect(page.getByTestId('trace-item')).toHaveCount(1); // no trace was added
  // The demo trace now replays through the picked pipeline: its first tool call is blocked by it.
  await page.getByTestId('filter-type').selectOption('tool.before_call');
  await key(page, 'j');
  await expect(page.getByTestId('step-decision')).toContainText(/block/i);
  // A pipeline that does not load is still named for what it is.
  const [again] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('trace-import').click()]);
  await again.setFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "hookwire.pipeline", "version": 1, "name": "b", "nodes": [{"id": "x", "kind": "nope"}], "wires": []}') });
  await expect(page.getByTestId('import-result')).toContainText('this is a Hookwire pipeline');
  await shot(page, 'debugger-import-pipeline-as-trace');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('import-result')).toBeHidden();
});

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('a file that is not a recording says what it is first, and offers "Where are my sessions?" (by keyboard, and back)', async ({ page }) => {
    await openDebugger(page);
    await page.keyboard.press('ControlOrMeta+b');
    const text = 'meeting notes\nnothing recorded here\n';
    const expected = importTrace(text, { fileName: 'notes.txt' }).problems[0]!;
    expect(expected.code).toBe('unknown_format');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('trace-import').click()]);
    await chooser.setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
    const dialog = page.getByTestId('import-result');
    await expect(dialog).toBeVisible();
    // The engine's words, what the file is before the long list of what Hookwire reads.
    await expect(dialog.getByTestId('import-line-problem')).toContainText(expected.message);
    expect(expected.message).toMatch(/^cannot import notes\.txt: the content is not a recording Hookwire reads \(it is [^)]+\); it reads: /);
    await shot(page, 'import-not-a-recording-1280');
    const placesButton = dialog.getByTestId('import-places-open');
    await tabTo(page, '[data-testid="import-places-open"]', 10);
    await page.keyboard.press('Enter');
    const places = page.getByTestId('session-places');
    await expect(places).toBeVisible();
    await expect(places.getByTestId('session-place').first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(places).toHaveCount(0);
    // Back on the failed import, on the button that opened the places; Escape then closes the import too.
    await expect(placesButton).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('trace-import')).toBeFocused();
  });
});
