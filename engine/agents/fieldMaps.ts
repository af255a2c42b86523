import { claudeLikeAdapter } from './claudeLike.ts';
import { FACTORY_TOOLS, GOOSE_TOOLS, KIMI_TOOLS, QWEN_TOOLS } from '../model/toolTables.ts';
import type { PortableTool, ToolTable } from '../model/portableTool.ts';
import type { AgentAdapter, AgentContract, AgentEventSpec, AgentId, ContractSource } from './types.ts';

/*
 * Agents whose documentation shows Claude Code's hook contract [AG3]: a field map (their event names are
 * Claude Code's, their tools have their own names), not a new contract.
 * - Qwen Code: https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks/ (read 2026-12): settings.json
 *   `hooks` keyed by PreToolUse, … with matcher groups, command and http hooks, `timeout` in milliseconds
 *   (default 60000), inputs modifiable. Tools are its Gemini CLI fork's (run_shell_command, read_file, …).
 * - Factory droid: https://docs.factory.ai/reference/hooks-reference (read 2026-12): `.factory/hooks.json`
 *   (else settings.json `hooks`), Claude Code's events and matchers, timeout in seconds; the shell tool is
 *   `Execute`, files are `Read`, `Create`, `Edit` (safe-chains 0.232.6 droid target: "droid's shell tool is not Bash").
 * - goose: https://github.com/block/goose documentation/docs/guides/context-engineering/hooks.md (read
 *   2026-12): the Open Plugins hooks spec, `hooks/hooks.json` in a plugin directory (`.agents/plugins/<name>/`).
 *   Its decision channels were not confirmed: only exit 2 is used (block), nothing else is sent.
 * - Kimi Code: the issue reports Claude Code's contract; no documentation page was read in this session, so
 *   only exit 2 is used (block) and the contract is marked unconfirmed.
 */

const TOOL = { tool_name: 'string', tool_input: 'object' } as const;
const COMMON = ['session_id', 'transcript_path', 'cwd', 'permission_mode', 'hook_event_name', 'agent_id', 'agent_type', 'timestamp'] as const;

/** Claude Code's core events, with full channels (`claude`-style) or exit 2 only (`exit2`, unconfirmed agents). */
function claudeCoreEvents(mode: 'claude' | 'exit2'): Map<string, AgentEventSpec> {
  const full = mode === 'claude';
  const ev = (name: string, type: string, more: Partial<AgentEventSpec>): [string, AgentEventSpec] => [
    name,
    { name, type, required: {}, block: full ? 'json' : 'exit2', ask: false, context: full ? 'model' : 'none', terminate: full, ...more },
  ];
  return new Map([
    ev('SessionStart', 'agent.start', { block: 'none' }),
    ev('UserPromptSubmit', 'input.received', { required: { prompt: 'string' }, rewrite: { field: 'prompt', how: 'block' } }),
    ev('PreToolUse', 'tool.before_call', { required: TOOL, ask: full, rewrite: { field: 'tool_input', how: full ? 'apply' : 'block' } }),
    ev('PostToolUse', 'tool.after_call', { required: TOOL }),
    ev('Stop', 'final_answer.before', {}),
    ev('SubagentStop', 'agent.subagent_stop', {}),
    ev('SessionEnd', 'agent.end', { block: 'none', context: 'none' }),
  ]);
}

function fieldMap(id: AgentId, name: string, sources: ContractSource[], tools: ToolTable, confirmed: boolean, unseen: PortableTool[] = []): AgentAdapter {
  const contract: AgentContract = {
    id,
    name,
    sources,
    events: claudeCoreEvents(confirmed ? 'claude' : 'exit2'),
    ...tools,
    unseen,
    agentId: id,
    // Qwen Code: 60000 ms default; Factory: seconds, Claude Code's contract; goose and Kimi unconfirmed: 30 s assumed.
    timeoutSeconds: id === 'qwen' ? 60 : id === 'factory' ? 60 : 30,
    onFailure: confirmed ? 'as Claude Code: a crash or timeout is a non-blocking error (the tool runs); exit 2 blocks' : 'unconfirmed: exit 2 is taken to block (Claude Code\'s contract); other exits are assumed to let the tool run',
    confirmed,
  };
  return claudeLikeAdapter({ contract, common: COMMON, denyWord: 'block', rewriteOut: 'updatedInput', rewriteDecision: 'ask', systemMessage: confirmed });
}

export const QWEN_ADAPTER = fieldMap(
  'qwen',
  'Qwen Code',
  [{ url: 'https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks/', version: 'read 2026-12' }],
  QWEN_TOOLS,
  true,
);

export const FACTORY_ADAPTER = fieldMap(
  'factory',
  'Factory droid',
  [{ url: 'https://docs.factory.ai/reference/hooks-reference', version: 'read 2026-12 (CLI 1.21)' }],
  FACTORY_TOOLS,
  true,
);

export const GOOSE_ADAPTER = fieldMap(
  'goose',
  'goose',
  [{ url: 'https://github.com/block/goose/blob/main/documentation/docs/guides/context-engineering/hooks.md', version: 'read 2026-12 (Open Plugins hooks spec)' }],
  GOOSE_TOOLS,
  false,
);

export const KIMI_ADAPTER = fieldMap('kimi', 'Kimi Code', [{ url: 'unconfirmed: no documentation read in this session', version: 'unconfirmed' }], KIMI_TOOLS, false);
