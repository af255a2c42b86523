import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from '../helpers.ts';
import { createReplayRun } from '../../../engine/replay/replaySteps.ts';
import { agentAdapter } from '../../../engine/runtime/agentHook.ts';
import { HOOK_AGENT_IDS as AGENT_IDS, type HookAgentId as AgentId, type NativeAnswer } from '../../../engine/agents/types.ts';
import { hookCommand } from '../../../engine/agents/install.ts';
import { urlsIn } from '../../../engine/model/portableTool.ts';
import { NATIVE, foreignInput, missingFieldInput, type Call } from './nativeInputs.ts';
import type { Decision } from '../../../engine/model/decision.ts';

const PIPELINE = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'portable.pipeline.json'), 'utf8'));
const compiled = compile(PIPELINE);
const TS = '2026-12-06T00:00:00.000Z';

/** One call through an agent's adapter and the portable pipeline, in process: its native answer. */
function answer(agent: AgentId, input: object, options: { allowRewrites?: boolean } = {}): NativeAnswer {
  const a = agentAdapter(agent);
  const parsed = a.parse(input, { ts: TS, seq: 1 });
  if (!parsed.ok) return a.failClosed(parsed.hook, parsed.reason);
  const step = createReplayRun(compiled, { explain: false }).push(parsed.event);
  return a.reply(parsed.hook, parsed.event, { decision: step.decision, reason: step.reason, payload: step.payload_after, context: [...step.context] }, options).answer;
}

const shell = (command: string): Call => ({ kind: 'shell', command });
const json = (o: object) => `${JSON.stringify(o)}\n`;
const ok = (stdout = ''): NativeAnswer => ({ exitCode: 0, stdout, stderr: '' });
const exit2 = (stderr: string): NativeAnswer => ({ exitCode: 2, stdout: '', stderr: `${stderr}\n` });
const hso = (fields: object) => json({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });

/**
 * How each agent reads an answer, written from its documentation independently of the renderers: the oracle of
 * the fail-closed property. Claude Code-style agents: exit 2 blocks, `permissionDecision` deny/ask, top-level
 * `decision` block/deny; Copilot: exit codes are ignored, only a stdout deny blocks; Cursor: exit 2 or a
 * `permission` deny; Windsurf: exit 2 only.
 */
function readAs(agent: AgentId, a: NativeAnswer): 'allow' | 'block' | 'ask' {
  const out = a.stdout.trim() === '' ? {} : (JSON.parse(a.stdout) as Record<string, any>);
  if (agent === 'copilot') return out.permissionDecision === 'deny' ? 'block' : 'allow';
  if (agent === 'vscode') {
    // VS Code (chatHookService.ts, commit 4a0b5347): exit 2 blocks, any other non-zero exit is a warning; on
    // PreToolUse only hookSpecificOutput.permissionDecision is read (a top-level one is ignored); continue: false stops.
    if (a.exitCode === 2) return 'block';
    if (a.exitCode !== 0) return 'allow';
    if (out.continue === false) return 'block';
    const h = out.hookSpecificOutput;
    if (h && (h.hookEventName === undefined || h.hookEventName === 'PreToolUse')) {
      if (h.permissionDecision === 'deny') return 'block';
      if (h.permissionDecision === 'ask') return 'ask';
    }
    return 'allow';
  }
  if (a.exitCode === 2) return 'block';
  if (a.exitCode !== 0) return 'allow';
  if (agent === 'windsurf') return 'allow';
  if (agent === 'cursor') return out.permission === 'deny' ? 'block' : out.permission === 'ask' ? 'ask' : 'allow';
  const d = out.hookSpecificOutput?.permissionDecision;
  if (d === 'deny' || out.decision === 'block' || out.decision === 'deny') return 'block';
  if (d === 'ask') return 'ask';
  return 'allow';
}

describe('[AG3] one logical call, every agent, its own form', () => {
  it('[AG3] `rm -rf /` in a shell is blocked by every agent, each in its own form', () => {
    const r = 'destructive command: rm -rf /';
    const expected: Record<AgentId, NativeAnswer> = {
      claude: ok(hso({ permissionDecision: 'deny', permissionDecisionReason: r })),
      codex: ok(hso({ permissionDecision: 'deny', permissionDecisionReason: r })),
      gemini: ok(json({ decision: 'deny', reason: r })),
      copilot: ok(json({ permissionDecision: 'deny', permissionDecisionReason: r, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: r } })),
      vscode: ok(json({ permissionDecision: 'deny', permissionDecisionReason: r, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: r } })),
      cursor: { exitCode: 2, stdout: json({ permission: 'deny', user_message: r, agent_message: r }), stderr: `${r}\n` },
      windsurf: exit2(r),
      qwen: ok(hso({ permissionDecision: 'deny', permissionDecisionReason: r })),
      factory: ok(hso({ permissionDecision: 'deny', permissionDecisionReason: r })),
      goose: exit2(r),
      kimi: exit2(r),
    };
    for (const agent of AGENT_IDS) expect([agent, answer(agent, NATIVE[agent](shell('rm -rf /'))!)]).toEqual([agent, expected[agent]]);
  });

  it('[AG2] a read of .env and a fetch of an unlisted URL are blocked wherever the agent shows them to a hook', () => {
    for (const agent of AGENT_IDS) {
      for (const call of [{ kind: 'read', path: '/w/.env' }, { kind: 'fetch', url: 'https://evil.example.net/x' }] as Call[]) {
        const input = NATIVE[agent](call);
        if (input === null) continue; // no hook for it in this agent: the loss report says so (loss.test.ts)
        expect([agent, call.kind, readAs(agent, answer(agent, input))]).toEqual([agent, call.kind, 'block']);
      }
      // A listed URL and an ordinary file pass.
      const fine = NATIVE[agent]({ kind: 'fetch', url: 'https://docs.example.com/a' });
      if (fine) expect([agent, readAs(agent, answer(agent, fine))]).toEqual([agent, 'allow']);
    }
  });

  it('[AG3] an ordinary command passes with each agent\'s allow (nothing, or Cursor\'s explicit permission)', () => {
    for (const agent of AGENT_IDS) {
      expect([agent, answer(agent, NATIVE[agent](shell('ls -la'))!)]).toEqual([agent, agent === 'cursor' ? ok(json({ permission: 'allow' })) : ok()]);
    }
  });

  it('[AG3] ASK: the agent asks where it can (Claude Code, VS Code, Qwen, Factory); elsewhere it is denied, saying why', () => {
    const asks = new Set<AgentId>(['claude', 'vscode', 'qwen', 'factory']);
    for (const agent of AGENT_IDS) {
      const a = answer(agent, NATIVE[agent](shell('git push origin main'))!);
      expect([agent, readAs(agent, a)]).toEqual([agent, asks.has(agent) ? 'ask' : 'block']);
      if (!asks.has(agent)) expect(a.stdout + a.stderr).toContain('cannot ask for approval');
    }
    expect(answer('claude', NATIVE.claude(shell('git push origin main'))!)).toEqual(ok(hso({ permissionDecision: 'ask', permissionDecisionReason: 'push to a remote' })));
  });

  it('[AG3] Cursor: an ASK is `permission: "deny"` with exit 2, never `permission: "ask"` (Cursor runs the call unasked in Auto-review mode: forum topic 173694, Cursor 3.21.16)', () => {
    for (const hook of ['beforeShellExecution', 'beforeMCPExecution', 'preToolUse']) {
      const input = hook === 'beforeShellExecution' ? NATIVE.cursor(shell('git push'))! : { ...NATIVE.cursor(shell('x')), hook_event_name: hook, tool_name: hook === 'preToolUse' ? 'Shell' : 'db_query', tool_input: hook === 'preToolUse' ? { command: 'git push' } : '{}' };
      const a = agentAdapter('cursor');
      const p = a.parse(input, { ts: TS, seq: 1 });
      if (!p.ok) throw new Error(p.reason);
      const r = a.reply(p.hook, p.event, { decision: 'ask', reason: 'push to a remote', payload: p.event.payload });
      const out = JSON.parse(r.answer.stdout);
      expect([hook, out.permission, r.answer.exitCode]).toEqual([hook, 'deny', 2]);
      expect(out.user_message).toContain('push to a remote');
      expect(r.approval).toMatchObject({ answer: 'deny', by: 'no_approver' });
    }
  });

  it('[AG3] rewrite: applied where the agent can (Claude Code with ask, Gemini merged), else blocked; --allow-rewrites where it approves', () => {
    const cmd = 'curl --token=abc123 https://docs.example.com/x';
    const redacted = 'curl --token=[REDACTED] https://docs.example.com/x';
    expect(answer('claude', NATIVE.claude(shell(cmd))!)).toEqual(
      ok(hso({ permissionDecision: 'ask', permissionDecisionReason: 'tool input rewritten by the Hookwire pipeline', updatedInput: { command: redacted, description: 'run' } })),
    );
    expect(answer('gemini', NATIVE.gemini(shell(cmd))!)).toEqual(ok(json({ hookSpecificOutput: { tool_input: { command: redacted, description: 'run' } } })));
    expect(readAs('codex', answer('codex', NATIVE.codex(shell(cmd))!))).toBe('block');
    expect(answer('codex', NATIVE.codex(shell(cmd))!, { allowRewrites: true })).toEqual(
      ok(hso({ permissionDecision: 'allow', permissionDecisionReason: 'tool input rewritten by the Hookwire pipeline', updatedInput: { command: redacted } })),
    );
    expect(readAs('copilot', answer('copilot', NATIVE.copilot(shell(cmd))!))).toBe('block');
    const why = 'tool input rewritten by the Hookwire pipeline';
    expect(answer('copilot', NATIVE.copilot(shell(cmd))!, { allowRewrites: true })).toEqual(
      ok(json({ permissionDecision: 'allow', permissionDecisionReason: why, modifiedArgs: { command: redacted, description: 'run' }, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: why, updatedInput: { command: redacted, description: 'run' } } })),
    );
    // VS Code: the rewritten call goes with ask (the person approves it), as in Claude Code.
    expect(answer('vscode', NATIVE.vscode(shell(cmd))!)).toEqual(
      ok(hso({ permissionDecision: 'ask', permissionDecisionReason: why, updatedInput: { command: redacted, explanation: 'run', isBackground: false } })),
    );
    for (const agent of ['cursor', 'windsurf', 'goose', 'kimi'] as AgentId[]) expect([agent, readAs(agent, answer(agent, NATIVE[agent](shell(cmd))!))]).toEqual([agent, 'block']);
  });

  it('[AG3] Codex: a PreToolUse deny carries added context in permissionDecisionReason, never beside it in additionalContext (an earlier codex-rs failed such an answer open: pre_tool_use.rs 54ea2bfe, unsupported_additional_context_fails_open)', () => {
    const a = agentAdapter('codex');
    const p = a.parse(NATIVE.codex(shell('rm -rf /'))!, { ts: TS, seq: 1 });
    if (!p.ok) throw new Error(p.reason);
    const r = a.reply(p.hook, p.event, { decision: 'block_action', reason: 'destructive', payload: p.event.payload, context: ['Use the trash command.'] });
    expect(r.answer).toEqual(ok(hso({ permissionDecision: 'deny', permissionDecisionReason: 'destructive\n\nUse the trash command.' })));
    // Context with no deny still goes to additionalContext (read at commit 0ea83813).
    const allow = a.reply(p.hook, p.event, { decision: 'continue', reason: '', payload: p.event.payload, context: ['Use the trash command.'] });
    expect(allow.answer).toEqual(ok(hso({ additionalContext: 'Use the trash command.' })));
  });

  it('[AG3] Gemini merges a rewrite into the arguments, so a rewrite that removes a key blocks instead', () => {
    const a = agentAdapter('gemini');
    const p = a.parse(NATIVE.gemini(shell('ls'))!, { ts: TS, seq: 1 });
    if (!p.ok) throw new Error(p.reason);
    const r = a.reply(p.hook, p.event, { decision: 'continue', reason: '', payload: { ...p.event.payload, tool_input: { command: 'ls' } } });
    expect(r.answer.stdout).toContain('"decision":"deny"');
    expect(r.answer.stdout).toContain('removing `description` cannot be expressed');
  });

  it('[AG3] add_context: to the model where the event carries it, to the person (Gemini systemMessage), else dropped', () => {
    const text = 'Deploys go to staging first.';
    const call = shell('make deploy');
    expect(answer('claude', NATIVE.claude(call)!)).toEqual(ok(hso({ additionalContext: text })));
    expect(answer('codex', NATIVE.codex(call)!)).toEqual(ok(hso({ additionalContext: text })));
    expect(answer('gemini', NATIVE.gemini(call)!)).toEqual(ok(json({ systemMessage: text })));
    expect(answer('copilot', NATIVE.copilot(call)!)).toEqual(ok());
    expect(answer('vscode', NATIVE.vscode(call)!)).toEqual(ok(hso({ additionalContext: text })));
    expect(answer('cursor', NATIVE.cursor(call)!)).toEqual(ok(json({ permission: 'allow' })));
    expect(answer('windsurf', NATIVE.windsurf(call)!)).toEqual(ok());
  });
});

describe('[AG4] every kind of bad input ends in the agent\'s block form', () => {
  const bad: [string, (agent: AgentId) => unknown][] = [
    ['a list', () => [1, 2]],
    ['null', () => null],
    ['another agent\'s input', foreignInput],
    ['a missing field', missingFieldInput],
    ['an event the agent does not have', (agent) => ({ ...(NATIVE[agent](shell('ls')) as object), hook_event_name: 'NoSuchEvent', ...(agent === 'vscode' ? { hookEventName: 'NoSuchEvent' } : {}), ...(agent === 'goose' ? { event: 'NoSuchEvent' } : {}), agent_action_name: 'no_such_event' })],
    ['a huge input', (agent) => ({ ...(NATIVE[agent](shell('ls')) as object), blob: 'x'.repeat(5 * 1024 * 1024) })],
  ];
  for (const [what, make] of bad) {
    it(`[AG4] ${what}`, () => {
      for (const agent of AGENT_IDS) {
        if (agent === 'claude' && what === 'an event the agent does not have') continue; // Claude Code maps unknown events (forward compatible) [P12]
        const input = make(agent);
        const a = agentAdapter(agent);
        const p = a.parse(input, { ts: TS, seq: 1 });
        expect([agent, p.ok]).toEqual([agent, false]);
        if (p.ok) continue;
        const closed = a.failClosed(p.hook, p.reason);
        expect([agent, readAs(agent, closed)]).toEqual([agent, 'block']);
        if (agent === 'codex') expect(closed.stderr.trim()).not.toBe(''); // Codex needs a reason on stderr
        if (agent === 'gemini') expect(closed.stdout).toBe(''); // nothing but JSON on stdout
      }
    });
  }

  it('[AG4] Copilot: the event is inferred from the camelCase shape; toolArgs may be a JSON string or an object', () => {
    const a = agentAdapter('copilot');
    for (const args of [JSON.stringify({ command: 'rm -rf /' }), { command: 'rm -rf /' }]) {
      const p = a.parse({ timestamp: 1, cwd: '/w', toolName: 'bash', toolArgs: args }, { ts: TS, seq: 1 });
      expect(p.ok && p.hook).toBe('preToolUse');
      expect(p.ok && p.event.payload.command).toBe('rm -rf /');
    }
    expect(a.hookName({ timestamp: 1, cwd: '/w', prompt: 'hi' })).toBe('userPromptSubmitted');
    expect(a.hookName({ timestamp: 1, cwd: '/w', toolName: 'bash', toolArgs: '{}', toolResult: { resultType: 'success' } })).toBe('postToolUse');
    const p = a.parse({ timestamp: 1, cwd: '/w', toolName: 'bash', toolArgs: '{not json' }, { ts: TS, seq: 1 });
    expect(p.ok ? '' : p.reason).toContain('toolArgs is a string that is not JSON');
  });
});

describe('[AG2] portable fields', () => {
  it('[AG2] every agent\'s shell call carries payload.tool = shell and the command; meta.agent names the agent', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60 }), fc.constantFrom(...AGENT_IDS), (command, agent) => {
        const p = agentAdapter(agent).parse(NATIVE[agent](shell(command))!, { ts: TS, seq: 1 });
        expect(p.ok).toBe(true);
        if (!p.ok) return;
        expect(p.event.payload.tool).toBe('shell');
        expect(p.event.payload.command).toBe(command);
        expect(p.event.meta?.agent).toBe(agent);
      }),
      { numRuns: 200 },
    );
  });

  it('[AG2] a URL in free text is extracted when it is the only one, else reported missing (never guessed)', () => {
    const g = agentAdapter('gemini');
    const parse = (prompt: string) => {
      const p = g.parse({ session_id: 's', transcript_path: '', cwd: '/', hook_event_name: 'BeforeTool', timestamp: TS, tool_name: 'web_fetch', tool_input: { prompt } }, { ts: TS, seq: 1 });
      if (!p.ok) throw new Error(p.reason);
      return p.event.payload;
    };
    expect(parse('read https://a.example/x.').url).toBe('https://a.example/x');
    expect(parse('compare https://a.example/ and https://b.example/')).toMatchObject({ urls: ['https://a.example/', 'https://b.example/'], portable_missing: ['url'] });
    expect(parse('no link here')).toMatchObject({ portable_missing: ['url'] });
    expect(parse('no link here').url).toBeUndefined();
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true }), (u) => {
        const found = urlsIn(`see ${u} now`);
        expect(found.length).toBe(1);
        expect(u.startsWith(found[0]!)).toBe(true);
      }),
    );
  });

  it('[AG2] an unknown tool is `other`, never dropped; an MCP tool is `mcp`; a Codex patch names its file; Gemini CLI\'s current tool names and keys', () => {
    const c = agentAdapter('claude').parse({ ...NATIVE.claude(shell('x')), tool_name: 'SomethingNew', tool_input: { a: 1 } }, { ts: TS, seq: 1 });
    expect(c.ok && c.event.payload).toMatchObject({ tool: 'other', tool_name: 'SomethingNew', tool_input: { a: 1 } });
    const m = agentAdapter('codex').parse({ ...NATIVE.codex(shell('x')), tool_name: 'mcp__db__query', tool_input: { sql: 'select 1' } }, { ts: TS, seq: 1 });
    expect(m.ok && m.event.payload.tool).toBe('mcp');
    // Gemini CLI names an MCP tool `mcp_<server>_<tool>`, one underscore (docs/hooks/reference.md "Matchers and tool
    // names"; packages/core/src/tools/mcp-tool.ts MCP_TOOL_PREFIX = 'mcp_'): it is `mcp`, not `other`.
    const g = agentAdapter('gemini').parse({ ...NATIVE.gemini(shell('x')), tool_name: 'mcp_github_create_issue', tool_input: { title: 't' } }, { ts: TS, seq: 1 });
    expect(g.ok && g.event.payload.tool).toBe('mcp');
    // Gemini CLI's content search is `grep_search` (docs/reference/tools.md "File System"; `search_file_content` is its
    // legacy alias) and read_many_files takes `include` ("Tool argument keys"): a search, and a read naming its files.
    const grep = agentAdapter('gemini').parse({ ...NATIVE.gemini(shell('x')), tool_name: 'grep_search', tool_input: { pattern: 'KEY', dir_path: 'secrets' } }, { ts: TS, seq: 1 });
    expect(grep.ok && grep.event.payload).toMatchObject({ tool: 'search', file_path: 'secrets' });
    const many = agentAdapter('gemini').parse({ ...NATIVE.gemini(shell('x')), tool_name: 'read_many_files', tool_input: { include: ['.env', 'src/**/*.ts'] } }, { ts: TS, seq: 1 });
    expect(many.ok && many.event.payload).toMatchObject({ tool: 'read', file_paths: ['.env', 'src/**/*.ts'] });
    const patch = '*** Begin Patch\n*** Update File: src/.env\n@@\n-A=1\n+A=2\n*** End Patch';
    const e = agentAdapter('codex').parse({ ...NATIVE.codex(shell('x')), tool_name: 'apply_patch', tool_input: { command: patch } }, { ts: TS, seq: 1 });
    expect(e.ok && e.event.payload).toMatchObject({ tool: 'edit', file_path: 'src/.env', file_paths: ['src/.env'] });
  });

  it('[AG2] Claude Code\'s mapping gains the portable fields additively: tool_name, tool_input and every input field stay as they were', () => {
    const input = NATIVE.claude(shell('ls')) as Record<string, unknown>;
    const p = agentAdapter('claude').parse(input, { ts: TS, seq: 1 });
    expect(p.ok && p.event.payload).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'ls', description: 'run' }, tool_use_id: 'toolu_1', tool: 'shell', command: 'ls' });
    expect(p.ok && p.event.agent_id).toBe('claude-code');
  });
});

describe('[AG3] fail closed, as each agent reads it', () => {
  it('[AG3] no blocking decision ever reads as allow in any agent; an ASK reads as ask only where the agent asks', () => {
    const decisions: Decision[] = ['block_action', 'terminate', 'ask'];
    fc.assert(
      fc.property(fc.constantFrom(...AGENT_IDS), fc.constantFrom(...decisions), fc.string({ maxLength: 40 }), fc.boolean(), (agent, decision, reason, allowRewrites) => {
        const a = agentAdapter(agent);
        const p = a.parse(NATIVE[agent](shell('ls'))!, { ts: TS, seq: 1 });
        if (!p.ok) throw new Error(p.reason);
        const r = a.reply(p.hook, p.event, { decision, reason, payload: p.event.payload }, { allowRewrites });
        const read = readAs(agent, r.answer);
        expect(read).not.toBe('allow');
        if (read === 'ask') expect(a.contract.events.get(p.hook)?.ask).toBe(true);
        // Every fail-closed answer blocks too.
        expect(readAs(agent, a.failClosed(p.hook, reason))).toBe('block');
        expect(readAs(agent, a.failClosed(null, reason))).toBe('block');
      }),
      { numRuns: 300 },
    );
  });
});

describe('[AG3] VS Code also runs the files of Claude Code and GitHub Copilot', () => {
  // microsoft/vscode-docs hooks.md (commit 91e74cb2) "Hook file locations", FAQ: VS Code loads .claude/settings.json
  // and .github/hooks/*.json (converting Copilot's preToolUse and bash) and runs them with its own input.
  const vsInput = (command: string) => NATIVE.vscode(shell(command))!;

  it('[AG3] a Copilot install that VS Code runs never fails open: every blocking decision and every fail-closed answer reads as block in VS Code', () => {
    const decisions: Decision[] = ['block_action', 'terminate', 'ask'];
    const a = agentAdapter('copilot');
    fc.assert(
      fc.property(fc.constantFrom(...decisions), fc.string({ maxLength: 40 }), fc.boolean(), (decision, reason, allowRewrites) => {
        // VS Code runs Copilot's bash command (with its --event preToolUse) on VS Code's input.
        const p = a.parse(vsInput('ls'), { ts: TS, seq: 1 }, 'preToolUse');
        if (!p.ok) throw new Error(p.reason);
        const r = a.reply(p.hook, p.event, { decision, reason, payload: p.event.payload }, { allowRewrites });
        expect([readAs('copilot', r.answer), readAs('vscode', r.answer)]).toEqual(['block', 'block']);
        expect(readAs('vscode', a.failClosed(p.hook, reason))).toBe('block');
        expect(readAs('vscode', a.failClosed(null, reason))).toBe('block');
      }),
      { numRuns: 100 },
    );
    // rm -rf / through the pipeline, as VS Code reads it.
    const p = a.parse(vsInput('rm -rf /'), { ts: TS, seq: 1 }, 'preToolUse');
    if (!p.ok) throw new Error(p.reason);
    const step = createReplayRun(compiled, { explain: false }).push(p.event);
    expect(readAs('vscode', a.reply(p.hook, p.event, { decision: step.decision, reason: step.reason, payload: step.payload_after, context: [] }).answer)).toBe('block');
    // And the shell fallback when hookwire cannot run at all (hookCommand's printf).
    const printed = /printf '%s\\n' '(.*)'$/.exec(hookCommand('copilot', 'preToolUse', { pipeline: '/p.json' }))![1]!;
    expect([readAs('copilot', ok(`${printed}\n`)), readAs('vscode', ok(`${printed}\n`))]).toEqual(['block', 'block']);
  });

  it('[AG3] a VS Code install that a Copilot harness runs never fails open: every fail-closed answer and the shell fallback read as block in Copilot (which ignores exit codes) and in VS Code (vscode-docs hooks.md, 10/14/2026: the harness owns the hooks)', () => {
    const a = agentAdapter('vscode');
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.constantFrom<string | null>('PreToolUse', 'Stop', null), (reason, hook) => {
        const closed = a.failClosed(hook, reason);
        expect([readAs('copilot', closed), readAs('vscode', closed)]).toEqual(['block', 'block']);
      }),
      { numRuns: 100 },
    );
    // Refused input (not JSON-shaped as VS Code's) ends in the same answer.
    const p = a.parse({ nonsense: true }, { ts: TS, seq: 1 });
    expect(p.ok).toBe(false);
    if (!p.ok) expect(readAs('copilot', a.failClosed(p.hook, p.reason))).toBe('block');
    // The shell fallback when hookwire cannot run at all prints the deny too, then exits 2.
    const cmd = hookCommand('vscode', 'PreToolUse', { pipeline: '/p.json' });
    const printed = /printf '%s\\n' '([^']*)'/.exec(cmd)![1]!;
    expect([readAs('copilot', ok(`${printed}\n`)), readAs('vscode', { exitCode: 2, stdout: `${printed}\n`, stderr: '' })]).toEqual(['block', 'block']);
    expect(cmd).toMatch(/exit 2; }$/);
  });

  it('[AG3] a Claude Code install that VS Code runs answers VS Code\'s input in VS Code\'s form (it used to refuse it)', () => {
    const a = agentAdapter('claude');
    expect(a.hookName(vsInput('ls'))).toBe('PreToolUse');
    expect(a.sessionId(vsInput('ls'))).toBe('sess-1');
    const blocked = answer('claude', vsInput('rm -rf /'));
    expect(readAs('vscode', blocked)).toBe('block');
    expect(blocked.stdout).toContain('destructive command: rm -rf /');
    expect(answer('claude', vsInput('ls -la'))).toEqual(ok());
    const p = a.parse(vsInput('ls'), { ts: TS, seq: 1 });
    expect(p.ok && [p.event.agent_id, p.event.meta?.agent, p.event.payload.tool, p.event.payload.command]).toEqual(['vscode', 'vscode', 'shell', 'ls']);
    // A read of .env and an unlisted fetch through VS Code's own tools are blocked by the portable rules.
    expect(readAs('vscode', answer('claude', NATIVE.vscode({ kind: 'read', path: '/w/.env' })!))).toBe('block');
    expect(readAs('vscode', answer('claude', NATIVE.vscode({ kind: 'fetch', url: 'https://evil.example.net/x' })!))).toBe('block');
    expect(readAs('vscode', answer('claude', NATIVE.vscode({ kind: 'fetch', url: 'https://docs.example.com/a' })!))).toBe('allow');
  });

  it('[AG3] VS Code: Stop is blocked with decision block both at the top level and in hookSpecificOutput; a prompt is blocked with exit 2', () => {
    const a = agentAdapter('vscode');
    const base = { timestamp: TS, cwd: '/w', sessionId: 's', hookEventName: 'Stop', transcript_path: null, stop_hook_active: false };
    const p = a.parse(base, { ts: TS, seq: 1 });
    if (!p.ok) throw new Error(p.reason);
    expect(a.reply(p.hook, p.event, { decision: 'block_action', reason: 'run the tests', payload: p.event.payload }).answer).toEqual(
      ok(json({ decision: 'block', reason: 'run the tests', hookSpecificOutput: { hookEventName: 'Stop', decision: 'block', reason: 'run the tests' } })),
    );
    const q = a.parse({ ...base, hookEventName: 'UserPromptSubmit', prompt: 'hi' }, { ts: TS, seq: 1 });
    if (!q.ok) throw new Error(q.reason);
    expect(a.reply(q.hook, q.event, { decision: 'block_action', reason: 'no', payload: q.event.payload }).answer).toEqual(exit2('no'));
  });
});

describe('[AG1][AG3] goose and Kimi Code mapped and answered as their sources read (their install: install.test [AG6])', () => {
  it('[AG1][AG3] goose (hooks/mod.rs at 0825b570): the event is `event`, the prompt `message`, the call id `tool_call_id`; a blocked PreToolUse is exit 2; a prompt cannot be blocked', () => {
    const a = agentAdapter('goose');
    const p = a.parse({ event: 'UserPromptSubmit', session_id: 's', matcher_context: 'deploy to prod', message: 'deploy to prod' }, { ts: TS, seq: 1 });
    if (!p.ok) throw new Error(p.reason);
    expect([p.hook, p.event.type, p.event.payload.prompt, p.event.meta?.event]).toEqual(['UserPromptSubmit', 'input.received', 'deploy to prod', 'UserPromptSubmit']);
    // goose ignores a block on UserPromptSubmit (only PreToolUse and Stop block): not enforced, and said so.
    expect(a.contract.events.get('UserPromptSubmit')!.block).toBe('none');
    expect(a.reply(p.hook, p.event, { decision: 'block_action', reason: 'no', payload: p.event.payload }).answer.exitCode).toBe(0);
    // The old Claude-shaped input (hook_event_name) is not goose's: refused, which blocks (exit 2).
    expect(a.parse({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'developer__shell', tool_input: { command: 'ls' } }, { ts: TS, seq: 1 }).ok).toBe(false);
    const pre = a.parse(NATIVE.goose(shell('rm -rf /'))!, { ts: TS, seq: 1 });
    if (!pre.ok) throw new Error(pre.reason);
    expect([pre.event.event_id, pre.event.payload.tool, pre.event.payload.command, pre.event.meta?.working_dir]).toEqual(['goose:call-1:before', 'shell', 'rm -rf /', '/w']);
    // A call with no arguments carries no tool_input (`Option<Value>`): it is still a call to judge, not a refusal.
    const bare = a.parse({ event: 'PreToolUse', session_id: 's', tool_name: 'todo__list', tool_call_id: 'c2' }, { ts: TS, seq: 2 });
    expect(bare.ok && bare.event.payload.tool).toBe('other');
    // goose's developer__write takes `path` (hooks.md "Tool Input Keys"): a write of .env is a write of that file.
    expect(answer('goose', { event: 'PreToolUse', session_id: 's', tool_call_id: 'c3', tool_name: 'developer__write', tool_input: { path: '/w/.env', content: 'x' } }).exitCode).toBe(2);
    // Stop can block (the turn goes on); PostToolUse cannot.
    expect(a.contract.events.get('Stop')!.block).toBe('exit2');
    expect(a.contract.events.get('PostToolUse')!.block).toBe('none');
    expect(a.contract.timeoutSeconds).toBe(30);
  });

  it('[AG2] Kimi Code\'s tools (kimi-cli 1.49.0 src/kimi_cli/tools): ReadFile of .env and FetchURL of an unlisted host are blocked with exit 2', () => {
    const base = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/w', tool_call_id: 'c1' };
    expect(answer('kimi', { ...base, tool_name: 'ReadFile', tool_input: { path: '/w/.env' } })).toEqual(exit2('secrets file: /w/.env'));
    expect(answer('kimi', { ...base, tool_name: 'FetchURL', tool_input: { url: 'https://evil.example.net/x' } })).toEqual(exit2('unlisted URL'));
    expect(answer('kimi', { ...base, tool_name: 'FetchURL', tool_input: { url: 'https://docs.example.com/a' } })).toEqual(ok());
  });
});

describe('[AG1][AG2] contracts re-read 2026-12-08: an event that is more than one thing, a twelfth Windsurf event', () => {
  // Every prompt is blocked: what reaches input.received is judged as a prompt.
  const noPrompts = compile({
    format: 'hookwire.pipeline',
    version: 1,
    name: 'no prompts',
    nodes: [
      { id: 'p', kind: 'event', pattern: 'input.received' },
      { id: 'h', kind: 'handler', name: 'no prompts', action: { type: 'block', reason: 'no prompts today' } },
    ],
    wires: [{ from: 'p', to: 'h' }],
  });
  const run = (agent: AgentId, input: object) => {
    const a = agentAdapter(agent);
    const parsed = a.parse(input, { ts: TS, seq: 1 });
    if (!parsed.ok) throw new Error(parsed.reason);
    const step = createReplayRun(noPrompts, { explain: false }).push(parsed.event);
    return { type: parsed.event.type, payload: parsed.event.payload, answer: a.reply(parsed.hook, parsed.event, { decision: step.decision, reason: step.reason, payload: step.payload_after, context: [...step.context] }).answer };
  };
  const QWEN = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'qwen-user-prompt-submit.json'), 'utf8'));
  const qwen = (name: string) => ({ ...QWEN.base, ...QWEN.inputs[name] });
  const blocked = json({ decision: 'block', reason: 'no prompts today' });

  it('[AG1] Qwen Code (hooks.md at 00d06c80; 0.24.4): a tool result handed back to the model is qwen.continuation, not a prompt; a typed, a headless and a Hook send are judged as prompts', () => {
    const toolResult = run('qwen', qwen('toolResult'));
    expect([toolResult.type, readAs('qwen', toolResult.answer)]).toEqual(['qwen.continuation', 'allow']);
    const typed = run('qwen', qwen('typed'));
    // prompt stays the model-bound text (a pasted block is expanded only there); what the person typed is submitted_prompt.
    expect([typed.type, typed.payload.prompt, typed.payload.submitted_prompt, typed.answer]).toEqual(['input.received', QWEN.inputs.typed.prompt, QWEN.inputs.typed.submitted_prompt, ok(blocked)]);
    // No submitted_prompt outside the TUI: a headless prompt cannot be told from a Hook send, so both are judged (fail closed).
    for (const name of ['headless', 'hookContinue']) expect([name, run('qwen', qwen(name)).type, run('qwen', qwen(name)).answer]).toEqual([name, 'input.received', ok(blocked)]);
    // A typed prompt that is only whitespace with no text bound for the model: nothing to judge either.
    expect(run('qwen', { ...QWEN.base, prompt: '  ', submitted_prompt: ' ' }).type).toBe('qwen.continuation');
    // Factory shares Claude Code's core events and is not changed: its empty prompt is still a prompt.
    expect(run('factory', { ...QWEN.base, prompt: '' }).type).toBe('input.received');
  });

  it('[AG1] Windsurf post_cascade_response_with_transcript is mapped (observe-only, its own type, tool_info kept); before, it was refused', () => {
    const input = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'windsurf-transcript.json'), 'utf8')).input;
    const r = run('windsurf', input);
    expect([r.type, (r.payload.tool_info as { transcript_path: string }).transcript_path, r.answer]).toEqual(['windsurf.post_cascade_response_with_transcript', '/home/u/.windsurf/transcripts/traj-1.jsonl', ok()]);
    // It is not final_answer.after, so a pipeline's response handlers do not run twice when both response hooks are set.
    expect(agentAdapter('windsurf').contract.events.get('post_cascade_response')!.type).toBe('final_answer.after');
  });
});
