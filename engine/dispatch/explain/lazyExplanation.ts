import jsonPatch from 'fast-json-patch';

// The package is CommonJS: its default export works the same under Node's ESM loader and Vite.
const { compare } = jsonPatch;
import type { HookEvent } from '../../model/event.ts';
import type { JsonObject } from '../../model/json.ts';
import type { Scope } from '../../match/path.ts';
import type { CompiledPipeline, TypePlan } from '../../compile/compilePipeline.ts';
import { breakerOpenUntil } from '../chain.ts';
import type { DispatchResult, DispatchState, Explanation, HandlerExplain } from '../types.ts';
import { endedAt, type StepRecord } from './records.ts';
import { BREAKER_OPEN, NOT_REACHED, statusesFrom, statusesFromStories, type PlanInfo } from './statuses.ts';
import { breakerSkipped, describeBreaker, describeRun, explainMemo, explainPaths, remember, story, notReached, type ExplainMemo } from './stories.ts';

/**
 * Where a lazily explained event's statuses and stories come from: its plan and the record of its walk, and
 * the stories built from them so far (one object, so that an explanation starts with few fields to set).
 */
export interface Walked {
  compiled: CompiledPipeline;
  plan: TypePlan;
  info: PlanInfo;
  now: number;
  records: readonly StepRecord[];
  event: HookEvent;
  breakers: DispatchState['breakers'];
  /** Stories built so far, by rank; complete once `handlers` was built. */
  stories: (HandlerExplain | undefined)[] | null;
  complete: boolean;
}

/**
 * An explanation whose `handlers` is computed on first read and then kept. `handlers` is an own, enumerable
 * accessor, so JSON, structured clone (the replay worker, IndexedDB), spreading and deep equality all see
 * it; its getter is shared by every instance, and it has no setter (an explanation is a report: spread it to
 * change it, `{ ...explanation, handlers }`).
 *
 * Lazily explained (`walked` given), everything is derived from the record of the walk. The statuses need no
 * evaluation: the index returns every handler that matches (a superset of the matches), the record says what
 * each did, and the rest follows from the plan (disabled, wrong event type), the breakers the event met (open,
 * skipped) and where the chain ended (not reached). A story's paths are evaluated against the payload and
 * state its handler saw: those after the last recorded rewrite or state change before it. One object per
 * event: at 10 handlers explain mode's fixed cost is most of its time.
 */
export class EventExplanation implements Explanation {
  event_id: string;
  event_type: string;
  trace_id: string;
  mode: DispatchResult['mode'];
  declare readonly handlers: HandlerExplain[];
  decision: DispatchResult['decision'];
  reason: string;
  decided_by: string | null;
  precedence?: string;
  payload_before: JsonObject;
  payload_after: JsonObject;
  patch: Explanation['patch'];
  state_before: JsonObject;
  state_after: JsonObject;
  errors: DispatchResult['errors'];
  audit: JsonObject[];
  context: string[];
  #handlers: HandlerExplain[] | null;
  /** The record the statuses and stories come from until `handlers` is set from outside; null for an eager explanation. */
  #walked: Walked | null;
  #statuses: Uint8Array | null = null;

  constructor(event: HookEvent, state: DispatchState, mode: DispatchResult['mode'], result: DispatchResult, precedence: string | undefined, handlers: HandlerExplain[] | null, walked: Walked | null) {
    this.#handlers = handlers;
    this.#walked = walked;
    this.event_id = event.event_id;
    this.event_type = event.type;
    this.trace_id = event.trace_id;
    this.mode = mode;
    defineGetter.call(this, 'handlers', handlersGetter);
    this.decision = result.decision;
    this.reason = result.reason;
    this.decided_by = result.decided_by;
    if (precedence) this.precedence = precedence;
    this.payload_before = event.payload;
    this.payload_after = result.payload;
    this.patch = result.payload === event.payload ? NO_PATCH : compare(event.payload, result.payload);
    this.state_before = state.vars;
    this.state_after = result.state.vars;
    this.errors = result.errors;
    this.audit = result.audit;
    this.context = result.context;
  }

  static handlersOf(x: EventExplanation): HandlerExplain[] {
    return (x.#handlers ??= x.#all(x.#walked!));
  }

  static statusesOf(x: EventExplanation): Uint8Array {
    return (x.#statuses ??= x.#walked ? statusesFrom(x.#walked) : statusesFromStories(EventExplanation.handlersOf(x)));
  }

  static handlerOf(x: EventExplanation, rank: number): HandlerExplain {
    const built = x.#handlers;
    const h = built ? built[rank] : x.#at(x.#walked!, rank);
    if (!h) throw new RangeError(`no handler at rank ${rank} (the pipeline has ${EventExplanation.statusesOf(x).length})`);
    return h;
  }

  /** The story of the handler at `rank`. */
  #at(w: Walked, rank: number): HandlerExplain | undefined {
    const stories = (w.stories ??= new Array<HandlerExplain | undefined>(w.compiled.handlers.length));
    const built = stories[rank];
    if (built !== undefined || rank < 0 || rank >= stories.length) return built;
    // A matcher shared with an earlier handler: whether it is `cached` depends on that one's evaluation.
    if (w.info.shares[rank] === 1) return EventExplanation.handlersOf(this)[rank];
    const { scope, rec } = this.#scopeAt(w, rank);
    return (stories[rank] = this.#build(w, rank, scope, rec, explainMemo(w.compiled)));
  }

  /** Every handler's story, in order: the same objects `#at` returned, the rest built now. */
  #all(w: Walked): HandlerExplain[] {
    const stories = (w.stories ??= new Array<HandlerExplain | undefined>(w.compiled.handlers.length));
    if (w.complete) return stories as HandlerExplain[];
    const event = w.event;
    const scope: Scope = { event, payload: event.payload, state: this.state_before, now: w.now };
    const memo = explainMemo(w.compiled);
    const recs = w.records;
    const handlers = w.compiled.handlers;
    let next = 0;
    for (let r = 0; r < stories.length; r++) {
      const rec = next < recs.length && recs[next]!.rank === r ? recs[next++]! : null;
      let out = stories[r];
      if (out === undefined) stories[r] = out = this.#build(w, r, scope, rec, memo);
      else remember(handlers[r]!, out, memo); // built alone: its evaluations still count for the memo [M6]
      if (rec !== null && rec.kind === 'ran' && rec.changed) {
        scope.payload = rec.payloadAfter;
        scope.state = rec.varsAfter;
        memo.epoch++;
      }
    }
    if (next !== recs.length) throw new Error('internal: the chain ran handlers that the explanation does not show as matched');
    w.complete = true;
    return stories as HandlerExplain[];
  }

  /** The payload and state the handler at `rank` saw, and its record. */
  #scopeAt(w: Walked, rank: number): { scope: Scope; rec: StepRecord | null } {
    let payload = w.event.payload;
    let vars = this.state_before;
    let rec: StepRecord | null = null;
    for (const x of w.records) {
      if (x.rank >= rank) {
        if (x.rank === rank) rec = x;
        break;
      }
      if (x.kind === 'ran' && x.changed) {
        payload = x.payloadAfter;
        vars = x.varsAfter;
      }
    }
    return { scope: { event: w.event, payload, state: vars, now: w.now }, rec };
  }

  #build(w: Walked, rank: number, scope: Scope, rec: StepRecord | null, memo: ExplainMemo): HandlerExplain {
    const fixed = w.info.fixed[rank];
    if (fixed) return fixed;
    const handlers = w.compiled.handlers;
    const h = handlers[rank]!;
    const status = EventExplanation.statusesOf(this)[rank]!;
    if (status === NOT_REACHED) return notReached(h, handlers[endedAt(w.records)]!.id);
    if (status === BREAKER_OPEN && rec === null) return breakerSkipped(h, breakerOpenUntil(w.breakers, h, w.now));
    const paths = explainPaths(w.compiled, h, w.plan.paths[rank]!, scope, memo);
    // The index and the record against the clause-level evaluation: a disagreement is an engine bug.
    if (paths.some((p) => p.pass) !== (rec !== null)) throw new Error(`internal: the explanation of handler "${h.id}" disagrees with the chain that ran (candidate index and explain mode differ)`);
    if (rec === null) return story(h, 'not_matched', paths);
    if (rec.kind === 'breaker') return describeBreaker(h, paths, breakerOpenUntil(w.breakers, h, w.now), rec);
    return describeRun(h, paths, rec);
  }
}

/** The patch of an explanation whose payload did not change (shared: an explanation is read, not edited). */
const NO_PATCH: Explanation['patch'] = Object.freeze([]) as unknown as Explanation['patch'];

/**
 * `handlers`' getter, shared by every explanation. It is defined on each one with the legacy
 * `__defineGetter__` (enumerable, configurable, no setter), taken once from `Object.prototype`: it is the
 * cheapest way to make an own accessor in V8 (no descriptor object to read), and at 10 handlers the accessor
 * is the largest single cost of an explanation (explain mode measured ~15% faster than with
 * `Object.defineProperty` and a getter and setter).
 */
function handlersGetter(this: EventExplanation): HandlerExplain[] {
  return EventExplanation.handlersOf(this);
}

const defineGetter = (Object.prototype as unknown as { __defineGetter__(this: object, name: string, get: () => unknown): void }).__defineGetter__;
