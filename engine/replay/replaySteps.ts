import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';
import { createEarlierWindow } from './earlierWindow.ts';
import { expandStep } from './expandStep.ts';
import { createReplayContext } from './stepEvent.ts';
import { decideEvent, newStepCore, type StepCore } from './decideEvent.ts';
import type { EventSource, ReplayCarry, ReplayOptions, ReplayStep } from './types.ts';

/** Options of a straight replay: `explain` (default true) adds each event's Explanation [R8]. */
export interface StraightReplayOptions extends ReplayOptions {
  explain?: boolean;
}

/** A replay fed one event at a time, in trace order: for streams and async sources (IndexedDB chunks). */
export interface ReplayRun {
  /** Replays the next event of the trace and returns its step. */
  push(event: TraceEvent): ReplayStep;
  /**
   * Replays the next event as `push` does, and returns the rules' answer without the step's sentences [P10]: the
   * run's one core, overwritten by the next `decide` (read it first; `expand` makes the whole step of it).
   */
  decide(event: TraceEvent): StepCore;
  /** The whole step of the core `decide` returned last: `expand(run.decide(e))` is what `push(e)` returns. */
  expand(core: StepCore): ReplayStep;
  /**
   * Steps the next event without taking it: the run is unchanged until `commit()` (a server commits only once
   * the event's line is in its recording, so a failed write leaves the state as the file says).
   */
  preview(event: TraceEvent): { step: ReplayStep; commit(): void };
  /** Dispatches later events with another pipeline, carrying state, repeated ids and the run's end (hot reload). */
  setPipeline(compiled: CompiledPipeline): void;
  /** How many events were pushed. */
  readonly count: number;
  /** What the next event starts from. */
  readonly carry: ReplayCarry;
}

/**
 * Starts a straight replay [R1]-[R8]: state carried from event to event, TERMINATE ends the run, repeated
 * event ids answered from the earlier step, divergence and counterfactual steps flagged.
 * `const run = createReplayRun(compiled); for (const e of trace.events) show(run.push(e));`
 */
export function createReplayRun(compiled: CompiledPipeline, options: StraightReplayOptions = {}): ReplayRun {
  let ctx = createReplayContext(compiled, options);
  const explain = options.explain ?? true;
  // Only the fields a duplicate repeats are kept, not whole steps, and only for the latest dispatches [E5][R5]:
  // a streamed replay's memory does not grow with the trace.
  const seen = createEarlierWindow();
  let carry = ctx.initialCarry;
  let count = 0;
  const decide = (event: TraceEvent, into: StepCore | undefined) => decideEvent(ctx, carry, event, count, seen.get(event.event_id), explain, into);
  // Takes a decided event: its result joins the window [E5], its carry becomes the run's.
  const take = (core: StepCore): void => {
    if (core.earlier === null && !core.not_reached) seen.add(core);
    carry = core.after;
    count++;
  };
  let lean: StepCore | null = null;
  const preview = (event: TraceEvent) => {
    const at = count;
    // A core of its own: the preview holds it until `commit`.
    const core = decide(event, undefined);
    return {
      step: expandStep(ctx, core),
      commit() {
        if (count !== at) throw new Error('ReplayRun: a preview was committed after another event was taken');
        take(core);
      },
    };
  };
  return {
    // A preview committed at once, without the preview's object and closure (one per event of a long replay); the
    // context's core, read into the step at once.
    push(event) {
      const core = decide(event, ctx.scratch);
      const step = expandStep(ctx, core);
      take(core);
      return step;
    },
    decide(event) {
      const core = decide(event, (lean ??= newStepCore(carry)));
      take(core);
      return core;
    },
    expand: (core) => expandStep(ctx, core),
    preview,
    setPipeline(next) {
      // The carry is plain data (state, time, the run's end), valid for any pipeline.
      ctx = createReplayContext(next, options);
    },
    get count() {
      return count;
    },
    get carry() {
      return carry;
    },
  };
}

/** Turns an array or an `EventSource` into an `EventSource`. */
export function toEventSource(events: readonly TraceEvent[] | EventSource): EventSource {
  if (isEventArray(events)) return { count: events.length, get: (i) => events[i]! };
  if (!Number.isInteger(events.count) || events.count < 0) throw new RangeError(`event source count must be a non-negative integer, got ${String(events.count)}`);
  return events;
}

function isEventArray(events: readonly TraceEvent[] | EventSource): events is readonly TraceEvent[] {
  return Array.isArray(events);
}

/**
 * Replays a trace lazily, one step per event [R1]. Steps are not kept, so a long trace in explain mode
 * costs the memory of one step at a time. To keep many steps, use `replayTrace` (it copies them).
 * `for (const step of replaySteps(compiled, trace.events)) console.log(step.index, step.decision)`
 */
export function* replaySteps(compiled: CompiledPipeline, events: readonly TraceEvent[] | EventSource, options: StraightReplayOptions = {}): Generator<ReplayStep, void, undefined> {
  const source = toEventSource(events);
  const run = createReplayRun(compiled, options);
  for (let i = 0; i < source.count; i++) yield run.push(source.get(i));
}

/**
 * Replays a whole trace and returns every step (explain mode by default) [R1]. For short traces and tests;
 * long traces use `replaySteps` or `createReplayer`.
 * `const steps = replayTrace(compiled, trace.events); steps.filter((s) => s.divergent)`
 */
export function replayTrace(compiled: CompiledPipeline, events: readonly TraceEvent[] | EventSource, options: StraightReplayOptions = {}): ReplayStep[] {
  const out: ReplayStep[] = [];
  // Kept steps are copies: if the step objects made in `stepEvent` were kept in bulk, V8 would learn to
  // allocate them in old space (allocation-site pretenuring), and every later streaming replay in the
  // process would pay for it in garbage collection (measured: 3x slower explain-mode replay).
  for (const step of replaySteps(compiled, events, options)) out.push({ ...step });
  return out;
}
