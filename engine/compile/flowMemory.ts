// The memory of flow rules [F3]-[F8]: the pure step that remembers an event (`observeFlows`, which replay's
// `stepEvent` applies after each step, so replay, the runtime's sessions and `serve` carry the same memory)
// and the reads the verdict makes. Everything here runs once per event of a session, so it allocates little:
// sessions and keys are persistent maps, a key's marks a shared list (one cell per mark), and a mark holds the
// strings it will be described by, not a sentence.
import type { EventPattern } from '../model/eventPattern.ts';
import type { Decision } from '../model/decision.ts';
import type { HookEvent } from '../model/event.ts';
import type { FlowKeyMemo, FlowMark, FlowMarkCell, FlowRuleMemo } from '../model/flowTypes.ts';
import { FLOW_LIMITS, FlowMemo, FlowSessions } from '../model/flowTypes.ts';
import { isJsonObject, ownGet, type JsonObject, type JsonValue } from '../model/json.ts';
import type { FlowRuleKind } from '../model/pipelineTypes.ts';
import { PersistentMap } from '../model/persistentMap.ts';
import type { Getter, Scope } from '../match/path.ts';
import type { Template } from '../match/template.ts';

export interface CompiledSelector {
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

const EMPTY_KEYS = PersistentMap.empty<FlowKeyMemo>();
const EMPTY_RULE: FlowRuleMemo = Object.freeze({ keys: EMPTY_KEYS, one: null, overflow: null });

/** A key's memory in a rule's memory: the rule's only one without `same`, else the value's [F2]. */
export function keyMemo(rule: CompiledFlowRule, memo: FlowRuleMemo, key: string): FlowKeyMemo | undefined {
  return rule.earlierKey === null ? memo.one ?? undefined : memo.keys.get(key);
}

/** One rule's memory in the event's session (empty when it remembers nothing). */
export function ruleMemo(rule: CompiledFlowRule, flows: FlowSessions | undefined, trace: string): FlowRuleMemo {
  if (flows === undefined) return EMPTY_RULE;
  const memo = flows.get(trace);
  return (memo !== undefined ? memo.get(rule.id) : undefined) ?? EMPTY_RULE;
}

/** How many of the key's newest `limit` marks are younger than the window at `now` [F7]. */
export function countLive(rule: CompiledFlowRule, km: FlowKeyMemo | undefined, now: number): number {
  let n = 0;
  let i = 0;
  for (let c = km === undefined ? null : km.last; c !== null && i < rule.limit; c = c.prev, i++) if (now - c.mark.ts < rule.within) n++;
  return n;
}

/** The marks that count at `now` (the newest `limit`, inside the window), oldest first [F7][F9]. */
export function liveMarks(rule: CompiledFlowRule, km: FlowKeyMemo | undefined, now: number): FlowMark[] {
  const out: FlowMark[] = [];
  let i = 0;
  for (let c = km === undefined ? null : km.last; c !== null && i < rule.limit; c = c.prev, i++) if (now - c.mark.ts < rule.within) out.push(c.mark);
  return out.reverse();
}

let scratch: Scope | null = null;

/**
 * The pure state step of flow rules [F3]-[F8]: the memory after an event that happened [F4] — each rule whose
 * `clear` selects it forgets its key's marks, each whose `mark` selects it remembers it — or the same
 * memory when no rule selects it. `payload` is the event's final payload; `index` its step.
 */
export function observeFlows(rules: readonly CompiledFlowRule[], flows: FlowSessions | undefined, event: HookEvent, payload: JsonObject, vars: JsonObject, index: number, now: number): FlowSessions | undefined {
  // One scope object for every call: conditions read it synchronously and keep nothing of it; it is emptied
  // before returning so it holds no event alive.
  const scope = scratch ?? (scratch = { event, payload, state: vars, now, flows });
  scope.event = event;
  scope.payload = payload;
  scope.state = vars;
  scope.now = now;
  scope.flows = flows;
  let memo: FlowMemo | undefined;
  let next: FlowMemo | null = null;
  let mark: FlowMark | null = null;
  try {
    for (const rule of rules) {
      const markable = rule.mark.pattern.matches(event.type);
      const clearable = rule.clear !== null && rule.clear.pattern.matches(event.type);
      if (!markable && !clearable) continue;
      const marks = markable && (rule.mark.test === null || rule.mark.test(scope));
      const clears = clearable && (rule.clear!.test === null || rule.clear!.test(scope));
      if (!marks && !clears) continue;
      const key = rule.earlierKey === null ? '' : keyOf(rule.earlierKey(scope));
      if (key === null) continue; // without the value, the event cannot be "the same" as any later one
      if (memo === undefined) memo = flows?.get(event.trace_id) ?? FlowMemo.EMPTY;
      if (mark === null) mark = markOf(event, payload, index, now);
      const before = (next ?? memo).get(rule.id) ?? EMPTY_RULE;
      const after = stepRule(rule, before, key, mark, marks, clears, now);
      if (after === before) continue;
      next = (next ?? memo).set(rule.id, after);
    }
  } finally {
    scope.event = scope.payload = scope.state = EMPTY_OBJECT as never;
    scope.flows = undefined;
  }
  if (next === null) return flows;
  return (flows ?? FlowSessions.EMPTY).set(event.trace_id, next);
}

const EMPTY_OBJECT = Object.freeze({});

/** One rule's memory after one event that it marks and/or clears. Bounded [F8]. */
function stepRule(rule: CompiledFlowRule, memo: FlowRuleMemo, key: string, mark: FlowMark, marks: boolean, clears: boolean, now: number): FlowRuleMemo {
  if (memo.overflow !== null) return memo; // full: the rule fails closed for the rest of the session
  const km = keyMemo(rule, memo, key);
  let last = km === undefined ? null : km.last;
  let cleared = km === undefined ? null : km.cleared;
  if (clears) {
    last = null;
    cleared = mark;
  }
  if (marks) last = pushMark(last, mark, rule.limit);
  if (rule.earlierKey === null) return Object.freeze({ keys: EMPTY_KEYS, one: Object.freeze({ last, cleared }), overflow: null });
  let keys = last === null ? memo.keys.delete(key) : memo.keys.set(key, Object.freeze({ last, cleared }));
  if (keys.size > FLOW_LIMITS.keys) {
    // Forget keys whose marks have all aged out of the window before declaring the memory full.
    for (const [k, v] of keys) if (countLive(rule, v, now) === 0) keys = keys.delete(k);
    if (keys.size > FLOW_LIMITS.keys) return Object.freeze({ keys: memo.keys, one: null, overflow: mark });
  }
  return Object.freeze({ keys, one: null, overflow: null });
}

/** The list with `mark` in front; past 2 × limit cells, cut to the newest `limit` (amortized: one cell per mark) [F8]. */
function pushMark(last: FlowMarkCell | null, mark: FlowMark, limit: number): FlowMarkCell {
  if (limit === 1 || last === null) return Object.freeze({ mark, prev: null, n: 1 });
  if (last.n + 1 <= 2 * limit) return Object.freeze({ mark, prev: last, n: last.n + 1 });
  const keep: FlowMark[] = [mark];
  for (let c: FlowMarkCell | null = last; c !== null && keep.length < limit; c = c.prev) keep.push(c.mark);
  let cell: FlowMarkCell | null = null;
  for (let i = keep.length - 1; i >= 0; i--) cell = Object.freeze({ mark: keep[i]!, prev: cell, n: cell === null ? 1 : cell.n + 1 });
  return cell!;
}

/** A `same` value as a key: strings as themselves, other JSON as its text; long ones clipped with length and hash [F8]. */
export function keyOf(value: JsonValue | undefined): string | null {
  if (value === undefined) return null;
  const text = typeof value === 'string' ? `s${value}` : `j${JSON.stringify(value)}`;
  if (text.length <= FLOW_LIMITS.key_chars) return text;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${flat(text.slice(0, FLOW_LIMITS.key_chars))}#${text.length}#${(h >>> 0).toString(36)}`;
}

const SUBJECTS = ['file_path', 'path', 'command', 'url', 'query', 'pattern'];

/** The mark of an event: its step, id, type, time, and the tool and file, command or URL it acted on (clipped). */
function markOf(event: HookEvent, payload: JsonObject, index: number, now: number): FlowMark {
  const tool = ownGet(payload, 'tool_name') ?? ownGet(payload, 'tool');
  const input = ownGet(payload, 'tool_input');
  let subject: JsonValue | undefined;
  for (const k of SUBJECTS) {
    subject = ownGet(payload, k) ?? (isJsonObject(input) ? ownGet(input, k) : undefined);
    if (typeof subject === 'string') break;
    subject = undefined;
  }
  return Object.freeze({
    step: index,
    event_id: event.event_id,
    type: event.type,
    ts: now,
    tool: typeof tool === 'string' ? clip(tool, 40) : null,
    subject: typeof subject === 'string' ? clip(subject, 80) : null,
  });
}

/** Short strings as they are; a long one cut, as a copy, so the memory never holds the whole text alive [F8]. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${flat(text.slice(0, max - 1))}…`;
}

/** A copy of a (short) string that shares no storage with the string it was cut from. */
function flat(text: string): string {
  const codes: number[] = [];
  for (let i = 0; i < text.length; i++) codes.push(text.charCodeAt(i));
  return String.fromCharCode(...codes);
}
