// Native hook inputs of each agent for one logical call, written by us from each agent's documentation (the
// same sources engine/agents/<agent>.ts cites). Small and synthetic: no recording of a real session.
import type { HookAgentId } from '../../../engine/agents/types.ts';

export type Call = { kind: 'shell'; command: string } | { kind: 'read'; path: string } | { kind: 'fetch'; url: string };

/** The agents whose pre-tool input we build; the field maps share Claude Code's shape. */
export const MAIN_AGENTS: readonly HookAgentId[] = ['claude', 'codex', 'gemini', 'copilot', 'vscode', 'cursor', 'windsurf', 'qwen', 'factory', 'goose', 'kimi'];

const SESSION = 'sess-1';

/** Claude Code's PreToolUse (https://code.claude.com/docs/en/hooks, "PreToolUse input"). */
function claude(call: Call): object | null {
  const base = { session_id: SESSION, transcript_path: '/tmp/t.jsonl', cwd: '/w', permission_mode: 'default', hook_event_name: 'PreToolUse', tool_use_id: 'toolu_1' };
  if (call.kind === 'shell') return { ...base, tool_name: 'Bash', tool_input: { command: call.command, description: 'run' } };
  if (call.kind === 'read') return { ...base, tool_name: 'Read', tool_input: { file_path: call.path } };
  return { ...base, tool_name: 'WebFetch', tool_input: { url: call.url, prompt: 'summarise' } };
}

/** Codex's PreToolUse (codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json). No read or fetch tool is shown to hooks. */
function codex(call: Call): object | null {
  const base = { session_id: SESSION, turn_id: 'turn-1', transcript_path: null, cwd: '/w', hook_event_name: 'PreToolUse', model: 'gpt-5', permission_mode: 'default', tool_use_id: 'call-1' };
  if (call.kind === 'shell') return { ...base, tool_name: 'Bash', tool_input: { command: call.command } };
  // A file read goes through the shell in Codex: the portable pipeline guards it as a command, not as a read.
  return null;
}

/** Gemini CLI's BeforeTool (docs/hooks/reference.md "Base input schema", "BeforeTool"). web_fetch takes a prompt with the URLs in it. */
function gemini(call: Call): object | null {
  const base = { session_id: SESSION, transcript_path: '/tmp/t.json', cwd: '/w', hook_event_name: 'BeforeTool', timestamp: '2026-12-06T00:00:00.000Z' };
  if (call.kind === 'shell') return { ...base, tool_name: 'run_shell_command', tool_input: { command: call.command, description: 'run' } };
  if (call.kind === 'read') return { ...base, tool_name: 'read_file', tool_input: { file_path: call.path } };
  return { ...base, tool_name: 'web_fetch', tool_input: { prompt: `Summarise ${call.url} in two lines` } };
}

/** GitHub Copilot's camelCase preToolUse (hooks-configuration.md "Pre-tool use hook": toolArgs is a JSON string). */
function copilot(call: Call): object | null {
  const base = { timestamp: 1704614600000, cwd: '/w' };
  if (call.kind === 'shell') return { ...base, toolName: 'bash', toolArgs: JSON.stringify({ command: call.command, description: 'run' }) };
  if (call.kind === 'read') return { ...base, toolName: 'view', toolArgs: JSON.stringify({ path: call.path }) };
  return { ...base, toolName: 'web_fetch', toolArgs: JSON.stringify({ url: call.url }) };
}

/**
 * VS Code's PreToolUse (microsoft/vscode-docs docs/agent-customization/hooks.md, commit 91e74cb2: "Common input
 * fields", "PreToolUse input"; tool names and camelCase arguments of microsoft/vscode-copilot-chat toolNames.ts).
 */
export function vscode(call: Call): object | null {
  const base = { timestamp: '2026-12-06T10:30:00.000Z', cwd: '/w', sessionId: SESSION, hookEventName: 'PreToolUse', transcript_path: '/tmp/t.json', tool_use_id: 'tool-1' };
  if (call.kind === 'shell') return { ...base, tool_name: 'run_in_terminal', tool_input: { command: call.command, explanation: 'run', isBackground: false } };
  if (call.kind === 'read') return { ...base, tool_name: 'read_file', tool_input: { filePath: call.path, startLine: 1, endLine: 50 } };
  return { ...base, tool_name: 'fetch_webpage', tool_input: { urls: [call.url], query: 'summarise' } };
}

/** Cursor's per-kind events (cursor.com/docs/agent/hooks: beforeShellExecution, beforeReadFile; preToolUse for the rest). */
function cursor(call: Call): object | null {
  const base = { conversation_id: 'conv-1', generation_id: 'gen-1', workspace_roots: ['/w'], cursor_version: '2.0.77' };
  if (call.kind === 'shell') return { ...base, hook_event_name: 'beforeShellExecution', command: call.command, cwd: '/w' };
  if (call.kind === 'read') return { ...base, hook_event_name: 'beforeReadFile', file_path: call.path, content: 'API_KEY=x', attachments: [] };
  return { ...base, hook_event_name: 'preToolUse', tool_name: 'WebFetch', tool_input: { url: call.url } };
}

/** Windsurf's pre-hooks (docs.windsurf.com/windsurf/cascade/hooks). Cascade shows no fetch to hooks. */
function windsurf(call: Call): object | null {
  const base = { trajectory_id: 'traj-1', execution_id: 'exec-1', timestamp: '2026-12-06T00:00:00Z' };
  if (call.kind === 'shell') return { ...base, agent_action_name: 'pre_run_command', tool_info: { command_line: call.command, cwd: '/w' } };
  if (call.kind === 'read') return { ...base, agent_action_name: 'pre_read_code', tool_info: { file_path: call.path } };
  return null;
}

/**
 * goose's PreToolUse (block/goose hooks/mod.rs `HookContext` at 0825b570; hooks.md "Hook Payload", "Tool Input Keys"):
 * the event in `event`, `working_dir`, `tool_call_id`; its write tool takes `path`. No fetch tool in its developer extension.
 */
function goose(call: Call): object | null {
  const base = { event: 'PreToolUse', session_id: SESSION, working_dir: '/w', tool_call_id: 'call-1' };
  if (call.kind === 'shell') return { ...base, matcher_context: 'developer__shell', tool_name: 'developer__shell', tool_input: { command: call.command } };
  if (call.kind === 'read') return null;
  return null;
}

/** The field maps: Claude Code's input shape with the agent's own tool names. */
function fieldMap(shell: string, read: string | null, fetch: string | null) {
  return (call: Call): object | null => {
    const base = { session_id: SESSION, transcript_path: '/tmp/t.jsonl', cwd: '/w', hook_event_name: 'PreToolUse' };
    if (call.kind === 'shell') return { ...base, tool_name: shell, tool_input: { command: call.command } };
    if (call.kind === 'read') return read ? { ...base, tool_name: read, tool_input: { file_path: call.path } } : null;
    return fetch ? { ...base, tool_name: fetch, tool_input: { url: call.url } } : null;
  };
}

export const NATIVE: Record<HookAgentId, (call: Call) => object | null> = {
  claude,
  codex,
  gemini,
  copilot,
  vscode,
  cursor,
  windsurf,
  qwen: fieldMap('run_shell_command', 'read_file', 'web_fetch'),
  factory: fieldMap('Execute', 'Read', 'FetchUrl'),
  goose,
  kimi: fieldMap('Shell', null, null),
};

/** A valid non-tool input another agent would never send us: Windsurf's pre_run_command (for every other agent). */
export function foreignInput(self: HookAgentId): object {
  return self === 'windsurf' ? NATIVE.copilot({ kind: 'shell', command: 'ls' })! : NATIVE.windsurf({ kind: 'shell', command: 'ls' })!;
}

/** The same call with a field its event needs taken away. */
export function missingFieldInput(agent: HookAgentId): object {
  const full = NATIVE[agent]({ kind: 'shell', command: 'ls' }) as Record<string, unknown>;
  // goose sends tool_input only when the call has arguments (hooks/mod.rs `HookContext`): its required field is the name.
  const drop = agent === 'cursor' ? 'command' : agent === 'windsurf' ? 'tool_info' : agent === 'copilot' ? 'toolArgs' : agent === 'goose' ? 'tool_name' : 'tool_input';
  const { [drop]: _gone, ...rest } = full;
  return rest;
}
