import type { PortableTool, ToolEntry } from '../model/portableTool.ts';
import type { Approval } from '../model/approval.ts';
import type { Decision } from '../model/decision.ts';
import type { HookEvent } from '../model/event.ts';
import type { JsonLimitBreach } from '../model/jsonLimits.ts';
import type { JsonObject } from '../model/json.ts';

/*
 * The vocabulary every agent's contract is written in [AG1]: one pipeline runs in every coding agent, so each
 * agent's hook contract is data of the same shape (its events, the input each needs, the channel of each
 * outcome in its answer, its tool table, its config file), and its mapping is a pure function pair
 * (native input → Hookwire event; decision → native answer).
 */

/**
 * The agents Hookwire speaks to. `claude` is Claude Code; `qwen`, `factory`, `goose` and `kimi` reuse Claude Code's
 * contract (field maps); `vscode` is VS Code's agent hooks; `opencode` takes an in-process plugin, not command hooks.
 */
export const AGENT_IDS = ['claude', 'codex', 'gemini', 'copilot', 'vscode', 'cursor', 'windsurf', 'qwen', 'factory', 'goose', 'kimi', 'opencode'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

/** The agents that run command hooks (`hookwire hook --agent`, serve's /v1/agents/<id>/hook): all but OpenCode, which loads a plugin. */
export type HookAgentId = Exclude<AgentId, 'opencode'>;
export const HOOK_AGENT_IDS: readonly HookAgentId[] = AGENT_IDS.filter((id): id is HookAgentId => id !== 'opencode');

/** Whether a string names an agent (own list, so `constructor` is not one). */
export function isAgentId(id: string): id is AgentId {
  return (AGENT_IDS as readonly string[]).includes(id);
}

/** Whether a string names an agent with command hooks (`hook --agent`): OpenCode runs Hookwire in process instead. */
export function isHookAgentId(id: string): id is HookAgentId {
  return isAgentId(id) && id !== 'opencode';
}


/** How a blocked action is said in the answer. */
export type BlockHow =
  /** A JSON deny on stdout (each agent's own shape), exit 0. */
  | 'json'
  /** Exit code 2 with the reason on stderr. */
  | 'exit2'
  /** In process: the plugin stops the call itself (OpenCode: a thrown Error before the call, the output withheld after). */
  | 'plugin'
  /** The event cannot be blocked: a block is not enforced (reported, never silent). */
  | 'none';

/** One native hook event of an agent, as data: what it becomes and what its answer can carry. */
export interface AgentEventSpec {
  /** The native event name (`PreToolUse`, `BeforeTool`, `beforeShellExecution`, `pre_run_command`, …). */
  name: string;
  /** The Hookwire event type it becomes. */
  type: string;
  /** Fields the input must have (missing or mistyped: refused, answered with the block form). */
  required: Readonly<Record<string, 'string' | 'object' | 'array' | 'boolean' | 'number'>>;
  block: BlockHow;
  /** Whether the agent asks the person itself when told to (else an ASK is denied: fail closed [P14]). */
  ask: boolean;
  /**
   * The payload field a rewrite can replace, and what a rewrite of it becomes: applied, applied only with
   * `--allow-rewrites` (the channel also approves the call), or blocked so the original does not go through.
   * A rewrite of any other field is not carried (the loss report says so).
   */
  rewrite?: { field: string; how: 'apply' | 'apply-if-allowed' | 'block' };
  /** Where added context goes: to the model, to the person only, or nowhere. */
  context: 'model' | 'user' | 'none';
  /** Whether the answer can stop the whole agent (TERMINATE); else TERMINATE is a block of this action. */
  terminate: boolean;
  /** For tool events: the portable tool this event is about when the event itself says (Cursor's, Windsurf's per-kind events). */
  tool?: PortableTool;
  /**
   * What this event shows a rule that the rule may not expect, in one line (Windsurf's pre_read_code may name a whole
   * directory; OpenCode's tool.execute.after never fires for a failed call): the loss report says it once, for the
   * agent, when a handler listens to the event [AG6].
   */
  caveat?: string;
}

/**
 * When a hook that never answers (killed at the agent's timeout, or by a signal) lets the action go on although
 * install wrote the agent's fail-closed switch where it has one: every other failure Hookwire answers itself in the
 * block form [AG4]. `events`: only on these native events (all when absent). The loss report says it [AG6].
 */
export interface FailOpen {
  why: string;
  events?: readonly string[];
}

/** Where a source was read, for the `agents` listing and the docs. */
export interface ContractSource {
  url: string;
  /** The version or date of what was read. */
  version: string;
}

/** An agent's contract [AG1]: data only, usable by the app (the loss report, the generated config). */
export interface AgentContract {
  id: AgentId;
  name: string;
  sources: readonly ContractSource[];
  /** Known native events, by name (a Map: `constructor` is unknown like any other name). */
  events: ReadonlyMap<string, AgentEventSpec>;
  /** The tool table [AG2]; names not in it are `other` (an `mcp__…`-style name is `mcp` where `mcpPrefix` says). */
  tools: ReadonlyMap<string, ToolEntry>;
  /** Prefix of MCP tool names (`mcp__` for Claude Code, Codex, Gemini; `MCP:` for Cursor). */
  mcpPrefix?: string;
  /** Portable tool kinds the agent never shows to a hook (no hook fires for them). */
  unseen: readonly PortableTool[];
  /** The event id prefix and the agent id written into events (`claude-code` for Claude Code, as before). */
  agentId: string;
  /** The agent's default hook timeout in seconds (the command answers before it); Claude Code's differs per event. */
  timeoutSeconds: number;
  /** What a crash, a timeout or an odd exit of the hook does in this agent, in its docs' words. */
  onFailure: string;
  /** Where a hook killed before it answers still lets the action go on, in the agent's current version (empty: nowhere). */
  failOpen: readonly FailOpen[];
  /** False when the contract is a field map whose documentation could not be confirmed in full. */
  confirmed: boolean;
}

/** The part of a decision the answer needs: a dispatch, replay step or runtime result fits. */
export interface AgentOutcome {
  decision: Decision;
  reason: string;
  payload: JsonObject;
  context?: readonly string[];
}

/** A mapped input, or why it was refused. */
export type AgentParse = { ok: true; hook: string; event: HookEvent } | { ok: false; hook: string | null; reason: string; problem?: JsonLimitBreach };

/** What a command hook prints and exits with. */
export interface NativeAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** An agent's answer and, for an ASK, who answers it. */
export interface AgentReply {
  answer: NativeAnswer;
  approval: Approval | null;
}

export interface AgentReplyOptions {
  /** Send a rewritten tool input where that also approves the call (Claude Code `allow`, Codex, Copilot). Default false. */
  allowRewrites?: boolean;
}

/** The mapping of one agent [AG3]: pure, the same for the command, the forwarding command and `serve`. */
export interface AgentAdapter {
  contract: AgentContract;
  /** The trace id of an input (its session), or the agent's id when it has none. */
  sessionId(input: unknown): string;
  /** The native event name the input is, if it says or its shape tells (Copilot's camelCase input carries none). */
  hookName(input: unknown, hint?: string): string | null;
  parse(input: unknown, at: { ts: string; seq: number }, hint?: string): AgentParse;
  reply(hook: string, event: HookEvent, outcome: AgentOutcome, options?: AgentReplyOptions): AgentReply;
  /** The block form when Hookwire cannot decide [AG4]: every failure path ends here. */
  failClosed(hook: string | null, reason: string): NativeAnswer;
}
