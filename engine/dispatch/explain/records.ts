import type { HookEvent } from '../../model/event.ts';
import type { JsonObject } from '../../model/json.ts';
import type { Scope } from '../../match/path.ts';
import type { CompiledHandler, CompiledPipeline, TypePlan } from '../../compile/compilePipeline.ts';
import type { ActionResult } from '../../compile/types.ts';
import type { MatcherFailure } from '../../compile/compileMatcher.ts';
import { newScratch, type Scratch } from '../scratch.ts';
import { finishChain, matcherFailed, runSafely, settle, settleRecord, startChain, type Chain } from '../chain.ts';
import { walkChain, type ChainRecorder } from '../dispatch.ts';
import { lastMemo } from '../../accel/lastMemo.ts';
import type { DispatchResult, DispatchState, HandlerError } from '../types.ts';

// The record of an explained event: what each handler that matched did, in order. The lazy explanation
// (lazy.ts) derives every status and story from it; the eager loop (explainEvent.ts) makes the same records.

/** A handler that matched and whose breaker was open [E3]: whether that blocked the action. */
export interface BreakerRecord {
  kind: 'breaker';
  rank: number;
  blocked: boolean;
  reason: string;
}

/** A handler that matched (or whose code matcher failed [M8]) and ran: its result and what it did to the chain. */
export interface RunRecord {
  kind: 'ran';
  rank: number;
  result: ActionResult;
  error: HandlerError | null;
  ignored: 'shadow' | 'async' | undefined;
  payloadBefore: JsonObject;
  varsBefore: JsonObject;
  payloadAfter: JsonObject;
  varsAfter: JsonObject;
  changed: boolean;
  ended: boolean;
  duration: number;
}

/** One step of the record. */
export type StepRecord = BreakerRecord | RunRecord;

/** A timer that is not read: explanations without `env.timer`. */
export const noTimer = () => 0;

/**
 * Runs one handler on the chain [M8][E1] and records what happened. `plain`: a plain audit handler
 * (`PlanStep.record`), settled as on the fast path (`settleRecord`); it comes to the shared CONTINUE (the
 * story shows no more of it), or to the failure to make its record.
 */
export function runRecord(compiled: CompiledPipeline, c: Chain, h: CompiledHandler, failure: MatcherFailure | null, scope: Scope, event: HookEvent, now: number, timer: () => number, plain = false): RunRecord {
  const payloadBefore = c.payload;
  const varsBefore = c.vars;
  const t0 = timer();
  // [M8][E1] a code matcher that could not answer: the handler's error policy decides, as on the fast path.
  const result = plain ? settleRecord(c, h, scope, event, now) ?? PLAIN_AUDIT : failure ? matcherFailed(compiled, failure) : runSafely(h, scope);
  const elapsed = timer() - t0;
  if (!plain) settle(c, h, result, event, now);
  return new RunRecordOf(h.rank, result, c.lastError, c.lastIgnored, payloadBefore, varsBefore, c.payload, c.vars, c.changed, c.ended, result.duration_ms ?? elapsed);
}

const PLAIN_AUDIT: ActionResult = Object.freeze({ ok: true as const, outcome: Object.freeze({ decision: 'continue' as const }) });

/** A RunRecord as a class instance, not a literal: see `ActionOk` (compile/actions.ts) for why. */
class RunRecordOf implements RunRecord {
  readonly kind = 'ran' as const;
  constructor(
    readonly rank: number, readonly result: ActionResult, readonly error: HandlerError | null, readonly ignored: 'shadow' | 'async' | undefined,
    readonly payloadBefore: JsonObject, readonly varsBefore: JsonObject, readonly payloadAfter: JsonObject, readonly varsAfter: JsonObject,
    readonly changed: boolean, readonly ended: boolean, readonly duration: number,
  ) {}
}

/** The rank of the handler that ended the chain, or -1. */
export function endedAt(records: readonly StepRecord[]): number {
  // Not `records[length - 1]` on an empty list: index -1 is a named-property lookup, slow on every event.
  if (records.length === 0) return -1;
  const last = records[records.length - 1]!;
  return (last.kind === 'breaker' ? last.blocked : last.ended) ? last.rank : -1;
}

/**
 * The decision walk of a lazily explained event: the fast path's loop over the candidate index (with its
 * own scratch, so the fast path's stays untouched), recording each handler that matched in `recorder`
 * (its records are the walk's until the next walk).
 */
export function walk(compiled: CompiledPipeline, plan: TypePlan, event: HookEvent, state: DispatchState, now: number, timer: () => number, recorder: WalkRecorder): DispatchResult {
  const scratch = recorder.scratch;
  if (scratch.busy) throw new Error('explainEvent re-entered: an explanation on this compiled pipeline is still running (explain mode is not reentrant)');
  recorder.start(timer);
  if (plan.liveCount === 0) return finishChain((scratch.chain = startChain(event, state, plan.mode === 'sync', scratch.chain)), state, plan.mode);
  scratch.busy = true;
  try {
    return walkChain(compiled, plan, scratch, event, state, now, undefined, recorder);
  } finally {
    scratch.busy = false;
  }
}

/**
 * Keeps what the walk met, for the explanation to be built from later. One per compiled pipeline, reused:
 * `start` gives it a new event (records start as a shared empty list, most events record one handler or none).
 * It holds explain mode's own scratch of the pipeline, apart from the fast path's.
 */
export class WalkRecorder implements ChainRecorder {
  records: StepRecord[] = NO_RECORDS;
  timer: () => number = noTimer;
  readonly scratch: Scratch;
  constructor(private readonly compiled: CompiledPipeline) {
    this.scratch = newScratch(compiled);
  }
  start(timer: () => number): this {
    this.records = NO_RECORDS;
    this.timer = timer;
    return this;
  }
  breaker(rank: number, blocked: boolean, reason: string): void {
    this.keep({ kind: 'breaker', rank, blocked, reason });
  }
  ran(c: Chain, h: CompiledHandler, failure: MatcherFailure | null, scope: Scope, event: HookEvent, now: number, plain: boolean): void {
    this.keep(runRecord(this.compiled, c, h, failure, scope, event, now, this.timer, plain));
  }
  private keep(rec: StepRecord): void {
    if (this.records === NO_RECORDS) this.records = [rec];
    else this.records.push(rec);
  }
}

const NO_RECORDS: StepRecord[] = Object.freeze([]) as unknown as StepRecord[];

/** Explain mode's recorder (and scratch) for `compiled`, made on first use. */
export const walkRecorder = lastMemo((compiled: CompiledPipeline) => new WalkRecorder(compiled));
