import type { CompiledPipeline } from '../compile/compilePipeline.ts';
import { explainedHandler } from '../dispatch/explain/explainEvent.ts';
import type { Explanation } from '../dispatch/types.ts';
import { compileCondition, type CompiledCondition } from '../match/compileCondition.ts';
import type { Scope } from '../match/path.ts';
import { isJsonObject, type JsonObject } from '../model/json.ts';
import type { Problem } from '../model/problem.ts';
import type { TraceEvent } from '../trace/traceTypes.ts';
import { ranAt, type ReplayActivity } from './replayActivity.ts';
import { stepPredicate } from './stepQuery.ts';
import { STEP_FLAG, type ReplayTimeline, type StepQuery } from './types.ts';

// Breakpoints [R18]: which steps of a replay a breakpoint stops at. One definition for the debugger's play,
// "next breakpoint" and the timeline's marks; the app sends the breakpoint and renders the steps found.

/** What a node breakpoint waits for: a handler that fires, blocks or rewrites; a matcher the event passes. */
export type BreakpointOn = 'fires' | 'blocks' | 'rewrites' | 'matches';
export const HANDLER_TRIGGERS: readonly BreakpointOn[] = ['fires', 'blocks', 'rewrites'];
export const MATCHER_TRIGGERS: readonly BreakpointOn[] = ['matches'];

/** Which hits stop: only the Nth (`at`), the Nth and every later one (`from`), or every Nth (`every`). */
export type HitMode = 'at' | 'from' | 'every';
export const HIT_MODES: readonly HitMode[] = ['at', 'from', 'every'];
export interface HitCount {
  count: number;
  mode: HitMode;
}

/** Every hit stops: the hit count of a breakpoint that gives none. */
export const EVERY_HIT: HitCount = Object.freeze({ count: 1, mode: 'from' });

/**
 * A breakpoint as the debugger stores it. Every part given must hold on a step for it to be a hit; the hit
 * count then picks which hits stop. `{ node: { id: 'h-block', on: 'blocks' }, when: { 'payload.tool_name': 'Bash' }, hits: { count: 3, mode: 'at' } }`
 */
export interface BreakpointSpec {
  /** A node of the pipeline: a handler (fires, blocks, rewrites) or a matcher (matches). */
  node?: { id: string; on: BreakpointOn };
  /** A step search [R11] the step must match: a decision, an event type. */
  step?: StepQuery;
  /** A condition [C1]-[C9] over the event as recorded (before any rewrite) and the state before the step. */
  when?: JsonObject;
  hits?: HitCount;
}

type NodeTest =
  | { on: 'fires'; rank: number }
  | { on: 'blocks'; rank: number }
  | { on: 'rewrites'; rank: number }
  /** Handlers with a path through the matcher: their stories say whether it passed. */
  | { on: 'matches'; id: string; ranks: readonly number[] };

/** A breakpoint checked against one pipeline, ready to test steps. */
export interface CompiledBreakpoint {
  readonly spec: BreakpointSpec;
  readonly node: NodeTest | null;
  readonly step: StepQuery | null;
  readonly condition: CompiledCondition | null;
  readonly hits: HitCount;
  /** The step's explanation is needed (a rewrite or a matcher's verdict is in the handler stories). */
  readonly explains: boolean;
  /** The state before each step is needed (the condition reads `state.`). */
  readonly readsState: boolean;
  /** Which handlers ran is needed (the explain pass's activity). */
  readonly readsActivity: boolean;
  /**
   * The step's event is needed (a condition, or the stories the step is explained into); else the timeline and
   * activity decide alone, and a search reads no event.
   */
  readonly readsEvent: boolean;
}

export type BreakpointCompile = { ok: true; breakpoint: CompiledBreakpoint } | { ok: false; problems: Problem[] };

const NO_STATE: JsonObject = Object.freeze({}) as JsonObject;

/**
 * Checks a breakpoint against a compiled pipeline [R18]: the node exists and can do what is waited for, the
 * condition compiles (the matchers' own compiler), the hit count is a positive whole number. Each problem
 * has a path into the breakpoint.
 */
export function compileBreakpoint(compiled: CompiledPipeline, spec: BreakpointSpec): BreakpointCompile {
  const problems: Problem[] = [];
  const push = (code: Problem['code'], path: (string | number)[], message: string) => problems.push({ code, severity: 'error', path, message });
  let node: NodeTest | null = null;
  if (spec.node) {
    const { id, on } = spec.node;
    const handler = compiled.handlers.find((h) => h.id === id);
    const matcher = compiled.matchers.findIndex((m) => m.id === id);
    if (handler) {
      if (!HANDLER_TRIGGERS.includes(on)) push('bad_operand', ['node', 'on'], `a handler breakpoint stops when it fires, blocks or rewrites, not "${String(on)}"`);
      else node = { on: on as 'fires' | 'blocks' | 'rewrites', rank: handler.rank };
    } else if (matcher >= 0) {
      if (on !== 'matches') push('bad_operand', ['node', 'on'], `a matcher breakpoint stops when the event passes it ("matches"), not "${String(on)}"`);
      else node = { on, id, ranks: compiled.handlers.filter((h) => h.paths.some((p) => p.matchers.includes(matcher))).map((h) => h.rank) };
    } else {
      push('missing_node', ['node', 'id'], `the pipeline has no handler or matcher "${id}"`);
    }
  }
  let condition: CompiledCondition | null = null;
  if (spec.when !== undefined) {
    if (!isJsonObject(spec.when) || Object.keys(spec.when).length === 0) push('bad_operand', ['when'], 'a breakpoint condition needs at least one clause, such as {"payload.tool_name": "Bash"}');
    else {
      const before = problems.length;
      const c = compileCondition(spec.when, ['when'], problems);
      if (problems.length === before) condition = c;
    }
  }
  const hits = spec.hits ?? EVERY_HIT;
  if (!Number.isInteger(hits.count) || hits.count < 1) push('bad_operand', ['hits', 'count'], `a hit count is a whole number from 1, not ${JSON.stringify(hits.count)}`);
  if (!HIT_MODES.includes(hits.mode)) push('bad_operand', ['hits', 'mode'], `a hit count is "at", "from" or "every", not ${JSON.stringify(hits.mode)}`);
  if (!spec.node && !spec.step && spec.when === undefined) push('bad_operand', [], 'a breakpoint needs a node, a step search or a condition');
  if (problems.length > 0) return { ok: false, problems };
  const step = spec.step ?? null;
  return {
    ok: true,
    breakpoint: {
      spec,
      node,
      step,
      condition,
      hits,
      explains: node?.on === 'rewrites' || node?.on === 'matches',
      readsEvent: condition !== null || node?.on === 'rewrites' || node?.on === 'matches',
      readsState: condition !== null && condition.paths.some((p) => p.startsWith('state.')),
      readsActivity: node?.on === 'fires' || node?.on === 'rewrites' || step?.kind === 'fired',
    },
  };
}

/** What a breakpoint looks at on one step. `explanation` and `stateBefore` are needed only when it says so. */
export interface BreakpointStep {
  event: TraceEvent;
  stateBefore: JsonObject | null;
  explanation: Explanation | null;
}

/**
 * The part of a breakpoint the timeline (and activity) decide, so a step they rule out is never explained.
 * A duplicate [R5] and a step after the run ended [R4] ran no handler: no node fires, blocks, rewrites or
 * matches there.
 */
export function breakpointPrefilter(b: CompiledBreakpoint, t: ReplayTimeline, a: ReplayActivity | null): (i: number) => boolean {
  const step = b.step ? stepPredicate(t, a, b.step) : null;
  const notHere = STEP_FLAG.not_reached | STEP_FLAG.duplicate;
  const n = b.node;
  let node: ((i: number) => boolean) | null = null;
  if (n?.on === 'fires') {
    if (!a) throw new Error('a "fires" breakpoint needs the explain pass (activity)');
    node = (i) => i < a.count && ranAt(a, i, n.rank);
  } else if (n?.on === 'blocks') {
    // The handler's decision is the step's and it blocked the action [R11]'s "blocked".
    const blocked = stepPredicate(t, a, { kind: 'blocked' });
    node = (i) => t.decided_by[i] === n.rank && (t.flags[i]! & notHere) === 0 && blocked(i);
  } else if (n?.on === 'rewrites') {
    // Not the step's net change: a rewrite a later handler undid leaves the payload as it was, and is still this
    // handler's rewrite. The handler having run rules steps out; the stories decide the rest.
    if (!a) throw new Error('a "rewrites" breakpoint needs the explain pass (activity)');
    node = (i) => i < a.count && ranAt(a, i, n.rank) && (t.flags[i]! & notHere) === 0;
  } else if (n?.on === 'matches') {
    node = (i) => (t.flags[i]! & notHere) === 0;
  }
  return (i) => (step === null || step(i)) && (node === null || node(i));
}

/** The rest of the test, on a step the prefilter let through: the stories and the condition. */
export function breakpointHolds(b: CompiledBreakpoint, s: BreakpointStep): boolean {
  const n = b.node;
  if (n?.on === 'rewrites' || n?.on === 'matches') {
    const x = s.explanation;
    if (!x) return false;
    if (n.on === 'rewrites') {
      // A change of value made by this handler, applied: a shadow handler's would-be rewrite does not count.
      const h = explainedHandler(x, n.rank);
      if (h.status !== 'fired' || h.ignored === 'shadow' || !h.patch || h.patch.length === 0) return false;
    } else if (!n.ranks.some((r) => explainedHandler(x, r).paths.some((p) => p.matchers.some((m) => m.matcher_id === n.id && m.pass)))) {
      return false;
    }
  }
  if (b.condition) {
    // Conditions read no clock [C1]-[C9]: `now` is not looked at.
    const scope: Scope = { event: s.event, payload: s.event.payload, state: s.stateBefore ?? NO_STATE, now: 0 };
    if (!b.condition.test(scope)) return false;
  }
  return true;
}

/**
 * The hits that stop, in order, given every hit in order [R18]: `at` N keeps the Nth, `from` N the Nth and
 * later, `every` N the Nth, 2Nth, …. `hitStops([3, 8, 9, 12], { count: 2, mode: 'every' })` → `[8, 12]`.
 */
export function hitStops(hits: Int32Array, h: HitCount): Int32Array {
  if (h.mode === 'from') return h.count <= 1 ? hits : hits.slice(h.count - 1);
  if (h.mode === 'at') return hits.length >= h.count ? hits.slice(h.count - 1, h.count) : new Int32Array(0);
  const out: number[] = [];
  for (let k = h.count - 1; k < hits.length; k += h.count) out.push(hits[k]!);
  return Int32Array.from(out);
}

/** Whether the hit of rank `rank` (1 = the first hit of the trace) stops [R18]. */
function rankStops(h: HitCount, rank: number): boolean {
  return h.mode === 'at' ? rank === h.count : h.mode === 'from' ? rank >= h.count : rank % h.count === 0;
}

/** The first stop after a step, found while a breakpoint's hits arrive a stretch at a time (`stopFinder`). */
export interface StopFinder {
  /** The first step whose hit can matter: hits before it never change the answer. */
  readonly start: number;
  /**
   * Takes the hits of the next stretch (in order, none twice; those before `start` are passed over) and gives the stop once it
   * is known: a step, or -1 when it is known that none comes (the Nth hit of `at` N was at or before the step);
   * undefined while one may still come. Past the trace's end an unanswered search has no stop.
   */
  push(hits: ArrayLike<number>): number | undefined;
}

/**
 * The first stop after `from` [R18] as the hits arrive in order, so a search can end at that stop instead of
 * at the trace's end: the same answer as `nextStop(hitStops(hits, h), from)` over all the hits. When every hit
 * stops (`from` 1) only hits after `from` matter; another hit count counts hits from the trace's first step.
 * `const f = stopFinder({ count: 2, mode: 'every' }, 8); f.push([3, 8]); f.push([9, 12])` → `12`
 */
export function stopFinder(h: HitCount, from: number): StopFinder {
  const start = h.mode === 'from' && h.count <= 1 ? Math.max(0, from + 1) : 0;
  let rank = 0;
  let answer: number | undefined;
  return {
    start,
    push(hits) {
      for (let k = 0; answer === undefined && k < hits.length; k++) {
        const i = hits[k]!;
        if (i < start) continue;
        rank++;
        if (i > from && rankStops(h, rank)) answer = i;
        else if (h.mode === 'at' && rank >= h.count) answer = -1;
      }
      return answer;
    },
  };
}

/** The first stop after `from` (forward) or the last before it (backward), or -1. `stops` is sorted. */
export function nextStop(stops: Int32Array, from: number, direction: 'forward' | 'backward' = 'forward'): number {
  let lo = 0;
  let hi = stops.length;
  // The first index whose stop is > from (forward) or >= from (backward).
  const bound = direction === 'forward' ? from + 1 : from;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (stops[mid]! < bound) lo = mid + 1;
    else hi = mid;
  }
  if (direction === 'forward') return lo < stops.length ? stops[lo]! : -1;
  return lo > 0 ? stops[lo - 1]! : -1;
}
