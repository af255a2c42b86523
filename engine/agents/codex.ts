import { claudeLikeAdapter } from './claudeLike.ts';
import type { AgentAdapter, AgentContract } from './types.ts';
import { eventSpecs, TOOL_FIELDS as TOOL } from './eventSpec.ts';
import { CODEX_TOOLS } from '../model/toolTables.ts';

/*
 * Codex CLI [AG3]. Read from its source, openai/codex codex-rs/hooks (commit 0ea83813, 2026-12):
 * - src/engine/output_parser.rs: on PreToolUse, `continue:false`, `stopReason`, `suppressOutput`,
 *   `permissionDecision:"ask"`, `permissionDecision:"allow"` without `updatedInput`, `updatedInput` without
 *   `allow`, and a deny without a non-empty reason are all "unsupported": the hook counts as failed and the tool
 *   runs. So an ASK is a deny here, TERMINATE is a deny, and a rewrite is `allow` + `updatedInput` (it approves
 *   the call: only with --allow-rewrites). Its wire schemas are `additionalProperties: false`, so nothing else is
 *   ever written (schema/generated/pre-tool-use.command.output.schema.json).
 *   `hookSpecificOutput.additionalContext` is read on PreToolUse at this commit, but an earlier codex-rs treated it as
 *   unsupported even beside a deny (src/events/pre_tool_use.rs at commit 54ea2bfe, test
 *   `unsupported_additional_context_fails_open`: deny + additionalContext → the hook failed, the tool ran). A deny's
 *   context is therefore written into its reason (the model reads that), never beside it (`contextInDenyReason`).
 * - src/events/pre_tool_use.rs: exit 2 blocks only with a non-empty stderr; any other exit code, a timeout or
 *   no status is a failed hook (the tool runs). Input: session_id, turn_id, cwd, model, permission_mode,
 *   tool_name, tool_use_id, tool_input (schema/generated/pre-tool-use.command.input.schema.json).
 * - Tool names: `Bash` for shell and unified exec, `apply_patch` (matcher aliases Write/Edit), `spawn_agent`
 *   (alias Agent), MCP tools as `mcp__<server>__<tool>` (codex-rs hooks HookToolName; NeMo Guardrails'
 *   Codex page: hooks run for apply_patch and MCP tools from 0.124.0). Web search is not shown to hooks.
 */


const ev = eventSpecs({ required: {}, block: 'none', ask: false, context: 'none', terminate: true });

export const CODEX_CONTRACT: AgentContract = {
  id: 'codex',
  name: 'Codex',
  sources: [
    { url: 'https://github.com/openai/codex/tree/main/codex-rs/hooks', version: 'commit 0ea83813 (2026-12); hooks on by default from 0.124.0' },
  ],
  events: new Map([
    ev('SessionStart', 'agent.start', { context: 'model' }),
    ev('UserPromptSubmit', 'input.received', { required: { prompt: 'string' }, block: 'json', context: 'model', rewrite: { field: 'prompt', how: 'block' } }),
    ev('PreToolUse', 'tool.before_call', { required: TOOL, block: 'json', context: 'model', terminate: false, rewrite: { field: 'tool_input', how: 'apply-if-allowed' } }),
    ev('PermissionRequest', 'codex.permission_request', { required: TOOL, block: 'json', terminate: false }),
    ev('PostToolUse', 'tool.after_call', { required: TOOL, block: 'json', context: 'model' }),
    ev('Stop', 'final_answer.before', { block: 'json' }),
    ev('StopFailure', 'codex.stop_failure'),
    ev('PreCompact', 'codex.pre_compact'),
    ev('PostCompact', 'codex.post_compact'),
    ev('SubagentStart', 'codex.subagent_start', { context: 'model' }),
    ev('SubagentStop', 'codex.subagent_stop', { block: 'json' }),
  ]),
  ...CODEX_TOOLS,
  unseen: ['fetch', 'search'],
  agentId: 'codex',
  // Not documented for command hooks in the source read: Claude Code's 600 s is assumed; install sets `timeout`.
  timeoutSeconds: 600,
  onFailure: 'a crash, timeout, exit code other than 0 and 2, exit 2 with an empty stderr, or output with a field its schema does not list is a failed hook: the tool runs',
  failOpen: [{ why: 'Codex has no fail-closed option (developers.openai.com/codex/hooks; codex-rs/hooks at 0ea83813)' }],
  confirmed: true,
};

export const CODEX_ADAPTER: AgentAdapter = claudeLikeAdapter({
  contract: CODEX_CONTRACT,
  common: ['session_id', 'turn_id', 'transcript_path', 'cwd', 'model', 'permission_mode', 'hook_event_name', 'agent_id', 'agent_type'],
  shapes: new Map([['PermissionRequest', 'permission']]),
  denyWord: 'block',
  rewriteOut: 'updatedInput',
  rewriteDecision: 'allow',
  systemMessage: true,
  contextInDenyReason: true,
});
