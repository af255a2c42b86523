import type { HookEvent } from '../../model/event.ts';
import type { Scope } from '../../match/path.ts';
import type { CompiledPipeline, TypePlan } from '../../compile/compilePipeline.ts';
import { breakerBlocks, breakerOpenUntil, finishChain, startChain, whileOpen, type Chain } from '../chain.ts';
import type { DispatchEnv } from '../dispatch.ts';
import type { DispatchResult, DispatchState, Explanation, HandlerExplain } from '../types.ts';
import { EventExplanation, type Walked } from './lazyExplanation.ts';
import { noTimer, runRecord, walk, walkRecorder, type BreakerRecord, type StepRecord } from './records.ts';
import { planInfo, statusesFromStories } from './statuses.ts';
import { breakerSkipped, describeBreaker, describeRun, explainMemo, explainPaths, notReached, precedenceNote, story } from './stories.ts';

// Explain mode's entry: the lazy explanation of an event (a walk of the chain and its record, lazyExplanation.ts)
// and the eager loop (below) for the plans the walk cannot explain.

/**
 * Explain mode [X1]-[X6]: the same chain as `dispatch`, and an explanation in which every handler has a
 * status and every clause its verdict. Reaches the same decision, payload and state as `dispatch`.
 *
 * The explanation is built lazily [X6]: the chain is walked through the candidate index as on the fast
 * path (`walk`), recording only what each handler that matched did (`StepRecord`). Everything else is
 * derived from that record when asked for (`EventExplanation`), never by running an action again:
 * - every handler's status (`handlerStatuses`: one byte per handler, no evaluation — a live handler the
 *   index did not return provably does not match, so it is `not_matched`);
 * - one handler's whole story (`explainedHandler`), its clause-level paths evaluated against the payload
 *   and state it saw;
 * - `explanation.handlers`, every handler's story, on first read.
 * Each gives exactly what evaluating every handler while the chain runs gives (`explainEventEagerly`, the
 * oracle of test/engine/dispatch/lazyExplain.test.ts). A plan with a code matcher is explained eagerly:
 * sandboxed code answers once, at dispatch time, never later.
 */
export function explainEvent(compiled: CompiledPipeline, event: HookEvent, state: DispatchState, env: DispatchEnv): { result: DispatchResult; explanation: Explanation } {
  const plan = compiled.plan(event.type);
  const now = env.clock.now();
  const timer = env.timer ?? noTimer;
  const info = planInfo(plan, compiled);
  if (info.eager) return explainEager(compiled, plan, event, state, now, timer);
  const recorder = walkRecorder(compiled);
  const result = walk(compiled, plan, event, state, now, timer, recorder);
  const records = recorder.records;
  const walked: Walked = { compiled, plan, info, now, records, event, breakers: state.breakers, stories: null, complete: false };
  const explanation = new EventExplanation(event, state, plan.mode, result, precedenceNote(compiled, records, result, plan.mode === 'sync'), null, walked);
  return { result, explanation };
}

/**
 * Explain mode evaluating every handler while the chain runs, as `explainEvent` does for plans with code
 * matchers; for the others its result deep-equals `explainEvent`'s. Exported for that test (the oracle).
 */
export function explainEventEagerly(compiled: CompiledPipeline, event: HookEvent, state: DispatchState, env: DispatchEnv): { result: DispatchResult; explanation: Explanation } {
  return explainEager(compiled, compiled.plan(event.type), event, state, env.clock.now(), env.timer ?? noTimer);
}

/**
 * Every handler's status, by rank (the order of `explanation.handlers`), as an index into
 * `HANDLER_STATUSES` [X1]. For an explanation from `explainEvent` this is computed from the record of the
 * chain without building any handler's story (what coverage, activity and telemetry read for every event of
 * a trace); for any other (a structured clone, parsed JSON) it is read from `handlers`. Read-only: the
 * array is kept and returned again, and may be the very array of another explanation of the same event type
 * with the same statuses, or a view into a buffer shared with others (engine/accel/byteSlab.ts): `slice()`
 * it before changing, posting or storing it.
 */
export function handlerStatuses(explanation: Explanation): Uint8Array {
  if (explanation instanceof EventExplanation) return EventExplanation.statusesOf(explanation);
  return statusesFromStories(explanation.handlers);
}

/**
 * The story of the handler at `rank`, the same object as `explanation.handlers[rank]`, without building the
 * others' when the explanation comes from `explainEvent` (unless the handler shares a matcher with an earlier
 * one: then the memo [M6] needs them, and every story is built).
 */
export function explainedHandler(explanation: Explanation, rank: number): HandlerExplain {
  if (explanation instanceof EventExplanation) return EventExplanation.handlerOf(explanation, rank);
  const h = explanation.handlers[rank];
  if (!h) throw new RangeError(`no handler at rank ${rank} (the pipeline has ${explanation.handlers.length})`);
  return h;
}

function explainEager(compiled: CompiledPipeline, plan: TypePlan, event: HookEvent, state: DispatchState, now: number, timer: () => number): { result: DispatchResult; explanation: Explanation } {
  const sync = plan.mode === 'sync';
  const c = startChain(event, state, sync);
  const records: StepRecord[] = [];
  const handlers = explainHandlers(compiled, plan, c, event, state, now, timer, records);
  const result = finishChain(c, state, plan.mode);
  const explanation = new EventExplanation(event, state, plan.mode, result, precedenceNote(compiled, records, result, sync), handlers, null);
  return { result, explanation };
}

/**
 * The eager explaining loop [X1]-[X4]: every handler in order, each live one's paths evaluated clause by
 * clause (matcher explanations memoised per event [M6]); a handler that matched runs on the chain `c` now
 * (recorded in `records`), and its rewrite or state change is what the handlers after it see.
 *
 * Why a second loop beside the one in dispatch.ts (`walkChain`, which the lazy explanation records): that
 * loop visits only the candidates the index returns and evaluates each matcher once, for a verdict, so a
 * story is built later from the record by evaluating the clauses again. A code matcher cannot be asked
 * again later (sandboxed code answers once, at dispatch time, never later), so a plan with one is explained
 * here, every clause evaluated while the chain runs. It is also the oracle the
 * lazy explanation must equal (test/engine/dispatch/lazyExplain.test.ts, properties.test.ts).
 */
function explainHandlers(compiled: CompiledPipeline, plan: TypePlan, c: Chain, event: HookEvent, state: DispatchState, now: number, timer: () => number, records: StepRecord[]): HandlerExplain[] {
  const scope: Scope = { event, payload: event.payload, state: state.vars, now, flows: state.flows };
  // Matcher explanations of this event, reused across paths [M6]; a new epoch forgets them after a rewrite.
  const memo = explainMemo(compiled);
  const info = planInfo(plan, compiled);
  const handlers: HandlerExplain[] = [];
  let endedBy: string | null = null;

  for (const h of compiled.handlers) {
    const live = plan.paths[h.rank];
    const fixed = info.fixed[h.rank];
    if (fixed) {
      handlers.push(fixed);
      continue;
    }
    if (endedBy !== null) {
      handlers.push(notReached(h, endedBy));
      continue;
    }
    const openUntil = breakerOpenUntil(c.breakers, h, now);
    if (openUntil !== 0 && whileOpen(h) === 'skip') {
      handlers.push(breakerSkipped(h, openUntil));
      continue;
    }
    const paths = explainPaths(compiled, h, live!, scope, memo);
    const pass = paths.some((p) => p.pass);
    const failure = pass ? null : paths.find((p) => p.matcher_failure)?.matcher_failure ?? null;
    if (!pass && failure === null) {
      handlers.push(story(h, 'not_matched', paths));
    } else if (openUntil !== 0) {
      const blocked = breakerBlocks(c, h, openUntil);
      const rec: BreakerRecord = { kind: 'breaker', rank: h.rank, blocked, reason: blocked ? c.reason : '' };
      records.push(rec);
      handlers.push(describeBreaker(h, paths, openUntil, rec));
      if (blocked) endedBy = h.id;
    } else {
      const ran = runRecord(compiled, c, h, failure, scope, event, now, timer);
      records.push(ran);
      handlers.push(describeRun(h, paths, ran));
      if (ran.ended) endedBy = h.id;
      if (ran.changed) {
        scope.payload = ran.payloadAfter;
        scope.state = ran.varsAfter;
        memo.epoch++;
      }
    }
  }
  return handlers;
}
