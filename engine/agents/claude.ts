import { CLAUDE_EVENTS, DISCARDS_CONTINUE, DISCARDS_SYSTEM_MESSAGE, type ClaudeEventSpec } from './claudeEvents.ts';
import type { AgentContract, AgentEventSpec } from './types.ts';
import { CLAUDE_TOOLS } from '../model/toolTables.ts';

/*
 * Claude Code as an agent contract [AG1]. Its events and channels are the table in claudeEvents.ts (read from
 * https://code.claude.com/docs/en/hooks); the mapping itself stays in runtime/claudeHook.ts. This adds the
 * tool table and what the portable model and the loss report need.
 */

/** One Claude Code event in the common vocabulary (what the loss report and `install` read). */
export function claudeAgentEvent(name: string, s: ClaudeEventSpec): AgentEventSpec {
  const block = s.block === 'exit2' ? 'exit2' : s.block === 'none' || s.block === 'stop' ? 'none' : 'json';
  const rewrite =
    s.rewrite === undefined
      ? undefined
      : {
          field: s.rewrite.field,
          // PreToolUse sends the rewrite with `ask` (never a silent approval); PermissionRequest only by approving.
          how: s.rewrite.output === 'block' ? ('block' as const) : name === 'PermissionRequest' ? ('apply-if-allowed' as const) : ('apply' as const),
        };
  return {
    name,
    type: s.type,
    required: s.required,
    block,
    ask: s.ask !== 'none',
    ...(rewrite ? { rewrite } : {}),
    // Context not for Claude goes in `systemMessage`, which some events discard.
    context: s.context === 'additional' ? 'model' : DISCARDS_SYSTEM_MESSAGE.has(name) ? 'none' : 'user',
    // `continue: false` stops Claude on every event that reads it; some events discard it (claudeEvents.ts).
    terminate: !DISCARDS_CONTINUE.has(name),
  };
}

export const CLAUDE_CONTRACT: AgentContract = {
  id: 'claude',
  name: 'Claude Code',
  sources: [
    { url: 'https://code.claude.com/docs/en/hooks', version: 'hooks reference as mirrored in thevibeworks/claude-code-docs, read 2026-12' },
    // onFailure: "block" on a command or http hook entry (values "continue" | "block"): added in 2.1.295 (the
    // changelog line, 2026-10-08, as mirrored from https://code.claude.com/docs/en/changelog); read first-hand in
    // the implementation of Claude Code 2.1.337 (the binary @anthropic-ai/claude-agent-sdk-linux-x64 0.3.337 ships,
    // the Agent SDK's `claudeCodeVersion`): a hook that fails or times out is a blocking error
    // (`hook_failed` / `hook_timed_out`); ignored on Stop, SubagentStop, TaskCompleted and TeammateIdle and for
    // async hooks. docs/agents.md "install" lists what was read where.
    { url: 'https://code.claude.com/docs/en/changelog', version: '2.1.295 (onFailure: "block"), checked in the 2.1.337 binary' },
  ],
  events: new Map([...CLAUDE_EVENTS].map(([name, s]) => [name, claudeAgentEvent(name, s)])),
  ...CLAUDE_TOOLS,
  unseen: [],
  agentId: 'claude-code',
  // Command hooks: 600 s ("Common fields"; per-event defaults in claudeEvents.ts).
  timeoutSeconds: 600,
  onFailure: 'a crash, timeout or exit code other than 0 and 2 is a non-blocking error (the tool runs) unless the hook sets onFailure: "block" (2.1.295+; ignored on Stop, SubagentStop, TaskCompleted, TeammateIdle and for async hooks)',
  // install writes onFailure: "block" on every entry; Claude Code ignores it on these four (read in the 2.1.337 binary).
  failOpen: [{ why: 'Claude Code ignores onFailure: "block" on Stop, SubagentStop, TaskCompleted and TeammateIdle', events: ['Stop', 'SubagentStop', 'TaskCompleted', 'TeammateIdle'] }],
  confirmed: true,
};
