import type { JsonObject } from '../../../engine/index.ts';

// Hook inputs in the shapes of Claude Code's hooks reference (https://code.claude.com/docs/en/hooks: "Common input
// fields" and each event's "input" section). Our own synthetic values, one input per event of the reference.
export const common = { session_id: 'abc123', transcript_path: '/home/u/.claude/projects/p/abc123.jsonl', cwd: '/home/u/p', permission_mode: 'default' };
const tool = { tool_name: 'Bash', tool_input: { command: 'npm test', description: 'Run the tests' } };
export const HOOK_INPUTS = {
  SessionStart: { ...common, hook_event_name: 'SessionStart', source: 'startup', model: 'claude-sonnet-4-6' },
  Setup: { ...common, hook_event_name: 'Setup', trigger: 'init' },
  UserPromptSubmit: { ...common, hook_event_name: 'UserPromptSubmit', prompt: 'Write a function to calculate the factorial of a number' },
  UserPromptExpansion: { ...common, hook_event_name: 'UserPromptExpansion', expansion_type: 'slash_command', command_name: 'deploy', command_args: 'prod', command_source: 'plugin', prompt: '/deploy prod' },
  PreToolUse: { ...common, hook_event_name: 'PreToolUse', ...tool, tool_use_id: 'toolu_01ABC123' },
  PermissionRequest: { ...common, hook_event_name: 'PermissionRequest', ...tool, permission_suggestions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test' }], behavior: 'allow', destination: 'localSettings' }] },
  PermissionDenied: { ...common, permission_mode: 'auto', hook_event_name: 'PermissionDenied', ...tool, tool_use_id: 'toolu_03', reason: 'Blocked by classifier' },
  PostToolUse: { ...common, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: '/path/to/file.txt', content: 'file content' }, tool_response: { filePath: '/path/to/file.txt', success: true }, tool_use_id: 'toolu_01ABC123', duration_ms: 12 },
  PostToolUseFailure: { ...common, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'false' }, error: 'Command exited with non-zero status code 1', is_interrupt: false, duration_ms: 4187, tool_use_id: 'toolu_02' },
  PostToolBatch: { ...common, hook_event_name: 'PostToolBatch', tool_calls: [{ tool_name: 'Read', tool_input: { file_path: '/p/a.py' }, tool_use_id: 'toolu_04', tool_response: '1\tfrom x import y' }] },
  Notification: { ...common, hook_event_name: 'Notification', message: 'Claude needs your permission to use Bash', title: 'Permission needed', notification_type: 'permission_prompt' },
  MessageDisplay: { ...common, hook_event_name: 'MessageDisplay', turn_id: 't-1', message_id: 'm-1', index: 0, final: false, delta: 'token=sk-123\n' },
  SubagentStart: { ...common, hook_event_name: 'SubagentStart', agent_id: 'agent-abc123', agent_type: 'Explore' },
  SubagentStop: { ...common, hook_event_name: 'SubagentStop', stop_hook_active: false, agent_id: 'def456', agent_type: 'Explore', agent_transcript_path: '/t/sub.jsonl', last_assistant_message: 'Found 3 issues', background_tasks: [], session_crons: [] },
  TaskCreated: { ...common, hook_event_name: 'TaskCreated', task_id: 'task-001', task_subject: 'Implement auth', task_description: 'Add login', teammate_name: 'implementer' },
  TaskCompleted: { ...common, hook_event_name: 'TaskCompleted', task_id: 'task-001', task_subject: 'Implement auth' },
  Stop: { ...common, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'All done.', background_tasks: [{ id: 'task-001', type: 'shell', status: 'running', description: 'tail logs', command: 'tail -f log' }], session_crons: [{ id: 'cron-001', schedule: '0 9 * * 1-5', recurring: true, prompt: 'check the build' }], effort: { level: 'high' } },
  StopFailure: { ...common, hook_event_name: 'StopFailure', error: 'rate_limit', error_details: '429 Too Many Requests', last_assistant_message: 'API Error: Rate limit reached' },
  TeammateIdle: { ...common, hook_event_name: 'TeammateIdle', teammate_name: 'researcher' },
  InstructionsLoaded: { ...common, hook_event_name: 'InstructionsLoaded', file_path: '/p/CLAUDE.md', memory_type: 'Project', load_reason: 'session_start' },
  ConfigChange: { ...common, hook_event_name: 'ConfigChange', source: 'project_settings', file_path: '/p/.claude/settings.json' },
  CwdChanged: { ...common, hook_event_name: 'CwdChanged', old_cwd: '/p', new_cwd: '/p/src' },
  DirectoryAdded: { ...common, hook_event_name: 'DirectoryAdded', directory: '/other', source: 'slash_command' },
  FileChanged: { ...common, hook_event_name: 'FileChanged', file_path: '/p/.envrc', event: 'change' },
  WorktreeCreate: { ...common, hook_event_name: 'WorktreeCreate', name: 'feature-auth' },
  WorktreeRemove: { ...common, hook_event_name: 'WorktreeRemove', worktree_path: '/p/.claude/worktrees/feature-auth' },
  PreCompact: { ...common, hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: '' },
  PostCompact: { ...common, hook_event_name: 'PostCompact', trigger: 'manual', compact_summary: 'Summary…' },
  Elicitation: { ...common, hook_event_name: 'Elicitation', mcp_server_name: 'my-mcp-server', message: 'Please provide your credentials', mode: 'form', requested_schema: { type: 'object' } },
  ElicitationResult: { ...common, hook_event_name: 'ElicitationResult', mcp_server_name: 'my-mcp-server', action: 'accept', content: { username: 'alice' }, mode: 'form', elicitation_id: 'elicit-123' },
  SessionEnd: { ...common, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' },
} satisfies Record<string, JsonObject>;

export type HookName = keyof typeof HOOK_INPUTS;
export const HOOK_NAMES = Object.keys(HOOK_INPUTS) as HookName[];
