import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { lossReport } from '../engine/agents/loss.ts';
import { AGENT_CONTRACTS } from '../engine/agents/registry.ts';
import { exportedDoc, node, openApp, shot, waitSaved } from './editorHelpers.ts';

/*
 * "Export for agent" [AG6]: pick the agent, see the configuration and the loss report, each affected node marked
 * on the canvas; copy or download. Text the person types goes through the real keyboard. What the dialog and
 * the marks say is checked against the engine's own loss report for the same document (the app renders it).
 */

const dialog = (page: Page) => page.getByTestId('agent-export-dialog');

// Each test opens the app and edits the demo on a machine shared with other builds.
test.describe.configure({ timeout: 120_000 });

/** Replaces the text of the focused field by typing, as a person would. */
async function retype(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  if (text) await page.keyboard.type(text);
}

/** The demo with its destructive-command handler turned into an ask, chosen with the keyboard. */
async function demoWithAsk(page: Page): Promise<void> {
  await openApp(page);
  await node(page, 'h-block-destructive').click();
  await page.getByTestId('handler-kind').focus();
  await page.keyboard.type('Ask');
  await expect(node(page, 'h-block-destructive')).toHaveAttribute('data-action', 'ask');
  await waitSaved(page);
}

test('[AG6] export for Windsurf: the file, the loss report by node, the marks on the canvas, the download', async ({ page }) => {
  await demoWithAsk(page);
  const doc = await exportedDoc(page);
  const expected = lossReport(doc, AGENT_CONTRACTS.get('windsurf')!);

  await page.getByTestId('open-agent-export').click();
  await expect(dialog(page)).toBeVisible();
  // The agent list has the focus: typing the name picks it.
  await expect(page.getByTestId('agent-export-agent')).toBeFocused();
  await page.keyboard.type('Windsurf');
  await expect(page.getByTestId('agent-export-agent')).toHaveValue('windsurf');
  await expect(page.getByTestId('agent-export-file')).toHaveText('.windsurf/hooks.json');

  // The loss report is the engine's, line for line, by node.
  const rows = page.getByTestId('agent-loss');
  await expect(rows).toHaveCount(expected.length);
  expect(await page.getByTestId('agent-loss-text').allTextContents()).toEqual(expected.map((l) => l.text));
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-node')))).toEqual(expected.map((l) => l.node ?? ''));
  await expect(rows.filter({ hasText: 'ask → block on windsurf' })).toHaveAttribute('data-node', 'h-block-destructive');
  // The row names the event node once (its pattern), then says what is lost.
  await expect(rows.filter({ hasText: 'no such hook on windsurf' })).toHaveText('model.after_call: no such hook on windsurf');
  await expect(rows.filter({ hasText: 'no such hook on windsurf' })).toHaveAttribute('data-node', 'ev-model-after');
  await expect(rows.filter({ hasText: 'tool name Bash is not a Windsurf tool' })).toHaveAttribute('data-node', 'm-dangerous-tools');

  // The pipeline path typed into the command; an address that is not hookwire serve's is refused, no file.
  await retype(page, 'agent-export-pipeline', '/srv/policy/guard.json');
  await expect(page.getByTestId('agent-export-preview')).toContainText('hookwire hook --agent windsurf /srv/policy/guard.json');
  await retype(page, 'agent-export-serve', 'https://example.com');
  await expect(page.getByTestId('agent-export-serve-problem')).toContainText('loopback only');
  await expect(page.getByTestId('agent-export-download')).toBeDisabled();
  await retype(page, 'agent-export-serve', '');
  await expect(page.getByTestId('agent-export-download')).toBeEnabled();
  await expect(page.getByTestId('agent-export-cli')).toHaveText('hookwire install --agent windsurf --pipeline /srv/policy/guard.json');
  await shot(page, 'agent-export-windsurf');

  const preview = JSON.parse((await page.getByTestId('agent-export-preview').textContent()) ?? '');
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('agent-export-download').click()]);
  expect(file.suggestedFilename()).toBe('hooks.json');
  const written = JSON.parse(readFileSync(await file.path(), 'utf8'));
  expect(written).toEqual(preview);
  // Windsurf's hooks: the ask handler's shell call goes through pre_run_command, failing closed with exit 2.
  const run = written.hooks.pre_run_command;
  expect(run).toHaveLength(1);
  expect(run[0]).toMatchObject({ show_output: true });
  expect(run[0].command).toMatch(/^hookwire hook --agent windsurf \/srv\/policy\/guard\.json \|\| .*exit 2; }$/);

});

test('[AG6] merged into the person\'s own file; a broken file is refused; the marks stay on the canvas after closing', async ({ page }) => {
  await demoWithAsk(page);
  const expected = lossReport(await exportedDoc(page), AGENT_CONTRACTS.get('windsurf')!);
  await page.getByTestId('open-agent-export').click();
  await page.keyboard.type('Windsurf');
  await expect(page.getByTestId('agent-export-file')).toHaveText('.windsurf/hooks.json');

  // Merged into the person's own file: their hook stays first, ours is added.
  await page.getByText('Merge into your current .windsurf/hooks.json').click();
  await page.getByTestId('agent-export-existing').click();
  await page.keyboard.type('{"hooks": {"pre_run_command": [{"command": "./mine.sh"}]}}');
  const merged = JSON.parse((await page.getByTestId('agent-export-preview').textContent()) ?? '');
  expect(merged.hooks.pre_run_command.map((h: { command: string }) => h.command.split(' ')[0])).toEqual(['./mine.sh', 'hookwire']);
  // A broken file is refused, never overwritten by a fresh one.
  await page.keyboard.press('End');
  await page.keyboard.type(',');
  await expect(page.getByTestId('agent-export-refused')).toContainText('is not JSON');
  await expect(page.getByTestId('agent-export-download')).toBeDisabled();

  // Closed: the marks stay on the canvas, each node with its own lines.
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);
  await expect(node(page, 'h-block-destructive').getByTestId('node-agent-mark')).toHaveText(/ask → block on windsurf/);
  // On the node itself the line does not name the node again.
  await expect(node(page, 'ev-model-after').getByTestId('node-agent-mark')).toHaveText(/^\s*no such hook on windsurf$/);
  await expect(node(page, 'h-block-injection').getByTestId('node-agent-mark')).toHaveCount(0);
  const marked = new Set(expected.flatMap((l) => (l.node ? [l.node] : [])));
  await expect(page.getByTestId('node-agent-mark')).toHaveCount(marked.size);
  await expect(page.getByTestId('agent-marks-chip')).toHaveText(`${expected.length} losses on Windsurf marked`);
  // The marks change no node's size, and no node or mark lies over another node (the demo's nodes are close).
  const overlaps = await page.evaluate(() => {
    const boxes = [...document.querySelectorAll<HTMLElement>('.hw-node')].map((n) => ({ id: n.dataset.testid, node: n.getBoundingClientRect(), mark: n.querySelector('.agent-mark')?.getBoundingClientRect() }));
    const hit = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return boxes.flatMap((a) => boxes.filter((b) => b !== a && (hit(a.node, b.node) || (a.mark !== undefined && hit(a.mark, b.node)))).map((b) => `${a.id} over ${b.id}`));
  });
  expect(overlaps).toEqual([]);
  await shot(page, 'agent-export-marks');
});

test('[AG6] another agent changes the report and the marks; a node in the report is shown on the canvas; the marks clear', async ({ page }) => {
  await demoWithAsk(page);
  await page.getByTestId('open-agent-export').click();
  await page.keyboard.type('Windsurf');
  await expect(page.getByTestId('agent-loss').filter({ hasText: 'ask → block on windsurf' })).toHaveCount(1);

  // Claude Code (first in the list) asks the person itself: nothing about the ask is lost there. Arrows and
  // Home/End move through the list (a second typed name within a second would extend the first).
  await page.getByTestId('agent-export-agent').focus();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('agent-export-agent')).toHaveValue('claude');
  await expect(page.getByTestId('agent-export-file')).toHaveText('.claude/settings.json');
  await expect(page.getByTestId('agent-loss').filter({ hasText: 'ask →' })).toHaveCount(0);
  const settings = JSON.parse((await page.getByTestId('agent-export-preview').textContent()) ?? '');
  expect(settings.hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: 'command', onFailure: 'block' });

  // Kimi Code keeps its hooks in the person's ~/.kimi-code/config.toml: the dialog shows the entries to add as its
  // content (made, not refused), to copy; no download, no merge box.
  await page.getByTestId('agent-export-agent').focus();
  await page.keyboard.press('End');
  await expect(page.getByTestId('agent-export-agent')).toHaveValue('opencode');
  await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('agent-export-agent')).toHaveValue('kimi');
  await expect(page.getByTestId('agent-export-file')).toHaveText('~/.kimi-code/config.toml');
  await expect(page.getByTestId('agent-export-paste')).toContainText('hookwire does not edit');
  await expect(page.getByTestId('agent-export-refused')).toHaveCount(0);
  await expect(page.getByTestId('agent-export-preview')).toContainText("command = '''hookwire hook --agent kimi");
  expect((await page.getByTestId('agent-export-preview').textContent())!.startsWith('[[hooks]]\nevent = "PreToolUse"')).toBe(true);
  await expect(page.getByTestId('agent-export-copy')).toBeEnabled();
  await expect(page.getByTestId('agent-export-download')).toHaveCount(0);
  await expect(page.getByTestId('agent-export-existing')).toHaveCount(0);
  await expect(page.getByTestId('agent-export-cli')).toContainText('--agent kimi');
  await expect(page.getByTestId('agent-loss').filter({ hasText: 'ask → block on kimi' })).toHaveCount(1);
  await shot(page, 'agent-export-kimi');

  // Back to Windsurf; the matcher's name in the report shows it on the canvas.
  await page.getByTestId('agent-export-agent').focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('agent-export-agent')).toHaveValue('windsurf');
  await page.getByTestId('agent-loss').filter({ hasText: 'tool name Bash' }).getByRole('button').click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(node(page, 'm-dangerous-tools').locator('..')).toHaveClass(/selected/);
  await expect(node(page, 'm-dangerous-tools').getByTestId('node-agent-mark')).toContainText('tool name Bash is not a Windsurf tool');

  // The marks follow edits: the ask made a block again is no longer lost on Windsurf.
  await page.getByTestId('fit-view').click();
  await node(page, 'h-block-destructive').click();
  await page.getByTestId('handler-kind').focus();
  await page.keyboard.type('Block');
  await expect(node(page, 'h-block-destructive').getByTestId('node-agent-mark')).toHaveCount(0);

  await page.getByTestId('agent-marks-clear').click();
  await expect(page.getByTestId('node-agent-mark')).toHaveCount(0);
  await expect(page.getByTestId('agent-marks-chip')).toHaveCount(0);
});

test('[AG6] export for OpenCode: the plugin file and its loss report; VS Code: its own file; Claude Code and Copilot say VS Code runs them too', async ({ page }) => {
  await demoWithAsk(page);
  const doc = await exportedDoc(page);
  await page.getByTestId('open-agent-export').click();
  await expect(dialog(page)).toBeVisible();
  await page.keyboard.type('OpenCode');
  await expect(page.getByTestId('agent-export-agent')).toHaveValue('opencode');
  await expect(page.getByTestId('agent-export-file')).toHaveText('.opencode/plugins/hookwire.js');

  // The loss report is the engine's, line for line; the ask is lost on OpenCode (no one to ask in the plugin).
  const expected = lossReport(doc, AGENT_CONTRACTS.get('opencode')!);
  expect(await page.getByTestId('agent-loss-text').allTextContents()).toEqual(expected.map((l) => l.text));
  await expect(page.getByTestId('agent-loss').filter({ hasText: 'ask → block on opencode' })).toHaveAttribute('data-node', 'h-block-destructive');

  // The plugin names the pipeline file typed here and exports one plugin function.
  await retype(page, 'agent-export-pipeline', '/srv/policy/guard.json');
  const plugin = (await page.getByTestId('agent-export-preview').textContent()) ?? '';
  expect(plugin).toContain('const PIPELINE = "/srv/policy/guard.json";');
  expect(plugin).toContain('export const Hookwire = async (input, options) =>');
  await expect(page.getByTestId('agent-export-cli')).toHaveText('hookwire install --agent opencode --pipeline /srv/policy/guard.json');
  // A plugin of that name that Hookwire did not write is refused, not replaced.
  await page.getByText('Merge into your current .opencode/plugins/hookwire.js').click();
  await page.getByTestId('agent-export-existing').click();
  await page.keyboard.type('export const Mine = async () => ({})');
  await expect(page.getByTestId('agent-export-refused')).toContainText('was not written by hookwire install');
  await expect(page.getByTestId('agent-export-download')).toBeDisabled();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('agent-export-download').click()]);
  expect(file.suggestedFilename()).toBe('hookwire.js');
  expect(readFileSync(await file.path(), 'utf8')).toBe(plugin);
  await shot(page, 'agent-export-opencode');

  // VS Code: its own file in .github/hooks; Copilot's file also runs there, and says so.
  await page.getByTestId('agent-export-agent').focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('agent-export-agent')).toHaveValue('vscode');
  await expect(page.getByTestId('agent-export-file')).toHaveText('.github/hooks/hookwire-vscode.json');
  const vscode = JSON.parse((await page.getByTestId('agent-export-preview').textContent()) ?? '');
  expect(vscode.hooks.PreToolUse[0].command).toMatch(/^hookwire hook --agent vscode \/srv\/policy\/guard\.json \|\| /);
  await page.keyboard.press('ArrowUp');
  await expect(page.getByTestId('agent-export-agent')).toHaveValue('copilot');
  await expect(page.getByTestId('agent-export-also')).toContainText('VS Code\'s agent also runs .github/hooks/*.json');
  await page.keyboard.press('Home');
  await expect(page.getByTestId('agent-export-also').first()).toContainText('also runs the hooks in .claude/settings.json');
  // goose reads its own plugins, not .claude/settings.json (block/goose hooks/mod.rs at 0825b570); Cursor does, with Third-party skills on.
  await expect(page.getByTestId('agent-export-also').nth(1)).toContainText('install --agent cursor');
  await expect(page.getByTestId('agent-export-also')).toHaveCount(2);
  await shot(page, 'agent-export-claude-vscode-note');
});
