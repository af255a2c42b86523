import type { HookEvent } from '../model/event.ts';
import type { JsonObject } from '../model/json.ts';
import type { Scope } from '../match/path.ts';
import type { Chain } from './chain.ts';
import type { MatcherFailure } from '../compile/compileMatcher.ts';
import type { CompiledHandler, CompiledPipeline, TypePlan } from '../compile/compilePipeline.ts';
import { breakerBlocks, breakerOpenUntil, fillResult, finishChain, matcherFailed, runSafely, settle, settleRecord, startChain, whileOpen, type ResultArrays } from './chain.ts';
import { handlerMatches, memoVerdict, nextEpoch, scratchOf, type Scratch } from './scratch.ts';
import { lastMemo } from '../accel/lastMemo.ts';
import { exactLists } from '../accel/exactLists.ts';
import { gatherCandidates } from '../compile/candidateIndex.ts';
import type { DispatchResult, DispatchState } from './types.ts';

/** What dispatch needs from the outside world: time (and, for explanations, a timer for durations) [E4]. */
export interface DispatchEnv {
  clock: { now(): number };
  /** Monotonic milliseconds for handler durations in explanations; omitted: durations are 0. */
  timer?: () => number;
}

/** The state a trace starts with: no variables, no breakers. */
export function initialState(vars: JsonObject = {}): DispatchState {
  return { vars, breakers: {} };
}

/**
 * The fast path [D1]-[D8][E1]-[E4]: runs the candidate handlers of one event in order and returns the
 * decision, the final payload and the next state. Pure in (pipeline, event, state, clock): the inputs are
 * not changed. Candidates come from per-type plans and value indexes, so cost grows slowly with handlers.
 * `dispatch(compiled, event, initialState(), { clock: { now: () => Date.parse(event.ts) } }).decision`.
 *
 * `into`: a result object of the caller's to overwrite and return instead of a new one, for a hot loop that
 * reads each result before the next dispatch. The next dispatch into it also reuses its `audit` and `context`
 * arrays and writes the next event's audit records over the last one's: copy what you keep
 * (`structuredClone(result.audit)`). With it, an event that neither rewrites, changes state, nor blocks, and
 * whose handlers audit (without a message or fields), add a fixed text or do nothing allocates nothing
 * (test/engine/dispatch/allocation.test.ts). Without it, every result and its arrays are fresh and may be kept.
 */
export function dispatch(compiled: CompiledPipeline, event: HookEvent, state: DispatchState, env: DispatchEnv, into?: DispatchResult): DispatchResult {
  const plan = compiled.plan(event.type);
  if (plan.liveCount === 0) return untouched(event, state, plan.mode, into);
  const scratch = scratchOf(compiled);
  // The scratch is this pipeline's one working memory: a second dispatch inside the first (say, from a
  // sandbox implementation that calls back) would corrupt it, so it is refused loudly.
  if (scratch.busy) throw new Error('dispatch re-entered: a dispatch on this compiled pipeline is still running (dispatch is not reentrant)');
  scratch.busy = true;
  try {
    return walkChain(compiled, plan, scratch, event, state, env.clock.now(), into, null);
  } finally {
    scratch.busy = false;
  }
}

/**
 * What explain mode listens to on the one chain walk: the breakers that were met and the handlers that ran.
 * `null` on the fast path. `ran` runs the handler itself (and settles it on the chain), so it can time it.
 */
export interface ChainRecorder {
  breaker(rank: number, blocked: boolean, reason: string): void;
  /** `plain`: the handler's step is a plain audit (`PlanStep.record`), to be settled by `settleRecord`. */
  ran(c: Chain, h: CompiledHandler, failure: MatcherFailure | null, scope: Scope, event: HookEvent, now: number, plain: boolean): void;
}

/**
 * The one loop over an event's candidates, for the fast path and explain mode alike [D1]-[D8][E1]-[E4]: the
 * caller owns `scratch` (and its re-entry guard) and has checked that the plan has live handlers.
 */
export function walkChain(compiled: CompiledPipeline, plan: TypePlan, scratch: Scratch, event: HookEvent, state: DispatchState, now: number, into: DispatchResult | undefined, recorder: ChainRecorder | null): DispatchResult {
  const sync = plan.mode === 'sync';
  const arrays = into !== undefined ? arraysOf(into) : null;
  const c = (scratch.chain = startChain(event, state, sync, scratch.chain, arrays));
  // The audit actions overwrite the caller's records of its last event (`into`), in turn.
  scratch.result.spares = arrays !== null ? c : null;
  const scope: Scope = scratch.scope ?? (scratch.scope = { event, payload: event.payload, state: state.vars, now, flows: state.flows });
  scope.event = event;
  scope.payload = event.payload;
  scope.state = state.vars;
  scope.now = now;
  scope.flows = state.flows;
  // Few listeners: all of them in order (`scan`); else the candidates the index gathers.
  const scan = plan.scan;
  const steps = plan.steps;
  const candidates = scratch.candidates;
  nextEpoch(scratch);
  let n = scan ? steps.length : gatherCandidates(plan.index, scope, candidates, -1, scratch.gather);
  for (let i = 0; i < n; i++) {
    const s = steps[scan ? i : candidates[i]!]!;
    const h = s.handler;
    const openUntil = s.breaker ? breakerOpenUntil(c.breakers, h, now) : 0;
    if (openUntil !== 0 && whileOpen(h) === 'skip') continue;
    // An index hit that is the verdict; a handler behind one unshared matcher (no memo needed), or one shared
    // matcher (its memoised verdict); or its paths [M3].
    const matched = s.exact ? true : s.test !== null ? s.test(scope) : s.matcher >= 0 ? memoVerdict(compiled, scratch, s.matcher, scope) : handlerMatches(compiled, scratch, s.paths, h, scope);
    if (matched === false) continue;
    if (openUntil !== 0) {
      const blocked = breakerBlocks(c, h, openUntil);
      if (recorder !== null) recorder.breaker(s.rank, blocked, blocked ? c.reason : '');
      if (blocked) break;
      continue;
    }
    if (recorder !== null) recorder.ran(c, h, matched === true ? null : matched, scope, event, now, s.record && matched === true);
    else if (s.record && matched === true) {
      settleRecord(c, h, scope, event, now);
      if (c.ended) break;
      continue;
    } else settle(c, h, matched === true ? runSafely(h, scope, scratch.result) : matcherFailed(compiled, matched), event, now);
    if (c.ended) break;
    if (c.changed) {
      // [M6] a rewrite or state change: matchers and indexes see the new values for the rest of the chain.
      scope.payload = c.payload;
      scope.state = c.vars;
      nextEpoch(scratch);
      if (!scan) {
        n = gatherCandidates(plan.index, scope, candidates, s.slot, scratch.gather);
        i = -1;
      }
    }
  }
  return finishChain(c, state, plan.mode, into);
}

/** The arrays a caller's reused result carries from event to event, made on its first dispatch. */
const arraysOf = lastMemo((_into: DispatchResult): ResultArrays => ({ audit: exactLists(), context: exactLists(), spareAudit: [] }));

const NONE: never[] = Object.freeze([]) as unknown as never[];

/** The result of an event no handler listens to. */
function untouched(event: HookEvent, state: DispatchState, mode: DispatchResult['mode'], into: DispatchResult | undefined): DispatchResult {
  return fillResult(into, 'continue', '', null, event.payload, state, NONE, NONE, NONE, mode);
}
