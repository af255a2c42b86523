import type { JsonObject } from './json.ts';

/**
 * One lifecycle event of an agent run. `type` is a dotted string (`tool.before_call`); `ts` is an ISO 8601
 * timestamp; `meta` carries optional metadata such as `user_id` and `tenant`.
 */
export interface HookEvent {
  event_id: string;
  trace_id: string;
  agent_id: string;
  type: string;
  ts: string;
  payload: JsonObject;
  meta?: JsonObject;
}

export type EventMode = 'sync' | 'async';

export interface EventTypeSpec {
  type: string;
  mode: EventMode;
  description: string;
}

/**
 * The built-in lifecycle catalogue (the seed's eleven types). Events before an action are sync (handlers
 * may block it); `*.after_call` are sync too so a handler can rewrite or reject a result before the agent
 * uses it; the end-of-run notifications are async (observe only).
 */
export const LIFECYCLE_EVENTS: readonly EventTypeSpec[] = [
  { type: 'agent.start', mode: 'sync', description: 'The agent run starts.' },
  { type: 'input.received', mode: 'sync', description: 'User input arrives (Claude Code: UserPromptSubmit).' },
  { type: 'prompt.built', mode: 'sync', description: 'The prompt for the model is assembled.' },
  { type: 'model.before_call', mode: 'sync', description: 'Just before a model call.' },
  { type: 'model.after_call', mode: 'sync', description: 'A model call returned; its response may be rewritten.' },
  { type: 'tool.before_call', mode: 'sync', description: 'Just before a tool runs (Claude Code: PreToolUse).' },
  { type: 'tool.after_call', mode: 'sync', description: 'A tool returned (Claude Code: PostToolUse).' },
  { type: 'final_answer.before', mode: 'sync', description: 'The final answer is about to be returned (Claude Code: Stop).' },
  { type: 'final_answer.after', mode: 'async', description: 'The final answer was returned.' },
  { type: 'agent.end', mode: 'async', description: 'The agent run ended.' },
  { type: 'agent.error', mode: 'async', description: 'The agent run failed.' },
];

export const LIFECYCLE_EVENT_TYPES: readonly string[] = LIFECYCLE_EVENTS.map((e) => e.type);

/** Event types are dotted identifiers: `tool.before_call`, `billing.charge_card`. */
export const EVENT_TYPE_RE = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/;
