import { AGENT_ADAPTERS } from '../agents/registry.ts';
import { CLAUDE_CONTRACT } from '../agents/claude.ts';
import type { AgentAdapter, HookAgentId } from '../agents/types.ts';
import { foreignAgent } from '../agents/verdict.ts';
import { VSCODE_ADAPTER } from '../agents/vscode.ts';
import { claudeFailClosedReply, claudeHookEvent, claudeReply, claudeSessionId, toCommandAnswer } from './claudeHook.ts';
import { isJsonObject, ownGet } from '../model/json.ts';

/*
 * One adapter per agent for every transport [AG3]: the command (`hookwire hook --agent`), the forwarding
 * command and `serve`'s /v1/agents/<id>/hook. Claude Code's is its mapping of [P12] (runtime/claudeHook.ts),
 * which also refuses another agent's input [AG4]; the others come from engine/agents/.
 */

/**
 * VS Code's agent runs the hooks of `.claude/settings.json` with its own input (`hookEventName`, `sessionId`,
 * camelCase tool arguments; vscode.ts). Claude Code's command hands such input to VS Code's mapping, so the hook
 * `install --agent claude` writes guards VS Code too, answering in the form VS Code reads, instead of refusing it.
 */
const fromVsCode = (input: unknown): boolean => foreignAgent(input, 'claude') === 'vscode';

export const CLAUDE_ADAPTER: AgentAdapter = {
  contract: CLAUDE_CONTRACT,
  sessionId: (input) => (fromVsCode(input) ? VSCODE_ADAPTER.sessionId(input) : claudeSessionId(input)),
  hookName: (input) => {
    if (fromVsCode(input)) return VSCODE_ADAPTER.hookName(input);
    const h = isJsonObject(input) ? ownGet(input, 'hook_event_name') : undefined;
    return typeof h === 'string' ? h : null;
  },
  parse: (input, at) => {
    const other = foreignAgent(input, 'claude');
    if (other === 'vscode') return VSCODE_ADAPTER.parse(input, at);
    if (other) return { ok: false, hook: null, reason: `this is ${other}'s hook input, not Claude Code's (run hookwire hook --agent ${other})` };
    return claudeHookEvent(input, at);
  },
  reply: (hook, event, outcome, options = {}) => {
    if (event.agent_id === VSCODE_ADAPTER.contract.agentId) return VSCODE_ADAPTER.reply(hook, event, outcome, options);
    const r = claudeReply(hook, event, outcome, { allowRewrites: options.allowRewrites === true });
    return { answer: toCommandAnswer(r), approval: r.approval };
  },
  failClosed: (hook, reason) => toCommandAnswer(claudeFailClosedReply(hook, reason)),
};

/** The adapter of an agent id. */
export function agentAdapter(id: HookAgentId): AgentAdapter {
  return id === 'claude' ? CLAUDE_ADAPTER : AGENT_ADAPTERS.get(id)!;
}
