import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeConfig, exportForAgent, plannedEvents, alsoRunBy } from '../../../engine/agents/install.ts';
import { OPENCODE_PLUGIN_FILE, OPENCODE_PLUGIN_MARK } from '../../../engine/agents/opencode.ts';
import { lossReport, strictLosses } from '../../../engine/agents/loss.ts';
import { AGENT_CONTRACTS } from '../../../engine/agents/registry.ts';
import { AGENT_IDS, type AgentId } from '../../../engine/agents/types.ts';
import { hookwire, tempDir } from '../node/runCli.ts';
import { lossLines } from '../../../engine/node/commands/installCommand.ts';
import { agentAdapter } from '../../../engine/runtime/agentHook.ts';
import { NATIVE } from './nativeInputs.ts';

const PIPELINE_FILE = join(__dirname, 'fixtures', 'portable.pipeline.json');
const doc = JSON.parse(readFileSync(PIPELINE_FILE, 'utf8'));
const target = { pipeline: '/p/portable.pipeline.json' };
const contract = (id: AgentId) => AGENT_CONTRACTS.get(id)!;
const INSTALLABLE = AGENT_IDS.filter((id) => id !== 'kimi' && id !== 'opencode');

describe('[AG6] install: the agent\'s own configuration', () => {
  it('[AG6] the written file parses and holds one Hookwire hook per needed event; a second install changes nothing', () => {
    for (const id of INSTALLABLE) {
      const first = mergeConfig(id, doc, target, null);
      if (!first.ok) throw new Error(first.reason);
      const parsed = JSON.parse(first.text);
      expect([id, first.changed]).toEqual([id, true]);
      const again = mergeConfig(id, doc, target, first.text);
      expect([id, again.ok && again.changed, again.ok && again.text]).toEqual([id, false, first.text]);
      expect(JSON.stringify(parsed)).toContain(`hook --agent ${id} `);
    }
  });

  it('[AG6] an existing config keeps its other hooks and settings, in place; our old hooks are replaced, not added', () => {
    const mine = { type: 'command', command: './mine.sh' };
    const existing = JSON.stringify({ permissions: { allow: ['Bash(ls)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [mine] }], Stop: [{ hooks: [mine] }] } });
    const r = mergeConfig('claude', doc, target, existing);
    if (!r.ok) throw new Error(r.reason);
    const out = JSON.parse(r.text);
    expect(out.permissions).toEqual({ allow: ['Bash(ls)'] });
    expect(out.hooks.Stop).toEqual([{ hooks: [mine] }]);
    expect(out.hooks.PreToolUse[0]).toEqual({ matcher: 'Bash', hooks: [mine] });
    expect(out.hooks.PreToolUse).toHaveLength(2);
    // A changed pipeline re-installs in place: still two groups, the new matcher.
    const shellOnly = { ...doc, nodes: doc.nodes.filter((n: { id: string }) => !['env', 'block-env', 'fetch', 'block-fetch'].includes(n.id)), wires: doc.wires.filter((w: { from: string; to: string }) => !['env', 'fetch'].includes(w.to)) };
    const r2 = mergeConfig('claude', shellOnly, target, r.text);
    if (!r2.ok) throw new Error(r2.reason);
    const out2 = JSON.parse(r2.text);
    expect(out2.hooks.PreToolUse).toHaveLength(2);
    expect(out2.hooks.PreToolUse[1].matcher).toBe('Bash|PowerShell');
  });

  it('[AG6] Gemini CLI: our group is one hook and never sets `sequential` (any sequential group makes the whole event sequential); the user\'s groups keep theirs', () => {
    // google-gemini/gemini-cli 0.56 nightly (5411f113): docs/hooks/reference.md "Hook definition" `sequential`;
    // packages/core/src/hooks/hookPlanner.ts: "if ANY hook definition has sequential=true, run all sequentially".
    const theirs = { matcher: 'write_file', sequential: true, hooks: [{ type: 'command', command: './a.sh' }, { type: 'command', command: './b.sh' }] };
    const existing = JSON.stringify({ hooks: { BeforeTool: [theirs] } });
    const r = mergeConfig('gemini', doc, target, existing);
    if (!r.ok) throw new Error(r.reason);
    const before = JSON.parse(r.text).hooks.BeforeTool as { matcher?: string; sequential?: boolean; hooks: { name?: string; timeout?: number; command: string }[] }[];
    expect(before[0]).toEqual(theirs);
    expect(before).toHaveLength(2);
    const ours = before[1]!;
    expect(Object.keys(ours).sort()).toEqual(['hooks', 'matcher']);
    expect(ours.hooks).toHaveLength(1);
    expect(ours.hooks[0]).toMatchObject({ type: 'command', name: 'hookwire', timeout: 60000 });
    expect(ours.hooks[0]!.command).toContain('hook --agent gemini ');
    // A re-install puts ours back where it was and leaves theirs as it was.
    const again = mergeConfig('gemini', doc, target, r.text);
    expect(again.ok && again.changed).toBe(false);
  });

  it('[AG6] a file that is not JSON, not an object, or whose hooks are not an object is refused', () => {
    for (const bad of ['{"hooks": [', '[1]', '{"hooks": 3}']) {
      const r = mergeConfig('cursor', doc, target, bad);
      expect(r.ok).toBe(false);
      expect(r.ok ? '' : r.reason).toContain('left as it was');
    }
    // Kimi Code's entries are no refusal: they are made, to be pasted (the next test).
    expect(mergeConfig('kimi', doc, target, '{"hooks": [').ok).toBe(true);
  });

  it('[AG6] fail closed where the agent allows: Claude onFailure block, Cursor failClosed, a shell fallback in the block form', () => {
    const at = (id: AgentId) => {
      const r = mergeConfig(id, doc, target, null);
      if (!r.ok) throw new Error(r.reason);
      return JSON.parse(r.text);
    };
    expect(at('claude').hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: 'command', onFailure: 'block', timeout: 600 });
    expect(at('cursor').hooks.preToolUse[0]).toMatchObject({ failClosed: true });
    expect(at('copilot')).toMatchObject({ version: 1 });
    expect(at('copilot').hooks.preToolUse[0].bash).toMatch(/--event preToolUse .* \|\| printf .*"permissionDecision":"deny"/);
    expect(at('codex').hooks.PreToolUse[0].hooks[0].command).toMatch(/\|\| \{ rc=\$\?; .*>&2; exit 2; \}$/);
    const http = mergeConfig('claude', doc, { ...target, serve: 'http://127.0.0.1:7347' }, null);
    expect(http.ok && JSON.parse(http.text).hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: 'http', url: 'http://127.0.0.1:7347/v1/claude/hook', onFailure: 'block' });
  });

  it('[AG6] matchers are no wider than the pipeline: a shell-only pipeline hooks only shell tools (Windsurf: only pre_run_command)', () => {
    const shellOnly = {
      nodes: [
        { id: 'b', kind: 'event', pattern: 'tool.before_call' },
        { id: 'm', kind: 'matcher', when: { 'payload.tool': 'shell' } },
        { id: 'h', kind: 'handler', name: 'h', action: { type: 'block', reason: 'no' } },
      ],
      wires: [{ from: 'b', to: 'm' }, { from: 'm', to: 'h' }],
    };
    expect(plannedEvents(shellOnly as never, contract('claude'))).toEqual([{ name: 'PreToolUse', matcher: 'Bash|PowerShell' }]);
    expect(plannedEvents(shellOnly as never, contract('gemini'))).toEqual([{ name: 'BeforeTool', matcher: 'run_shell_command' }]);
    expect(plannedEvents(shellOnly as never, contract('windsurf'))).toEqual([{ name: 'pre_run_command', matcher: null }]);
    expect(plannedEvents(shellOnly as never, contract('copilot'))).toEqual([{ name: 'preToolUse', matcher: null }]);
  });

  it('[AG6] an MCP-only pipeline hooks each agent\'s MCP names: Gemini CLI\'s are mcp_<server>_<tool> (docs/hooks/reference.md "Matchers and tool names")', () => {
    const mcpOnly = {
      nodes: [
        { id: 'b', kind: 'event', pattern: 'tool.before_call' },
        { id: 'm', kind: 'matcher', when: { 'payload.tool': 'mcp' } },
        { id: 'h', kind: 'handler', name: 'h', action: { type: 'block', reason: 'no' } },
      ],
      wires: [{ from: 'b', to: 'm' }, { from: 'm', to: 'h' }],
    };
    const [gemini] = plannedEvents(mcpOnly as never, contract('gemini'));
    expect(gemini).toEqual({ name: 'BeforeTool', matcher: 'mcp_.*' });
    // The matcher is a regex Gemini CLI tests against tool_name: it takes the MCP name Gemini CLI gives, no built-in tool.
    expect(new RegExp(gemini!.matcher!).test('mcp_github_create_issue')).toBe(true);
    expect(new RegExp(gemini!.matcher!).test('run_shell_command')).toBe(false);
    expect(plannedEvents(mcpOnly as never, contract('claude'))).toEqual([{ name: 'PreToolUse', matcher: 'mcp__.*' }]);
  });
});

describe('[AG6] the loss report, by node', () => {
  // What the pipeline decides and the agent does not carry out; where a killed hook fails open is its own test below.
  const texts = (id: AgentId, d = doc) => lossReport(d, contract(id)).filter((l) => l.kind !== 'fail_open').map((l) => `${l.node}: ${l.text}`);

  it('[AG6] Claude Code: terminate and add_context are lost on the events that discard `continue` and `systemMessage` (hooks reference: Notification, PreCompact, …)', () => {
    const on = (pattern: string, action: object) => ({
      nodes: [
        { id: 'e', kind: 'event', pattern },
        { id: 'h', kind: 'handler', name: 'h', action },
      ],
      wires: [{ from: 'e', to: 'h' }],
    });
    const stop = { type: 'terminate', reason: 'no' };
    const say = { type: 'add_context', text: 'note' };
    // PreCompact blocks with decision: block, but its continue: false is discarded: the stop becomes a block.
    expect(texts('claude', on('claude.pre_compact', stop) as never)).toEqual(['h: terminate → block on claude: PreCompact cannot stop the agent']);
    // Notification discards both: nothing it answers stops Claude or reaches the person.
    expect(texts('claude', on('claude.notification', stop) as never)).toEqual(['h: terminate not enforced on claude: Notification can neither stop the agent nor block']);
    expect(texts('claude', on('claude.notification', say) as never)).toEqual(['h: add_context dropped on claude']);
    // CwdChanged discards continue but shows systemMessage.
    expect(texts('claude', on('claude.cwd_changed', say) as never)).toEqual(['h: add_context shown to the person only on claude (the model does not see it)']);
    // Stop reads continue: nothing lost.
    expect(texts('claude', on('final_answer.before', stop) as never)).toEqual([]);
  });

  it('[AG6] ask → block on windsurf; rewrite → block; add_context dropped; fetch calls unseen', () => {
    expect(texts('windsurf')).toEqual(
      expect.arrayContaining([
        'ask-push: ask → block on windsurf',
        'redact-token: rewrite of tool_input → block on windsurf',
        'deploy-context: add_context dropped on windsurf',
        expect.stringMatching(/^block-fetch: fetch calls: windsurf shows none to hooks/),
      ]),
    );
  });

  it('[AG6] model.before_call: no such hook on codex; terminate → block where the event cannot stop the agent', () => {
    const d = {
      nodes: [
        { id: 'model', kind: 'event', pattern: 'model.before_call' },
        { id: 'tools', kind: 'event', pattern: 'tool.before_call' },
        { id: 'halt', kind: 'handler', name: 'halt', action: { type: 'terminate', reason: 'x' } },
        { id: 'm-h', kind: 'handler', name: 'm', action: { type: 'block', reason: 'x' } },
      ],
      wires: [{ from: 'tools', to: 'halt' }, { from: 'model', to: 'm-h' }],
    };
    // The item is about the node, which the reader names: its text does not say the pattern again.
    expect(texts('codex', d)).toEqual(['model: no such hook on codex', 'halt: terminate → block on codex: PreToolUse cannot stop the agent']);
    // The CLI names it by id and by the name the app shows (an event's pattern): the pattern is said once.
    expect(lossLines('codex', lossReport(d as never, contract('codex')), d.nodes as never)).toContain('  model (model.before_call): no such hook on codex\n');
    expect(texts('gemini', d)).toEqual([]); // BeforeModel exists; BeforeTool can stop the agent
  });

  it('[AG6] tool names another agent does not have are reported on the matcher; Claude Code loses nothing it can carry', () => {
    const d = {
      nodes: [
        { id: 'b', kind: 'event', pattern: 'tool.before_call' },
        { id: 'bash', kind: 'matcher', tools: ['Bash'] },
        { id: 'h', kind: 'handler', name: 'h', action: { type: 'block', reason: 'no' } },
      ],
      wires: [{ from: 'b', to: 'bash' }, { from: 'bash', to: 'h' }],
    };
    expect(texts('claude', d)).toEqual([]);
    expect(texts('gemini', d)).toEqual(['bash: tool name Bash is not a Gemini CLI tool: match payload.tool instead']);
  });

  it('[AG6] a tool name is reported on the matcher that names it, not on a later matcher of the path (the app marks that node)', () => {
    const d = {
      nodes: [
        { id: 'b', kind: 'event', pattern: 'tool.before_call' },
        { id: 'names', kind: 'matcher', when: { 'payload.tool_name': { in: ['Bash', 'run_shell'] } } },
        { id: 'cmd', kind: 'matcher', when: { 'payload.tool_input.command': { regex: 'rm' } } },
        { id: 'h', kind: 'handler', name: 'h', action: { type: 'block', reason: 'no' } },
      ],
      wires: [{ from: 'b', to: 'names' }, { from: 'names', to: 'cmd' }, { from: 'cmd', to: 'h' }],
    };
    expect(texts('claude', d)).toEqual(['names: tool name run_shell is not a Claude Code tool: match payload.tool instead']);
  });

  it('[AG6] exportForAgent gives the app the same file and report', () => {
    const e = exportForAgent(doc, 'windsurf', target);
    expect(e.config.ok && e.config.file).toBe('.windsurf/hooks.json');
    expect(e.losses.map((l) => l.node)).toContain('ask-push');
  });
});

describe('[AG6] hookwire install, a real process', () => {
  it('[AG6] writes with a backup, leaves a broken file unchanged (exit 2), --strict exits 1 on losses, --print writes nothing', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.windsurf'));
    writeFileSync(join(dir, '.windsurf', 'hooks.json'), '{"hooks": {"post_write_code": [{"command": "./fmt.sh"}]}}');
    const args = ['install', '--agent', 'windsurf', '--pipeline', PIPELINE_FILE, '--dir', dir];
    const r = await hookwire(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wrote .*hooks\.json \(the old file is .*\.bak\)/);
    expect(r.stdout).toContain('ask-push (Ask before push): ask → block on windsurf');
    const written = JSON.parse(readFileSync(join(dir, '.windsurf', 'hooks.json'), 'utf8'));
    expect(written.hooks.post_write_code).toEqual([{ command: './fmt.sh' }]);
    expect(written.hooks.pre_run_command).toHaveLength(1);
    expect(readdirSync(join(dir, '.windsurf')).filter((f) => f.endsWith('.bak'))).toHaveLength(1);
    const strict = await hookwire([...args, '--strict']);
    expect([strict.code, strict.stdout.includes('unchanged')]).toEqual([1, true]);
    writeFileSync(join(dir, '.windsurf', 'hooks.json'), '{ broken');
    const refused = await hookwire(args);
    expect(refused.code).toBe(2);
    expect(readFileSync(join(dir, '.windsurf', 'hooks.json'), 'utf8')).toBe('{ broken');
    const other = tempDir();
    const printed = await hookwire(['install', '--agent', 'cursor', '--pipeline', PIPELINE_FILE, '--dir', other, '--print']);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout).hooks.preToolUse[0].failClosed).toBe(true);
    expect(existsSync(join(other, '.cursor'))).toBe(false);
  }, 120_000);
});

describe('[AG6] OpenCode: a plugin file, not a hook configuration', () => {
  it('[AG6] install writes .opencode/plugins/hookwire.js naming the pipeline; a second install changes nothing; Hookwire\'s own older file is replaced; any other file is refused', () => {
    const first = mergeConfig('opencode', doc, target, null);
    if (!first.ok) throw new Error(first.reason);
    expect([first.file, first.changed]).toEqual([OPENCODE_PLUGIN_FILE, true]);
    expect(first.text.startsWith(OPENCODE_PLUGIN_MARK)).toBe(true);
    expect(first.text).toContain('const PIPELINE = "/p/portable.pipeline.json";');
    // OpenCode calls every export of a plugin module as a plugin (src/plugin/discovery.ts): exactly one, a function.
    expect(first.text.match(/^export /gm)).toEqual(['export ']);
    expect(first.text).toMatch(/^export const Hookwire = async \(input, options\) =>/m);
    const again = mergeConfig('opencode', doc, target, first.text);
    expect(again.ok && again.changed).toBe(false);
    const moved = mergeConfig('opencode', doc, { pipeline: '/elsewhere/p.json' }, first.text);
    expect(moved.ok && [moved.changed, moved.text.includes('"/elsewhere/p.json"')]).toEqual([true, true]);
    const theirs = "export const Mine = async () => ({})\n";
    const refused = mergeConfig('opencode', doc, target, theirs);
    expect(refused.ok ? '' : refused.reason).toContain('was not written by hookwire install: refused, left as it was');
    const served = mergeConfig('opencode', doc, { ...target, serve: 'http://127.0.0.1:7347' }, null);
    expect(served.ok ? '' : served.reason).toContain('--serve does not apply');
  });

  it('[AG6] the loss report on OpenCode: ask → block, add_context dropped before a call, events the plugin does not map; rewrites and blocks are carried', () => {
    const texts = lossReport(doc, contract('opencode')).map((l) => `${l.node}: ${l.text}`);
    expect(texts).toEqual(expect.arrayContaining(['ask-push: ask → block on opencode', 'deploy-context: add_context dropped on opencode']));
    expect(texts.filter((t) => /rewrite|block not enforced|fetch calls/.test(t))).toEqual([]);
    const d = {
      nodes: [
        { id: 'prompt', kind: 'event', pattern: 'input.received' },
        { id: 'after', kind: 'event', pattern: 'tool.after_call' },
        { id: 'p-h', kind: 'handler', name: 'p', action: { type: 'block', reason: 'x' } },
        { id: 'halt', kind: 'handler', name: 'halt', action: { type: 'terminate', reason: 'x' } },
        { id: 'ctx', kind: 'handler', name: 'ctx', action: { type: 'add_context', text: 'x' } },
      ],
      wires: [{ from: 'prompt', to: 'p-h' }, { from: 'after', to: 'halt' }, { from: 'after', to: 'ctx' }],
    };
    expect(lossReport(d as never, contract('opencode')).map((l) => `${l.node}: ${l.text}`)).toEqual([
      'prompt: no such hook on opencode',
      "null: on opencode: tool.execute.after fires only for a call that succeeded (anomalyco/opencode PR #32542): a failed call's result is never shown to an after-call rule",
      'halt: terminate → block on opencode: tool.execute.after cannot stop the agent',
    ]);
  });
});

describe('[AG6] VS Code: its own file, and the files it also runs', () => {
  it('[AG6] install --agent vscode writes .github/hooks/hookwire-vscode.json: PascalCase events, `command`, timeout in seconds, no matchers (VS Code ignores them)', () => {
    const r = mergeConfig('vscode', doc, target, null);
    if (!r.ok) throw new Error(r.reason);
    const out = JSON.parse(r.text);
    expect(r.file).toBe('.github/hooks/hookwire-vscode.json');
    expect(Object.keys(out.hooks)).toContain('PreToolUse');
    expect(out.hooks.PreToolUse).toEqual([{ type: 'command', command: expect.stringMatching(/^hookwire hook --agent vscode \/p\/portable\.pipeline\.json \|\| .*exit 2; }$/), timeout: 30 }]);
    expect(out.version).toBeUndefined();
  });

  it('[AG6] the install output of claude and copilot says VS Code runs those hooks too; vscode says Copilot is not meant to', () => {
    expect(alsoRunBy('claude').join(' ')).toMatch(/VS Code.*\.claude\/settings\.json.*chat\.hookFilesLocations/);
    // Cursor runs .claude/settings.json with "Third-party skills" on (cursor.com/docs/reference/third-party-hooks).
    expect(alsoRunBy('claude').join(' ')).toMatch(/Cursor also runs the hooks in \.claude\/settings\.json when "Third-party skills" is on.*install --agent cursor/);
    // What that note says the Claude Code command does with Cursor's input: refuse it, exit 2.
    const claude = agentAdapter('claude');
    const fromCursor = claude.parse({ ...NATIVE.cursor({ kind: 'shell', command: 'rm -rf /' })!, hook_event_name: 'preToolUse', tool_name: 'Shell', tool_input: { command: 'rm -rf /' } }, { ts: '2026-12-07T00:00:00.000Z', seq: 1 });
    expect(fromCursor.ok).toBe(false);
    if (!fromCursor.ok) {
      expect(fromCursor.reason).toContain('hook --agent cursor');
      expect(claude.failClosed(fromCursor.hook, fromCursor.reason).exitCode).toBe(2);
    }
    expect(alsoRunBy('copilot').join(' ')).toMatch(/VS Code.*hookSpecificOutput\.permissionDecision/);
    expect(alsoRunBy('vscode').join(' ')).toContain('install --agent copilot');
    // Codex skips a project hook until the project and the hook are trusted (developers.openai.com/codex/hooks).
    expect(alsoRunBy('codex').join(' ')).toMatch(/only when the project is trusted.*reviewed and trusted in \/hooks/);
    expect(alsoRunBy('windsurf')).toEqual([]);
    expect(exportForAgent(doc, 'claude', target).alsoRunBy).toEqual(alsoRunBy('claude'));
  });
});

describe('[AG6] hookwire install --agent opencode, a real process', () => {
  it('[AG6] writes the plugin, a second run changes nothing, a plugin of that name Hookwire did not write is refused and kept', async () => {
    const dir = tempDir();
    const args = ['install', '--agent', 'opencode', '--pipeline', PIPELINE_FILE, '--dir', dir];
    const r = await hookwire(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wrote .*\.opencode\/plugins\/hookwire\.js/);
    expect(r.stdout).toContain('ask-push (Ask before push): ask → block on opencode');
    const file = join(dir, '.opencode', 'plugins', 'hookwire.js');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(JSON.stringify(PIPELINE_FILE));
    const again = await hookwire(args);
    expect([again.code, again.stdout.includes('unchanged')]).toEqual([0, true]);
    expect(readdirSync(join(dir, '.opencode', 'plugins'))).toEqual(['hookwire.js']);
    writeFileSync(file, 'export const Mine = async () => ({})\n');
    const refused = await hookwire(args);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('was not written by hookwire install');
    expect(readFileSync(file, 'utf8')).toBe('export const Mine = async () => ({})\n');
    const claude = await hookwire(['install', '--agent', 'claude', '--pipeline', PIPELINE_FILE, '--dir', dir, '--print']);
    expect(claude.stderr).toContain('VS Code\'s agent (Copilot agent mode) also runs the hooks in .claude/settings.json');
  }, 120_000);
});

describe('[AG6] goose and Kimi Code, as their sources read', () => {
  it('[AG6] goose: a project plugin .agents/plugins/hookwire/hooks/hooks.json (goose reads no .goose/settings.json), on_failure: "block" on PreToolUse only, timeout 30 s', () => {
    const r = mergeConfig('goose', doc, target, null);
    if (!r.ok) throw new Error(r.reason);
    expect(r.file).toBe('.agents/plugins/hookwire/hooks/hooks.json');
    const hooks = JSON.parse(r.text).hooks;
    expect(hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: 'command', timeout: 30, on_failure: 'block' });
    for (const [event, groups] of Object.entries(hooks) as [string, { hooks: object[] }[]][]) {
      if (event !== 'PreToolUse') for (const g of groups) for (const h of g.hooks) expect([event, 'on_failure' in h]).toEqual([event, false]);
    }
    // No matcher names an MCP prefix goose does not use (its tools are <extension>__<tool>).
    expect(JSON.stringify(hooks)).not.toContain('mcp__');
    expect(alsoRunBy('goose').join(' ')).toContain('on_failure');
    expect(alsoRunBy('goose').join(' ')).toContain('1.48.0');
    // goose reads plugins, not .claude/settings.json: the claude install no longer sends goose users there.
    expect(alsoRunBy('claude').join(' ')).not.toContain('goose');
  });

  it('[AG6] Kimi Code: install writes nothing and prints the [[hooks]] entries for ~/.kimi-code/config.toml (the TypeScript Kimi Code CLI\'s file; the Python kimi-cli\'s ~/.kimi is named too)', async () => {
    const r = mergeConfig('kimi', doc, target, null);
    if (!r.ok) throw new Error(r.reason);
    // Made, not refused: the entries are the text, and `paste` says where they go (the app shows them as content).
    expect(r.file).toBe('~/.kimi-code/config.toml');
    expect(r.paste).toContain('~/.kimi-code/config.toml');
    expect(r.paste).toContain('KIMI_CODE_HOME');
    expect(r.paste).toContain('~/.kimi/config.toml');
    expect(r.text.startsWith('[[hooks]]\n')).toBe(true);
    const text = r.text;
    expect(text).toMatch(/\[\[hooks\]\]\nevent = "PreToolUse"\nmatcher = '''Bash\|Edit\|FetchURL\|Read\|ReadFile\|ReadMediaFile\|Shell\|StrReplaceFile\|Write\|WriteFile'''\ncommand = '''hookwire hook --agent kimi \/p\/portable\.pipeline\.json \|\| .*exit 2; }'''\ntimeout = 30/);
    const dir = tempDir();
    const cli = await hookwire(['install', '--agent', 'kimi', '--pipeline', PIPELINE_FILE, '--dir', dir]);
    expect([cli.code, cli.stdout.includes('[[hooks]]'), readdirSync(dir)]).toEqual([0, true, []]);
    expect(cli.stdout.startsWith(`${r.paste}:\n\n[[hooks]]\nevent = "PreToolUse"\n`)).toBe(true);
  }, 60_000);

  it('[AG6] VS Code: the install says the session\'s harness decides which hooks run (vscode-docs hooks.md, 10/14/2026), and which install each harness needs', () => {
    const note = alsoRunBy('vscode').join(' ');
    expect(note).toContain('Local harness');
    expect(note).toContain('install --agent copilot');
  });

  it('[AG6] Qwen Code runs project hooks only in a trusted folder, and Factory may not read .factory/hooks.json: install says both', () => {
    expect(alsoRunBy('qwen').join(' ')).toContain('trusted folder');
    expect(alsoRunBy('factory').join(' ')).toContain('Factory-AI/factory issue #3');
    expect(alsoRunBy('factory').join(' ')).toContain('.factory/settings.json');
  });

  it('[AG2] Qwen Code\'s sub-agent tool is `agent` (tool-names.ts; `task` is its legacy name): a task rule\'s matcher names both', () => {
    const taskDoc = {
      ...doc,
      nodes: [
        { id: 'before', kind: 'event', pattern: 'tool.before_call' },
        { id: 'sub', kind: 'matcher', when: { 'payload.tool': 'task' } },
        { id: 'no-sub', kind: 'handler', order: 1, action: { type: 'block', reason: 'no sub-agents' } },
      ],
      wires: [{ from: 'before', to: 'sub' }, { from: 'sub', to: 'no-sub' }],
    };
    expect(plannedEvents(taskDoc, contract('qwen'))).toEqual([{ name: 'PreToolUse', matcher: 'agent|task' }]);
    // Kimi Code (TypeScript) names its shell `Bash` and its files `Read`/`Write`/`Edit` {path}: a .env read is a read of it.
    const kimi = agentAdapter('kimi').parse({ hook_event_name: 'PreToolUse', session_id: 's', cwd: '/w', tool_name: 'Read', tool_input: { path: '/w/.env' } }, { ts: '2026-12-07T00:00:00Z', seq: 1 });
    expect(kimi.ok && [kimi.event.payload.tool, kimi.event.payload.file_path]).toEqual(['read', '/w/.env']);
  });

  it('[AG6] the loss report of goose and Kimi Code: ask and rewrite → block, context dropped; no longer "unconfirmed"', () => {
    for (const id of ['goose', 'kimi'] as AgentId[]) {
      const texts = lossReport(doc, contract(id)).map((l) => `${l.node}: ${l.text}`);
      expect(texts).toEqual(expect.arrayContaining([`ask-push: ask → block on ${id}`, `redact-token: rewrite of tool_input → block on ${id}`, `deploy-context: add_context dropped on ${id}`]));
      expect(texts.some((t) => t.includes('unconfirmed'))).toBe(false);
    }
  });
});

describe('[AG6] what no pipeline changes: a killed hook, and what an event shows (contracts re-read 2026-12-08)', () => {
  const on = (pattern: string, action: object, tools?: string[]) => ({
    nodes: [
      { id: 'e', kind: 'event', pattern },
      ...(tools ? [{ id: 'm', kind: 'matcher', when: { 'payload.tool': { in: tools } } }] : []),
      { id: 'h', kind: 'handler', name: 'h', action },
    ],
    wires: tools ? [{ from: 'e', to: 'm' }, { from: 'm', to: 'h' }] : [{ from: 'e', to: 'h' }],
  });
  const block = { type: 'block', reason: 'no' };
  const failOpen = (id: AgentId, d: object) => lossReport(d as never, contract(id)).filter((l) => l.kind === 'fail_open');

  it('[AG6] Kimi Code has no fail-closed option: a blocking pipeline is told a killed hook lets the call run; install --strict does not fail on it', () => {
    const d = on('tool.before_call', block);
    const items = failOpen('kimi', d);
    expect(items).toHaveLength(1);
    expect([items[0]!.node, items[0]!.events]).toEqual([null, ['PreToolUse']]);
    expect(items[0]!.text).toMatch(/^fail-open on kimi when a hook is killed before it answers .*Kimi Code has no fail-closed option.*PR #1906/);
    expect(strictLosses(lossReport(d as never, contract('kimi')))).toEqual([]);
    // An audit loses nothing when the hook dies: no item.
    expect(failOpen('kimi', on('tool.before_call', { type: 'audit' }))).toEqual([]);
  });

  it('[AG6] goose: on_failure closes PreToolUse (install writes it), Stop stays fail-open; Claude Code ignores onFailure on Stop; Cursor (failClosed) and OpenCode (in process) never', () => {
    expect(failOpen('goose', on('tool.before_call', block))).toEqual([]);
    expect(failOpen('goose', on('final_answer.before', block)).map((l) => [l.events, /on PreToolUse only/.test(l.text)])).toEqual([[['Stop'], true]]);
    expect(failOpen('claude', on('tool.before_call', block))).toEqual([]);
    expect(failOpen('claude', on('final_answer.before', block)).map((l) => l.events)).toEqual([['Stop']]);
    for (const id of ['cursor', 'opencode'] as AgentId[]) expect([id, failOpen(id, on('tool.before_call', block))]).toEqual([id, []]);
    // Every other agent has no switch at all: said wherever a handler can block.
    for (const id of ['codex', 'gemini', 'copilot', 'vscode', 'windsurf', 'qwen', 'factory'] as AgentId[]) expect([id, failOpen(id, on('tool.before_call', block)).length]).toEqual([id, 1]);
  });

  it('[AG6] what an event shows: Windsurf pre_read_code may name a directory; OpenCode tool.execute.after never sees a failure; Qwen Code UserPromptSubmit also fires on its own continuations', () => {
    const partial = (id: AgentId, d: object) => lossReport(d as never, contract(id)).filter((l) => l.kind === 'partial').map((l) => [l.node, l.events, l.text]);
    expect(partial('windsurf', on('tool.before_call', block, ['read']))).toEqual([[null, ['pre_read_code'], expect.stringMatching(/directory, which Cascade then reads recursively/)]]);
    expect(partial('windsurf', on('tool.before_call', block, ['shell']))).toEqual([]);
    expect(partial('opencode', on('tool.after_call', { type: 'audit' }))).toEqual([[null, ['tool.execute.after'], expect.stringMatching(/only for a call that succeeded/)]]);
    expect(partial('qwen', on('input.received', block))).toEqual([[null, ['UserPromptSubmit'], expect.stringMatching(/Please continue.*submitted_prompt/)]]);
    expect(partial('claude', on('input.received', block))).toEqual([]);
  });
});
