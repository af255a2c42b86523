import type { HandlerNode } from '../model/pipelineTypes.ts';
import type { JsonPath, Problem } from '../model/problem.ts';
import type { JsonObject, JsonValue } from '../model/json.ts';
import { ownGet } from '../model/json.ts';
import { requireIsoTime } from '../model/time.ts';
import { compileGetter, parsePath, type Getter, type Scope } from '../match/path.ts';
import { compileTemplate, type Template } from '../match/template.ts';
import type { ActionCompileOptions, ActionResult, CompiledAction, PlainAudit, RecordSpares, ResultSlot } from './types.ts';
import type { HandlerOutcome } from '../sandbox/types.ts';
import type { Decision } from '../model/decision.ts';
import { compileRewrite } from './rewrite.ts';
import { compileCodeAction } from './codeAction.ts';
import { compileFlowRule, flowFires, flowReason } from './flowRule.ts';

/** The decision of each reason-only action [H3][H10]. */
const DECISION_OF = { block: 'block_action', terminate: 'terminate', stop: 'stop_propagation', ask: 'ask' } as const;

/** Compiles a handler's action [H3]-[H11]; problems are pushed with their JSON path under `at`. */
export function compileAction(node: HandlerNode, at: JsonPath, problems: Problem[], options: ActionCompileOptions): CompiledAction | null {
  const action = node.action;
  const here = [...at, 'action'];
  const push = (code: Problem['code'], path: JsonPath, message: string) =>
    problems.push({ code, severity: 'error', path, message, node_id: node.id });
  const template = (text: string | undefined, field: string, fallback: string): Template | null => {
    const compiled = compileTemplate(text ?? fallback);
    if (compiled.ok) return compiled.render;
    push(compiled.message.startsWith('unclosed') ? 'bad_template' : 'bad_path', [...here, field], compiled.message);
    return null;
  };
  const getter = (text: string, path: JsonPath): Getter | null => {
    const parsed = parsePath(text);
    if (parsed.ok) return compileGetter(parsed.path);
    push('bad_path', path, parsed.message);
    return null;
  };

  switch (action.type) {
    case 'block':
    case 'terminate':
    case 'stop':
    case 'ask': {
      const reason = template(action.reason, 'reason', '');
      if (!reason) return null;
      const decision = DECISION_OF[action.type];
      return { rewrites: [], run: (scope, into) => (into === undefined ? new ActionOk({ decision, reason: reason(scope) }) : fill(into, decision, reason(scope), undefined, undefined, undefined, undefined)) };
    }
    case 'add_context': {
      // [H11] the text for the model; the decision stays CONTINUE, so later handlers run and see the same payload.
      const text = template(action.text, 'text', '');
      if (!text) return null;
      return { rewrites: [], run: (scope, into) => (into === undefined ? new ActionOk({ decision: 'continue', context: text(scope) }) : fill(into, 'continue', undefined, text(scope), undefined, undefined, undefined)) };
    }
    case 'rewrite': {
      const compiled = compileRewrite(action.ops);
      if (!compiled.ok) {
        for (const e of compiled.errors) push(e.code, [...here, 'ops', e.index, e.field], e.message);
        return null;
      }
      const { rewrite } = compiled;
      return {
        rewrites: compiled.fields,
        run: (scope) => {
          const next = rewrite(scope.payload);
          return new ActionOk(next === scope.payload ? { decision: 'continue' } : { decision: 'continue', new_payload: next });
        },
      };
    }
    case 'audit': {
      const message = action.message === undefined ? null : template(action.message, 'message', '');
      if (action.message !== undefined && !message) return null;
      const fields: [string, Getter][] = [];
      for (const [i, f] of (action.fields ?? []).entries()) {
        const g = getter(f, [...here, 'fields', i]);
        if (!g) return null;
        fields.push([f, g]);
      }
      const { level } = action;
      const { name } = node;
      if (message === null && fields.length === 0) {
        const record: PlainAudit = { handler: name, level };
        return {
          rewrites: [],
          record,
          run: (scope, into) => (into === undefined ? new ActionOk(new AuditOutcome(plainRecord(record, scope, undefined))) : fill(into, 'continue', undefined, undefined, undefined, undefined, pooledRecord(record, scope, into.spares))),
        };
      }
      return {
        rewrites: [],
        run: (scope, into) => {
          const record = auditRecord(scope, name, level, message, fields);
          return into === undefined ? new ActionOk(new AuditOutcome(record)) : fill(into, 'continue', undefined, undefined, undefined, undefined, record);
        },
      };
    }
    case 'budget': {
      const amountOf = action.amount_path === undefined ? null : getter(action.amount_path, [...here, 'amount_path']);
      if (action.amount_path !== undefined && !amountOf) return null;
      const fixed = action.amount ?? 1;
      const { key, limit } = action;
      const decision = action.on_exceed === 'terminate' ? 'terminate' : 'block_action';
      const reason = template(action.reason, 'reason', `Budget "${key}" exceeded: {{state.${key}}} > ${limit}`);
      if (!reason) return null;
      return {
        rewrites: [],
        run: (scope) => {
          const current = ownGet(scope.state, key);
          const base = typeof current === 'number' ? current : 0;
          const raw = amountOf ? amountOf(scope) : fixed;
          const total = base + (typeof raw === 'number' && Number.isFinite(raw) ? raw : 0);
          const state_patch: JsonObject = {};
          Object.defineProperty(state_patch, key, { value: total, enumerable: true, writable: true, configurable: true });
          if (total <= limit) return new ActionOk({ decision: 'continue', state_patch });
          // The reason sees the new total, so "{{state.tokens}}" reads what was just counted.
          const after = { ...scope, state: { ...scope.state, ...state_patch } };
          return new ActionOk({ decision, reason: reason(after), state_patch });
        },
      };
    }
    case 'code':
      return compileCodeAction(node, action, here, problems, options);
    case 'flow': {
      // [F3] reads the memory of the session's earlier events (`scope.flows`); remembering this event is
      // `observeFlows`, after the step, so an event never decides itself.
      const rule = compileFlowRule(node, action, here, problems);
      if (!rule) return null;
      const { decision } = rule;
      return {
        rewrites: [],
        flow: rule,
        run: (scope, into) => {
          if (!flowFires(rule, scope)) return into === undefined ? new ActionOk({ decision: 'continue' }) : fill(into, 'continue', undefined, undefined, undefined, undefined, undefined);
          const reason = flowReason(rule, scope);
          return into === undefined ? new ActionOk({ decision, reason }) : fill(into, decision, reason, undefined, undefined, undefined, undefined);
        },
      };
    }
  }
}

/**
 * A plain audit record for the next place of a reused result's list: the spare record there written over, or a
 * new one left there for the next events (a hot loop audits without allocating); without spares, a new one.
 */
export function pooledRecord(audit: PlainAudit, scope: Scope, spares: RecordSpares | null): JsonObject {
  const pool = spares !== null ? spares.spareAudit : null;
  if (pool === null) return plainRecord(audit, scope, undefined);
  const at = spares!.auditCount;
  const spare = pool[at];
  if (spare !== undefined) return plainRecord(audit, scope, spare);
  return (pool[at] = plainRecord(audit, scope, undefined));
}

/** A plain audit's record, written over `spare` (a plain record, as this function makes them) when given. */
export function plainRecord(audit: PlainAudit, scope: Scope, spare: JsonObject | undefined): JsonObject {
  return refill(spare !== undefined ? (spare as unknown as AuditEntry) : new AuditEntry(), scope, audit.handler, audit.level);
}

/** `into` overwritten with an ok outcome (every field written, so nothing of an earlier handler's remains). */
function fill(into: ResultSlot, decision: Decision, reason: string | undefined, context: string | undefined, new_payload: JsonObject | undefined, state_patch: JsonObject | undefined, audit: JsonObject | undefined): ActionResult {
  const o = into.outcome;
  o.decision = decision;
  o.reason = reason;
  o.context = context;
  o.new_payload = new_payload;
  o.state_patch = state_patch;
  o.logs = undefined;
  o.audit = audit;
  return into;
}

function auditRecord(scope: Scope, handler: string, level: string, message: Template | null, fields: [string, Getter][]): JsonObject {
  const record = refill(new AuditEntry(), scope, handler, level);
  if (message) record.message = message(scope);
  if (fields.length) {
    const values: JsonObject = {};
    for (const [name, get] of fields) Object.defineProperty(values, name, { value: get(scope) ?? null, enumerable: true, writable: true, configurable: true });
    record.fields = values;
  }
  return record;
}

/** An audit record's fields written into `r` (a new record, or a reused result's record of an earlier event). */
function refill(r: AuditEntry, scope: Scope, handler: string, level: string): JsonObject {
  const e = scope.event;
  // Plain indexing: no prototype has `user_id` or `tool_name`, so only an own property is found [V8].
  const userId = e.meta ? e.meta.user_id : undefined;
  const toolName = scope.payload.tool_name;
  r.handler = handler;
  r.level = level;
  r.trace_id = e.trace_id;
  r.agent_id = e.agent_id;
  r.user_id = userId ?? null;
  r.event_id = e.event_id;
  r.event_type = e.type;
  r.tool_name = toolName ?? null;
  r.timestamp = requireIsoTime(scope.now);
  return r as unknown as JsonObject;
}

/**
 * What a built-in action returns when it has no slot to fill (explain mode, a fresh dispatch): class
 * instances, not object literals, like the audit record below and explain mode's run records. V8 pretenures
 * by literal allocation site: a site whose objects are caught alive by young collections (they live until
 * their event is explained, and an event through 1000 broad handlers makes ~120 of each) can be switched to
 * old-space allocation for good, and in 1 of 3 processes explain mode then ran at ~45 µs per event instead of
 * ~20 (`--no-allocation-site-pretenuring`: 0 of 10). Instances of a class are not pretenured by site (0 of 14).
 */
class ActionOk {
  readonly ok = true;
  constructor(readonly outcome: HandlerOutcome) {}
}

class AuditOutcome {
  readonly decision = 'continue';
  constructor(readonly audit: JsonObject) {}
}

/**
 * An audit record; its fields in the order JSON writes them, then `message` and `fields` when set (`refill` sets
 * them; a reused result's plain records are set again).
 */
class AuditEntry {
  handler = '';
  level = '';
  trace_id = '';
  agent_id = '';
  user_id: JsonValue = null;
  event_id = '';
  event_type = '';
  tool_name: JsonValue = null;
  timestamp = '';
}
