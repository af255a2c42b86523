import jsonPatch, { type Operation } from 'fast-json-patch';
import type { Decision } from '../model/decision.ts';
import { jsonEqual, type JsonObject } from '../model/json.ts';
import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';
import { createReplayRun, toEventSource } from './replaySteps.ts';
import { OUTCOMES, type EventSource, type ReplayOptions, type ReplayStep, type StepOutcome } from './types.ts';

// The package is CommonJS: its default export works the same under Node's ESM loader and Vite.
const { compare } = jsonPatch;

/** What one pipeline made of an event. */
export interface DiffSide {
  outcome: StepOutcome;
  decision: Decision;
  reason: string;
  decided_by: string | null;
  payload: JsonObject;
  /** The texts for the model the handlers added, in order [H11]. */
  context: readonly string[];
}

/**
 * What differs [R12]: the outcome, else the reason, else the deciding handler (one of these, the first that
 * differs); besides, the final payload and the added context.
 */
export type DiffChange = 'outcome' | 'reason' | 'decided_by' | 'payload' | 'context';
/** Every kind of change, in the order `changes` lists them. */
export const DIFF_CHANGES: readonly DiffChange[] = ['outcome', 'reason', 'decided_by', 'payload', 'context'];

/** An event on which the two pipelines differ [R12]. */
export interface EventDiff {
  index: number;
  event_id: string;
  type: string;
  changes: DiffChange[];
  before: DiffSide;
  after: DiffSide;
  /** JSON Patch from the first pipeline's final payload to the second's (empty when equal). */
  patch: Operation[];
}

export interface OutcomeTransition {
  from: StepOutcome;
  to: StepOutcome;
  count: number;
  /** "3 events blocked before now continue". */
  sentence: string;
}

export interface PipelineDiff {
  /** Events compared. */
  events: number;
  /** Events that differ in outcome, reason, deciding handler, final payload or added context (at most `maxChanged` listed; counts are complete). */
  changed: EventDiff[];
  changed_count: number;
  transitions: OutcomeTransition[];
  /** Events with the same outcome and a different reason. */
  reason_changed: number;
  /** Events with the same outcome and reason, decided by another handler. */
  decider_changed: number;
  /** Events whose added context differs. */
  context_changed: number;
  /** Events whose final payload differs. */
  payload_changed: number;
  /** Sentences for people, most frequent transition first. */
  summary: string[];
}

export interface DiffOptions extends ReplayOptions {
  /** List at most this many differing events (default: all). */
  maxChanged?: number;
  /** Sees both steps of every event, differing or not (a backtest reads coverage from the second). */
  observe?: (before: ReplayStep, after: ReplayStep) => void;
}

/** A diff fed one event at a time (for async sources); `result()` can be called at any point. */
export interface TraceDiff {
  push(event: TraceEvent): EventDiff | null;
  result(): PipelineDiff;
}

/**
 * Replays two pipelines side by side over one trace, in fast mode, each with its own state [R12].
 * `createTraceDiff(pinned, current).push(event)` returns the event's difference, or null.
 */
export function createTraceDiff(before: CompiledPipeline, after: CompiledPipeline, options: DiffOptions = {}): TraceDiff {
  const { observe, maxChanged, ...replay } = options;
  const a = createReplayRun(before, { ...replay, explain: false });
  const b = createReplayRun(after, { ...replay, explain: false });
  const max = maxChanged ?? Infinity;
  const changed: EventDiff[] = [];
  const transitions = new Map<string, number>();
  let changedCount = 0;
  let reasonChanged = 0;
  let deciderChanged = 0;
  let contextChanged = 0;
  let payloadChanged = 0;
  return {
    push(event) {
      const x = a.push(event);
      const y = b.push(event);
      if (observe) observe(x, y);
      const changes: DiffChange[] = [];
      if (x.outcome !== y.outcome) changes.push('outcome');
      else if (x.reason !== y.reason) changes.push('reason');
      else if (x.decided_by !== y.decided_by) changes.push('decided_by');
      const samePayload = x.payload_after === y.payload_after || jsonEqual(x.payload_after, y.payload_after);
      if (!samePayload) changes.push('payload');
      const sameContext = x.context.length === y.context.length && x.context.every((t, i) => t === y.context[i]);
      if (!sameContext) changes.push('context');
      if (changes.length === 0) return null;
      changedCount++;
      if (x.outcome !== y.outcome) {
        const key = `${x.outcome}>${y.outcome}`;
        transitions.set(key, (transitions.get(key) ?? 0) + 1);
      } else if (x.reason !== y.reason) reasonChanged++;
      else if (x.decided_by !== y.decided_by) deciderChanged++;
      if (!samePayload) payloadChanged++;
      if (!sameContext) contextChanged++;
      const diff: EventDiff = {
        index: x.index,
        event_id: event.event_id,
        type: event.type,
        changes,
        before: side(x),
        after: side(y),
        patch: samePayload ? [] : compare(x.payload_after, y.payload_after),
      };
      if (changed.length < max) changed.push(diff);
      return diff;
    },
    result() {
      const list = [...transitions].map(([key, count]) => {
        const [from, to] = key.split('>') as [StepOutcome, StepOutcome];
        return { from, to, count, sentence: transitionSentence(from, to, count) };
      });
      list.sort((p, q) => q.count - p.count || OUTCOMES.indexOf(p.from) - OUTCOMES.indexOf(q.from) || OUTCOMES.indexOf(p.to) - OUTCOMES.indexOf(q.to));
      const summary = list.map((t) => t.sentence);
      if (reasonChanged) summary.push(`${events(reasonChanged)} ${reasonChanged === 1 ? 'keeps its' : 'keep their'} decision with a different reason`);
      if (deciderChanged) summary.push(`${events(deciderChanged)} ${deciderChanged === 1 ? 'keeps its' : 'keep their'} decision and reason, decided by another handler`);
      if (payloadChanged) summary.push(`${events(payloadChanged)} ${payloadChanged === 1 ? 'ends' : 'end'} with a different payload`);
      if (contextChanged) summary.push(`${events(contextChanged)} ${contextChanged === 1 ? 'adds' : 'add'} different context for the model`);
      if (changedCount === 0) summary.push(`No event changes: both pipelines decide the same on all ${events(a.count)}`);
      return { events: a.count, changed, changed_count: changedCount, transitions: list, reason_changed: reasonChanged, decider_changed: deciderChanged, context_changed: contextChanged, payload_changed: payloadChanged, summary };
    },
  };
}

/**
 * Every event of a trace whose decision, reason, deciding handler, final payload or added context differs
 * between two pipelines [R12].
 * `diffPipelines(pinned, edited, trace.events).summary` → `['3 events blocked before now continue']`
 */
export function diffPipelines(before: CompiledPipeline, after: CompiledPipeline, events: readonly TraceEvent[] | EventSource, options: DiffOptions = {}): PipelineDiff {
  const source = toEventSource(events);
  const d = createTraceDiff(before, after, options);
  for (let i = 0; i < source.count; i++) d.push(source.get(i));
  return d.result();
}

function side(s: ReplayStep): DiffSide {
  return { outcome: s.outcome, decision: s.decision, reason: s.reason, decided_by: s.decided_by, payload: s.payload_after, context: s.context };
}

const events = (n: number): string => `${n} event${n === 1 ? '' : 's'}`;

const PAST: Record<StepOutcome, [string, string]> = {
  continue: ['continued', 'continued'],
  stop_propagation: ['stopped propagation', 'stopped propagation'],
  ask: ['asked for approval', 'asked for approval'],
  block_action: ['blocked', 'blocked'],
  terminate: ['terminated the run', 'terminated the run'],
  not_reached: ['was not reached', 'were not reached'],
};

const NOW: Record<StepOutcome, [string, string]> = {
  continue: ['continues', 'continue'],
  stop_propagation: ['stops propagation', 'stop propagation'],
  ask: ['asks for approval', 'ask for approval'],
  block_action: ['blocks', 'block'],
  terminate: ['terminates the run', 'terminate the run'],
  not_reached: ['is not reached', 'are not reached'],
};

/** `transitionSentence('block_action', 'continue', 3)` → "3 events blocked before now continue". */
export function transitionSentence(from: StepOutcome, to: StepOutcome, count: number): string {
  const k = count === 1 ? 0 : 1;
  return `${events(count)} ${PAST[from][k]} before now ${NOW[to][k]}`;
}
