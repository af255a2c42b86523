import type { JsonObject } from '../../../engine/index.ts';

// Hook inputs in the shapes of Claude Code's hooks reference (https://code.claude.com/docs/en/hooks, "Hook input").
export const common = { session_id: 'abc123', transcript_path: '/home/u/.claude/projects/p/abc123.jsonl', cwd: '/home/u/p', permission_mode: 'default' };
export const HOOK_INPUTS = {
  SessionStart: { ...common, hook_event_name: 'SessionStart', source: 'startup', model: 'claude-sonnet-4-6' },
  UserPromptSubmit: { ...common, hook_event_name: 'UserPromptSubmit', prompt: 'Write a function to calculate the factorial of a number' },
  PreToolUse: { ...common, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test', description: 'Run the tests' }, tool_use_id: 'toolu_01ABC123' },
  PostToolUse: { ...common, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: '/path/to/file.txt', content: 'file content' }, tool_response: { filePath: '/path/to/file.txt', success: true }, tool_use_id: 'toolu_01ABC123' },
  PostToolUseFailure: { ...common, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'false' }, error: 'Command exited with non-zero status code 1', tool_use_id: 'toolu_02' },
  Stop: { ...common, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'All done.' },
  SessionEnd: { ...common, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' },
  Notification: { ...common, hook_event_name: 'Notification', message: 'Claude needs your permission to use Bash' },
} satisfies Record<string, JsonObject>;

export type HookName = keyof typeof HOOK_INPUTS;
export const HOOK_NAMES = Object.keys(HOOK_INPUTS) as HookName[];
