import { claudeLikeAdapter } from './claudeLike.ts';
import type { AgentAdapter, AgentContract } from './types.ts';
import { eventSpecs, TOOL_FIELDS as TOOL } from './eventSpec.ts';
import { VSCODE_TOOLS } from '../model/toolTables.ts';

/*
 * VS Code's agent hooks (Copilot agent mode, Preview) [AG3]. Read from microsoft/vscode-docs
 * docs/agent-customization/hooks.md (commit 91e74cb2, DateApproved 6/3/2026; https://code.visualstudio.com/docs/copilot/customization/hooks)
 * and its implementation, microsoft/vscode-copilot-chat src/extension/chat/vscode-node/chatHookService.ts
 * (commit 4a0b5347, read 2026-12):
 * - Files: `.github/hooks/*.json` `{hooks: {PreToolUse: [{type: "command", command, windows, linux, osx, cwd, env,
 *   timeout}]}}`, timeout in seconds (default 30). Also loaded by default: `.claude/settings.json`,
 *   `.claude/settings.local.json`, `~/.claude/settings.json` (matchers parsed but ignored: every hook runs on every
 *   tool call) and Copilot CLI files (`preToolUse` → `PreToolUse`, `bash` → the linux/osx command).
 * - Events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PreCompact, SubagentStart, SubagentStop, Stop.
 * - Input: `timestamp`, `cwd`, `sessionId`, `hookEventName`, `transcript_path`; tool events add `tool_name`,
 *   `tool_input` (the tool's camelCase arguments), `tool_use_id`; PostToolUse `tool_response`; UserPromptSubmit
 *   `prompt`. (GitHub Copilot CLI's "VS Code compatible format" spells them `hook_event_name`, `session_id`: both read.)
 * - Exit codes: 0 parses stdout; 2 is a blocking error ("stop processing and show error to model"); any other is a
 *   warning and processing goes on — so a crash or a timeout lets the tool run, and every failure path here answers
 *   exit 2 (failClosed).
 * - Output: `continue: false` stops the session (`stopReason` to the person), `systemMessage` is shown to the
 *   person. PreToolUse: only `hookSpecificOutput.{permissionDecision: allow|deny|ask, permissionDecisionReason,
 *   updatedInput, additionalContext}` is read (chatHookService.ts collapses the hooks' answers, deny > ask > allow;
 *   a top-level `permissionDecision` is ignored), and `updatedInput` that does not fit the tool's schema is
 *   ignored. PostToolUse: top-level `decision: "block"` + `reason`, `hookSpecificOutput.additionalContext`.
 *   SubagentStop: top-level `decision: "block"`; Stop: `hookSpecificOutput.decision: "block"` + `reason` (both
 *   places are written). SessionStart and SubagentStart: `additionalContext`. UserPromptSubmit, PreCompact: the
 *   common fields only (a prompt is blocked with exit 2).
 * A rewrite goes with `ask` (never a silent approval, as in Claude Code): the person approves the rewritten call.
 * A pre-tool deny is also written at the top level in GitHub Copilot's form, since both agents load `.github/hooks`.
 * VS Code's hooks.md (vscode-docs, DateApproved 10/14/2026, "Choose the hook implementation for your session") says
 * the session's harness owns the hooks: this contract is the Local harness's; the Copilot harness (the default, the
 * Copilot SDK in the Agent Host) runs Copilot's hooks, which ignore exit codes (copilot.ts). So every fail-closed
 * answer also prints the deny on stdout, and the install's shell fallback does too: were the Copilot harness to run
 * this file, an exit 2 alone would let the tool run.
 */


const ev = eventSpecs({ required: {}, block: 'none', ask: false, context: 'user', terminate: true });

export const VSCODE_CONTRACT: AgentContract = {
  id: 'vscode',
  name: 'VS Code',
  sources: [
    { url: 'https://code.visualstudio.com/docs/copilot/customization/hooks', version: 'microsoft/vscode-docs hooks.md commit 91e74cb2 (DateApproved 6/3/2026, Preview)' },
    { url: 'https://github.com/microsoft/vscode-copilot-chat/blob/main/src/extension/chat/vscode-node/chatHookService.ts', version: 'commit 4a0b5347 (2026-12): how PreToolUse and PostToolUse answers are read' },
  ],
  events: new Map([
    ev('SessionStart', 'agent.start', { context: 'model' }),
    ev('UserPromptSubmit', 'input.received', { required: { prompt: 'string' }, block: 'exit2', rewrite: { field: 'prompt', how: 'block' } }),
    ev('PreToolUse', 'tool.before_call', { required: TOOL, block: 'json', ask: true, context: 'model', rewrite: { field: 'tool_input', how: 'apply' } }),
    ev('PostToolUse', 'tool.after_call', { required: TOOL, block: 'json', context: 'model' }),
    ev('PreCompact', 'vscode.pre_compact'),
    ev('SubagentStart', 'vscode.subagent_start', { context: 'model' }),
    ev('SubagentStop', 'vscode.subagent_stop', { block: 'json' }),
    ev('Stop', 'final_answer.before', { block: 'json' }),
  ]),
  ...VSCODE_TOOLS,
  unseen: [],
  agentId: 'vscode',
  // `timeout` in seconds, default 30 ("Hook command properties").
  timeoutSeconds: 30,
  onFailure: 'an exit code other than 0 and 2 (a crash) or a timeout is a warning and processing goes on (the tool runs); exit 2 blocks',
  failOpen: [{ why: 'VS Code has no fail-closed option (hooks-reference.md at 024cb9bd)' }],
  confirmed: true,
};

export const VSCODE_ADAPTER: AgentAdapter = claudeLikeAdapter({
  contract: VSCODE_CONTRACT,
  common: ['timestamp', 'cwd', 'sessionId', 'session_id', 'hookEventName', 'hook_event_name', 'transcript_path'],
  shapes: new Map([['Stop', 'decision-both']]),
  denyWord: 'block',
  rewriteOut: 'updatedInput',
  rewriteDecision: 'ask',
  systemMessage: true,
  eventFields: ['hookEventName', 'hook_event_name'],
  sessionFields: ['sessionId', 'session_id'],
  topLevelDeny: true,
  failClosedDeny: true,
});
