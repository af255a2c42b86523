import { CLAUDE_EVENTS, claudeHookEvent, claudeReply, type ClaudeReply } from '../../../engine/runtime/index.ts';
import type { Decision, JsonObject } from '../../../engine/index.ts';
import { HOOK_INPUTS, type HookName } from './claudeHookInputs.ts';

// docs/claude-code.md's table of what each Hookwire outcome does on each Claude Code event, computed from the mapping
// itself (so the table cannot drift from the code); `test/engine/runtime/claudeTable.test.ts` holds that page to it.

function cell(r: ClaudeReply): string {
  const denied = r.approval?.answer === 'deny' ? 'denied: ' : '';
  if (r.exit2 !== null) return `${denied}exit 2`;
  if (!r.json) return r.approval?.answer === 'deferred' ? "no output (Claude Code's dialog asks)" : 'no output';
  const parts: string[] = [];
  const o = r.json;
  const h = (o.hookSpecificOutput ?? {}) as JsonObject;
  if (h.permissionDecision) parts.push(`\`permissionDecision: "${String(h.permissionDecision)}"\``);
  if (h.decision) {
    const d = h.decision as JsonObject;
    parts.push(`\`decision.behavior: "${String(d.behavior)}"\`${d.interrupt ? ' + `interrupt`' : ''}`);
  }
  if (h.action) parts.push(`\`action: "${String(h.action)}"\``);
  if (o.decision) parts.push('`decision: "block"`');
  if (o.continue === false) parts.push('`continue: false`');
  for (const k of ['updatedInput', 'updatedToolOutput', 'displayContent', 'additionalContext']) if (h[k] !== undefined || (h.decision as JsonObject | undefined)?.[k] !== undefined) parts.push(`\`${k}\``);
  if (o.systemMessage !== undefined) parts.push('`systemMessage` (to the user)');
  return denied + parts.join(' + ');
}

const REWRITE_SAMPLE: Record<string, unknown> = { tool_input: { command: 'rewritten' }, tool_response: 'rewritten', delta: 'rewritten', prompt: 'rewritten' };

/** The markdown table, one row per event of the reference. */
export function claudeTable(): string {
  const rows = ['| Claude Code event | Hookwire event | exit 2 there | BLOCK_ACTION | TERMINATE | ASK | rewrite | add_context |', '|---|---|---|---|---|---|---|---|'];
  for (const [hook, spec] of CLAUDE_EVENTS) {
    const parsed = claudeHookEvent(HOOK_INPUTS[hook as HookName], { ts: '2026-01-01T00:00:00Z', seq: 1 });
    if (!parsed.ok) throw new Error(parsed.reason);
    const e = parsed.event;
    const reply = (decision: Decision, extra: { payload?: JsonObject; context?: string[] } = {}) => claudeReply(hook, e, { decision, reason: 'r', payload: extra.payload ?? e.payload, context: extra.context ?? [] });
    const rewrite = spec.rewrite ? cell(reply('continue', { payload: { ...e.payload, [spec.rewrite.field]: REWRITE_SAMPLE[spec.rewrite.field] as never } })) : 'not applied';
    rows.push(`| ${hook} | \`${spec.type}\` | ${spec.exit2} | ${cell(reply('block_action'))} | ${cell(reply('terminate'))} | ${cell(reply('ask'))} | ${rewrite} | ${cell(reply('continue', { context: ['c'] }))} |`);
  }
  return rows.join('\n');
}
