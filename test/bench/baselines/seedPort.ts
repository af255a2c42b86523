// A direct port of the seed's HookManager (shared/seeds/001): a Map from exact event type to handlers sorted
// by order, each with a condition closure; dispatch filters the handlers, then runs them in order and
// stops at the first block. Conditions become plain JS closures (native RegExp), compiled once.
import { LIFECYCLE_EVENT_TYPES, type HookEvent, type JsonObject, type JsonValue, type PipelineInput } from '../../../engine/index.ts';

type Ctx = { payload: JsonObject };
type Cond = (ctx: Ctx) => boolean;
interface Handler { name: string; order: number; condition: Cond; fn: (ctx: Ctx) => { decision: string; reason: string } }

export function compileSeedCondition(cond: JsonObject): Cond {
  const parts: Cond[] = Object.entries(cond).map(([key, operand]) => {
    if (key === 'any') { const cs = (operand as JsonObject[]).map(compileSeedCondition); return (c) => cs.some((f) => f(c)); }
    if (key === 'all') { const cs = (operand as JsonObject[]).map(compileSeedCondition); return (c) => cs.every((f) => f(c)); }
    const field = key.split('.')[1]!;
    const get = (c: Ctx) => c.payload[field];
    if (typeof operand !== 'object' || operand === null) return (c) => get(c) === operand;
    const [op, v] = Object.entries(operand)[0] as [string, JsonValue];
    switch (op) {
      case 'in': { const set = new Set(v as JsonValue[]); return (c) => set.has(get(c) as never); }
      case 'regex': { const re = new RegExp(v as string); return (c) => { const x = get(c); return typeof x === 'string' && re.test(x); }; }
      case 'gt': return (c) => (get(c) as number) > (v as number);
      case 'gte': return (c) => (get(c) as number) >= (v as number);
      case 'lt': return (c) => (get(c) as number) < (v as number);
      case 'lte': return (c) => (get(c) as number) <= (v as number);
      default: throw new Error(`seed port: no ${op}`);
    }
  });
  return (c) => parts.every((p) => p(c));
}

/** Registers every handler under each exact type its event node selects (the seed has no wildcards). */
export function buildRegistry(doc: PipelineInput, compile: (when: JsonObject) => Cond): Map<string, Handler[]> {
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const into = new Map(doc.wires.map((w) => [w.to, w.from]));
  const registry = new Map<string, Handler[]>();
  for (const node of doc.nodes) {
    if (node.kind !== 'handler') continue;
    const matcher = byId.get(into.get(node.id)!)!;
    const event = byId.get(into.get(matcher.id)!)!;
    if (matcher.kind !== 'matcher' || event.kind !== 'event') throw new Error('bench pipelines are event → matcher → handler');
    const pattern = event.pattern;
    const types = pattern.endsWith('.*') ? LIFECYCLE_EVENT_TYPES.filter((t) => t.startsWith(pattern.slice(0, -1))) : [pattern];
    const action = node.action;
    const h: Handler = {
      name: node.id,
      order: node.order ?? 100,
      condition: compile(matcher.when as JsonObject),
      fn: action.type === 'block' ? () => ({ decision: 'block_action', reason: action.reason }) : () => ({ decision: 'continue', reason: '' }),
    };
    for (const t of types) registry.set(t, [...(registry.get(t) ?? []), h]);
  }
  // Stable sort by order; ties keep document order, as Hookwire's [H1].
  for (const list of registry.values()) list.sort((a, b) => a.order - b.order);
  return registry;
}

let lastNow = NaN;
let lastIso = '';
function auditOf(handler: string, e: HookEvent) {
  const now = 0;
  if (now !== lastNow) { lastIso = new Date(now).toISOString(); lastNow = now; }
  return { handler, level: 'info', trace_id: e.trace_id, agent_id: e.agent_id, user_id: e.meta?.user_id ?? null, event_id: e.event_id, event_type: e.type, tool_name: e.payload.tool_name ?? null, timestamp: lastIso };
}

export function seedDispatch(registry: Map<string, Handler[]>, event: HookEvent): { decision: string; decided_by: string | null; log: unknown[] } {
  const ctx = { payload: event.payload };
  const matched = (registry.get(event.type) ?? []).filter((h) => h.condition(ctx));
  const log: unknown[] = [];
  for (const h of matched) {
    const r = h.fn(ctx);
    // The same audit record Hookwire's audit handler writes, so both do the same work per handler.
    if (r.decision === 'continue') { log.push(auditOf(h.name, event)); continue; }
    return { decision: r.decision, decided_by: h.name, log };
  }
  return { decision: 'continue', decided_by: null, log };
}
