import { CLAUDE_EVENTS, type ClaudeEventSpec } from './claudeEvents.ts';
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
    context: s.context === 'additional' ? 'model' : 'user',
    // `continue: false` stops Claude on every event that reads JSON output ("Common output fields").
    terminate: true,
  };
}

export const CLAUDE_CONTRACT: AgentContract = {
  id: 'claude',
  name: 'Claude Code',
  sources: [
    { url: 'https://code.claude.com/docs/en/hooks', version: 'hooks reference as mirrored in thevibeworks/claude-code-docs, read 2026-12' },
    // onFailure: "block" ("Block the action when a hook fails": "Requires Claude Code v2.1.295 or later"),
    // quoted from the reference by openmoat 0.17.0 (docs.rs, src/install/claude_version.rs) and the 2.1.295
    // changelog (Oct 8 2026); the settings reference lists `onFailure` on command and http hooks
    // (claude-code-settings 0.1.0 on docs.rs, CommandHook/HttpHook `on_failure`). Not read on the page itself.
    { url: 'https://code.claude.com/docs/en/hooks#block-the-action-when-a-hook-fails', version: '2.1.295 and later (onFailure: "block"), read second-hand' },
  ],
  events: new Map([...CLAUDE_EVENTS].map(([name, s]) => [name, claudeAgentEvent(name, s)])),
  ...CLAUDE_TOOLS,
  unseen: [],
  agentId: 'claude-code',
  // Command hooks: 600 s ("Common fields"; per-event defaults in claudeEvents.ts).
  timeoutSeconds: 600,
  onFailure: 'a crash, timeout or exit code other than 0 and 2 is a non-blocking error (the tool runs) unless the hook sets onFailure: "block" (2.1.295+)',
  confirmed: true,
};
