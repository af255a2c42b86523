import { isJsonObject, ownGet, type JsonValue } from '../model/json.ts';
import { AGENT_CONTRACTS } from './registry.ts';
import { isAgentId, type AgentId } from './types.ts';

/*
 * Which coding agent a recording or an event came from [AG7], for the debugger: an event's `meta.agent` (every
 * agent's mapping sets it), and a recording's header `source.agent` (`hook --agent --record`, serve's agent
 * routes). Recordings made before `source.agent` existed say Claude Code by their source: `claude-hook --record`
 * wrote kind `claude-code-hook`, serve's /v1/claude/hook `hook: "claude-code-http"`. Anything else: unknown (null),
 * never guessed from the shape of the payload.
 */

/** An agent as the debugger names it. */
export interface AgentLabel {
  id: AgentId;
  name: string;
}

function label(id: unknown): AgentLabel | null {
  return typeof id === 'string' && isAgentId(id) ? { id, name: AGENT_CONTRACTS.get(id)!.name } : null;
}

/** The agent an event came from, by its `meta.agent`. `eventAgent({agent: 'codex'})` → `{id: 'codex', name: 'Codex'}`. */
export function eventAgent(meta: JsonValue | undefined): AgentLabel | null {
  return isJsonObject(meta) ? label(ownGet(meta, 'agent')) : null;
}

/** The agent a recording came from, by its header's source (see above); null for imports and other sources. */
export function recordingAgent(source: { readonly [field: string]: unknown } | undefined): AgentLabel | null {
  if (source === undefined || source === null || typeof source !== 'object') return null;
  const own = (k: string) => (Object.prototype.hasOwnProperty.call(source, k) ? source[k] : undefined);
  return label(own('agent')) ?? (own('kind') === 'claude-code-hook' || own('hook') === 'claude-code-http' ? label('claude') : null);
}
