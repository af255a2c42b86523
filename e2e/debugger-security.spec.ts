import { expect, test } from '@playwright/test';
import { openDebugger, stepView } from './debuggerHelpers.ts';

// Payloads are untrusted: the debugger shows them as text, never as HTML, and user-named keys such as
// __proto__ are plain names. A trace whose payloads try markup injection and prototype pollution.
const HOSTILE = '<img src=x onerror="window.__pwned = 1"><script>window.__pwned = 2</script>';

function hostileTrace(): Buffer {
  const header = { format: 'hookwire.trace', version: 1, trace_id: 'hostile', agent_id: 'agent', source: { kind: 'test' }, created: '2026-01-01T00:00:00Z' };
  const events = [
    { event_id: 'h1', type: 'input.received', ts: '2026-01-01T00:00:01Z', payload: { user_input: HOSTILE } },
    { event_id: 'h2', type: 'tool.before_call', ts: '2026-01-01T00:00:02Z', payload: JSON.parse(`{"tool_name":"Bash","tool_input":{"command":"rm -rf / ${HOSTILE.replace(/"/g, '\\"')}"},"__proto__":{"polluted":"yes"}}`) },
  ];
  // JSON.stringify keeps an own __proto__ key as data.
  return Buffer.from([header, ...events].map((l) => JSON.stringify(l)).join('\n') + '\n');
}

test('hostile payloads are shown as text: no markup runs, __proto__ is just a key', async ({ page }) => {
  await openDebugger(page);
  await page.getByTestId('trace-file').setInputFiles({ name: 'hostile.jsonl', mimeType: 'application/x-ndjson', buffer: hostileTrace() });
  await expect(page.getByTestId('position')).toContainText('of 2');

  await expect(stepView(page, 0)).toBeVisible();
  await expect(page.getByTestId('timeline')).toContainText('<img src=x onerror=');
  // The destructive command is blocked, and its reason carries the payload as text.
  await page.keyboard.press('j');
  const step = stepView(page, 1);
  await expect(step).toHaveAttribute('data-outcome', 'block_action');
  await expect(step).toContainText('<script>window.__pwned = 2</script>');
  await step.getByTestId('payload-toggle').click();
  await expect(step.getByTestId('payload-before')).toContainText('"__proto__"');
  await expect(step.getByTestId('payload-before')).toContainText('"polluted": "yes"');

  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.evaluate(() => ({} as Record<string, unknown>).polluted)).toBeUndefined();
  expect(await page.locator('[data-testid="step-view"] img, [data-testid="timeline"] img, [data-testid="step-view"] script').count()).toBe(0);
});
