// Flow rules [F1]-[F9]: one compiled form for the four constructs, one verdict (`flowVerdict`, which the
// handler's action and every explanation use, so they cannot disagree) and one pure state step
// (`observeFlows`, which replay's `stepEvent` applies after each step, so replay, the runtime's sessions and
// `serve` carry the same memory).
import type { Decision } from '../model/decision.ts';
import type { HookEvent } from '../model/event.ts';
import { parseEventPattern, type EventPattern } from '../model/eventPattern.ts';
import type { FlowMark, FlowKeyMemo, FlowRuleMemo, FlowSessions, FlowMemo } from '../model/flowTypes.ts';
import { FLOW_LIMITS } from '../model/flowTypes.ts';
import { isJsonObject, ownGet, type JsonObject, type JsonValue } from '../model/json.ts';
import type { FlowAction, FlowRuleKind, FlowSelector, HandlerNode } from '../model/pipelineTypes.ts';
import type { JsonPath, Problem } from '../model/problem.ts';
import { compileCondition } from '../match/compileCondition.ts';
import { compileGetter, parsePath, type Getter, type Scope } from '../match/path.ts';
import { compileTemplate, type Template } from '../match/template.ts';

interface CompiledSelector {
  readonly pattern: EventPattern;
  readonly test: ((scope: Scope) => boolean) | null;
}

/** A flow rule compiled once [V5]. */
export interface CompiledFlowRule {
  readonly id: string;
  readonly name: string;
  readonly kind: FlowRuleKind;
  readonly mark: CompiledSelector;
  readonly clear: CompiledSelector | null;
  /** Marks needed to decide (sequence, flag: 1); a precondition decides when there are none. */
  readonly limit: number;
  /** Marks at least this old (ms, by event time) are forgotten; Infinity: never. */
  readonly within: number;
  readonly earlierKey: Getter | null;
  readonly nowKey: Getter | null;
  readonly decision: Decision;
  readonly reason: Template;
}

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
const EMPTY_RULE: FlowRuleMemo = Object.freeze({ keys: new Map<string, FlowKeyMemo>(), overflow: null });
const NO_MARKS: readonly FlowMark[] = Object.freeze([]);

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
  const km = key === null ? undefined : memo.keys.get(key);
  const marks = km === undefined ? NO_MARKS : live(km.marks, scope.now, rule.within);
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
  const km = key === null ? undefined : memo.keys.get(key);
  let n = 0;
  if (km !== undefined) for (const m of km.marks) if (scope.now - m.ts < rule.within) n++;
  return rule.kind === 'precondition' ? n === 0 : n >= rule.limit;
}

/** The reason a firing rule gives: its template, then the earlier step that set the state [F9]. */
export function flowReason(rule: CompiledFlowRule, scope: Scope): string {
  return `${rule.reason(scope)} — ${flowVerdict(rule, scope).text}`;
}

function ruleMemo(rule: CompiledFlowRule, flows: FlowSessions | undefined, trace: string): FlowRuleMemo {
  if (flows === undefined) return EMPTY_RULE;
  const memo = flows.get(trace);
  return (memo !== undefined ? memo.get(rule.id) : undefined) ?? EMPTY_RULE;
}

function live(marks: readonly FlowMark[], now: number, within: number): readonly FlowMark[] {
  if (within === Infinity) return marks;
  return marks.filter((m) => now - m.ts < within);
}

/**
 * The pure state step of flow rules [F3]-[F8]: the memory after an event that happened [F4] — each rule whose
 * `clear` selects it forgets its key's marks, each whose `mark` selects it remembers it — or the same
 * memory when no rule selects it. `payload` is the event's final payload; `index` its step.
 */
export function observeFlows(rules: readonly CompiledFlowRule[], flows: FlowSessions | undefined, event: HookEvent, payload: JsonObject, vars: JsonObject, index: number, now: number): FlowSessions | undefined {
  let scope: Scope | null = null;
  let memo: FlowMemo | undefined;
  let next: Map<string, FlowRuleMemo> | null = null;
  let mark: FlowMark | null = null;
  for (const rule of rules) {
    const markable = rule.mark.pattern.matches(event.type);
    const clearable = rule.clear !== null && rule.clear.pattern.matches(event.type);
    if (!markable && !clearable) continue;
    if (scope === null) scope = { event, payload, state: vars, now, flows };
    const marks = markable && (rule.mark.test === null || rule.mark.test(scope));
    const clears = clearable && (rule.clear!.test === null || rule.clear!.test(scope));
    if (!marks && !clears) continue;
    const key = rule.earlierKey === null ? '' : keyOf(rule.earlierKey(scope));
    if (key === null) continue; // without the value, the event cannot be "the same" as any later one
    if (memo === undefined) memo = flows?.get(event.trace_id) ?? new Map();
    if (mark === null) mark = Object.freeze({ step: index, event_id: event.event_id, type: event.type, ts: now, what: describeEvent(event, payload) });
    const before = (next ?? memo).get(rule.id) ?? EMPTY_RULE;
    const after = stepRule(rule, before, key, mark, marks, clears, now);
    if (after === before) continue;
    (next ??= new Map(memo)).set(rule.id, after);
  }
  if (next === null) return flows;
  const sessions = new Map(flows ?? []);
  sessions.set(event.trace_id, next);
  return sessions;
}

/** One rule's memory after one event that it marks and/or clears. Bounded [F8]. */
function stepRule(rule: CompiledFlowRule, memo: FlowRuleMemo, key: string, mark: FlowMark, marks: boolean, clears: boolean, now: number): FlowRuleMemo {
  if (memo.overflow !== null) return memo; // full: the rule fails closed for the rest of the session
  const km = memo.keys.get(key);
  let list = km === undefined ? NO_MARKS : km.marks;
  let cleared = km === undefined ? null : km.cleared;
  if (clears) {
    list = NO_MARKS;
    cleared = mark;
  }
  if (marks) {
    // A window keeps only what it needs: marks still inside it, at most `limit` of them [F8].
    const kept = rule.within === Infinity ? list : list.filter((m) => now - m.ts < rule.within);
    list = Object.freeze([...kept.slice(Math.max(0, kept.length - rule.limit + 1)), mark]);
  }
  const keys = new Map(memo.keys);
  if (list.length === 0 && rule.earlierKey !== null) keys.delete(key);
  else keys.set(key, Object.freeze({ marks: list, cleared }));
  if (keys.size > FLOW_LIMITS.keys) {
    // Forget keys whose marks have all aged out of the window before declaring the memory full.
    for (const [k, v] of keys) if (v.marks.every((m) => now - m.ts >= rule.within)) keys.delete(k);
    if (keys.size > FLOW_LIMITS.keys) return Object.freeze({ keys: memo.keys, overflow: mark });
  }
  return Object.freeze({ keys, overflow: null });
}

/** A `same` value as a key: strings as themselves, other JSON as its text; long ones clipped with length and hash [F8]. */
export function keyOf(value: JsonValue | undefined): string | null {
  if (value === undefined) return null;
  const text = typeof value === 'string' ? `s${value}` : `j${JSON.stringify(value)}`;
  if (text.length <= FLOW_LIMITS.key_chars) return text;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${text.slice(0, FLOW_LIMITS.key_chars)}#${text.length}#${(h >>> 0).toString(36)}`;
}

const SUBJECTS = ['file_path', 'path', 'command', 'url', 'query', 'pattern'];

/** The event in a few words for sentences: type, tool, and the file, command or URL (clipped). */
export function describeEvent(event: HookEvent, payload: JsonObject): string {
  const tool = ownGet(payload, 'tool_name') ?? ownGet(payload, 'tool');
  const input = ownGet(payload, 'tool_input');
  let subject: JsonValue | undefined;
  for (const k of SUBJECTS) {
    subject = ownGet(payload, k) ?? (isJsonObject(input) ? ownGet(input, k) : undefined);
    if (typeof subject === 'string') break;
    subject = undefined;
  }
  const parts = [event.type];
  if (typeof tool === 'string') parts.push(clip(tool, 40));
  if (typeof subject === 'string') parts.push(`\`${clip(subject, 80)}\``);
  return parts.join(' ');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const stepText = (m: FlowMark): string => `step ${m.step + 1} (${m.what})`;

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
