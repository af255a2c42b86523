// A port of the seed's HookManager (/work/shared/seeds/001, §6.2-6.3) to TypeScript, as the baseline:
// HookRegistry keeps, per exact event type, the handlers sorted by `order` (stable: equal orders keep
// registration order); HookManager.dispatch first collects every handler whose spec's condition passes, then
// runs them in order; BLOCK_ACTION / TERMINATE / STOP_PROPAGATION end the loop, TERMINATE is never
// downgraded. Conditions are the seed's "condition: Callable[[HookContext], bool]": here closures compiled
// once from the same JSON conditions, with native (backtracking) RegExp. Left out, to keep the baseline
// strong: the seed's per-dispatch `_write_audit_log` (payload_keys copy) — audit handlers still write the
// same record Hookwire's audit handler writes.
import { LIFECYCLE_EVENT_TYPES, type HookEvent, type JsonObject, type JsonValue, type PipelineInput } from '../../../engine/index.ts';

export type Decision = 'continue' | 'stop_propagation' | 'block_action' | 'terminate';
export interface HookContext {
  event_type: string;
  trace_id: string;
  agent_id: string;
  payload: JsonObject;
  decision: Decision;
  blocked: boolean;
  block_reason: string;
  decided_by: string | null;
}
export interface HookResult { decision: Decision; reason: string; new_payload?: JsonObject }
export interface HookSpec { event_types: string[]; handler_name: string; condition: ((c: HookContext) => boolean) | null; order: number }
export interface HookHandler { name: string; fn: (c: HookContext) => HookResult | null; order: number }

export class HookRegistry {
  readonly handlers = new Map<string, HookHandler[]>();
  readonly specs = new Map<string, HookSpec>();
  register(spec: HookSpec, handler: HookHandler): void {
    handler.order = spec.order;
    for (const t of spec.event_types) {
      let list = this.handlers.get(t);
      if (!list) this.handlers.set(t, (list = []));
      list.push(handler);
    }
    this.specs.set(handler.name, spec);
    for (const list of this.handlers.values()) list.sort((a, b) => a.order - b.order); // Array#sort is stable
  }
}

export class HookManager {
  readonly registry = new HookRegistry();
  register(spec: HookSpec, handler: HookHandler): void {
    this.registry.register(spec, handler);
  }
  dispatch(context: HookContext): HookContext {
    const handlers = this.registry.handlers.get(context.event_type) ?? [];
    const matched: HookHandler[] = [];
    for (const h of handlers) {
      const spec = this.registry.specs.get(h.name)!;
      if (spec.condition === null || spec.condition(context)) matched.push(h);
    }
    for (const h of matched) {
      const result = h.fn(context);
      if (result === null) continue;
      if (result.new_payload !== undefined) context.payload = result.new_payload;
      if (context.decision !== 'terminate') {
        context.decision = result.decision;
        if (result.decision !== 'continue') context.decided_by = h.name;
      }
      if (context.decision === 'stop_propagation') break;
      if (context.decision === 'block_action' || context.decision === 'terminate') {
        context.blocked = true;
        context.block_reason = result.reason;
        break;
      }
    }
    return context;
  }
}

type Cond = (c: HookContext) => boolean;

/** A dotted `payload.a.b` getter. */
function getter(path: string): (c: HookContext) => JsonValue | undefined {
  const keys = path.split('.').slice(1);
  if (keys.length === 1) {
    const k = keys[0]!;
    return (c) => c.payload[k];
  }
  return (c) => {
    let v: JsonValue | undefined = c.payload;
    for (const k of keys) {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
      v = (v as JsonObject)[k];
    }
    return v;
  };
}

/** The JSON conditions of the workload as closures (eq, in, regex, gt/gte/lt/lte, all, any). */
export function compileCondition(cond: JsonObject): Cond {
  const parts: Cond[] = Object.entries(cond).map(([key, operand]): Cond => {
    if (key === 'all') {
      const cs = (operand as JsonObject[]).map(compileCondition);
      return (c) => cs.every((f) => f(c));
    }
    if (key === 'any') {
      const cs = (operand as JsonObject[]).map(compileCondition);
      return (c) => cs.some((f) => f(c));
    }
    const get = getter(key);
    if (typeof operand !== 'object' || operand === null) return (c) => get(c) === operand;
    // Several operators on one path all hold (`{ gte: 10, lt: 20 }`).
    const ops = Object.entries(operand).map(([op, v]) => operator(get, op, v as JsonValue));
    return ops.length === 1 ? ops[0]! : (c) => ops.every((f) => f(c));
  });
  return parts.length === 1 ? parts[0]! : (c) => parts.every((p) => p(c));
}

function operator(get: (c: HookContext) => JsonValue | undefined, op: string, v: JsonValue): Cond {
  switch (op) {
    case 'in': {
      const set = new Set(v as JsonValue[]);
      return (c) => set.has(get(c) as never);
    }
    case 'regex': {
      const re = new RegExp(v as string);
      return (c) => {
        const x = get(c);
        return typeof x === 'string' && re.test(x);
      };
    }
    case 'gt': return (c) => { const x = get(c); return typeof x === 'number' && x > (v as number); };
    case 'gte': return (c) => { const x = get(c); return typeof x === 'number' && x >= (v as number); };
    case 'lt': return (c) => { const x = get(c); return typeof x === 'number' && x < (v as number); };
    case 'lte': return (c) => { const x = get(c); return typeof x === 'number' && x <= (v as number); };
    default: throw new Error(`hookManager port: no operator ${op}`);
  }
}

/** The same audit record Hookwire's audit handler writes, so both sides do the same work per handler. */
function auditRecord(handler: string, c: HookContext, event: HookEvent): JsonObject {
  return { handler, level: 'info', trace_id: c.trace_id, agent_id: c.agent_id, user_id: null, event_id: event.event_id, event_type: c.event_type, tool_name: c.payload.tool_name ?? null, timestamp: '2026-01-01T00:00:00.000Z' };
}

/**
 * Registers the workload's pipeline (event → matcher → handler) with a HookManager: a prefix or `*` pattern
 * becomes the list of lifecycle types it covers (the seed has no wildcards). `compile` turns a JSON condition
 * into the spec's condition (the port's closures, or a library's).
 */
export function managerFor(doc: PipelineInput, compile: (when: JsonObject) => Cond = compileCondition): { manager: HookManager; audit: { log: JsonObject[]; event: HookEvent | null } } {
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const from = new Map(doc.wires.map((w) => [w.to, w.from]));
  const manager = new HookManager();
  const audit = { log: [] as JsonObject[], event: null as HookEvent | null };
  for (const node of doc.nodes) {
    if (node.kind !== 'handler') continue;
    const matcher = byId.get(from.get(node.id)!)!;
    const ev = byId.get(from.get(matcher.id)!)!;
    if (matcher.kind !== 'matcher' || ev.kind !== 'event') throw new Error('bench pipelines are event → matcher → handler');
    const p = ev.pattern;
    const types = p === '*' ? [...LIFECYCLE_EVENT_TYPES] : p.endsWith('.*') ? LIFECYCLE_EVENT_TYPES.filter((t) => t.startsWith(p.slice(0, -1))) : [p];
    const action = node.action;
    const name = node.id;
    const fn = action.type === 'block'
      ? (): HookResult => ({ decision: 'block_action', reason: action.reason ?? '' })
      : (c: HookContext): HookResult | null => {
          audit.log.push(auditRecord(name, c, audit.event!));
          return null;
        };
    manager.register({ event_types: types, handler_name: name, condition: compile(matcher.when as JsonObject), order: node.order ?? 100 }, { name, fn, order: node.order ?? 100 });
  }
  return { manager, audit };
}
