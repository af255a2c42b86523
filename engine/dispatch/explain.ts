import { compare } from 'fast-json-patch';
import type { HookEvent } from '../model/event.ts';
import type { JsonObject } from '../model/json.ts';
import { ownGet } from '../model/json.ts';
import type { Scope } from '../match/path.ts';
import type { CompiledHandler, CompiledPipeline } from './compilePipeline.ts';
import { breakerOpenUntil, finishChain, runSafely, settle, startChain, type Chain } from './chain.ts';
import type { DispatchEnv } from './dispatch.ts';
import type { ConditionExplain, DispatchResult, DispatchState, Explanation, HandlerExplain, MatcherExplain, PathExplain, StateChange } from './types.ts';

/**
 * Explain mode [X1]-[X5]: the same chain as `dispatch`, evaluated without indexes so that every handler
 * gets a status and every clause its verdict. Reaches the same decision, payload and state as `dispatch`.
 */
export function explainEvent(compiled: CompiledPipeline, event: HookEvent, state: DispatchState, env: DispatchEnv): { result: DispatchResult; explanation: Explanation } {
  const plan = compiled.plan(event.type);
  const sync = plan.mode === 'sync';
  const now = env.clock.now();
  const timer = env.timer ?? (() => 0);
  const c = startChain(event, state, sync);
  const scope: Scope = { event, payload: event.payload, state: state.vars, now };
  let memo: (ConditionExplain | undefined)[] = [];
  const handlers: HandlerExplain[] = [];
  let endedBy: string | null = null;

  for (const h of compiled.handlers) {
    const live = plan.paths[h.rank];
    if (!h.node.enabled) {
      handlers.push(h.disabledExplain);
      continue;
    }
    if (!live) {
      handlers.push(h.wrongTypeExplain);
      continue;
    }
    const base = { handler_id: h.id, name: h.name, action: h.node.action.type, order: h.node.order, shadow: h.node.shadow };
    if (endedBy !== null) {
      handlers.push({ ...base, status: 'not_reached', paths: [], ended_by: endedBy });
      continue;
    }
    const openUntil = breakerOpenUntil(c.breakers, h, now);
    if (openUntil !== 0) {
      handlers.push({ ...base, status: 'breaker_open', paths: [], breaker_open_until: openUntil });
      continue;
    }
    const paths = explainPaths(compiled, h, live, scope, memo);
    if (!paths.some((p) => p.pass)) {
      handlers.push({ ...base, status: 'not_matched', paths });
      continue;
    }
    const payloadBefore = c.payload;
    const varsBefore = c.vars;
    const t0 = timer();
    const r = runSafely(h, scope);
    const elapsed = timer() - t0;
    settle(c, h, r, event, now);
    handlers.push(describeRun(base, paths, r, c, payloadBefore, varsBefore, r.duration_ms ?? elapsed));
    if (sync && c.decision !== 'continue') endedBy = c.decidedBy;
    if (c.changed) {
      scope.payload = c.payload;
      scope.state = c.vars;
      memo = [];
    }
  }

  const result = finishChain(c, state, plan.mode);
  const precedence = precedenceNote(handlers, result, sync);
  return {
    result,
    explanation: {
      event_id: event.event_id,
      event_type: event.type,
      trace_id: event.trace_id,
      mode: plan.mode,
      handlers,
      decision: result.decision,
      reason: result.reason,
      decided_by: result.decided_by,
      ...(precedence ? { precedence } : {}),
      payload_before: event.payload,
      payload_after: result.payload,
      patch: result.payload === event.payload ? [] : compare(event.payload, result.payload),
      state_before: state.vars,
      state_after: result.state.vars,
      errors: result.errors,
      audit: result.audit,
    },
  };
}

function explainPaths(compiled: CompiledPipeline, h: CompiledHandler, live: Int32Array, scope: Scope, memo: (ConditionExplain | undefined)[]): PathExplain[] {
  const liveSet = new Set(live);
  return h.paths.map((p, i) => {
    const out: PathExplain = { nodes: [...p.nodes], event_node_id: p.eventNodeId, pattern: p.pattern.text, type_matched: liveSet.has(i), matchers: [], pass: false };
    if (!out.type_matched) return out;
    out.pass = true;
    for (const mi of p.matchers) {
      const m = compiled.matchers[mi]!;
      const cached = memo[mi] !== undefined;
      const condition = memo[mi] ?? (memo[mi] = m.explain(scope));
      const me: MatcherExplain = { matcher_id: m.id, label: m.label, pass: condition.pass, cached, condition };
      out.matchers.push(me);
      if (!condition.pass) {
        out.pass = false;
        break;
      }
    }
    return out;
  });
}

function describeRun(
  base: Pick<HandlerExplain, 'handler_id' | 'name' | 'action' | 'order' | 'shadow'>,
  paths: PathExplain[],
  r: ReturnType<typeof runSafely>,
  c: Chain,
  payloadBefore: JsonObject,
  varsBefore: JsonObject,
  duration: number,
): HandlerExplain {
  const out: HandlerExplain = { ...base, status: r.ok ? 'fired' : 'error', paths, duration_ms: duration };
  if (!r.ok) {
    out.error = c.lastError!;
    if (r.logs?.length) out.logs = r.logs;
    return out;
  }
  const o = r.outcome;
  out.decision = o.decision;
  if (o.reason) out.reason = o.reason;
  if (c.lastIgnored) out.ignored = c.lastIgnored;
  if (o.logs?.length) out.logs = o.logs;
  // A shadow handler's would-be rewrite is shown too, against the payload it saw.
  const after = c.lastIgnored === 'shadow' ? o.new_payload ?? payloadBefore : c.payload;
  if (after !== payloadBefore) out.patch = compare(payloadBefore, after);
  const patch = o.state_patch;
  if (patch) {
    const changes: StateChange[] = Object.keys(patch).map((key) => {
      const before = ownGet(varsBefore, key);
      const value = patch[key];
      return { key, before, after: value === null ? undefined : value };
    });
    if (changes.length) out.state_changes = changes;
  }
  return out;
}

/** Says which decision won and why, when more than one handler decided something other than CONTINUE [D5]. */
function precedenceNote(handlers: HandlerExplain[], result: DispatchResult, sync: boolean): string | undefined {
  const deciders = handlers.filter((h) => (h.decision && h.decision !== 'continue') || (h.error && h.error.policy !== 'continue' && h.error.policy !== 'logged'));
  if (!sync && deciders.length > 0) return 'This event is async: decisions are reported but never enforced.';
  if (deciders.length < 2) return undefined;
  const winner = handlers.find((h) => h.handler_id === result.decided_by);
  const others = deciders.filter((h) => h !== winner).map((h) => `"${h.name}" ${h.ignored === 'shadow' ? 'would have decided' : 'decided'} ${(h.decision ?? h.error?.policy ?? '').toUpperCase()}${h.ignored === 'shadow' ? ' (shadow, not enforced)' : ''}`);
  return `${result.decision.toUpperCase()} from "${winner?.name ?? result.decided_by}" is effective (TERMINATE > BLOCK_ACTION > STOP_PROPAGATION > CONTINUE); also: ${others.join('; ')}.`;
}
