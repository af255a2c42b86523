import jsonPatch from 'fast-json-patch';

// The package is CommonJS: its default export works the same under Node's ESM loader and Vite.
const { compare } = jsonPatch;
import type { HookEvent } from '../model/event.ts';
import type { JsonObject } from '../model/json.ts';
import { ownGet } from '../model/json.ts';
import type { Scope } from '../match/path.ts';
import type { CompiledHandler, CompiledPipeline } from '../compile/compilePipeline.ts';
import { breakerBlocks, breakerOpenUntil, finishChain, matcherFailed, runSafely, settle, startChain, whileOpen, type Chain } from './chain.ts';
import { verdictOfExplain } from '../compile/compileMatcher.ts';
import type { DispatchEnv } from './dispatch.ts';
import type { DispatchResult, DispatchState, Explanation, HandlerExplain, MatcherExplain, PathExplain, StateChange } from './types.ts';
import type { ConditionExplain } from '../match/types.ts';

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
  // Matcher explanations of this event, reused across paths [M6]; a new epoch forgets them after a rewrite.
  const memo = explainMemo(compiled);
  const handlers: HandlerExplain[] = [];
  let endedBy: string | null = null;
  const deciders: Decider[] = [];

  for (const h of compiled.handlers) {
    const live = plan.paths[h.rank];
    if (!h.node.enabled) {
      handlers.push(fixedExplain(h, 'disabled'));
      continue;
    }
    if (!live) {
      handlers.push(fixedExplain(h, 'wrong_event_type'));
      continue;
    }
    if (endedBy !== null) {
      handlers.push({ handler_id: h.id, name: h.name, action: h.node.action.type, order: h.node.order, status: 'not_reached', shadow: h.node.shadow, paths: [], ended_by: endedBy });
      continue;
    }
    const openUntil = breakerOpenUntil(c.breakers, h, now);
    if (openUntil !== 0 && whileOpen(h) === 'skip') {
      handlers.push({ handler_id: h.id, name: h.name, action: h.node.action.type, order: h.node.order, status: 'breaker_open', shadow: h.node.shadow, paths: [], breaker_open_until: openUntil });
      continue;
    }
    const paths = explainPaths(compiled, h, live, scope, memo);
    const failure = paths.some((p) => p.pass) ? null : paths.find((p) => p.matcher_failure)?.matcher_failure ?? null;
    if (!paths.some((p) => p.pass) && !failure) {
      handlers.push({ handler_id: h.id, name: h.name, action: h.node.action.type, order: h.node.order, status: 'not_matched', shadow: h.node.shadow, paths });
      continue;
    }
    if (openUntil !== 0) {
      // [E3] while_open: block — the guard matches but cannot run: the action is blocked.
      const out: Extract<HandlerExplain, { status: 'breaker_open' }> = { handler_id: h.id, name: h.name, action: h.node.action.type, order: h.node.order, status: 'breaker_open', shadow: h.node.shadow, paths, breaker_open_until: openUntil };
      if (breakerBlocks(c, h, openUntil)) {
        out.decision = 'block_action';
        out.reason = c.reason;
        deciders.push(out);
        endedBy = h.id;
      }
      handlers.push(out);
      continue;
    }
    const payloadBefore = c.payload;
    const varsBefore = c.vars;
    const t0 = timer();
    // [M8][E1] a code matcher that could not answer: the handler's error policy decides, as on the fast path.
    const r = failure ? matcherFailed(compiled, failure) : runSafely(h, scope);
    const elapsed = timer() - t0;
    settle(c, h, r, event, now);
    const ran = describeRun(h, paths, r, c, payloadBefore, varsBefore, r.duration_ms ?? elapsed);
    handlers.push(ran);
    if (ran.status === 'fired' ? ran.decision !== 'continue' : ran.error.policy !== 'continue' && ran.error.policy !== 'logged') deciders.push(ran);
    if (c.ended) endedBy = h.id;
    if (c.changed) {
      scope.payload = c.payload;
      scope.state = c.vars;
      memo.epoch++;
    }
  }

  const result = finishChain(c, state, plan.mode);
  const precedence = precedenceNote(deciders, result, sync);
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
      context: result.context,
    },
  };
}

const fixedExplains = new WeakMap<CompiledHandler, { disabled: HandlerExplain; wrong_event_type: HandlerExplain }>();

/** Shared, frozen explanations for the statuses that need no evaluation, built once per compiled handler. */
function fixedExplain(h: CompiledHandler, status: 'disabled' | 'wrong_event_type'): HandlerExplain {
  let fixed = fixedExplains.get(h);
  if (!fixed) {
    const staticPaths: PathExplain[] = h.paths.map((p) =>
      Object.freeze({ nodes: p.nodes as string[], event_node_id: p.eventNodeId, pattern: p.pattern.text, type_matched: false, matchers: [], pass: false }),
    );
    const make = (s: typeof status, ps: PathExplain[]): HandlerExplain =>
      Object.freeze({ handler_id: h.node.id, name: h.node.name, action: h.node.action.type, order: h.node.order, status: s, shadow: h.node.shadow, paths: ps });
    fixed = { disabled: make('disabled', []), wrong_event_type: make('wrong_event_type', staticPaths) };
    fixedExplains.set(h, fixed);
  }
  return fixed[status];
}

interface ExplainMemo {
  epoch: number;
  epochs: Int32Array;
  values: (ConditionExplain | undefined)[];
}

const memos = new WeakMap<CompiledPipeline, ExplainMemo>();

/** One memo per compiled pipeline, reused from event to event: a fresh epoch per event, no per-event array. */
function explainMemo(compiled: CompiledPipeline): ExplainMemo {
  let memo = memos.get(compiled);
  if (!memo) memos.set(compiled, (memo = { epoch: 0, epochs: new Int32Array(compiled.matchers.length), values: new Array<ConditionExplain | undefined>(compiled.matchers.length).fill(undefined) }));
  if (++memo.epoch >= 0x3fffffff) {
    memo.epoch = 1;
    memo.epochs.fill(0);
  }
  return memo;
}

function explainPaths(compiled: CompiledPipeline, h: CompiledHandler, live: Int32Array, scope: Scope, memo: ExplainMemo): PathExplain[] {
  return h.paths.map((p, i) => {
    const out: PathExplain = { nodes: p.nodes as string[], event_node_id: p.eventNodeId, pattern: p.pattern.text, type_matched: live.includes(i), matchers: [], pass: false };
    if (!out.type_matched) return out;
    out.pass = true;
    const ms = p.matchers;
    for (let k = 0; k < ms.length; k++) {
      const mi = ms[k]!;
      const m = compiled.matchers[mi]!;
      const cached = memo.epochs[mi] === memo.epoch;
      let condition = memo.values[mi]!;
      if (!cached) {
        condition = m.explain(scope);
        memo.values[mi] = condition;
        memo.epochs[mi] = memo.epoch;
      }
      const me: MatcherExplain = { matcher_id: m.id, label: m.label, pass: condition.pass, cached, condition };
      out.matchers.push(me);
      const verdict = verdictOfExplain(m.id, condition);
      if (verdict === false) {
        out.pass = false;
        delete out.matcher_failure;
        break;
      }
      // A code matcher that could not answer: the rest of the path is still tried (a failing condition
      // after it means the path does not match at all) [M8].
      if (verdict !== true) {
        out.pass = false;
        out.matcher_failure ??= verdict;
      }
    }
    return out;
  });
}

type Ran = Extract<HandlerExplain, { status: 'fired' | 'error' }>;
/** A handler whose decision counts for the precedence note: it ran, or its open breaker blocked [E3]. */
type Decider = Ran | Extract<HandlerExplain, { status: 'breaker_open' }>;

function describeRun(
  h: CompiledHandler,
  paths: PathExplain[],
  r: ReturnType<typeof runSafely>,
  c: Chain,
  payloadBefore: JsonObject,
  varsBefore: JsonObject,
  duration: number,
): Ran {
  if (!r.ok) {
    // settle() recorded the error the policy decided on; a failed run always has one.
    const error = c.lastError;
    if (!error) throw new Error(`internal: handler "${h.id}" failed without a recorded error`);
    const failed: Ran = { handler_id: h.id, name: h.name, action: h.node.action.type, order: h.node.order, status: 'error', shadow: h.node.shadow, paths, error, duration_ms: duration };
    if (r.logs?.length) failed.logs = r.logs;
    return failed;
  }
  const o = r.outcome;
  const out: Extract<HandlerExplain, { status: 'fired' }> = { handler_id: h.id, name: h.name, action: h.node.action.type, order: h.node.order, status: 'fired', shadow: h.node.shadow, paths, decision: o.decision, duration_ms: duration };
  if (o.reason) out.reason = o.reason;
  if (o.context !== undefined) out.context = o.context;
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
function precedenceNote(deciders: Decider[], result: DispatchResult, sync: boolean): string | undefined {
  if (!sync && deciders.length > 0) return 'This event is async: decisions are reported but never enforced.';
  if (deciders.length < 2) return undefined;
  const winner = deciders.find((h) => h.handler_id === result.decided_by);
  const others = deciders.filter((h) => h !== winner).map((h) => {
    const shadow = h.status === 'fired' && h.ignored === 'shadow';
    return `"${h.name}" ${shadow ? 'would have decided' : 'decided'} ${(h.status === 'error' ? h.error.policy : h.decision ?? '').toUpperCase()}${shadow ? ' (shadow, not enforced)' : ''}`;
  });
  return `${result.decision.toUpperCase()} from "${winner?.name ?? result.decided_by}" is effective (TERMINATE > BLOCK_ACTION > ASK > STOP_PROPAGATION > CONTINUE); also: ${others.join('; ')}.`;
}
