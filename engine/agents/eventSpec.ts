import type { AgentEventSpec } from './types.ts';

/** The input fields of a tool event in Claude Code's contract and those that follow it. */
export const TOOL_FIELDS = { tool_name: 'string', tool_input: 'object' } as const;

/**
 * An agent's maker of event specs over its own defaults: `ev(name, type, more)` is the `[name, spec]` entry of
 * its contract's `events` map, with `more` over the defaults.
 */
export function eventSpecs(defaults: Omit<AgentEventSpec, 'name' | 'type'>) {
  return (name: string, type: string, more: Partial<AgentEventSpec> = {}): [string, AgentEventSpec] => [name, { name, type, ...defaults, ...more }];
}
