import { claudeLikeAdapter } from './claudeLike.ts';
import { FACTORY_TOOLS, GOOSE_TOOLS, KIMI_TOOLS, QWEN_TOOLS } from '../model/toolTables.ts';
import type { AgentAdapter, AgentContract, AgentEventSpec } from './types.ts';
import { eventSpecs, TOOL_FIELDS as TOOL } from './eventSpec.ts';

/*
 * Agents whose documentation shows Claude Code's hook contract [AG3]: a field map (their event names are
 * Claude Code's, their tools have their own names), not a new contract.
 * - Qwen Code: https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks/ (read 2026-12): settings.json
 *   `hooks` keyed by PreToolUse, … with matcher groups, command and http hooks, `timeout` in milliseconds
 *   (default 60000), inputs modifiable. Tools are its Gemini CLI fork's (run_shell_command, read_file, …).
 * - Factory droid: https://docs.factory.ai/reference/hooks-reference (read 2026-12): `.factory/hooks.json`
 *   (else settings.json `hooks`), Claude Code's events and matchers, timeout in seconds; the shell tool is
 *   `Execute`, files are `Read`, `Create`, `Edit` (safe-chains 0.232.6 droid target: "droid's shell tool is not Bash").
 * - goose: read in its source, block/goose crates/goose/src/hooks/ (types.rs, config.rs commit 8a2bbf70; mod.rs commit
 *   40640e26; 2026): hooks load from ~/.config/goose/hooks.json and, only when that file sets
 *   `allow_project_hooks: true`, from the project's `.goose/settings.json` (else `.claude/settings.json`), in
 *   Claude Code's shape `{hooks: {PreToolUse: [{matcher, hooks: [{type: "command", command, timeout}]}]}}`
 *   (timeout in seconds, default 600). Input: `hook_event_name`, `session_id`, `cwd`, `tool_name`, `tool_input`,
 *   `tool_output`, `tool_error`, and `user_prompt` (not `prompt`) on UserPromptSubmit. A block is exit 2 (stderr the
 *   reason) or a top-level `{"decision": "block", "reason"}`, and only on PreToolUse, PermissionRequest,
 *   UserPromptSubmit, Stop, SubagentStop, TeammateIdle, TaskCompleted, ConfigChange (`can_block`); `hookSpecificOutput`
 *   is parsed but never acted on, so no ask, no rewrite. Any other exit, a timeout or a signal fails open. Exit 2 is
 *   used for every block.
 * - Kimi Code CLI: read in its source, MoonshotAI/kimi-cli 1.49.0 (commit 4a550eff, 2026-07-16), src/kimi_cli/hooks/
 *   (config.py, events.py, runner.py) and docs/en/customization/hooks.md: `[[hooks]]` entries `{event, command,
 *   matcher, timeout}` in ~/.kimi/config.toml (timeout in seconds, default 30); input `hook_event_name`,
 *   `session_id`, `cwd`, `tool_name`, `tool_input`, `tool_call_id`; exit 2 blocks with stderr as the reason, and
 *   exit 0 with `hookSpecificOutput.permissionDecision: "deny"` blocks too; nothing else is read in 1.49.0 (no ask;
 *   `updatedInput`, which a later docs page names, is not in that source, so a rewrite blocks). Errors and
 *   timeouts fail open. PostToolUse and the other events are not blockable there. Exit 2 is used for every block.
 */

const COMMON = ['session_id', 'transcript_path', 'cwd', 'permission_mode', 'hook_event_name', 'agent_id', 'agent_type', 'timestamp'] as const;

/** Claude Code's core events with its channels (Qwen Code, Factory: confirmed to follow Claude Code's contract). */
function claudeCoreEvents(): Map<string, AgentEventSpec> {
  const ev = eventSpecs({ required: {}, block: 'json', ask: false, context: 'model', terminate: true });
  return new Map([
    ev('SessionStart', 'agent.start', { block: 'none' }),
    ev('UserPromptSubmit', 'input.received', { required: { prompt: 'string' }, rewrite: { field: 'prompt', how: 'block' } }),
    ev('PreToolUse', 'tool.before_call', { required: TOOL, ask: true, rewrite: { field: 'tool_input', how: 'apply' } }),
    ev('PostToolUse', 'tool.after_call', { required: TOOL }),
    ev('Stop', 'final_answer.before', {}),
    ev('SubagentStop', 'agent.subagent_stop', {}),
    ev('SessionEnd', 'agent.end', { block: 'none', context: 'none' }),
  ]);
}

/** Events whose only channel is exit 2 on the blockable ones (goose, Kimi Code): no ask, no rewrite, no context, no stop. */
function exit2Events(prompt: string, blockable: ReadonlySet<string>, extra: [string, string][] = []): Map<string, AgentEventSpec> {
  const ev = (name: string, type: string, more: Partial<AgentEventSpec> = {}): [string, AgentEventSpec] => [
    name,
    { name, type, required: {}, block: blockable.has(name) ? 'exit2' : 'none', ask: false, context: 'none', terminate: false, ...more },
  ];
  return new Map([
    ev('SessionStart', 'agent.start'),
    ev('UserPromptSubmit', 'input.received', { required: { [prompt]: 'string' }, rewrite: { field: 'prompt', how: 'block' } }),
    ev('PreToolUse', 'tool.before_call', { required: TOOL, rewrite: { field: 'tool_input', how: 'block' } }),
    ev('PostToolUse', 'tool.after_call', { required: TOOL }),
    ev('PostToolUseFailure', 'tool.after_call', { required: TOOL }),
    ev('Stop', 'final_answer.before'),
    ev('SubagentStop', 'agent.subagent_stop'),
    ev('SessionEnd', 'agent.end'),
    ...extra.map(([n, t]) => ev(n, t)),
  ]);
}

function fieldMap(contract: Omit<AgentContract, 'agentId'>, options: { promptField?: string } = {}): AgentAdapter {
  const full = contract.events.get('PreToolUse')?.ask === true;
  return claudeLikeAdapter({
    contract: { ...contract, agentId: contract.id },
    common: COMMON,
    denyWord: 'block',
    rewriteOut: 'updatedInput',
    rewriteDecision: 'ask',
    systemMessage: full,
    ...(options.promptField ? { renames: new Map([[options.promptField, 'prompt']]) } : {}),
  });
}

const CLAUDE_FAILURE = 'as Claude Code: a crash or timeout is a non-blocking error (the tool runs); exit 2 blocks';

export const QWEN_ADAPTER = fieldMap({
  id: 'qwen',
  name: 'Qwen Code',
  sources: [{ url: 'https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks/', version: 'read 2026-12' }],
  events: claudeCoreEvents(),
  ...QWEN_TOOLS,
  unseen: [],
  // 60000 ms default.
  timeoutSeconds: 60,
  onFailure: CLAUDE_FAILURE,
  confirmed: true,
});

export const FACTORY_ADAPTER = fieldMap({
  id: 'factory',
  name: 'Factory droid',
  sources: [{ url: 'https://docs.factory.ai/reference/hooks-reference', version: 'read 2026-12 (CLI 1.21)' }],
  events: claudeCoreEvents(),
  ...FACTORY_TOOLS,
  unseen: [],
  timeoutSeconds: 60,
  onFailure: CLAUDE_FAILURE,
  confirmed: true,
});

const GOOSE_BLOCKABLE = new Set(['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'Stop', 'SubagentStop']);

export const GOOSE_ADAPTER = fieldMap(
  {
    id: 'goose',
    name: 'goose',
    sources: [
      { url: 'https://github.com/block/goose/tree/main/crates/goose/src/hooks', version: 'source: types.rs, config.rs commit 8a2bbf70, mod.rs commit 40640e26 (2026)' },
      { url: 'https://github.com/block/goose/blob/main/documentation/docs/guides/context-engineering/hooks.md', version: 'read 2026-12' },
    ],
    events: exit2Events('user_prompt', GOOSE_BLOCKABLE, [['PermissionRequest', 'goose.permission_request']]),
    ...GOOSE_TOOLS,
    unseen: [],
    // `timeout` in seconds, default 600 (config.rs `default_timeout`).
    timeoutSeconds: 600,
    onFailure: 'an exit code other than 0 and 2, a timeout or a signal fails open (the tool runs); exit 2 blocks on PreToolUse, PermissionRequest, UserPromptSubmit, Stop and SubagentStop',
    confirmed: true,
  },
  { promptField: 'user_prompt' },
);

const KIMI_BLOCKABLE = new Set(['PreToolUse', 'UserPromptSubmit', 'Stop']);

export const KIMI_ADAPTER = fieldMap({
  id: 'kimi',
  name: 'Kimi Code',
  sources: [
    { url: 'https://github.com/MoonshotAI/kimi-cli/tree/main/src/kimi_cli/hooks', version: 'kimi-cli 1.49.0 source (commit 4a550eff, 2026-07-16): config.py, events.py, runner.py' },
    { url: 'https://github.com/MoonshotAI/kimi-cli/blob/main/docs/en/customization/hooks.md', version: 'Hooks (Beta), read 2026-12' },
  ],
  events: exit2Events('prompt', KIMI_BLOCKABLE, [['StopFailure', 'kimi.stop_failure'], ['SubagentStart', 'kimi.subagent_start'], ['PreCompact', 'kimi.pre_compact'], ['PostCompact', 'kimi.post_compact'], ['Notification', 'kimi.notification']]),
  ...KIMI_TOOLS,
  unseen: [],
  // `timeout` in seconds, default 30, at most 600 (hooks/config.py `HookDef`).
  timeoutSeconds: 30,
  onFailure: 'errors, crashes and timeouts fail open (the tool runs); exit 2 blocks with stderr as the reason',
  confirmed: true,
});
