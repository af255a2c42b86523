// A replay step: the rules' answer (decideEvent.ts) and the sentences beside it (expandStep.ts), as one step function.
import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import { initialState, type DispatchEnv } from '../dispatch/dispatch.ts';
import type { Explanation } from '../dispatch/types.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';
import { decideEvent, NONE, newStepCore, type EarlierResult, type ReplayContext, type StepCore } from './decideEvent.ts';
import { counterfactualNote, endedNote, expandStep } from './expandStep.ts';
import type { ReplayCarry, ReplayOptions, ReplayStep, RunEnd, StepNote } from './types.ts';

export { actionRan, replayedApproval, type EarlierResult, type ReplayContext } from './decideEvent.ts';

/** Builds the context and the starting carry of a replay. */
export function createReplayContext(compiled: CompiledPipeline, options: ReplayOptions = {}): ReplayContext {
  const holder = { t: 0 };
  const env: DispatchEnv = { clock: { now: () => holder.t }, ...(options.timer ? { timer: options.timer } : {}) };
  const names = new Map(compiled.handlers.map((h) => [h.id, h.name]));
  const initialCarry: ReplayCarry = { state: options.initialState ?? initialState(), now: 0, ended: null, counterfactual_since: -1 };
  let ended: [RunEnd | null, readonly StepNote[]] = [null, NONE];
  let cf: [number, readonly StepNote[]] = [-1, NONE];
  const notes = {
    ended(end: RunEnd): readonly StepNote[] {
      if (ended[0] !== end) ended = [end, Object.freeze([Object.freeze({ kind: 'not_reached' as const, text: endedNote(names, end) })])];
      return ended[1];
    },
    counterfactual(since: number): readonly StepNote[] {
      if (cf[0] !== since) cf = [since, Object.freeze([Object.freeze({ kind: 'counterfactual' as const, text: counterfactualNote(since) })])];
      return cf[1];
    },
  };
  const ctx = { compiled, env, holder, clock: options.clock, names, initialCarry, notes, version: options.pipelineVersion ?? null, scratch: null! as StepCore };
  ctx.scratch = newStepCore(initialCarry);
  return ctx;
}

/**
 * The step function of replay [R1]-[R7]: one event, the carry before it and (for a repeated event id) the
 * earlier result, in; the step and the carry after it, out. Like xstate's `transition`: everything the next
 * event depends on is in the returned carry, so a checkpoint is just a carry. The rules are `decideEvent`'s;
 * this adds the sentences (`expandStep`). Its answer is a function of its arguments; it writes only the
 * context's working memory (the clock's time, the scratch core), which it reads before it returns.
 */
export function stepEvent(
  ctx: ReplayContext,
  carry: ReplayCarry,
  event: TraceEvent,
  index: number,
  earlier: EarlierResult | null,
  explain: boolean,
): { step: ReplayStep; carry: ReplayCarry; explanation: Explanation | null } {
  // The context's own core: read into the step before this returns, so one serves every call.
  const core = decideEvent(ctx, carry, event, index, earlier, explain, ctx.scratch);
  return { step: expandStep(ctx, core), carry: core.after, explanation: core.explanation };
}

