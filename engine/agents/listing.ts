import type { JsonObject } from '../model/json.ts';
import { AGENT_CONTRACTS } from './registry.ts';

/** Every agent as plain JSON [AG1]: id, name, the sources and versions read, its events and their channels (`hookwire agents --json`, GET /v1/agents). */
export function agentList(): JsonObject[] {
  return [...AGENT_CONTRACTS.values()].map((c) => ({
    id: c.id,
    name: c.name,
    confirmed: c.confirmed,
    sources: c.sources.map((s) => ({ url: s.url, version: s.version })),
    timeout_s: c.timeoutSeconds,
    on_failure: c.onFailure,
    fail_open: c.failOpen.map((f) => ({ why: f.why, events: f.events ? [...f.events] : null })),
    unseen: [...c.unseen],
    events: [...c.events.values()].map((e) => ({
      name: e.name,
      type: e.type,
      block: e.block,
      ask: e.ask,
      rewrite: e.rewrite ? `${e.rewrite.field}: ${e.rewrite.how}` : null,
      context: e.context,
      terminate: e.terminate,
    })),
  }));
}
