import jsonPatch from 'fast-json-patch';

// The package is CommonJS: its default export works the same under Node's ESM loader and Vite.
const { compare } = jsonPatch;
import type { HookEvent } from '../model/event.ts';
import type { JsonObject } from '../model/json.ts';
import type { Decision } from '../model/decision.ts';
import { ownGet } from '../model/json.ts';
import type { Scope } from '../match/path.ts';
import type { CompiledHandler, CompiledPipeline, TypePlan } from '../compile/compilePipeline.ts';
import type { ActionResult } from '../compile/types.ts';
import type { MatcherFailure } from '../compile/compileMatcher.ts';
import { isCodeNode } from '../model/codeNodes.ts';
import { newScratch, type Scratch } from './scratch.ts';
import { breakerBlocks, breakerOpenUntil, finishChain, matcherFailed, runSafely, settle, settleRecord, startChain, whileOpen, type Chain } from './chain.ts';
import { verdictOfExplain } from '../compile/compileMatcher.ts';
import { walkChain, type ChainRecorder, type DispatchEnv } from './dispatch.ts';
import { lastMemo } from './lastMemo.ts';
import { copyBytes } from './byteSlab.ts';
import { HANDLER_STATUSES, STATUS_CODE, type DispatchResult, type DispatchState, type Explanation, type HandlerError, type HandlerExplain, type MatcherExplain, type PathExplain, type StateChange } from './types.ts';
import type { ConditionExplain } from '../match/types.ts';

/**
 * Explain mode [X1]-[X6]: the same chain as `dispatch`, and an explanation in which every handler has a
 * status and every clause its verdict. Reaches the same decision, payload and state as `dispatch`.
 *
 * The explanation is built lazily [X6]: the chain is walked through the candidate index as on the fast
 * path (`walk`), recording only what each handler that matched did (`StepRecord`). Everything else is
 * derived from that record when asked for (`EventExplanation`), never by running an action again:
 * - every handler's status (`handlerStatuses`: one byte per handler, no evaluation — a live handler the
 *   index did not return provably does not match, so it is `not_matched`);
 * - one handler's whole story (`explainedHandler`), its clause-level paths evaluated against the payload
 *   and state it saw;
 * - `explanation.handlers`, every handler's story, on first read.
 * Each gives exactly what evaluating every handler while the chain runs gives (`explainEventEagerly`, the
 * oracle of test/engine/dispatch/lazyExplain.test.ts). A plan with a code matcher is explained eagerly:
 * sandboxed code answers once, at dispatch time, never later.
 */
export function explainEvent(compiled: CompiledPipeline, event: HookEvent, state: DispatchState, env: DispatchEnv): { result: DispatchResult; explanation: Explanation } {
  const plan = compiled.plan(event.type);
  const now = env.clock.now();
  const timer = env.timer ?? noTimer;
  const info = planInfo(plan, compiled);
  if (info.eager) return explainEager(compiled, plan, event, state, now, timer);
  const recorder = walkRecorder(compiled);
  const result = walk(compiled, plan, event, state, now, timer, recorder);
  const records = recorder.records;
  const walked: Walked = { compiled, plan, info, now, records, event, breakers: state.breakers, stories: null, complete: false };
  const explanation = new EventExplanation(event, state, plan.mode, result, precedenceNote(compiled, records, result, plan.mode === 'sync'), null, walked);
  return { result, explanation };
}

/**
 * Explain mode evaluating every handler while the chain runs, as `explainEvent` does for plans with code
 * matchers; for the others its result deep-equals `explainEvent`'s. Exported for that test (the oracle).
 */
export function explainEventEagerly(compiled: CompiledPipeline, event: HookEvent, state: DispatchState, env: DispatchEnv): { result: DispatchResult; explanation: Explanation } {
  return explainEager(compiled, compiled.plan(event.type), event, state, env.clock.now(), env.timer ?? noTimer);
}

/**
 * Every handler's status, by rank (the order of `explanation.handlers`), as an index into
 * `HANDLER_STATUSES` [X1]. For an explanation from `explainEvent` this is computed from the record of the
 * chain without building any handler's story (what coverage, activity and telemetry read for every event of
 * a trace); for any other (a structured clone, parsed JSON) it is read from `handlers`. Read-only: the
 * array is kept and returned again, and may be the very array of another explanation of the same event type
 * with the same statuses, or a view into a buffer shared with others (engine/dispatch/byteSlab.ts): `slice()`
 * it before changing, posting or storing it.
 */
export function handlerStatuses(explanation: Explanation): Uint8Array {
  if (explanation instanceof EventExplanation) return EventExplanation.statusesOf(explanation);
  return statusesFromStories(explanation.handlers);
}

/**
 * The story of the handler at `rank`, the same object as `explanation.handlers[rank]`, without building the
 * others' when the explanation comes from `explainEvent` (unless the handler shares a matcher with an earlier
 * one: then the memo [M6] needs them, and every story is built).
 */
export function explainedHandler(explanation: Explanation, rank: number): HandlerExplain {
  if (explanation instanceof EventExplanation) return EventExplanation.handlerOf(explanation, rank);
  const h = explanation.handlers[rank];
  if (!h) throw new RangeError(`no handler at rank ${rank} (the pipeline has ${explanation.handlers.length})`);
  return h;
}

function statusesFromStories(handlers: readonly HandlerExplain[]): Uint8Array {
  const out = new Uint8Array(handlers.length);
  for (let r = 0; r < handlers.length; r++) out[r] = STATUS_CODE[handlers[r]!.status];
  return out;
}

const noTimer = () => 0;

function explainEager(compiled: CompiledPipeline, plan: TypePlan, event: HookEvent, state: DispatchState, now: number, timer: () => number): { result: DispatchResult; explanation: Explanation } {
  const sync = plan.mode === 'sync';
  const c = startChain(event, state, sync);
  const records: StepRecord[] = [];
  const handlers = explainHandlers(compiled, plan, c, event, state, now, timer, records);
  const result = finishChain(c, state, plan.mode);
  const explanation = new EventExplanation(event, state, plan.mode, result, precedenceNote(compiled, records, result, sync), handlers, null);
  return { result, explanation };
}

/**
 * Where a lazily explained event's statuses and stories come from: its plan and the record of its walk, and
 * the stories built from them so far (one object, so that an explanation starts with few fields to set).
 */
interface Walked {
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
class EventExplanation implements Explanation {
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

/**
 * Every handler's status code of a lazily explained event (see `handlerStatuses`), worked out in the plan's
 * scratch bytes. Equal to statuses the plan gave before (for up to 18 handlers, any of the last 1024
 * patterns; else the last one: most events of a trace repeat a few patterns), it is that same array, so a
 * trace's explanations keep one copy of each pattern instead of one per event.
 */
function statusesFrom(w: Walked): Uint8Array {
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

/** The patch of an explanation whose payload did not change (shared: an explanation is read, not edited). */
const NO_PATCH: Explanation['patch'] = Object.freeze([]) as unknown as Explanation['patch'];

/** The rank of the handler that ended the chain, or -1. */
function endedAt(records: readonly StepRecord[]): number {
  // Not `records[length - 1]` on an empty list: index -1 is a named-property lookup, slow on every event.
  if (records.length === 0) return -1;
  const last = records[records.length - 1]!;
  return (last.kind === 'breaker' ? last.blocked : last.ended) ? last.rank : -1;
}

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

// ---- The record: what each handler that matched did, in order. ----

/** A handler that matched and whose breaker was open [E3]: whether that blocked the action. */
interface BreakerRecord {
  kind: 'breaker';
  rank: number;
  blocked: boolean;
  reason: string;
}

/** A handler that matched (or whose code matcher failed [M8]) and ran: its result and what it did to the chain. */
interface RunRecord {
  kind: 'ran';
  rank: number;
  result: ActionResult;
  error: HandlerError | null;
  ignored: 'shadow' | 'async' | undefined;
  payloadBefore: JsonObject;
  varsBefore: JsonObject;
  payloadAfter: JsonObject;
  varsAfter: JsonObject;
  changed: boolean;
  ended: boolean;
  duration: number;
}

type StepRecord = BreakerRecord | RunRecord;

/**
 * Runs one handler on the chain [M8][E1] and records what happened. `plain`: a plain audit handler
 * (`PlanStep.record`), settled as on the fast path (`settleRecord`); it comes to the shared CONTINUE (the
 * story shows no more of it), or to the failure to make its record.
 */
function runRecord(compiled: CompiledPipeline, c: Chain, h: CompiledHandler, failure: MatcherFailure | null, scope: Scope, event: HookEvent, now: number, timer: () => number, plain = false): RunRecord {
  const payloadBefore = c.payload;
  const varsBefore = c.vars;
  const t0 = timer();
  // [M8][E1] a code matcher that could not answer: the handler's error policy decides, as on the fast path.
  const result = plain ? settleRecord(c, h, scope, event, now) ?? PLAIN_AUDIT : failure ? matcherFailed(compiled, failure) : runSafely(h, scope);
  const elapsed = timer() - t0;
  if (!plain) settle(c, h, result, event, now);
  return new RunRecordOf(h.rank, result, c.lastError, c.lastIgnored, payloadBefore, varsBefore, c.payload, c.vars, c.changed, c.ended, result.duration_ms ?? elapsed);
}

const PLAIN_AUDIT: ActionResult = Object.freeze({ ok: true as const, outcome: Object.freeze({ decision: 'continue' as const }) });

/** A RunRecord as a class instance, not a literal: see `ActionOk` (compile/actions.ts) for why. */
class RunRecordOf implements RunRecord {
  readonly kind = 'ran' as const;
  constructor(
    readonly rank: number, readonly result: ActionResult, readonly error: HandlerError | null, readonly ignored: 'shadow' | 'async' | undefined,
    readonly payloadBefore: JsonObject, readonly varsBefore: JsonObject, readonly payloadAfter: JsonObject, readonly varsAfter: JsonObject,
    readonly changed: boolean, readonly ended: boolean, readonly duration: number,
  ) {}
}

/**
 * The decision walk of a lazily explained event: the fast path's loop over the candidate index (with its
 * own scratch, so the fast path's stays untouched), recording each handler that matched in `recorder`
 * (its records are the walk's until the next walk).
 */
function walk(compiled: CompiledPipeline, plan: TypePlan, event: HookEvent, state: DispatchState, now: number, timer: () => number, recorder: WalkRecorder): DispatchResult {
  const scratch = recorder.scratch;
  if (scratch.busy) throw new Error('explainEvent re-entered: an explanation on this compiled pipeline is still running (explain mode is not reentrant)');
  recorder.start(timer);
  if (plan.liveCount === 0) return finishChain((scratch.chain = startChain(event, state, plan.mode === 'sync', scratch.chain)), state, plan.mode);
  scratch.busy = true;
  try {
    return walkChain(compiled, plan, scratch, event, state, now, undefined, recorder);
  } finally {
    scratch.busy = false;
  }
}

/**
 * Keeps what the walk met, for the explanation to be built from later. One per compiled pipeline, reused:
 * `start` gives it a new event (records start as a shared empty list, most events record one handler or none).
 * It holds explain mode's own scratch of the pipeline, apart from the fast path's.
 */
class WalkRecorder implements ChainRecorder {
  records: StepRecord[] = NO_RECORDS;
  timer: () => number = noTimer;
  readonly scratch: Scratch;
  constructor(private readonly compiled: CompiledPipeline) {
    this.scratch = newScratch(compiled);
  }
  start(timer: () => number): this {
    this.records = NO_RECORDS;
    this.timer = timer;
    return this;
  }
  breaker(rank: number, blocked: boolean, reason: string): void {
    this.keep({ kind: 'breaker', rank, blocked, reason });
  }
  ran(c: Chain, h: CompiledHandler, failure: MatcherFailure | null, scope: Scope, event: HookEvent, now: number, plain: boolean): void {
    this.keep(runRecord(this.compiled, c, h, failure, scope, event, now, this.timer, plain));
  }
  private keep(rec: StepRecord): void {
    if (this.records === NO_RECORDS) this.records = [rec];
    else this.records.push(rec);
  }
}

const NO_RECORDS: StepRecord[] = Object.freeze([]) as unknown as StepRecord[];

/** Explain mode's recorder (and scratch) for `compiled`, made on first use. */
const walkRecorder = lastMemo((compiled: CompiledPipeline) => new WalkRecorder(compiled));

/**
 * The eager explaining loop [X1]-[X4], the oracle of the lazy one and the explanation of plans with code
 * matchers: every handler in order, each live one's paths evaluated clause by clause (matcher explanations
 * memoised per event [M6]); a handler that matched runs on the chain `c` now (recorded in `records`), and its
 * rewrite or state change is what the handlers after it see.
 */
function explainHandlers(compiled: CompiledPipeline, plan: TypePlan, c: Chain, event: HookEvent, state: DispatchState, now: number, timer: () => number, records: StepRecord[]): HandlerExplain[] {
  const scope: Scope = { event, payload: event.payload, state: state.vars, now };
  // Matcher explanations of this event, reused across paths [M6]; a new epoch forgets them after a rewrite.
  const memo = explainMemo(compiled);
  const info = planInfo(plan, compiled);
  const handlers: HandlerExplain[] = [];
  let endedBy: string | null = null;

  for (const h of compiled.handlers) {
    const live = plan.paths[h.rank];
    const fixed = info.fixed[h.rank];
    if (fixed) {
      handlers.push(fixed);
      continue;
    }
    if (endedBy !== null) {
      handlers.push(notReached(h, endedBy));
      continue;
    }
    const openUntil = breakerOpenUntil(c.breakers, h, now);
    if (openUntil !== 0 && whileOpen(h) === 'skip') {
      handlers.push(breakerSkipped(h, openUntil));
      continue;
    }
    const paths = explainPaths(compiled, h, live!, scope, memo);
    const pass = paths.some((p) => p.pass);
    const failure = pass ? null : paths.find((p) => p.matcher_failure)?.matcher_failure ?? null;
    if (!pass && failure === null) {
      handlers.push(story(h, 'not_matched', paths));
    } else if (openUntil !== 0) {
      const blocked = breakerBlocks(c, h, openUntil);
      const rec: BreakerRecord = { kind: 'breaker', rank: h.rank, blocked, reason: blocked ? c.reason : '' };
      records.push(rec);
      handlers.push(describeBreaker(h, paths, openUntil, rec));
      if (blocked) endedBy = h.id;
    } else {
      const ran = runRecord(compiled, c, h, failure, scope, event, now, timer);
      records.push(ran);
      handlers.push(describeRun(h, paths, ran));
      if (ran.ended) endedBy = h.id;
      if (ran.changed) {
        scope.payload = ran.payloadAfter;
        scope.state = ran.varsAfter;
        memo.epoch++;
      }
    }
  }
  return handlers;
}

// ---- From the record: statuses, and stories one by one or all together. ----

const FIRED = STATUS_CODE.fired;
const NOT_MATCHED = STATUS_CODE.not_matched;
const NOT_REACHED = STATUS_CODE.not_reached;
const BREAKER_OPEN = STATUS_CODE.breaker_open;
const ERROR = STATUS_CODE.error;

/** What explaining needs of a type's plan, computed once per plan. */
interface PlanInfo {
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
const planInfo = lastMemo((plan: TypePlan, compiled: CompiledPipeline) => buildPlanInfo(compiled, plan), 16);

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

/** Marks the matchers a built story evaluated as evaluated in the memo's epoch, with their explanations [M6]. */
function remember(h: CompiledHandler, out: HandlerExplain, memo: ExplainMemo): void {
  const paths = out.paths;
  for (let p = 0; p < paths.length; p++) {
    const ms = paths[p]!.matchers;
    const compiledMs = h.paths[p]!.matchers;
    for (let k = 0; k < ms.length; k++) {
      const mi = compiledMs[k]!;
      if (memo.epochs[mi] !== memo.epoch) {
        memo.epochs[mi] = memo.epoch;
        memo.values[mi] = ms[k]!.condition;
      }
    }
  }
}

/** The fields every handler's story starts with; the caller adds its status's own. */
function story(h: CompiledHandler, status: HandlerExplain['status'], paths: PathExplain[]): HandlerExplain {
  return { handler_id: h.id, name: h.name, action: h.node.action.type, order: h.node.order, status, shadow: h.node.shadow, paths } as HandlerExplain;
}

function notReached(h: CompiledHandler, endedBy: string): HandlerExplain {
  const s = story(h, 'not_reached', []) as Extract<HandlerExplain, { status: 'not_reached' }>;
  s.ended_by = endedBy;
  return s;
}

function breakerSkipped(h: CompiledHandler, openUntil: number): HandlerExplain {
  const s = story(h, 'breaker_open', []) as Extract<HandlerExplain, { status: 'breaker_open' }>;
  s.breaker_open_until = openUntil;
  return s;
}

/** [E3] a handler that matched while its breaker was open; `while_open: block` blocked the action. */
function describeBreaker(h: CompiledHandler, paths: PathExplain[], openUntil: number, rec: BreakerRecord): HandlerExplain {
  const b = story(h, 'breaker_open', paths) as Extract<HandlerExplain, { status: 'breaker_open' }>;
  b.breaker_open_until = openUntil;
  if (rec.blocked) {
    b.decision = 'block_action';
    b.reason = rec.reason;
  }
  return b;
}

const fixedExplains = new WeakMap<CompiledHandler, { disabled: HandlerExplain; wrong_event_type: HandlerExplain }>();

/** Shared, frozen explanations for the statuses that need no evaluation, built once per compiled handler. */
function fixedExplain(h: CompiledHandler, status: 'disabled' | 'wrong_event_type'): HandlerExplain {
  let fixed = fixedExplains.get(h);
  if (!fixed) {
    const staticPaths: PathExplain[] = h.paths.map((p) =>
      Object.freeze({ nodes: p.nodes as string[], event_node_id: p.eventNodeId, pattern: p.pattern.text, type_matched: false, matchers: [], pass: false }),
    );
    const make = (s: typeof status, ps: PathExplain[]): HandlerExplain =>
      Object.freeze({ handler_id: h.node.id, name: h.node.name, action: h.node.action.type, order: h.node.order, status: s, shadow: h.node.shadow, paths: ps });
    fixed = { disabled: make('disabled', []), wrong_event_type: make('wrong_event_type', staticPaths) };
    fixedExplains.set(h, fixed);
  }
  return fixed[status];
}

interface ExplainMemo {
  epoch: number;
  epochs: Int32Array;
  values: (ConditionExplain | undefined)[];
}

const memos = new WeakMap<CompiledPipeline, ExplainMemo>();

/** One memo per compiled pipeline, reused from event to event: a fresh epoch per event, no per-event array. */
function explainMemo(compiled: CompiledPipeline): ExplainMemo {
  let memo = memos.get(compiled);
  if (!memo) memos.set(compiled, (memo = { epoch: 0, epochs: new Int32Array(compiled.matchers.length), values: new Array<ConditionExplain | undefined>(compiled.matchers.length).fill(undefined) }));
  if (++memo.epoch >= 0x3fffffff) {
    memo.epoch = 1;
    memo.epochs.fill(0);
  }
  return memo;
}

/**
 * A live handler's paths, clause by clause [X2][X3]: each live path's matchers in order up to the first that
 * failed, matcher explanations memoised in `memo`'s epoch [M6]. Plain loops and one literal per object: a
 * full read builds this for every live handler of every event.
 */
function explainPaths(compiled: CompiledPipeline, h: CompiledHandler, live: Int32Array, scope: Scope, memo: ExplainMemo): PathExplain[] {
  const ps = h.paths;
  const out: PathExplain[] = [];
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i]!;
    let typeMatched = false;
    for (let j = 0; j < live.length; j++) if (live[j] === i) typeMatched = true;
    const matchers: MatcherExplain[] = [];
    const path: PathExplain = { nodes: p.nodes as string[], event_node_id: p.eventNodeId, pattern: p.pattern.text, type_matched: typeMatched, matchers, pass: typeMatched };
    out.push(path);
    if (!typeMatched) continue;
    const ms = p.matchers;
    for (let k = 0; k < ms.length; k++) {
      const mi = ms[k]!;
      const m = compiled.matchers[mi]!;
      const cached = memo.epochs[mi] === memo.epoch;
      let condition: ConditionExplain;
      if (cached) condition = memo.values[mi]!;
      else {
        condition = m.explain(scope);
        memo.values[mi] = condition;
        memo.epochs[mi] = memo.epoch;
      }
      matchers.push({ matcher_id: m.id, label: m.label, pass: condition.pass, cached, condition });
      // Only a code matcher (alone, or in an `all`) can fail to answer rather than fail [M8].
      const verdict = condition.pass ? true : condition.kind === 'code' || condition.kind === 'all' ? verdictOfExplain(m.id, condition) : false;
      if (verdict === false) {
        path.pass = false;
        if (path.matcher_failure !== undefined) delete path.matcher_failure;
        break;
      }
      // A code matcher that could not answer: the rest of the path is still tried (a failing condition
      // after it means the path does not match at all) [M8].
      if (verdict !== true) {
        path.pass = false;
        path.matcher_failure ??= verdict;
      }
    }
  }
  return out;
}

type Ran = Extract<HandlerExplain, { status: 'fired' | 'error' }>;

function describeRun(h: CompiledHandler, paths: PathExplain[], rec: RunRecord): Ran {
  const r = rec.result;
  if (!r.ok) {
    // settle() recorded the error the policy decided on; a failed run always has one.
    const error = rec.error;
    if (!error) throw new Error(`internal: handler "${h.id}" failed without a recorded error`);
    const failed = story(h, 'error', paths) as Extract<HandlerExplain, { status: 'error' }>;
    failed.error = error;
    failed.duration_ms = rec.duration;
    if (r.logs?.length) failed.logs = r.logs;
    return failed;
  }
  const o = r.outcome;
  const out = story(h, 'fired', paths) as Extract<HandlerExplain, { status: 'fired' }>;
  out.decision = o.decision;
  out.duration_ms = rec.duration;
  if (o.reason) out.reason = o.reason;
  if (o.context !== undefined) out.context = o.context;
  if (rec.ignored) out.ignored = rec.ignored;
  if (o.logs?.length) out.logs = o.logs;
  // A shadow handler's would-be rewrite is shown too, against the payload it saw.
  const after = rec.ignored === 'shadow' ? o.new_payload ?? rec.payloadBefore : rec.payloadAfter;
  if (after !== rec.payloadBefore) out.patch = compare(rec.payloadBefore, after);
  const patch = o.state_patch;
  if (patch) {
    const changes: StateChange[] = Object.keys(patch).map((key) => {
      const before = ownGet(rec.varsBefore, key);
      const value = patch[key];
      return { key, before, after: value === null ? undefined : value };
    });
    if (changes.length) out.state_changes = changes;
  }
  return out;
}

/**
 * What a step decided, for the precedence note: a run's own decision, the decision its error policy took
 * for a failed run [E1], or the block of an open breaker [E3]; null when it decided nothing (CONTINUE, an
 * error that is logged or ignored).
 */
function stepDecision(rec: StepRecord): Decision | null {
  if (rec.kind === 'breaker') return rec.blocked ? 'block_action' : null;
  if (rec.result.ok) return rec.result.outcome.decision === 'continue' ? null : rec.result.outcome.decision;
  const policy = rec.error?.policy;
  return policy === 'block' ? 'block_action' : policy === 'terminate' ? 'terminate' : null;
}

/** Says which decision won and why, when more than one handler decided something other than CONTINUE [D5]. */
function precedenceNote(compiled: CompiledPipeline, records: readonly StepRecord[], result: DispatchResult, sync: boolean): string | undefined {
  let count = 0;
  for (let i = 0; i < records.length; i++) if (stepDecision(records[i]!) !== null) count++;
  if (!sync && count > 0) return 'This event is async: decisions are reported but never enforced.';
  if (count < 2) return undefined;
  const deciders = records.flatMap((rec) => {
    const decision = stepDecision(rec);
    return decision === null ? [] : [{ rec, decision }];
  });
  const winner = deciders.find((d) => compiled.handlers[d.rec.rank]!.id === result.decided_by);
  const others = deciders.filter((d) => d !== winner).map(({ rec, decision }) => {
    const h = compiled.handlers[rec.rank]!;
    const shadow = rec.kind === 'ran' && rec.ignored === 'shadow';
    // Only the last decider can be a failure or an open breaker (both end the chain), and it is the winner
    // unless an earlier TERMINATE outranks it, which would have ended the chain first: so the others ran.
    return `"${h.name}" ${shadow ? 'would have decided' : 'decided'} ${decision.toUpperCase()}${shadow ? ' (shadow, not enforced)' : ''}`;
  });
  const winnerName = winner ? compiled.handlers[winner.rec.rank]!.name : result.decided_by;
  return `${result.decision.toUpperCase()} from "${winnerName}" is effective (TERMINATE > BLOCK_ACTION > ASK > STOP_PROPAGATION > CONTINUE); also: ${others.join('; ')}.`;
}
