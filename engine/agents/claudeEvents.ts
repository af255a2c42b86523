/*
 * Claude Code's hook events, as data [P12]: what each event's input must hold, which Hookwire event it
 * becomes, and through which channel of Claude Code's output each Hookwire outcome travels. Read from the
 * hooks reference (https://code.claude.com/docs/en/hooks; mirror thevibeworks/claude-code-docs,
 * content/en/docs/claude-code/hooks.md): "Exit code 2 behavior per event", "Decision control", "Add context
 * for Claude", and each event's input and decision-control section. The mapping (claudeHook.ts) and the
 * README's table read this one table, so a new event or channel is added here and nowhere else.
 */

/** How an event's action is blocked in Claude Code's output. */
export type BlockChannel =
  /** `hookSpecificOutput.permissionDecision: "deny"` (PreToolUse). */
  | 'pretool'
  /** `hookSpecificOutput.decision: {behavior: "deny", message}`: exit 2 is not this event's channel (PermissionRequest). */
  | 'permission'
  /** Top-level `{decision: "block", reason}`. */
  | 'decision'
  /** `hookSpecificOutput.action: "decline"` (Elicitation, ElicitationResult). */
  | 'elicitation'
  /** Exit code 2 with the reason on stderr: the event has no JSON block (TaskCreated, TeammateIdle, …). */
  | 'exit2'
  /** The event cannot be blocked, but `continue: false` stops Claude (SessionStart, Setup, SubagentStart). */
  | 'stop'
  /** No decision control at all: a block is reported to the user (`systemMessage`) and changes nothing. */
  | 'none';

/** Where an ASK goes: Claude Code's own prompt, or nowhere (then it is denied: fail closed [P14]). */
export type AskChannel =
  /** `permissionDecision: "ask"`: Claude Code shows its permission prompt (PreToolUse). */
  | 'pretool'
  /** No output: Claude Code's own dialog shows as usual (PermissionRequest, Elicitation). */
  | 'dialog'
  | 'none';

/** Where added context goes: `hookSpecificOutput.additionalContext` (Claude reads it) or `systemMessage` (the user does). */
export type ContextChannel = 'additional' | 'system';

/** What a rewrite of a payload field becomes, where Claude Code can take it. */
export interface RewriteChannel {
  field: string;
  /** `updatedInput` / `updatedToolOutput` / `displayContent` in hookSpecificOutput; `block`: it cannot be applied, so the event is blocked rather than let the original through. */
  output: 'updatedInput' | 'updatedToolOutput' | 'displayContent' | 'block';
}

export type FieldType = 'string' | 'object' | 'array' | 'boolean' | 'number';

export interface ClaudeEventSpec {
  /** The Hookwire event type the hook becomes. */
  type: string;
  block: BlockChannel;
  ask: AskChannel;
  context: ContextChannel;
  rewrite?: RewriteChannel;
  /** Fields the input must have, with their types (missing or mistyped: malformed input, fail closed). */
  required: Readonly<Record<string, FieldType>>;
  /** What exit code 2 does on this event, in the reference's words (for the README table). */
  exit2: string;
}

const TOOL = { tool_name: 'string', tool_input: 'object' } as const;

const spec = (type: string, block: BlockChannel, context: ContextChannel, exit2: string, more: Partial<ClaudeEventSpec> = {}): ClaudeEventSpec => ({
  type, block, ask: 'none', context, required: {}, exit2, ...more,
});

/**
 * Every hook event of the reference. Looked up through a Map, so `constructor`, `toString` and `__proto__`
 * are unknown names like any other [V8].
 */
export const CLAUDE_EVENTS: ReadonlyMap<string, ClaudeEventSpec> = new Map<string, ClaudeEventSpec>([
  ['SessionStart', spec('agent.start', 'stop', 'additional', 'shows stderr to the user only')],
  ['Setup', spec('claude.setup', 'stop', 'additional', 'shows stderr to the user only')],
  ['UserPromptSubmit', spec('input.received', 'decision', 'additional', 'blocks the prompt and erases it', { required: { prompt: 'string' }, rewrite: { field: 'prompt', output: 'block' } })],
  ['UserPromptExpansion', spec('claude.user_prompt_expansion', 'decision', 'additional', 'blocks the expansion', { required: { prompt: 'string', command_name: 'string' }, rewrite: { field: 'prompt', output: 'block' } })],
  ['PreToolUse', spec('tool.before_call', 'pretool', 'additional', 'blocks the tool call; stderr to Claude', { ask: 'pretool', required: TOOL, rewrite: { field: 'tool_input', output: 'updatedInput' } })],
  ['PermissionRequest', spec('claude.permission_request', 'permission', 'system', 'not honored: the permission flow proceeds (the decision object answers)', { ask: 'dialog', required: TOOL, rewrite: { field: 'tool_input', output: 'updatedInput' } })],
  ['PermissionDenied', spec('claude.permission_denied', 'none', 'system', 'ignored (the denial already happened)', { required: TOOL })],
  ['PostToolUse', spec('tool.after_call', 'decision', 'additional', 'shows stderr to Claude; the tool already ran', { required: TOOL, rewrite: { field: 'tool_response', output: 'updatedToolOutput' } })],
  ['PostToolUseFailure', spec('tool.after_call', 'decision', 'additional', 'shows stderr to Claude; the tool already failed', { required: TOOL })],
  ['PostToolBatch', spec('claude.post_tool_batch', 'decision', 'additional', 'stops the agentic loop before the next model call', { required: { tool_calls: 'array' } })],
  ['Notification', spec('claude.notification', 'none', 'system', 'exit code and stderr are ignored', { required: { message: 'string' } })],
  ['MessageDisplay', spec('claude.message_display', 'none', 'system', 'the original text is displayed', { required: { delta: 'string' }, rewrite: { field: 'delta', output: 'displayContent' } })],
  ['SubagentStart', spec('claude.subagent_start', 'stop', 'additional', 'shows stderr to the user only')],
  ['SubagentStop', spec('claude.subagent_stop', 'decision', 'additional', 'keeps the subagent running')],
  ['TaskCreated', spec('claude.task_created', 'exit2', 'system', 'rolls back the task creation; stderr to the model', { required: { task_id: 'string' } })],
  ['TaskCompleted', spec('claude.task_completed', 'exit2', 'system', 'the task is not marked completed; stderr to the model', { required: { task_id: 'string' } })],
  ['Stop', spec('final_answer.before', 'decision', 'additional', 'Claude keeps working (stderr is its next instruction)')],
  ['StopFailure', spec('claude.stop_failure', 'none', 'system', 'output and exit code are ignored')],
  ['TeammateIdle', spec('claude.teammate_idle', 'exit2', 'system', 'the teammate keeps working')],
  ['InstructionsLoaded', spec('claude.instructions_loaded', 'none', 'system', 'ignored', { required: { file_path: 'string' } })],
  ['ConfigChange', spec('claude.config_change', 'decision', 'system', 'the change does not take effect (except policy_settings)', { required: { source: 'string' } })],
  ['CwdChanged', spec('claude.cwd_changed', 'none', 'system', 'shows stderr to the user only')],
  ['DirectoryAdded', spec('claude.directory_added', 'none', 'system', 'stderr goes to the debug log', { required: { directory: 'string' } })],
  ['FileChanged', spec('claude.file_changed', 'none', 'system', 'shows stderr to the user only', { required: { file_path: 'string' } })],
  ['WorktreeCreate', spec('claude.worktree_create', 'exit2', 'system', 'worktree creation fails (any non-zero exit)', { required: { name: 'string' } })],
  ['WorktreeRemove', spec('claude.worktree_remove', 'none', 'system', 'logged in debug mode only', { required: { worktree_path: 'string' } })],
  ['PreCompact', spec('claude.pre_compact', 'decision', 'system', 'blocks compaction')],
  ['PostCompact', spec('claude.post_compact', 'none', 'system', 'shows stderr to the user only')],
  ['Elicitation', spec('claude.elicitation', 'elicitation', 'system', 'denies the elicitation', { ask: 'dialog', required: { mcp_server_name: 'string' } })],
  ['ElicitationResult', spec('claude.elicitation_result', 'elicitation', 'system', 'the response becomes decline', { required: { mcp_server_name: 'string' } })],
  ['SessionEnd', spec('agent.end', 'none', 'system', 'shows stderr to the user only')],
]);

/**
 * Events whose JSON output Claude Code reads without `continue` (a `continue: false` is discarded: the answer cannot
 * stop Claude there), and those that also discard `systemMessage` (nothing reaches the person). From the hooks
 * reference as mirrored in thevibeworks/claude-code-docs (commit 3f1ef7c2, 2026-08): "Emit terminal notifications"
 * (Notification, StopFailure "discard `systemMessage` and `continue`"), and each event's section: InstructionsLoaded,
 * MessageDisplay, ConfigChange, WorktreeCreate, WorktreeRemove, PreCompact, PostCompact, Elicitation and
 * ElicitationResult discard both; SessionEnd discards its JSON output fields; CwdChanged, FileChanged and
 * DirectoryAdded discard `continue` and keep `systemMessage`. The answers still carry both (harmless); the loss
 * report reads these sets so it does not promise a stop or a message Claude Code drops.
 */
export const DISCARDS_SYSTEM_MESSAGE: ReadonlySet<string> = new Set([
  'Notification', 'StopFailure', 'InstructionsLoaded', 'MessageDisplay', 'ConfigChange', 'WorktreeCreate', 'WorktreeRemove',
  'PreCompact', 'PostCompact', 'Elicitation', 'ElicitationResult', 'SessionEnd',
]);
export const DISCARDS_CONTINUE: ReadonlySet<string> = new Set([...DISCARDS_SYSTEM_MESSAGE, 'CwdChanged', 'FileChanged', 'DirectoryAdded']);

/** An event the reference does not list (a newer Claude Code, or a name such as `constructor`): exit 2 blocks, context goes to the user. */
export const UNKNOWN_EVENT: Omit<ClaudeEventSpec, 'type'> = { block: 'exit2', ask: 'none', context: 'system', required: {}, exit2: 'a blocking error' };

/** `PostToolUseFailure` → `post_tool_use_failure`, `__proto__` → `__proto__`. */
export function snakeName(hook: string): string {
  return hook.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** The spec of a hook event, known or not. `claudeEventSpec('constructor').type === 'claude.constructor'`. */
export function claudeEventSpec(hook: string): ClaudeEventSpec {
  return CLAUDE_EVENTS.get(hook) ?? { ...UNKNOWN_EVENT, type: `claude.${snakeName(hook)}` };
}

/**
 * Claude Code's default `timeout` per hook, in seconds ("Common fields"): 600 for command hooks, 30 for
 * UserPromptSubmit, 10 for MessageDisplay; SessionEnd hooks share a 1.5-second budget.
 */
export function defaultHookTimeoutSeconds(hook: string): number {
  if (hook === 'UserPromptSubmit') return 30;
  if (hook === 'MessageDisplay') return 10;
  if (hook === 'SessionEnd') return 1.5;
  return 600;
}
