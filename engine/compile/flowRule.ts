// Flow rules [F1]-[F9]: one compiled form for the four constructs, one verdict (`flowVerdict`, which the
// handler's action and every explanation use, so they cannot disagree) and one pure state step
// (`observeFlows`, which replay's `stepEvent` applies after each step, so replay, the runtime's sessions and
// `serve` carry the same memory).
import type { FlowMark } from '../model/flowTypes.ts';
import { FLOW_LIMITS } from '../model/flowTypes.ts';
import { parseEventPattern } from '../model/eventPattern.ts';
import type { FlowAction, FlowRuleKind, FlowSelector, HandlerNode } from '../model/pipelineTypes.ts';
import type { JsonPath, Problem } from '../model/problem.ts';
import { compileCondition } from '../match/compileCondition.ts';
import { compileGetter, parsePath, type Getter, type Scope } from '../match/path.ts';
import { compileTemplate } from '../match/template.ts';
import { countLive, keyMemo, keyOf, liveMarks, ruleMemo, type CompiledFlowRule, type CompiledSelector } from './flowMemory.ts';

export type { CompiledFlowRule } from './flowMemory.ts';

/** Typed explanation of a flow rule on one event [F9]: whether it decides, and the earlier steps that made it so. */
export interface FlowVerdict {
  readonly rule_id: string;
  readonly rule_name: string;
  readonly kind: FlowRuleKind;
  readonly fires: boolean;
  /** The marks that count for this event (same key, within the window), oldest first. */
  readonly marks: readonly FlowMark[];
  /** The last clear of this key (the flag's clear, the precondition's reset), or null. */
  readonly cleared: FlowMark | null;
  /** Set when the rule's memory is full and it fails closed [F8]: the event that did not fit. */
  readonly overflow: FlowMark | null;
  /** The step people should look at: the latest counting mark, the reset, or the overflow; null when none. */
  readonly cause_step: number | null;
  /** One sentence: why it decides, or why not. */
  readonly text: string;
}

const DECISION_OF = { block: 'block_action', ask: 'ask', terminate: 'terminate' } as const;

/** Compiles a `flow` action [F1][F2]; problems are pushed under `here` (the action's JSON path). */
export function compileFlowRule(node: HandlerNode, action: FlowAction, here: JsonPath, problems: Problem[]): CompiledFlowRule | null {
  const before = problems.length;
  const push = (path: JsonPath, code: Problem['code'], message: string) => problems.push({ code, severity: 'error', path: [...here, ...path], message, node_id: node.id });
  const selector = (sel: FlowSelector, field: string): CompiledSelector | null => {
    const p = parseEventPattern(sel.event);
    if (!p.ok) push([field, 'event'], 'bad_pattern', p.message);
    const test = sel.when === undefined ? null : compileCondition(sel.when, [...here, field, 'when'], problems, node.id).test;
    return p.ok ? { pattern: p.pattern, test } : null;
  };
  const getter = (text: string, field: string): Getter | null => {
    const parsed = parsePath(text);
    if (parsed.ok) return compileGetter(parsed.path);
    push(['same', field], 'bad_path', parsed.message);
    return null;
  };
  const mark = selector(action.mark, 'mark');
  const clear = action.clear ? selector(action.clear, 'clear') : null;
  if (action.rule === 'window' && action.within_ms === undefined) push(['within_ms'], 'bad_operand', 'a window rule needs within_ms: the length of the window, by event time');
  if (action.rule !== 'window' && action.limit !== undefined && action.limit !== 1) push(['limit'], 'bad_operand', `limit counts events in a window; a ${action.rule} rule remembers one event (leave limit out)`);
  const earlierKey = action.same ? getter(action.same.earlier, 'earlier') : null;
  const nowKey = action.same ? getter(action.same.now, 'now') : null;
  const reason = compileTemplate(action.reason ?? node.name);
  if (!reason.ok) push(['reason'], reason.message.startsWith('unclosed') ? 'bad_template' : 'bad_path', reason.message);
  if (problems.length !== before || !mark || !reason.ok) return null;
  return Object.freeze({
    id: node.id,
    name: node.name,
    kind: action.rule,
    mark,
    clear,
    limit: action.rule === 'window' ? action.limit ?? 1 : 1,
    within: action.within_ms ?? Infinity,
    earlierKey,
    nowKey,
    decision: DECISION_OF[action.decision],
    reason: reason.render,
  });
}

/**
 * The verdict of a rule on an event [F3]-[F8], from the memory of the events before it (`scope.flows`):
 * `sequence`, `flag` and `window` fire when at least `limit` marks of the event's key are younger than
 * `within_ms`; `precondition` fires when none is; every rule fires once its memory overflowed.
 */
export function flowVerdict(rule: CompiledFlowRule, scope: Scope): FlowVerdict {
  const memo = ruleMemo(rule, scope.flows, scope.event.trace_id);
  const key = rule.nowKey === null ? '' : keyOf(rule.nowKey(scope));
  const km = key === null ? undefined : keyMemo(rule, memo, key);
  const marks = liveMarks(rule, km, scope.now);
  const cleared = km === undefined ? null : km.cleared;
  const fires = memo.overflow !== null || (rule.kind === 'precondition' ? marks.length === 0 : marks.length >= rule.limit);
  const cause = memo.overflow ?? (rule.kind === 'precondition' ? cleared : marks[marks.length - 1] ?? null);
  return { rule_id: rule.id, rule_name: rule.name, kind: rule.kind, fires, marks, cleared, overflow: memo.overflow, cause_step: cause ? cause.step : null, text: verdictText(rule, fires, marks, cleared, memo.overflow) };
}

/** Whether the rule fires, without building the verdict: the fast path's question [F3]. */
export function flowFires(rule: CompiledFlowRule, scope: Scope): boolean {
  const memo = ruleMemo(rule, scope.flows, scope.event.trace_id);
  if (memo.overflow !== null) return true;
  const key = rule.nowKey === null ? '' : keyOf(rule.nowKey(scope));
  const n = key === null ? 0 : countLive(rule, keyMemo(rule, memo, key), scope.now);
  return rule.kind === 'precondition' ? n === 0 : n >= rule.limit;
}

/** The reason a firing rule gives: its template, then the earlier step that set the state [F9]. */
export function flowReason(rule: CompiledFlowRule, scope: Scope): string {
  return `${rule.reason(scope)} — ${flowVerdict(rule, scope).text}`;
}

/** A remembered event in a few words: its type, tool and the file, command or URL it acted on. */
export function flowMarkText(m: FlowMark): string {
  let text = m.type;
  if (m.tool !== null) text += ` ${m.tool}`;
  if (m.subject !== null) text += ` \`${m.subject}\``;
  return text;
}

const stepText = (m: FlowMark): string => `step ${m.step + 1} (${flowMarkText(m)})`;

function duration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function verdictText(rule: CompiledFlowRule, fires: boolean, marks: readonly FlowMark[], cleared: FlowMark | null, overflow: FlowMark | null): string {
  if (overflow) return `this session's memory of the rule is full (${FLOW_LIMITS.keys} values; ${stepText(overflow)} did not fit), so it decides every event it sees (fail closed)`;
  const last = marks[marks.length - 1];
  switch (rule.kind) {
    case 'sequence':
      return last ? `${stepText(last)} came before` : 'no earlier event matched';
    case 'flag':
      return last ? `flag set by ${stepText(last)}` : cleared ? `flag cleared by ${stepText(cleared)}` : 'flag not set';
    case 'window': {
      const steps = marks.slice(-5).map((m) => m.step + 1).join(', ');
      const within = rule.within === Infinity ? '' : ` within ${duration(rule.within)}`;
      return `${marks.length} earlier${within} (limit ${rule.limit})${marks.length ? `: step${marks.length === 1 ? '' : 's'} ${marks.length > 5 ? '…, ' : ''}${steps}` : ''}${fires ? '' : ', below the limit'}`;
    }
    case 'precondition':
      return fires ? `nothing matched \`${rule.mark.pattern.text}\` since ${cleared ? stepText(cleared) : 'the session started'}` : `satisfied by ${stepText(last!)}`;
  }
}
