import { claudeLikeAdapter } from './claudeLike.ts';
import { FACTORY_TOOLS, GOOSE_TOOLS, KIMI_TOOLS, QWEN_TOOLS } from '../model/toolTables.ts';
import { ownGet, type JsonObject } from '../model/json.ts';
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
 * - goose: read in its source and docs, block/goose at commit 0825b570 (2026): crates/goose/src/hooks/mod.rs and
 *   plugins/discovery.rs, documentation/docs/guides/context-engineering/hooks.md. Hooks follow the Open Plugins spec:
 *   `<project>/.agents/plugins/<name>/hooks/hooks.json` (user: ~/.agents/plugins/<name>/), in Claude Code's grouped
 *   shape `{hooks: {PreToolUse: [{matcher, hooks: [{type: "command", command, timeout, on_failure}]}]}}`, matcher a
 *   regex on the tool name, timeout in seconds (default 30: `DEFAULT_HOOK_TIMEOUT_SECS`). Input (`HookContext`):
 *   `event` (not `hook_event_name`), `session_id`, `matcher_context`, `tool_call_id`, `tool_name`, `tool_input`,
 *   `tool_output`, `message` (the prompt), `last_assistant_message`, `working_dir`. Only PreToolUse and Stop can block:
 *   exit 2 (stderr the reason) or `{"decision": "block", "reason"}` on stdout; exit 0 with nothing on stdout allows;
 *   anything else (another exit, a timeout, a signal, stray stdout) is "no decision", ignored (the tool runs) unless the
 *   PreToolUse action sets `on_failure: "block"` (goose 1.48.0+, PR #11449), which install writes. Stop stays fail-open
 *   even so; UserPromptSubmit and the other events cannot block. What a hook prints is not shown to the model: no
 *   context, no ask, no rewrite. (A Claude-shaped reader of `.goose/settings.json` with `allow_project_hooks`, read
 *   earlier at mod.rs 40640e26 / config.rs 8a2bbf70, is not what goose releases ship: the 1.48.0 binary has the plugin
 *   events, vshulcz/deja-vu issue 2952; and main reads only plugins.)
 * - Kimi Code CLI: read in its source, MoonshotAI/kimi-cli 1.49.0 (commit 4a550eff, 2026-07-16), src/kimi_cli/hooks/
 *   (config.py, events.py, runner.py) and docs/en/customization/hooks.md: `[[hooks]]` entries `{event, command,
 *   matcher, timeout}` in ~/.kimi/config.toml (timeout in seconds, default 30); input `hook_event_name`,
 *   `session_id`, `cwd`, `tool_name`, `tool_input`, `tool_call_id`; exit 2 blocks with stderr as the reason, and
 *   exit 0 with `hookSpecificOutput.permissionDecision: "deny"` blocks too; nothing else is read in 1.49.0 (no ask;
 *   `updatedInput`, which a later docs page names, is not in that source, so a rewrite blocks). Errors and
 *   timeouts fail open. PostToolUse and the other events are not blockable there. Exit 2 is used for every block.
 *   Its successor, the TypeScript Kimi Code CLI (MoonshotAI/kimi-code; https://moonshotai.github.io/kimi-code/en/customization/hooks.html,
 *   read 2026-12), keeps the contract (session/hooks/runner.ts: exit 2, or `permissionDecision: "deny"` on exit 0,
 *   blocks; a spawn error, a timeout or another exit allows; only `message`, `permissionDecision` and its reason are
 *   read) but reads `[[hooks]]` from ~/.kimi-code/config.toml, and names its tools `Bash`, `Read`, `Write`, `Edit`.
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
function exit2Events(prompt: string, blockable: ReadonlySet<string>, extra: [string, string][] = [], tool: AgentEventSpec['required'] = TOOL): Map<string, AgentEventSpec> {
  const ev = (name: string, type: string, more: Partial<AgentEventSpec> = {}): [string, AgentEventSpec] => [
    name,
    { name, type, required: {}, block: blockable.has(name) ? 'exit2' : 'none', ask: false, context: 'none', terminate: false, ...more },
  ];
  return new Map([
    ev('SessionStart', 'agent.start'),
    ev('UserPromptSubmit', 'input.received', { required: { [prompt]: 'string' }, rewrite: { field: 'prompt', how: 'block' } }),
    ev('PreToolUse', 'tool.before_call', { required: tool, rewrite: { field: 'tool_input', how: 'block' } }),
    ev('PostToolUse', 'tool.after_call', { required: tool }),
    ev('PostToolUseFailure', 'tool.after_call', { required: tool }),
    ev('Stop', 'final_answer.before'),
    ev('SessionEnd', 'agent.end'),
    ...extra.map(([n, t]) => ev(n, t)),
  ]);
}

/** How a field map's input differs from Claude Code's: renamed fields, the field naming the event, more common fields, an event that is two. */
interface FieldMapOptions {
  renames?: ReadonlyMap<string, string>;
  eventFields?: readonly string[];
  common?: readonly string[];
  eventType?: (hook: string, input: JsonObject) => string | undefined;
}

function fieldMap(contract: Omit<AgentContract, 'agentId'>, options: FieldMapOptions = {}): AgentAdapter {
  const full = contract.events.get('PreToolUse')?.ask === true;
  return claudeLikeAdapter({
    contract: { ...contract, agentId: contract.id },
    common: [...COMMON, ...(options.common ?? [])],
    denyWord: 'block',
    rewriteOut: 'updatedInput',
    rewriteDecision: 'ask',
    systemMessage: full,
    ...(options.renames ? { renames: options.renames } : {}),
    ...(options.eventFields ? { eventFields: options.eventFields } : {}),
    ...(options.eventType ? { eventType: options.eventType } : {}),
  });
}

const CLAUDE_FAILURE = 'as Claude Code: a crash or timeout is a non-blocking error (the tool runs); exit 2 blocks';

/*
 * Qwen Code's UserPromptSubmit is not only a person's prompt (docs/users/features/hooks.md at 00d06c80, "UserPromptSubmit";
 * @qwen-code/qwen-code 0.24.4 from npm, chunk-DPEB6S2R.js `sendMessageStream`): it fires before every UserQuery,
 * ToolResult and Hook send to the model, with `prompt` the model-bound text, and adds `submitted_prompt` (what the
 * person typed) only for a prompt of its interactive TUI. A tool-result send has no text part (its function responses
 * read as ""), so an input with an empty `prompt` and no `submitted_prompt` is Qwen handing tool results back: it becomes
 * `qwen.continuation`, which no prompt rule matches. A Hook send ("Please continue.", a Stop hook's feedback) carries
 * text and cannot be told from a prompt typed in headless or ACP mode (those never send `submitted_prompt`), so it stays
 * `input.received`: judged like a prompt, and the loss report says so.
 */
const QWEN_PROMPT_CAVEAT =
  'Qwen Code also sends UserPromptSubmit before its own continuations ("Please continue.", a Stop hook\'s feedback) with that text as prompt, so a prompt rule judges them too; payload.submitted_prompt, when Qwen sends it (its interactive TUI only), is what the person typed';

function qwenEventType(hook: string, input: JsonObject): string | undefined {
  if (hook !== 'UserPromptSubmit') return undefined;
  const prompt = ownGet(input, 'prompt');
  const submitted = ownGet(input, 'submitted_prompt');
  const typed = typeof submitted === 'string' && submitted.trim() !== '';
  return !typed && typeof prompt === 'string' && prompt.trim() === '' ? 'qwen.continuation' : undefined;
}

function qwenEvents(): Map<string, AgentEventSpec> {
  const events = claudeCoreEvents();
  events.set('UserPromptSubmit', { ...events.get('UserPromptSubmit')!, caveat: QWEN_PROMPT_CAVEAT });
  return events;
}

export const QWEN_ADAPTER = fieldMap({
  id: 'qwen',
  name: 'Qwen Code',
  sources: [
    { url: 'https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks/', version: 'QwenLM/qwen-code docs/users/features/hooks.md at 00d06c80, read 2026-12' },
    { url: 'https://www.npmjs.com/package/@qwen-code/qwen-code', version: '0.24.4 (2026-09-22): UserPromptSubmit before UserQuery, ToolResult and Hook sends; submitted_prompt from the TUI only' },
  ],
  events: qwenEvents(),
  ...QWEN_TOOLS,
  unseen: [],
  // 60000 ms default.
  timeoutSeconds: 60,
  onFailure: CLAUDE_FAILURE,
  // @qwen-code/qwen-code 0.24.4 (npm, 2026-09-22): a command hook's entry has no failure option (hooks.md at 00d06c80).
  failOpen: [{ why: 'Qwen Code 0.24.4 has no fail-closed option for command hooks' }],
  confirmed: true,
}, { eventType: qwenEventType });

export const FACTORY_ADAPTER = fieldMap({
  id: 'factory',
  name: 'Factory droid',
  sources: [{ url: 'https://docs.factory.ai/reference/hooks-reference', version: 'read 2026-12 (CLI 1.21)' }],
  events: claudeCoreEvents(),
  ...FACTORY_TOOLS,
  unseen: [],
  timeoutSeconds: 60,
  onFailure: CLAUDE_FAILURE,
  failOpen: [{ why: 'Factory documents no fail-closed option (docs.factory.ai/reference/hooks-reference)' }],
  confirmed: true,
});

// Only PreToolUse and Stop can block (hooks.md "Blocking a Tool Call"; mod.rs `emit_blocking`).
const GOOSE_BLOCKABLE = new Set(['PreToolUse', 'Stop']);

export const GOOSE_ADAPTER = fieldMap(
  {
    id: 'goose',
    name: 'goose',
    sources: [
      { url: 'https://github.com/block/goose/blob/main/crates/goose/src/hooks/mod.rs', version: 'source at commit 0825b570 (2026): hooks/mod.rs, plugins/discovery.rs; on_failure since 1.48.0 (PR #11449)' },
      { url: 'https://github.com/block/goose/blob/main/documentation/docs/guides/context-engineering/hooks.md', version: 'commit 0825b570, read 2026-12' },
    ],
    // goose's PreToolUse carries `tool_input` only when the call has arguments (`Option<Value>`), so only the name is required.
    events: exit2Events('message', GOOSE_BLOCKABLE, [], { tool_name: 'string' }),
    ...GOOSE_TOOLS,
    unseen: [],
    // `timeout` in seconds, default 30 (mod.rs `DEFAULT_HOOK_TIMEOUT_SECS`).
    timeoutSeconds: 30,
    onFailure:
      'a hook that fails, times out or gives no decision (another exit code, stray stdout) is ignored and the tool runs, unless its PreToolUse entry sets on_failure: "block" (goose 1.48.0+), which install writes; Stop stays fail-open; exit 2 or {"decision":"block"} blocks PreToolUse and Stop only',
    // install writes on_failure: "block" on PreToolUse (1.48.0+; the version floor is in install's note); Stop ignores it.
    failOpen: [{ why: 'goose honours on_failure: "block" on PreToolUse only (PR #11449)', events: ['Stop'] }],
    confirmed: true,
  },
  // The event is `event`, the prompt `message`, the call's id `tool_call_id` (mod.rs `HookContext`).
  { eventFields: ['event'], renames: new Map([['message', 'prompt'], ['tool_call_id', 'tool_use_id']]), common: ['event', 'working_dir', 'matcher_context'] },
);

const KIMI_BLOCKABLE = new Set(['PreToolUse', 'UserPromptSubmit', 'Stop']);

export const KIMI_ADAPTER = fieldMap({
  id: 'kimi',
  name: 'Kimi Code',
  sources: [
    { url: 'https://github.com/MoonshotAI/kimi-cli/tree/main/src/kimi_cli/hooks', version: 'kimi-cli 1.49.0 source (commit 4a550eff, 2026-07-16): config.py, events.py, runner.py' },
    { url: 'https://github.com/MoonshotAI/kimi-cli/blob/main/docs/en/customization/hooks.md', version: 'Hooks (Beta), read 2026-12' },
    { url: 'https://moonshotai.github.io/kimi-code/en/customization/hooks.html', version: 'Kimi Code CLI (TypeScript, ~/.kimi-code/config.toml), read 2026-12; MoonshotAI/kimi-code session/hooks/runner.ts: exit 2 or permissionDecision "deny" blocks, errors and timeouts allow' },
  ],
  events: exit2Events('prompt', KIMI_BLOCKABLE, [['SubagentStop', 'agent.subagent_stop'], ['StopFailure', 'kimi.stop_failure'], ['SubagentStart', 'kimi.subagent_start'], ['PreCompact', 'kimi.pre_compact'], ['PostCompact', 'kimi.post_compact'], ['Notification', 'kimi.notification']]),
  ...KIMI_TOOLS,
  unseen: [],
  // `timeout` in seconds, default 30, at most 600 (hooks/config.py `HookDef`).
  timeoutSeconds: 30,
  onFailure: 'errors, crashes and timeouts fail open (the tool runs); exit 2 blocks with stderr as the reason',
  // MoonshotAI/kimi-code PR #1906 (open, 2026-07) proposes `fail_mode = "closed"`; Kimi Code refuses a config with a
  // field it does not know (its hooks page), so install cannot write it before it ships.
  failOpen: [{ why: 'Kimi Code has no fail-closed option (session/hooks/runner.ts; a fail_mode is proposed in MoonshotAI/kimi-code PR #1906, open, and its config refuses unknown fields)' }],
  confirmed: true,
});
