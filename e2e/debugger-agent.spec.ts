import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportPipelineText } from '../web/model/exportPipeline.ts';
import { demoPipeline } from '../web/demo/demoPipeline.ts';
import { openDebugger, stepView } from './debuggerHelpers.ts';
import { shot } from './editorHelpers.ts';

/*
 * [AG7] The debugger names the coding agent a recording came from: a recording made by the real
 * `hookwire hook --agent codex --record` (a real process, Codex's native PreToolUse input on stdin), imported
 * through the file picker, says "from Codex" in the library and on each step.
 */

const BIN = fileURLToPath(new URL('../engine/node/bin.mjs', import.meta.url));

/** Codex's PreToolUse input (codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json), written by us. */
const codexCall = (command: string, n: number) => JSON.stringify({
  session_id: 'codex-sess', turn_id: `turn-${n}`, transcript_path: null, cwd: '/w', hook_event_name: 'PreToolUse',
  model: 'gpt-5', permission_mode: 'default', tool_use_id: `call-${n}`, tool_name: 'Bash', tool_input: { command },
});

test('[AG7] a recording of Codex\'s hooks says it came from Codex, in the library and on its steps', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-agent-rec-'));
  const pipeline = join(dir, 'demo.pipeline.json');
  writeFileSync(pipeline, exportPipelineText(demoPipeline(), { layout: false }));
  const rec = join(dir, 'codex.jsonl');
  // Codex reads a deny from hookSpecificOutput.permissionDecision (exit 0).
  const calls = [{ command: 'ls -la', deny: false }, { command: 'rm -rf /', deny: true }];
  for (const [n, c] of calls.entries()) {
    const run = spawnSync(process.execPath, [BIN, 'hook', '--agent', 'codex', '--record', rec, pipeline], { input: codexCall(c.command, n), encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.includes('"permissionDecision":"deny"')).toBe(c.deny);
  }
  const header = JSON.parse(readFileSync(rec, 'utf8').split('\n')[0]!);
  expect(header.source.agent).toBe('codex');

  await openDebugger(page);
  await page.getByTestId('trace-file').setInputFiles({ name: 'codex.jsonl', mimeType: 'application/x-ndjson', buffer: readFileSync(rec) });
  await expect(page.getByTestId('position')).toContainText('of 2');
  const item = page.locator('[data-testid="trace-item"][aria-current="true"]');
  await expect(item.getByTestId('trace-agent')).toHaveText('Codex');
  await expect(item.locator('.meta')).toContainText('Codex (Hookwire trace)');
  await expect(stepView(page, 0)).toBeVisible();
  await expect(page.getByTestId('event-from-agent')).toHaveText('Codex (codex hook)');
  // The demo trace, made by no agent's hook, names none.
  await page.getByTestId('trace-item').filter({ hasText: 'Demo' }).click();
  await expect(item).toContainText('Demo');
  await expect(item.getByTestId('trace-agent')).toHaveCount(0);
  await expect(page.getByTestId('event-from-agent')).toHaveCount(0);
  await page.getByTestId('trace-item').filter({ hasText: 'Codex (Hookwire trace)' }).click();
  await expect(page.getByTestId('event-from-agent')).toHaveText('Codex (codex hook)');
  await page.getByTestId('event-from-agent').scrollIntoViewIfNeeded();
  await shot(page, 'debugger-agent');
});
