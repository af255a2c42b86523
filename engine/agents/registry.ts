import { CLAUDE_CONTRACT } from './claude.ts';
import { CODEX_ADAPTER } from './codex.ts';
import { COPILOT_ADAPTER } from './copilot.ts';
import { CURSOR_ADAPTER } from './cursor.ts';
import { FACTORY_ADAPTER, GOOSE_ADAPTER, KIMI_ADAPTER, QWEN_ADAPTER } from './fieldMaps.ts';
import { GEMINI_ADAPTER } from './gemini.ts';
import { OPENCODE_CONTRACT } from './opencode.ts';
import type { AgentAdapter, AgentContract, AgentId, HookAgentId } from './types.ts';
import { VSCODE_ADAPTER } from './vscode.ts';
import { WINDSURF_ADAPTER } from './windsurf.ts';

/*
 * Every agent, by id [AG1]. Claude Code's mapping lives in runtime/claudeHook.ts (it predates this folder), so
 * its adapter is made there (runtime/agentHook.ts); its contract is here with the others. OpenCode has no command
 * hooks, so no adapter: its contract serves the loss report and `install` (the plugin is engine/adapters/opencode).
 */

/** The adapters this folder makes (every command-hook agent but Claude Code). */
export const AGENT_ADAPTERS: ReadonlyMap<Exclude<HookAgentId, 'claude'>, AgentAdapter> = new Map<Exclude<HookAgentId, 'claude'>, AgentAdapter>([
  ['codex', CODEX_ADAPTER],
  ['gemini', GEMINI_ADAPTER],
  ['copilot', COPILOT_ADAPTER],
  ['vscode', VSCODE_ADAPTER],
  ['cursor', CURSOR_ADAPTER],
  ['windsurf', WINDSURF_ADAPTER],
  ['qwen', QWEN_ADAPTER],
  ['factory', FACTORY_ADAPTER],
  ['goose', GOOSE_ADAPTER],
  ['kimi', KIMI_ADAPTER],
]);

/** Every agent's contract, in the order `hookwire agents` lists them. */
export const AGENT_CONTRACTS: ReadonlyMap<AgentId, AgentContract> = new Map<AgentId, AgentContract>([
  ['claude', CLAUDE_CONTRACT],
  ...[...AGENT_ADAPTERS].map(([id, a]) => [id, a.contract] as [AgentId, AgentContract]),
  ['opencode', OPENCODE_CONTRACT],
]);
