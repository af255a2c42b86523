import type { JsonObject, JsonValue } from '../model/json.ts';
import { portableFieldsOf, setPortableFields, toolEntryOf, type PortableTool, type ToolEntry } from '../model/portableTool.ts';
import type { AgentContract } from './types.ts';

/*
 * The portable fields of a hook call [AG2]: the one rule in model/portableTool.ts (shared with the session
 * importers), read through the agent's contract.
 */

/** The table entry of a tool name: its own entry, else `mcp` by the agent's MCP prefix, else `other`. */
export function toolEntry(contract: Pick<AgentContract, 'tools' | 'mcpPrefix'>, name: string): ToolEntry {
  return toolEntryOf({ tools: contract.tools, ...(contract.mcpPrefix ? { mcpPrefix: contract.mcpPrefix } : {}) }, name);
}

/** The portable kind a pipeline sees for a tool of this agent (`other` for names the table does not know). */
export function portableTool(contract: Pick<AgentContract, 'tools' | 'mcpPrefix'>, name: string): PortableTool {
  return toolEntry(contract, name).tool;
}

/**
 * Sets the portable fields of one call on a payload (in place), from the entry and the call's arguments [AG2].
 * An input field of a portable name that says something else is moved to `native_<name>`.
 */
export function addPortableFields(payload: JsonObject, entry: ToolEntry, args: JsonValue | undefined): void {
  setPortableFields(payload, portableFieldsOf(entry, args));
}
