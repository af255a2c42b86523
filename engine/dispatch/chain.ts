import { decisionRank, endsChain, type Decision } from '../model/decision.ts';
import type { HookEvent } from '../model/event.ts';
import { ownGet, type JsonObject } from '../model/json.ts';
import type { Scope } from '../match/path.ts';
import type { ActionResult, ResultSlot } from '../compile/types.ts';
import { pooledRecord } from '../compile/actions.ts';
import type { CompiledHandler, CompiledPipeline } from '../compile/compilePipeline.ts';
import type { MatcherFailure } from '../compile/compileMatcher.ts';
import { breakerWhileOpen } from '../model/pipelineTypes.ts';
import type { BreakerState, DispatchResult, DispatchState, HandlerError } from './types.ts';
import { classList, finish, moveUp, roomOf, type ExactLists } from '../accel/exactLists.ts';

/**
 * The part of dispatch that the fast path and explain mode share, so they cannot disagree [X5]: running a
 * handler safely, the breaker, the error policy, shadow and async rules, applying outcomes, and the
 * decision fold.
 */
export interface Chain {
  sync: boolean;
  decision: Decision;
  reason: string;
  decidedBy: string | null;
  payload: JsonObject;
  vars: JsonObject;
  breakers: Readonly<Record<string, BreakerState>>;
  errors: HandlerError[] | null;
  /** The audit records so far: `audit[0 … auditCount)`. */
  audit: JsonObject[] | null;
  auditCount: number;
  /** With a reused result: the length class of `audit` and `context` (see exactLists.ts). */
  auditClass: number;
  contextClass: number;
  /** A reused result's plain records of earlier events, for the audit actions to write over (see `RecordSpares`). */
  spareAudit: JsonObject[] | null;
  /** Texts for the model, in handler order [H11]: `context[0 … contextCount)`. */
  context: string[] | null;
  contextCount: number;
  /** A reused result's lists (see `dispatch`'s `into`): `audit` and `context` are lists of its classes. */
  arrays: ResultArrays | null;
  /** Set by `settle` when the handler that just ran ended the chain (its own decision, or its error policy) [D2]-[D4][D9]. */
  ended: boolean;
  /** Set by `settle` when the payload or state changed (matchers must be evaluated afresh [M6]). */
  changed: boolean;
  lastError: HandlerError | null;
  lastIgnored: 'shadow' | 'async' | undefined;
}

/**
 * The arrays a caller's reused result carries from event to event (see `dispatch`'s `into`): the chain writes
 * its records and texts over them instead of making new arrays.
 */
export interface ResultArrays {
  /** The lists the result hands out, written from the start at each event (exactLists.ts). */
  audit: ExactLists<JsonObject>;
  context: ExactLists<string>;
  /**
   * The plain audit records made for this result, by position, kept when the list is cut to a shorter
   * event's: the next events' audit actions overwrite them in turn (see `RecordSpares`).
   */
  spareAudit: JsonObject[];
}

/**
 * A chain for one event; `into` reuses an object (the fast path keeps one per compiled pipeline), `arrays`
 * the caller's result arrays.
 */
export function startChain(event: HookEvent, state: DispatchState, sync: boolean, into?: Chain, arrays: ResultArrays | null = null): Chain {
  if (!into) {
    return {
      sync, decision: 'continue', reason: '', decidedBy: null, payload: event.payload, vars: state.vars, breakers: state.breakers,
      errors: null, audit: arrays !== null ? classList(arrays.audit, 0) : null, auditCount: 0, auditClass: 0, contextClass: 0,
      spareAudit: arrays !== null ? arrays.spareAudit : null, context: arrays !== null ? classList(arrays.context, 0) : null, contextCount: 0, arrays,
      ended: false, changed: false, lastError: null, lastIgnored: undefined,
    };
  }
  into.sync = sync;
  into.decision = 'continue';
  into.reason = '';
  into.decidedBy = null;
  into.payload = event.payload;
  into.vars = state.vars;
  into.breakers = state.breakers;
  into.errors = null;
  into.audit = arrays !== null ? classList(arrays.audit, 0) : null;
  into.auditCount = 0;
  into.auditClass = 0;
  into.contextClass = 0;
  into.spareAudit = arrays !== null ? arrays.spareAudit : null;
  into.context = arrays !== null ? classList(arrays.context, 0) : null;
  into.contextCount = 0;
  into.arrays = arrays;
  into.ended = false;
  into.changed = false;
  into.lastError = null;
  into.lastIgnored = undefined;
  return into;
}

/** A result slot for `runSafely` (one per chain loop's scratch). */
export function resultSlot(): ResultSlot {
  return { ok: true, spares: null, outcome: { decision: 'continue', reason: undefined, context: undefined, new_payload: undefined, state_patch: undefined, logs: undefined, audit: undefined } };
}

const EMPTY: never[] = Object.freeze([]) as unknown as never[];

/** The chain's result; written into `into` when given (the fast path's caller-owned result, see `dispatch`). */
export function finishChain(c: Chain, state: DispatchState, mode: DispatchResult['mode'], into?: DispatchResult): DispatchResult {
  // Flow memory is not a handler's to change [F3]: it goes on as it came (the step remembers the event after).
  const next = c.vars === state.vars && c.breakers === state.breakers ? state : state.flows === undefined ? { vars: c.vars, breakers: c.breakers } : { vars: c.vars, breakers: c.breakers, flows: state.flows };
  // A fresh list was made for this result at its length; a reused result hands out its list of that length.
  const a = c.arrays;
  const audit = c.auditCount === 0 ? EMPTY : a !== null ? finish(a.audit, c.audit!, c.auditCount) : c.audit!;
  const context = c.contextCount === 0 ? EMPTY : a !== null ? finish(a.context, c.context!, c.contextCount) : c.context!;
  return fillResult(into, c.decision, c.reason, c.decidedBy, c.payload, next, c.errors ?? EMPTY, audit, context, mode);
}

/** A result: a new object (one shape, all fields in one literal), or `into` overwritten. */
export function fillResult(
  into: DispatchResult | undefined, decision: Decision, reason: string, decided_by: string | null, payload: JsonObject, state: DispatchState,
  errors: HandlerError[], audit: JsonObject[], context: string[], mode: DispatchResult['mode'],
): DispatchResult {
  if (into === undefined) return { decision, reason, decided_by, payload, state, errors, audit, context, mode };
  into.decision = decision;
  into.reason = reason;
  into.decided_by = decided_by;
  into.payload = payload;
  into.state = state;
  into.errors = errors;
  into.audit = audit;
  into.context = context;
  into.mode = mode;
  return into;
}

/** When breaker state `b` is open at `now`, the time it closes; otherwise 0 [E3]. `breakerOpenAt({ failures: 3, open_until: 50 }, 10) === 50`. */
export function breakerOpenAt(b: BreakerState, now: number): number {
  return b.open_until > now ? b.open_until : 0;
}

/** When the breaker of `h` is open at `now`, the time it closes; otherwise 0 [E3]. */
export function breakerOpenUntil(breakers: Readonly<Record<string, BreakerState>>, h: CompiledHandler, now: number): number {
  if (h.breaker === null || !Object.prototype.hasOwnProperty.call(breakers, h.id)) return 0;
  return breakerOpenAt(breakers[h.id]!, now);
}

/** What an open breaker does to an event the handler matches [E3]: `skip` it, or `block` the action. */
export function whileOpen(h: CompiledHandler): 'skip' | 'block' {
  return breakerWhileOpen(h.node);
}

/**
 * An open breaker with `while_open: block` on an enforcing handler of a sync event: the action is blocked,
 * since the guard cannot look at it [E3]. Returns false when the handler is just skipped.
 */
export function breakerBlocks(c: Chain, h: CompiledHandler, until: number): boolean {
  if (!c.sync || h.node.shadow || whileOpen(h) !== 'block') return false;
  decide(c, 'block_action', `Handler "${h.node.name}" is unavailable (its breaker is open until ${new Date(until).toISOString()}), so the action is blocked`, h.id);
  c.ended = true;
  return true;
}

/**
 * Runs a handler's action; a built-in that throws is a bug, but it still goes through the error policy.
 * `into`: the caller's slot for a built-in's result (see `ActionRun`), read by `settle` and then reused.
 */
export function runSafely(h: CompiledHandler, scope: Scope, into?: ResultSlot): ActionResult {
  try {
    return h.run(scope, into);
  } catch (e) {
    return builtinFailure(e);
  }
}

/**
 * A handler whose outcome is one audit record and nothing else (`PlanStep.record`: a plain audit, not shadow,
 * no breaker) applied as `settle` would apply `{ ok, continue, audit }`, without the round trip through a
 * result slot [H8]. A record that cannot be made (an unrepresentable clock) goes through `settle` as the
 * built-in's failure, which is returned (null when the record was made).
 */
export function settleRecord(c: Chain, h: CompiledHandler, scope: Scope, event: HookEvent, now: number): ActionResult | null {
  let record: JsonObject;
  try {
    record = pooledRecord(h.record!, scope, c.spareAudit !== null ? c : null);
  } catch (e) {
    const failed = builtinFailure(e);
    settle(c, h, failed, event, now);
    return failed;
  }
  clearLast(c);
  addAudit(c, record);
  return null;
}

/** Forgets what the handler before did to the chain (`ended`, `changed`, its error and why it was ignored). */
function clearLast(c: Chain): void {
  c.ended = false;
  c.lastError = null;
  c.lastIgnored = undefined;
  c.changed = false;
}

function builtinFailure(e: unknown): ActionResult {
  return { ok: false, error: { kind: 'builtin', message: e instanceof Error ? e.message : String(e) } };
}

/** One more audit record, in handler order. */
function addAudit(c: Chain, record: JsonObject): void {
  // A first entry makes a list of one (most events get one or none), instead of an empty list grown by a
  // push; a reused result's list is written over, and moves up a class when full.
  const n = c.auditCount;
  if (c.audit === null) c.audit = [record];
  else {
    if (c.arrays !== null && n === roomOf(c.auditClass)) c.audit = moveUp(c.arrays.audit, c.auditClass++, c.audit, n);
    c.audit[n] = record;
  }
  c.auditCount = n + 1;
}

/** One more text for the model, in handler order [H11]; as `addAudit`. */
function addContext(c: Chain, text: string): void {
  const n = c.contextCount;
  if (c.context === null) c.context = [text];
  else {
    if (c.arrays !== null && n === roomOf(c.contextClass)) c.context = moveUp(c.arrays.context, c.contextClass++, c.context, n);
    c.context[n] = text;
  }
  c.contextCount = n + 1;
}

/**
 * A code matcher on the handler's path failed to answer [M8]: the handler's result is that failure, so its
 * `on_error` policy decides (block by default) instead of the handler silently not running [E1].
 */
export function matcherFailed(compiled: CompiledPipeline, f: MatcherFailure): ActionResult {
  const m = compiled.matchers.find((x) => x.id === f.matcher_id);
  const where = f.line !== undefined ? ` at line ${f.line}` : '';
  const error: Extract<ActionResult, { ok: false }>['error'] = { kind: f.kind, message: `matcher "${m?.label ?? f.matcher_id}" could not answer (${f.kind}${where}): ${f.message}`, matcher_id: f.matcher_id };
  return { ok: false, error };
}

/** Applies one handler's result to the chain [D5][D7][D9][E1][E2][E3][H8][H11]. */
export function settle(c: Chain, h: CompiledHandler, r: ActionResult, event: HookEvent, now: number): void {
  clearLast(c);
  if (h.breaker !== null) c.breakers = updateBreaker(c.breakers, h.id, h.breaker, !r.ok, now);
  if (!r.ok) {
    const policy = !c.sync || h.shadow ? 'logged' : h.onError;
    const error: HandlerError = {
      kind: r.error.kind as HandlerError['kind'],
      message: r.error.message,
      event_type: event.type,
      trace_id: event.trace_id,
      handler_id: h.id,
      handler_name: h.name,
      policy,
      ...(r.error.line !== undefined ? { line: r.error.line } : {}),
      ...(r.error.column !== undefined ? { column: r.error.column } : {}),
      ...(r.error.matcher_id !== undefined ? { matcher_id: r.error.matcher_id } : {}),
    };
    (c.errors ??= []).push(error);
    c.lastError = error;
    if (policy === 'block' || policy === 'terminate') {
      const where = error.line !== undefined ? ` at line ${error.line}` : '';
      decide(c, policy === 'block' ? 'block_action' : 'terminate', `Handler "${h.name}" failed (${error.kind}${where}): ${error.message}`, h.id);
      c.ended = true;
    }
    return;
  }
  const o = r.outcome;
  if (h.shadow) {
    c.lastIgnored = 'shadow';
    return;
  }
  if (o.new_payload !== undefined && o.new_payload !== c.payload) {
    c.payload = o.new_payload;
    c.changed = true;
  }
  if (o.state_patch !== undefined) {
    const next = patchVars(c.vars, o.state_patch);
    if (next !== c.vars) {
      c.vars = next;
      c.changed = true;
    }
  }
  if (o.audit !== undefined) addAudit(c, o.audit);
  if (o.context !== undefined) addContext(c, o.context);
  if (!c.sync) {
    if (o.decision !== 'continue') c.lastIgnored = 'async';
    return;
  }
  decide(c, o.decision, o.reason ?? '', h.id);
  // [D9] the handler's own decision ends the chain, not the effective one: a STOP after an ASK still stops.
  if (endsChain(o.decision)) c.ended = true;
}

function decide(c: Chain, d: Decision, reason: string, by: string): void {
  if (d === 'continue') return; // the most common outcome never changes the decision
  if (decisionRank(d) > decisionRank(c.decision)) {
    c.decision = d;
    c.reason = reason;
    c.decidedBy = by;
  }
}

/** Top-level keys set; `null` removes. Returns the same object when nothing changes. */
export function patchVars(vars: JsonObject, patch: JsonObject): JsonObject {
  let out: JsonObject | null = null;
  for (const key of Object.keys(patch)) {
    const value = patch[key]!;
    const has = Object.prototype.hasOwnProperty.call(vars, key);
    if (value === null) {
      if (!has) continue;
      out ??= { ...vars };
      delete out[key];
    } else if (!has || ownGet(vars, key) !== value) {
      out ??= { ...vars };
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return out ?? vars;
}

function updateBreaker(
  breakers: Readonly<Record<string, BreakerState>>,
  id: string,
  config: { threshold: number; cooldown_ms: number },
  failed: boolean,
  now: number,
): Readonly<Record<string, BreakerState>> {
  const prev = Object.prototype.hasOwnProperty.call(breakers, id) ? breakers[id]! : { failures: 0, open_until: 0 };
  const failures = failed ? prev.failures + 1 : 0;
  const open_until = failed && failures >= config.threshold ? now + config.cooldown_ms : failed ? prev.open_until : 0;
  if (failures === prev.failures && open_until === prev.open_until) return breakers;
  const next = { ...breakers };
  Object.defineProperty(next, id, { value: { failures, open_until }, enumerable: true, writable: true, configurable: true });
  return next;
}
