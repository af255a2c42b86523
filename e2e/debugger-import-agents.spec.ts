import { test, expect } from '@playwright/test';
import { TRACE_FORMAT_LABELS, type TraceFormat } from '../engine/trace/detectTraceFormat.ts';
import { importTrace } from '../engine/trace/importTrace.ts';
import { SESSION_PLACES } from '../engine/trace/sessionPlaces.ts';
import { readFormat } from '../test/shared/formatFixtures.ts';
import { shot } from './editorHelpers.ts';
import { key, openDebugger, stepView } from './debuggerHelpers.ts';

// #29: the agents' own session files, picked in Import trace under a neutral name: recognised by content, a cut
// file shows its problems and the good events are kept by keyboard; counts and steps are the engine's import.
const CASES: { file: string; format: TraceFormat; short: string }[] = [
  { file: 'copilot-cli-events.jsonl', format: 'copilot-cli', short: 'Copilot CLI' },
  { file: 'specstory-cursor.md', format: 'specstory', short: 'SpecStory' },
  { file: 'aider.chat.history.md', format: 'aider', short: 'aider' },
  { file: 'opencode-export.json', format: 'opencode', short: 'OpenCode' },
  { file: 'qwen-code-session.jsonl', format: 'qwen-code', short: 'Qwen Code' },
];

test('"Where are my sessions?" lists each agent\'s default place for this OS, opened and closed by keyboard', async ({ page }) => {
  await openDebugger(page);
  const open = page.getByTestId('session-places-open');
  await open.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('session-places');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('session-place')).toHaveCount(SESSION_PLACES.length);
  // Chromium here runs on Linux: the Linux column.
  for (const p of SESSION_PLACES) await expect(page.locator(`[data-testid="session-place"][data-agent="${p.agent}"]`)).toContainText(p.linux);
  await expect(page.locator('[data-testid="session-place"][data-agent="copilot-cli"]')).toContainText('GitHub Copilot CLI');
  await shot(page, 'debugger-session-places');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(open).toBeFocused();
});

test('each agent\'s session file imports through the file picker; a cut one is kept by keyboard; steps by keyboard', async ({ page }) => {
  // Five imports, each replayed and stepped, on a shared 2-core machine: more than the default minute.
  test.setTimeout(300_000);
  await openDebugger(page);
  let items = 1;
  for (const c of CASES) {
    const text = readFormat(c.file);
    const r = importTrace(text, { fileName: c.file });
    const expected = r.trace!;
    const partial = r.problems.some((p) => p.severity === 'error');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('trace-import').click()]);
    await chooser.setFiles({ name: `session-${c.format}.data`, mimeType: 'application/octet-stream', buffer: Buffer.from(text) });
    if (partial) {
      await expect(page.getByTestId('import-result')).toBeVisible();
      const errors = r.problems.filter((p) => p.severity === 'error');
      for (const p of errors) await expect(page.locator(`[data-testid="import-line-problem"][data-line="${p.line}"]`)).toHaveAttribute('data-code', p.code);
      await page.getByTestId('import-keep').focus();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('import-result')).toHaveCount(0);
    } else {
      await expect(page.getByTestId('toast').filter({ hasText: TRACE_FORMAT_LABELS[c.format] })).toBeVisible();
    }
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
    const first = expected.events.findIndex((e) => e.type === 'tool.before_call');
    await page.getByTestId('filter-type').selectOption('tool.before_call');
    await key(page, 'Home');
    await expect(stepView(page, first)).toBeVisible();
    await expect(page.getByTestId('step-view')).toContainText(String(expected.events[first]!.payload.tool_name));
    await shot(page, `debugger-import-${c.format}`);
    await page.getByTestId('filter-type').selectOption('');
  }
});
