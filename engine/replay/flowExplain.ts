// Flow rules in the debugger's step view and "why (not)" [F9][R14]: for one replayed step, each flow rule's
// verdict on the event — from the memory of the steps before it (`state_before.flows`), through the one verdict
// the rule's action uses (`flowVerdict`) — with the earlier step that set the state up, so the page can show
// "step 14 read `.env`" and jump there without deciding anything itself.
import { flowMarkText, flowVerdict, type CompiledFlowRule } from '../compile/flowRule.ts';
import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import type { FlowMark } from '../model/flowTypes.ts';
import type { FlowRuleKind } from '../model/pipelineTypes.ts';
import { quoteName, stepNo } from './replayText.ts';
import type { ReplayStep } from './types.ts';

/** An earlier step a verdict names: its index (0-based, to jump to) and the event in a few words. */
export interface FlowStepRef {
  index: number;
  text: string;
}

/** One flow rule on one step, as plain data (it crosses to the page by structured clone). */
export interface FlowStepVerdict {
  handler_id: string;
  handler_name: string;
  kind: FlowRuleKind;
  /** The rule's handler ran on this event (its wiring selected it): its verdict decided. */
  ran: boolean;
  /** The rule's condition on the memory holds (it decides when it runs). */
  fires: boolean;
  /** The step to look at: the latest counting mark, the reset, or the step that overflowed the memory. */
  cause: FlowStepRef | null;
  /** The marks that count, oldest first. */
  marks: FlowStepRef[];
  /** The last clear (a flag's clear, a precondition's reset). */
  cleared: FlowStepRef | null;
  /** The engine's sentence ("flag set by step 14 (tool.after_call WebFetch `https://…`)"). */
  text: string;
  /** The whole answer: the rule, whether it decided, and why. */
  sentence: string;
}

const ref = (m: FlowMark | null): FlowStepRef | null => (m === null ? null : { index: m.step, text: flowMarkText(m) });

/**
 * Every flow rule's verdict on a replayed step [F9], in the pipeline's order; empty when no handler ran on it
 * (a repeated id, a step after the run's end). The step must come from explain mode (`Replayer.step`).
 */
export function flowStepVerdicts(compiled: CompiledPipeline, step: ReplayStep): FlowStepVerdict[] {
  if (compiled.flows.length === 0 || step.explanation === null || step.duplicate || step.not_reached) return [];
  const ran = new Set(step.explanation.handlers.filter((h) => h.status === 'fired').map((h) => h.handler_id));
  return compiled.flows.map((rule) => verdictOn(rule, step, ran.has(rule.id)));
}

/** One rule's verdict on an explained step; `ran`: its handler ran there. */
export function verdictOn(rule: CompiledFlowRule, step: ReplayStep, ran: boolean): FlowStepVerdict {
  // The memory before the step, the event as it came, the state before: what the rule's action read [F3].
  const v = flowVerdict(rule, { event: step.event, payload: step.payload_before, state: step.state_before.vars, now: step.now, flows: step.state_before.flows });
  const who = quoteName(rule.name);
  const cause = v.overflow ?? (v.kind === 'precondition' ? v.cleared : v.marks[v.marks.length - 1] ?? null);
  const sentence = !ran
    ? `${who} did not see this event (its wiring did not select it); its memory: ${v.text}.`
    : v.fires
      ? `${who} fired: ${v.text}.`
      : `${who} ran and did not fire: ${v.text}.`;
  return { handler_id: rule.id, handler_name: rule.name, kind: rule.kind, ran, fires: v.fires, cause: ref(cause), marks: v.marks.map((m) => ref(m)!), cleared: ref(v.cleared), text: v.text, sentence };
}

/** "Go to step 14": the words of a jump to an earlier step. */
export function flowCauseLabel(cause: FlowStepRef): string {
  return `Go to ${stepNo(cause.index)}`;
}
