/**
 * Hookwire for the Claude Agent SDK (TypeScript, `@anthropic-ai/claude-agent-sdk`):
 * `import { hookwireClaudeAgent } from 'hookwire/claude-agent-sdk'`, then
 * `query({ prompt, options: { hooks: hookwireClaudeAgent(trace).hooks } })`.
 *
 * The SDK's hooks are Claude Code's hooks run in-process: each callback gets Claude Code's hook input (the JSON a
 * command hook reads on stdin) and returns Claude Code's JSON output (SDK 0.3.337 sdk.d.ts `HookCallback`,
 * `HookCallbackMatcher`, `HookJSONOutput`; https://platform.claude.com/docs/en/agent-sdk/hooks). So this adapter is
 * Claude Code's mapping [P12] and nothing else: the input becomes the same Hookwire event as `hookwire claude-hook`
 * makes of it (portable fields included [AG2]), the runtime decides it on the trace, and the decision becomes the
 * same answer, in its JSON form (what an http hook answers: an exit-2-only block is `continue: false`).
 *
 * - Every failure fails closed: an input the mapping refuses, a throw anywhere, answers with Claude Code's block
 *   form for the event [AG4]; and each matcher sets `onFailure: "block"`, so a callback that throws or outlives
 *   its timeout blocks the action in Claude Code too. With "block" the TypeScript SDK refuses to start a session on
 *   a Claude Code that does not support the option (sdk.d.ts: "the query fails at startup on a Claude Code that
 *   does not support the option"); Claude Code ignores it on Stop, SubagentStop, TaskCompleted and TeammateIdle.
 * - An ASK goes to the runtime's approver (the trace's, else the runtime's [P14]; none: denied). In the SDK the
 *   place a person is asked is the host's own code, so the approver is that code; an approved call then runs
 *   (with its rewritten input, which the person was shown), a denied one is refused with the reason.
 * - TERMINATE is `continue: false` with the reason, plus the event's block: the query ends.
 */
import {
  claudeFailClosedReply, claudeHookEvent, claudeJsonAnswer, claudeReply, isJsonObject,
  type ClaudeOutcome, type EmitResult, type JsonObject, type RuntimeTrace,
} from '../../index.ts';
import { ownResult } from '../adapterSupport.ts';

/** The SDK's `HookCallback` (sdk.d.ts 0.3.337): Claude Code's hook input in, its JSON output back. */
export type ClaudeAgentHookCallback = (input: unknown, toolUseID: string | undefined, options: { signal: AbortSignal }) => Promise<JsonObject>;

/** The SDK's `HookCallbackMatcher`. */
export interface ClaudeAgentHookMatcher {
  matcher?: string;
  hooks: ClaudeAgentHookCallback[];
  timeout?: number;
  onFailure?: 'continue' | 'block';
}

export interface HookwireClaudeAgentOptions {
  /** The hook events to guard. Default: the lifecycle events a pipeline decides on (see DEFAULT_EVENTS). */
  events?: readonly string[];
  /**
   * Send a rewritten tool input with `allow` (Claude Code runs it without asking). Default false: a rewrite the
   * pipeline makes is sent with `ask`, so Claude Code's permission flow (the SDK's `canUseTool`) is asked. A call
   * a person approved through the runtime's approver is sent with `allow` either way: they were shown the rewrite.
   */
  allowRewrites?: boolean;
  /** Seconds each callback may take (the matcher's `timeout`); Claude Code's default for the event otherwise. */
  timeout?: number;
}

export interface HookwireClaudeAgent {
  /** For `query({ options: { hooks } })`. */
  hooks: Record<string, ClaudeAgentHookMatcher[]>;
}

/** What a pipeline decides on in a session: the prompt, every tool call before and after, the final answer, the ends. */
export const DEFAULT_EVENTS: readonly string[] = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'SessionEnd'];

export function hookwireClaudeAgent(trace: RuntimeTrace, options: HookwireClaudeAgentOptions = {}): HookwireClaudeAgent {
  let seq = 0;
  const answer = async (input: unknown): Promise<JsonObject> => {
    const hook = isJsonObject(input) && typeof input.hook_event_name === 'string' ? input.hook_event_name : null;
    try {
      const mapped = claudeHookEvent(input, { ts: '', seq: ++seq });
      if (!mapped.ok) return failClosed(mapped.hook ?? hook, mapped.reason);
      const { event } = mapped;
      const result = ownResult(await trace.emitAsync(event.type, event.payload, { event_id: event.event_id, ...(event.meta ? { meta: event.meta } : {}) }));
      const approved = result.decision === 'ask' && !result.blocked;
      const reply = claudeReply(mapped.hook, event, outcomeOf(result), { allowRewrites: options.allowRewrites === true || approved });
      return claudeJsonAnswer(reply) ?? {};
    } catch (err) {
      return failClosed(hook, err instanceof Error ? err.message : String(err));
    }
  };
  const callback: ClaudeAgentHookCallback = (input) => answer(input);
  const hooks: Record<string, ClaudeAgentHookMatcher[]> = {};
  for (const name of options.events ?? DEFAULT_EVENTS) {
    hooks[name] = [{ hooks: [callback], onFailure: 'block', ...(options.timeout !== undefined ? { timeout: options.timeout } : {}) }];
  }
  return { hooks };
}

/**
 * The runtime's result as Claude Code's mapping reads a decision: an ASK the approver answered is settled here
 * (approved: it goes on; denied: a block with the approver's reason), so the answer never asks again.
 */
function outcomeOf(r: EmitResult): ClaudeOutcome {
  const base = { reason: r.reason, payload: r.payload, context: r.context };
  if (r.decision === 'terminate') return { ...base, decision: 'terminate' };
  if (r.blocked) {
    const why = r.approval ? `${r.reason} (${r.approval.answer === 'deny' ? 'not approved' : r.approval.answer}${r.approval.reason ? `: ${r.approval.reason}` : ''})` : r.reason;
    return { ...base, decision: 'block_action', reason: why };
  }
  return { ...base, decision: 'continue' };
}

function failClosed(hook: string | null, reason: string): JsonObject {
  return claudeJsonAnswer(claudeFailClosedReply(hook, reason)) ?? { continue: false, stopReason: reason };
}
