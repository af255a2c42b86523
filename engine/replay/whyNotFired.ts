import type { Decision } from '../model/decision.ts';
import { isoTime } from '../model/time.ts';
import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import type { Explanation, HandlerError, HandlerExplain } from '../dispatch/types.ts';
import { failureSentence, firstFailure, type ConditionFailure } from './describeFailure.ts';
import { clip, decisionWithReason, quoteName, stepNo } from './replayText.ts';
import type { ReplayStep } from './types.ts';
import { verdictOn, type FlowStepRef } from './flowExplain.ts';

/** The first reason a handler did or did not fire on a step [R14]. */
export type WhyReason =
  | { kind: 'unknown_handler' }
  /** An earlier step decided TERMINATE: this event was never dispatched [R4]. */
  | { kind: 'run_ended'; ended_at: number; ended_by: string | null; ended_by_name: string | null; reason: string }
  /** The event repeats an earlier event id: no handler ran [R5]. */
  | { kind: 'duplicate'; duplicate_of: number }
  | { kind: 'disabled' }
  /** No event node on the handler's paths selects this event type. */
  | { kind: 'wrong_event_type'; event_type: string; patterns: string[] }
  /** An earlier handler of this event ended the chain. */
  | { kind: 'not_reached'; ended_by: string; ended_by_name: string | null; decision: Decision; reason: string }
  | { kind: 'breaker_open'; until: number }
  /** Every path whose event type matched failed a matcher; the first such path's failing matcher. */
  | { kind: 'not_matched'; matcher_id: string; matcher_label: string; path_nodes: string[]; failure: ConditionFailure; failed_paths: number }
  | { kind: 'error'; error: HandlerError }
  /** A flow rule [F9] ran on this event but its condition on the session's memory did not hold. */
  | { kind: 'flow_not_fired'; text: string; cause: FlowStepRef | null }
  /** `cause`: for a flow rule, the earlier step that set up its decision [F9]. */
  | { kind: 'fired'; decision: Decision; reason: string; ignored?: 'shadow' | 'async'; cause?: FlowStepRef };

export interface WhyNotFired {
  handler_id: string;
  handler_name: string | null;
  fired: boolean;
  reason: WhyReason;
  /** The answer in one sentence. */
  sentence: string;
}

/**
 * "Why didn't it fire?" [R14]: the first reason, read from the step's Explanation (never by matching
 * again), as a structured answer and a sentence. The step must come from explain mode (`Replayer.step`).
 * `whyNotFired(compiled, 'h-block-injection', replayer.step(3)).sentence` →
 * "“Block prompt injection” did not fire: matcher “Prompt injection” failed: `payload.input` is missing; the payload has `user_input`."
 */
export function whyNotFired(compiled: CompiledPipeline, handlerId: string, step: ReplayStep): WhyNotFired {
  const handler = compiled.handlers.find((h) => h.id === handlerId);
  const name = handler?.name ?? null;
  const who = quoteName(name);
  const answer = (reason: WhyReason, sentence: string): WhyNotFired => ({ handler_id: handlerId, handler_name: name, fired: reason.kind === 'fired', reason, sentence });
  if (!handler) return answer({ kind: 'unknown_handler' }, `No handler with id "${clip(handlerId, 80)}" in this pipeline.`);
  if (step.duplicate) {
    return answer({ kind: 'duplicate', duplicate_of: step.duplicate_of! }, `${who} did not run: this event repeats the event id of ${stepNo(step.duplicate_of!)}, whose result was returned without running any handler.`);
  }
  if (step.not_reached) {
    const by = step.decided_by;
    const byName = by ? compiled.handlers.find((h) => h.id === by)?.name ?? null : null;
    return answer(
      { kind: 'run_ended', ended_at: step.ended_at!, ended_by: by, ended_by_name: byName, reason: step.reason },
      `${who} did not run: the run ended at ${stepNo(step.ended_at!)}, where ${quoteName(byName, by ?? 'a handler')} decided TERMINATE, so this event was not dispatched.`,
    );
  }
  if (!step.explanation) throw new Error(`whyNotFired needs an explained step (step ${step.index} has no explanation): use Replayer.step(), not a fast-mode step`);
  const plain = whyNotFiredIn(step.explanation, handlerId, name);
  const rule = plain.reason.kind === 'fired' ? compiled.flows.find((f) => f.id === handlerId) : undefined;
  if (!rule || plain.reason.kind !== 'fired') return plain;
  // A flow rule that ran: whether its condition on the memory held, and the earlier step behind it [F9].
  const v = verdictOn(rule, step, true);
  if (!v.fires && plain.reason.decision === 'continue') return answer({ kind: 'flow_not_fired', text: v.text, cause: v.cause }, `${who} ran, but its flow rule did not fire: ${v.text}.`);
  return v.cause ? { ...plain, reason: { ...plain.reason, cause: v.cause } } : plain;
}

/** The same answer from an Explanation alone (one event dispatched in explain mode). */
export function whyNotFiredIn(explanation: Explanation, handlerId: string, handlerName: string | null = null): WhyNotFired {
  const h = explanation.handlers.find((x) => x.handler_id === handlerId);
  const name = h?.name ?? handlerName;
  const who = quoteName(name);
  const answer = (reason: WhyReason, sentence: string): WhyNotFired => ({ handler_id: handlerId, handler_name: name, fired: reason.kind === 'fired', reason, sentence });
  if (!h) return answer({ kind: 'unknown_handler' }, `No handler with id "${clip(handlerId, 80)}" in this pipeline.`);
  const didNot = `${who} did not fire:`;
  switch (h.status) {
    case 'disabled':
      return answer({ kind: 'disabled' }, `${didNot} it is disabled.`);
    case 'wrong_event_type': {
      const patterns = [...new Set(h.paths.map((p) => p.pattern))];
      const listens = patterns.length ? `it listens to ${patterns.join(', ')}, and this event is ${explanation.event_type}` : 'no event node leads to it';
      return answer({ kind: 'wrong_event_type', event_type: explanation.event_type, patterns }, `${didNot} ${listens}.`);
    }
    case 'not_reached':
      return notReached(explanation, h, answer, didNot);
    case 'breaker_open': {
      const until = h.breaker_open_until;
      return answer({ kind: 'breaker_open', until }, `${didNot} its circuit breaker is open after repeated failures, until ${isoTime(until) ?? `${until} ms`}.`);
    }
    case 'not_matched':
      return notMatched(explanation, h, answer, didNot);
    case 'error': {
      const e = h.error;
      return answer({ kind: 'error', error: e }, `${who} ran and failed (${e.kind}: ${clip(e.message, 120)}); ${POLICY_WORDS[e.policy]}.`);
    }
    case 'fired': {
      const decision = h.decision;
      const reason: WhyReason = { kind: 'fired', decision, reason: h.reason ?? '', ...(h.ignored ? { ignored: h.ignored } : {}) };
      const note = h.ignored === 'shadow' ? ' (shadow mode: not enforced)' : h.ignored === 'async' ? ' (async event: the decision is ignored)' : '';
      return answer(reason, `${who} fired and decided ${decisionWithReason(decision, h.reason)}${note}.`);
    }
  }
}

type Answer = (reason: WhyReason, sentence: string) => WhyNotFired;

const POLICY_WORDS: Record<HandlerError['policy'], string> = {
  block: 'its error policy blocked the action',
  terminate: 'its error policy ended the run',
  continue: 'its error policy let the event go on',
  logged: 'the error was logged and decided nothing',
};

function notReached(explanation: Explanation, h: Extract<HandlerExplain, { status: 'not_reached' }>, answer: Answer, didNot: string): WhyNotFired {
  const by = explanation.handlers.find((x) => x.handler_id === h.ended_by);
  const decision: Decision = by?.status === 'fired' ? by.decision : by?.status === 'error' && by.error.policy === 'terminate' ? 'terminate' : 'block_action';
  const reason = by?.status === 'fired' ? by.reason ?? '' : by?.status === 'error' ? `failed: ${by.error.message}` : '';
  const byName = by?.name ?? null;
  return answer(
    { kind: 'not_reached', ended_by: h.ended_by, ended_by_name: byName, decision, reason },
    `${didNot} ${quoteName(byName, h.ended_by)} ran before it and decided ${decisionWithReason(decision, reason)}, which ends the chain.`,
  );
}

function notMatched(explanation: Explanation, h: HandlerExplain, answer: Answer, didNot: string): WhyNotFired {
  const tried = h.paths.filter((p) => p.type_matched);
  const path = tried[0];
  const matcher = path ? [...path.matchers].reverse().find((m) => !m.pass) : undefined;
  if (!path || !matcher) throw new Error(`whyNotFired: handler ${h.handler_id} is not_matched on ${explanation.event_id} without a failed matcher`);
  const failure = firstFailure(matcher.condition);
  const others = tried.length > 1 ? ` (${tried.length - 1} other path${tried.length === 2 ? '' : 's'} failed too)` : '';
  return answer(
    { kind: 'not_matched', matcher_id: matcher.matcher_id, matcher_label: matcher.label, path_nodes: path.nodes, failure, failed_paths: tried.length },
    `${didNot} matcher ${quoteName(matcher.label)} failed: ${failureSentence(failure)}${others}.`,
  );
}
