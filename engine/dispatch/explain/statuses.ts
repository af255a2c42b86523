import type { CompiledPipeline, TypePlan } from '../../compile/compilePipeline.ts';
import { isCodeNode } from '../../model/codeNodes.ts';
import { breakerOpenUntil, whileOpen } from '../chain.ts';
import { lastMemo } from '../../accel/lastMemo.ts';
import { copyBytes } from '../../accel/byteSlab.ts';
import { HANDLER_STATUSES, STATUS_CODE, type DispatchState, type HandlerExplain } from '../types.ts';
import { endedAt, type StepRecord } from './records.ts';
import { fixedExplain } from './stories.ts';

// Every handler's status as one byte (an index into HANDLER_STATUSES), worked out from the plan and the
// record without building a story; and what explaining needs of a type's plan, computed once per plan.

export const FIRED = STATUS_CODE.fired;
export const NOT_MATCHED = STATUS_CODE.not_matched;
export const NOT_REACHED = STATUS_CODE.not_reached;
export const BREAKER_OPEN = STATUS_CODE.breaker_open;
export const ERROR = STATUS_CODE.error;

/** What explaining needs of a type's plan, computed once per plan. */
export interface PlanInfo {
  /** A live handler has a code matcher on a live path: explained eagerly (see explainEvent). */
  eager: boolean;
  /** Every handler's status before anything ran: disabled, wrong event type, or (live) not matched. */
  template: Uint8Array;
  /** Where an event's statuses are worked out (see `statusesFrom`), and the statuses given last. */
  work: Uint8Array;
  last: Uint8Array | null;
  /** Up to KEYED_UP_TO handlers: the statuses given so far, by their key (see `statusesFrom`). */
  byKey: Map<number, Uint8Array>;
  /** Per rank: the shared, frozen story of a disabled or wrong-event-type handler; null for a live one. */
  fixed: (HandlerExplain | null)[];
  /** Ranks of live handlers whose open breaker skips them [E3]. */
  skippers: Int32Array;
  /**
   * Per rank: 1 when a matcher on the handler's live paths is on a live path of an earlier live handler too,
   * so whether it is `cached` [M6] depends on that handler's evaluation.
   */
  shares: Uint8Array;
}

/** A plan's info, computed once per plan (a trace repeats a few types). */
export const planInfo = lastMemo((plan: TypePlan, compiled: CompiledPipeline) => buildPlanInfo(compiled, plan), 16);

function buildPlanInfo(compiled: CompiledPipeline, plan: TypePlan): PlanInfo {
  const n = compiled.handlers.length;
  const code = new Set<string>();
  for (const node of compiled.pipeline.nodes) if (node.kind === 'matcher' && isCodeNode(node)) code.add(node.id);
  const template = new Uint8Array(n);
  const fixed: (HandlerExplain | null)[] = new Array<HandlerExplain | null>(n).fill(null);
  const shares = new Uint8Array(n);
  const skippers: number[] = [];
  const seen = new Uint8Array(compiled.matchers.length);
  let eager = false;
  for (const h of compiled.handlers) {
    const live = plan.paths[h.rank];
    if (!h.node.enabled || !live) {
      const status = !h.node.enabled ? 'disabled' : 'wrong_event_type';
      template[h.rank] = STATUS_CODE[status];
      fixed[h.rank] = fixedExplain(h, status);
      continue;
    }
    template[h.rank] = NOT_MATCHED;
    if (h.breaker !== null && whileOpen(h) === 'skip') skippers.push(h.rank);
    for (let p = 0; p < live.length; p++) for (const mi of h.paths[live[p]!]!.matchers) if (seen[mi] === 1) shares[h.rank] = 1;
    for (let p = 0; p < live.length; p++) {
      for (const mi of h.paths[live[p]!]!.matchers) {
        seen[mi] = 1;
        if (code.has(compiled.matchers[mi]!.id)) eager = true;
      }
    }
  }
  return { eager, template, work: new Uint8Array(n), last: null, byKey: new Map(), fixed, skippers: Int32Array.from(skippers), shares };
}

/** What the statuses of a lazily explained event are worked out from (the lazy explanation's `Walked`). */
export interface WalkFacts {
  compiled: CompiledPipeline;
  info: PlanInfo;
  now: number;
  records: readonly StepRecord[];
  breakers: DispatchState['breakers'];
}

/**
 * Every handler's status code of a lazily explained event (see `handlerStatuses`), worked out in the plan's
 * scratch bytes. Equal to statuses the plan gave before (for up to 18 handlers, any of the last 1024
 * patterns; else the last one: most events of a trace repeat a few patterns), it is that same array, so a
 * trace's explanations keep one copy of each pattern instead of one per event.
 */
export function statusesFrom(w: WalkFacts): Uint8Array {
  const info = w.info;
  const s = info.work;
  s.set(info.template);
  // [E3] an open breaker that skips: the handler is not evaluated (its breaker changes only when it runs).
  for (let k = 0; k < info.skippers.length; k++) {
    const r = info.skippers[k]!;
    if (breakerOpenUntil(w.breakers, w.compiled.handlers[r]!, w.now) !== 0) s[r] = BREAKER_OPEN;
  }
  const recs = w.records;
  for (let k = 0; k < recs.length; k++) {
    const rec = recs[k]!;
    s[rec.rank] = rec.kind === 'breaker' ? BREAKER_OPEN : rec.result.ok ? FIRED : ERROR;
  }
  const end = endedAt(recs);
  if (end >= 0) for (let r = end + 1; r < s.length; r++) if (s[r] === NOT_MATCHED || s[r] === BREAKER_OPEN) s[r] = NOT_REACHED;
  if (s.length <= KEYED_UP_TO) {
    // Few handlers: the statuses as one number (a digit in base STATUS_BASE per handler, exact in a double),
    // the key of the patterns given before, so an event whose pattern was seen allocates nothing.
    let key = 0;
    for (let r = 0; r < s.length; r++) key = key * STATUS_BASE + s[r]!;
    let known = info.byKey.get(key);
    if (known === undefined) {
      if (info.byKey.size >= KEYED_MAX) info.byKey.clear();
      info.byKey.set(key, (known = copyBytes(s)));
    }
    return known;
  }
  const last = info.last;
  if (last !== null && sameBytes(last, s)) return last;
  return (info.last = copyBytes(s));
}

/**
 * Up to KEYED_UP_TO handlers a plan's status patterns are kept by key, at most KEYED_MAX of them: as many
 * digits of STATUS_BASE as a double holds exactly (7 statuses: 18 handlers, 7^18 < 2^53).
 */
const STATUS_BASE = HANDLER_STATUSES.length;
const KEYED_UP_TO = Math.floor(53 / Math.log2(STATUS_BASE));
const KEYED_MAX = 1024;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The statuses of built stories (an eager explanation, a structured clone, parsed JSON). */
export function statusesFromStories(handlers: readonly HandlerExplain[]): Uint8Array {
  const out = new Uint8Array(handlers.length);
  for (let r = 0; r < handlers.length; r++) out[r] = STATUS_CODE[handlers[r]!.status];
  return out;
}
