import jsonPatch from 'fast-json-patch';

// The package is CommonJS: its default export works the same under Node's ESM loader and Vite.
const { compare } = jsonPatch;
import type { HookEvent } from '../model/event.ts';
import type { JsonObject } from '../model/json.ts';
import { ownGet } from '../model/json.ts';
import type { Scope } from '../match/path.ts';
import type { CompiledHandler, CompiledPipeline, TypePlan } from '../compile/compilePipeline.ts';
import type { ActionResult } from '../compile/types.ts';
import type { MatcherFailure } from '../compile/compileMatcher.ts';
import { isCodeNode } from '../model/codeNodes.ts';
import { newScratch, type Scratch } from './scratch.ts';
import { breakerBlocks, breakerOpenUntil, finishChain, matcherFailed, runSafely, settle, startChain, whileOpen, type Chain } from './chain.ts';
import { verdictOfExplain } from '../compile/compileMatcher.ts';
import { walkChain, type ChainRecorder, type DispatchEnv } from './dispatch.ts';
import type { DispatchResult, DispatchState, Explanation, HandlerError, HandlerExplain, MatcherExplain, PathExplain, StateChange } from './types.ts';
import type { ConditionExplain } from '../match/types.ts';

/**
 * Explain mode [X1]-[X6]: the same chain as `dispatch`, and an explanation in which every handler has a
 * status and every clause its verdict. Reaches the same decision, payload and state as `dispatch`.
 *
 * The explanation is built lazily [X6]: the chain is walked through the candidate index as on the fast
 * path (`walk`), recording only what each handler that matched did. `explanation.handlers` (every
 * handler's status and run) is computed from that record when first read, by the one explaining loop
 * (`explainHandlers`) replaying the record instead of running actions again; the clause-level `paths` of
 * the handlers that were evaluated — including the ones the index never looked at — when any of them is
 * first read (`LazyPaths`). Reading gives exactly what evaluating everything eagerly gives
 * (test/engine/dispatch/lazyExplain.test.ts). A plan with a code matcher is explained eagerly (the same
 * loop, running the chain itself): sandboxed code answers once, at dispatch time, never later.
 */
export function explainEvent(compiled: CompiledPipeline, event: HookEvent, state: DispatchState, env: DispatchEnv): { result: DispatchResult; explanation: Explanation } {
  const plan = compiled.plan(event.type);
  const now = env.clock.now();
  const timer = env.timer ?? noTimer;
  if (needsEagerExplain(compiled, plan)) return explainEager(compiled, plan, event, state, now, timer);
  const records: StepRecord[] = [];
  const result = walk(compiled, plan, event, state, now, timer, records);
  const explanation = new EventExplanation(event, state, plan.mode, result, precedenceNote(compiled, records, result, plan.mode === 'sync'), { compiled, plan, event, state, now, records });
  return { result, explanation };
}

/**
 * Explain mode evaluating every handler while the chain runs, as `explainEvent` does for plans with code
 * matchers; for the others its result deep-equals `explainEvent`'s. Exported for that test (the oracle).
 */
export function explainEventEagerly(compiled: CompiledPipeline, event: HookEvent, state: DispatchState, env: DispatchEnv): { result: DispatchResult; explanation: Explanation } {
  return explainEager(compiled, compiled.plan(event.type), event, state, env.clock.now(), env.timer ?? noTimer);
}

const noTimer = () => 0;

function explainEager(compiled: CompiledPipeline, plan: TypePlan, event: HookEvent, state: DispatchState, now: number, timer: () => number): { result: DispatchResult; explanation: Explanation } {
  const sync = plan.mode === 'sync';
  const c = startChain(event, state, sync);
  const steps = liveSteps(compiled, c, event, now, timer);
  const handlers = explainHandlers(compiled, plan, event, state, now, steps);
  const result = finishChain(c, state, plan.mode);
  const explanation = new EventExplanation(event, state, plan.mode, result, precedenceNote(compiled, steps.records, result, sync), handlers);
  return { result, explanation };
}

/** What the explaining loop needs to replay an event from its record. */
interface Replay {
  compiled: CompiledPipeline;
  plan: TypePlan;
  event: HookEvent;
  state: DispatchState;
  now: number;
  records: readonly StepRecord[];
}

/**
 * An explanation whose `handlers` is computed on first read (from the record of the decision walk) and
 * then kept. `handlers` is an own, enumerable accessor, so JSON, structured clone (the replay worker,
 * IndexedDB), spreading and deep equality all see it; its getter and setter are shared by every instance.
 */
class EventExplanation implements Explanation {
  event_id: string;
  event_type: string;
  trace_id: string;
  mode: DispatchResult['mode'];
  declare handlers: HandlerExplain[];
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
  #handlers: HandlerExplain[] | Replay;

  constructor(event: HookEvent, state: DispatchState, mode: DispatchResult['mode'], result: DispatchResult, precedence: string | undefined, handlers: HandlerExplain[] | Replay) {
    this.#handlers = handlers;
    this.event_id = event.event_id;
    this.event_type = event.type;
    this.trace_id = event.trace_id;
    this.mode = mode;
    Object.defineProperty(this, 'handlers', HANDLERS);
    this.decision = result.decision;
    this.reason = result.reason;
    this.decided_by = result.decided_by;
    if (precedence) this.precedence = precedence;
    this.payload_before = event.payload;
    this.payload_after = result.payload;
    this.patch = result.payload === event.payload ? [] : compare(event.payload, result.payload);
    this.state_before = state.vars;
    this.state_after = result.state.vars;
    this.errors = result.errors;
    this.audit = result.audit;
    this.context = result.context;
  }

  static handlersOf(x: EventExplanation): HandlerExplain[] {
    const h = x.#handlers;
    if (Array.isArray(h)) return h;
    const built = explainHandlers(h.compiled, h.plan, h.event, h.state, h.now, replaySteps(h.records, h.state, h.now));
    x.#handlers = built;
    return built;
  }

  static setHandlers(x: EventExplanation, value: HandlerExplain[]): void {
    x.#handlers = value;
  }
}

const HANDLERS: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: EventExplanation) {
    return EventExplanation.handlersOf(this);
  },
  set(this: EventExplanation, value: HandlerExplain[]) {
    EventExplanation.setHandlers(this, value);
  },
};

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

/** What the explaining loop asks of the chain: live (run the handler now) or replayed (read the record). */
interface Steps {
  /** When the breaker of `h` is open, the time it closes; otherwise 0. */
  openUntil(h: CompiledHandler): number;
  /**
   * Whether `h` matches: live, its paths evaluated now; replayed, what the record says, its paths (null)
   * evaluated when first read (`LazyPaths`).
   */
  match(h: CompiledHandler, live: Int32Array, scope: Scope, memo: ExplainMemo): { paths: PathExplain[] | null; matched: boolean; failure: MatcherFailure | null };
  /** `h` matched while its breaker is open. */
  breaker(h: CompiledHandler, openUntil: number): BreakerRecord;
  /** `h` matched (or `failure`: a code matcher could not answer): its run. */
  run(h: CompiledHandler, failure: MatcherFailure | null, scope: Scope): RunRecord;
  /** Called after the last handler: a replay checks that the record was used up. */
  done(): void;
}

/** Steps that run the chain: the handler's action runs and settles on `c`, and is recorded. */
function liveSteps(compiled: CompiledPipeline, c: Chain, event: HookEvent, now: number, timer: () => number): Steps & { records: StepRecord[] } {
  const records: StepRecord[] = [];
  return {
    records,
    openUntil: (h) => breakerOpenUntil(c.breakers, h, now),
    match(h, live, scope, memo) {
      const paths = explainPaths(compiled, h, live, scope, memo);
      const pass = paths.some((p) => p.pass);
      const failure = pass ? null : paths.find((p) => p.matcher_failure)?.matcher_failure ?? null;
      return { paths, matched: pass || failure !== null, failure };
    },
    breaker(h, openUntil) {
      const blocked = breakerBlocks(c, h, openUntil);
      const rec: BreakerRecord = { kind: 'breaker', rank: h.rank, blocked, reason: blocked ? c.reason : '' };
      records.push(rec);
      return rec;
    },
    run(h, failure, scope) {
      const rec = runRecord(compiled, c, h, failure, scope, event, now, timer);
      records.push(rec);
      return rec;
    },
    done() {},
  };
}

/** Runs one handler on the chain [M8][E1] and records what happened. */
function runRecord(compiled: CompiledPipeline, c: Chain, h: CompiledHandler, failure: MatcherFailure | null, scope: Scope, event: HookEvent, now: number, timer: () => number): RunRecord {
  const payloadBefore = c.payload;
  const varsBefore = c.vars;
  const t0 = timer();
  // [M8][E1] a code matcher that could not answer: the handler's error policy decides, as on the fast path.
  const result = failure ? matcherFailed(compiled, failure) : runSafely(h, scope);
  const elapsed = timer() - t0;
  settle(c, h, result, event, now);
  return {
    kind: 'ran', rank: h.rank, result, error: c.lastError, ignored: c.lastIgnored, payloadBefore, varsBefore,
    payloadAfter: c.payload, varsAfter: c.vars, changed: c.changed, ended: c.ended, duration: result.duration_ms ?? elapsed,
  };
}

/** Steps that read a record made by `walk`, in rank order; a mismatch is an engine bug and fails loudly. */
function replaySteps(records: readonly StepRecord[], state: DispatchState, now: number): Steps {
  let next = 0;
  const take = (h: CompiledHandler): StepRecord => {
    const rec = records[next++];
    if (rec === undefined || rec.rank !== h.rank) throw new Error(`internal: the explanation of handler "${h.id}" disagrees with the chain that ran (candidate index and explain mode differ)`);
    return rec;
  };
  return {
    // The breaker of a handler changes only when it runs itself: before that, the state's entry is the chain's.
    openUntil: (h) => breakerOpenUntil(state.breakers, h, now),
    match(h) {
      const rec = records[next];
      return { paths: null, matched: rec !== undefined && rec.rank === h.rank, failure: null };
    },
    breaker(h) {
      const rec = take(h);
      if (rec.kind !== 'breaker') throw new Error(`internal: handler "${h.id}" ran, but its explanation says its breaker was open`);
      return rec;
    },
    run(h) {
      const rec = take(h);
      if (rec.kind !== 'ran') throw new Error(`internal: handler "${h.id}" met an open breaker, but its explanation says it ran`);
      return rec;
    },
    done() {
      if (next !== records.length) throw new Error('internal: the chain ran handlers that the explanation does not show as matched');
    },
  };
}

/**
 * The decision walk of a lazily explained event: the fast path's loop over the candidate index (with its
 * own scratch, so the fast path's stays untouched), recording each handler that matched.
 */
function walk(compiled: CompiledPipeline, plan: TypePlan, event: HookEvent, state: DispatchState, now: number, timer: () => number, records: StepRecord[]): DispatchResult {
  const scratch = walkScratch(compiled);
  if (scratch.busy) throw new Error('explainEvent re-entered: an explanation on this compiled pipeline is still running (explain mode is not reentrant)');
  if (plan.liveCount === 0) return finishChain((scratch.chain = startChain(event, state, plan.mode === 'sync', scratch.chain)), state, plan.mode);
  scratch.busy = true;
  try {
    return walkChain(compiled, plan, scratch, event, state, now, undefined, new WalkRecorder(compiled, timer, records));
  } finally {
    scratch.busy = false;
  }
}

/** Keeps what the walk met, for the explanation to be built from later. */
class WalkRecorder implements ChainRecorder {
  constructor(
    private readonly compiled: CompiledPipeline,
    private readonly timer: () => number,
    private readonly records: StepRecord[],
  ) {}
  breaker(rank: number, blocked: boolean, reason: string): void {
    this.records.push({ kind: 'breaker', rank, blocked, reason });
  }
  ran(c: Chain, h: CompiledHandler, failure: MatcherFailure | null, scope: Scope, event: HookEvent, now: number): void {
    this.records.push(runRecord(this.compiled, c, h, failure, scope, event, now, this.timer));
  }
}

const walkScratches = new WeakMap<CompiledPipeline, Scratch>();

function walkScratch(compiled: CompiledPipeline): Scratch {
  let s = walkScratches.get(compiled);
  if (!s) walkScratches.set(compiled, (s = newScratch(compiled)));
  return s;
}

const eagerPlans = new WeakMap<TypePlan, boolean>();

/** True when a live handler of the plan has a code matcher on a live path: explained eagerly (see explainEvent). */
function needsEagerExplain(compiled: CompiledPipeline, plan: TypePlan): boolean {
  let eager = eagerPlans.get(plan);
  if (eager === undefined) {
    const code = new Set<string>();
    for (const n of compiled.pipeline.nodes) if (n.kind === 'matcher' && isCodeNode(n)) code.add(n.id);
    eager = compiled.handlers.some((h) => {
      const live = plan.paths[h.rank];
      return live != null && [...live].some((p) => [...h.paths[p]!.matchers].some((m) => code.has(compiled.matchers[m]!.id)));
    });
    eagerPlans.set(plan, eager);
  }
  return eager;
}

/**
 * The one explaining loop [X1]-[X4]: every handler in order, each live one's paths evaluated clause by
 * clause (matcher explanations memoised per event [M6]); a handler that matched is run by `steps` (live:
 * now, on the chain; replayed: from the record of the walk), and its rewrite or state change is what the
 * handlers after it see.
 */
function explainHandlers(compiled: CompiledPipeline, plan: TypePlan, event: HookEvent, state: DispatchState, now: number, steps: Steps): HandlerExplain[] {
  const scope: Scope = { event, payload: event.payload, state: state.vars, now };
  // Matcher explanations of this event, reused across paths [M6]; a new epoch forgets them after a rewrite.
  const memo = explainMemo(compiled);
  const handlers: HandlerExplain[] = [];
  let endedBy: string | null = null;
  let lazy: LazyPaths | null = null;

  for (const h of compiled.handlers) {
    const live = plan.paths[h.rank];
    if (!h.node.enabled) {
      handlers.push(fixedExplain(h, 'disabled'));
      continue;
    }
    if (!live) {
      handlers.push(fixedExplain(h, 'wrong_event_type'));
      continue;
    }
    if (endedBy !== null) {
      handlers.push({ handler_id: h.id, name: h.name, action: h.node.action.type, order: h.node.order, status: 'not_reached', shadow: h.node.shadow, paths: [], ended_by: endedBy });
      continue;
    }
    const openUntil = steps.openUntil(h);
    if (openUntil !== 0 && whileOpen(h) === 'skip') {
      handlers.push({ handler_id: h.id, name: h.name, action: h.node.action.type, order: h.node.order, status: 'breaker_open', shadow: h.node.shadow, paths: [], breaker_open_until: openUntil });
      continue;
    }
    const m = steps.match(h, live, scope, memo);
    // Replayed: the paths are computed on first read, for every evaluated handler together (LazyPaths).
    const paths = m.paths ?? (lazy ??= new LazyPaths(compiled, event, state, now));
    let out: HandlerExplain;
    let rec: StepRecord | null = null;
    if (!m.matched) {
      out = story(h, 'not_matched', paths);
    } else if (openUntil !== 0) {
      // [E3] while_open: block — the guard matches but cannot run: the action is blocked.
      const b = story(h, 'breaker_open', paths) as Extract<HandlerExplain, { status: 'breaker_open' }>;
      b.breaker_open_until = openUntil;
      rec = steps.breaker(h, openUntil);
      if (rec.blocked) {
        b.decision = 'block_action';
        b.reason = rec.reason;
        endedBy = h.id;
      }
      out = b;
    } else {
      const ran = steps.run(h, m.failure, scope);
      rec = ran;
      out = describeRun(h, paths, ran);
      if (ran.ended) endedBy = h.id;
      if (ran.changed) {
        scope.payload = ran.payloadAfter;
        scope.state = ran.varsAfter;
        memo.epoch++;
      }
    }
    if (paths instanceof LazyPaths) paths.add(out as LazyStory, h, live, rec, m.matched);
    handlers.push(out);
  }
  steps.done();
  return handlers;
}

/**
 * The fields every evaluated handler's explanation starts with; the caller adds its status's own. With
 * known paths a plain object; with lazy ones a `LazyStory`.
 */
function story(h: CompiledHandler, status: HandlerExplain['status'], paths: PathExplain[] | LazyPaths): HandlerExplain {
  if (paths instanceof LazyPaths) return new LazyStory(h, status, paths) as unknown as HandlerExplain;
  return { handler_id: h.id, name: h.name, action: h.node.action.type, order: h.node.order, status, shadow: h.node.shadow, paths } as HandlerExplain;
}

/**
 * A replayed handler explanation whose `paths` is an own, enumerable accessor (so JSON, structured clone,
 * spreading and deep equality see it), computed on first read; getter and setter are shared by every
 * instance, and the fields keep the plain object's order.
 */
class LazyStory {
  handler_id: string;
  name: string;
  action: string;
  order: number;
  status: HandlerExplain['status'];
  shadow: boolean;
  declare paths: PathExplain[];
  #paths: PathExplain[] | LazyPaths;

  constructor(h: CompiledHandler, status: HandlerExplain['status'], lazy: LazyPaths) {
    this.handler_id = h.id;
    this.name = h.name;
    this.action = h.node.action.type;
    this.order = h.node.order;
    this.status = status;
    this.shadow = h.node.shadow;
    Object.defineProperty(this, 'paths', LAZY_PATHS);
    this.#paths = lazy;
  }

  static get(x: LazyStory): PathExplain[] {
    const v = x.#paths;
    if (Array.isArray(v)) return v;
    v.build();
    return x.#paths as PathExplain[];
  }

  static set(x: LazyStory, value: PathExplain[]): void {
    x.#paths = value;
  }
}

const LAZY_PATHS: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyStory) {
    return LazyStory.get(this);
  },
  set(this: LazyStory, value: PathExplain[]) {
    LazyStory.set(this, value);
  },
};

/**
 * The clause-level paths of a replayed event's handlers, computed together on the first read of any of
 * them: the handlers that were evaluated, in order, each against the payload and state it saw (a rewrite
 * or state change starts a new memo epoch [M6]) — the eager loop's evaluations, in the eager loop's order,
 * so that `cached` comes out the same. Statuses alone (coverage, activity, telemetry) never pay for this.
 */
class LazyPaths {
  private readonly entries: { out: LazyStory; h: CompiledHandler; live: Int32Array; rec: StepRecord | null; matched: boolean }[] = [];
  private built = false;

  constructor(private readonly compiled: CompiledPipeline, private readonly event: HookEvent, private readonly state: DispatchState, private readonly now: number) {}

  add(out: LazyStory, h: CompiledHandler, live: Int32Array, rec: StepRecord | null, matched: boolean): void {
    this.entries.push({ out, h, live, rec, matched });
  }

  build(): void {
    if (this.built) return;
    this.built = true;
    const scope: Scope = { event: this.event, payload: this.event.payload, state: this.state.vars, now: this.now };
    const memo = explainMemo(this.compiled);
    for (const e of this.entries) {
      const paths = explainPaths(this.compiled, e.h, e.live, scope, memo);
      const matched = paths.some((p) => p.pass) || paths.some((p) => p.matcher_failure);
      if (matched !== e.matched) throw new Error(`internal: the explanation of handler "${e.h.id}" disagrees with the chain that ran (candidate index and explain mode differ)`);
      LazyStory.set(e.out, paths);
      if (e.rec?.kind === 'ran' && e.rec.changed) {
        scope.payload = e.rec.payloadAfter;
        scope.state = e.rec.varsAfter;
        memo.epoch++;
      }
    }
  }
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

function explainPaths(compiled: CompiledPipeline, h: CompiledHandler, live: Int32Array, scope: Scope, memo: ExplainMemo): PathExplain[] {
  return h.paths.map((p, i) => {
    const out: PathExplain = { nodes: p.nodes as string[], event_node_id: p.eventNodeId, pattern: p.pattern.text, type_matched: live.includes(i), matchers: [], pass: false };
    if (!out.type_matched) return out;
    out.pass = true;
    const ms = p.matchers;
    for (let k = 0; k < ms.length; k++) {
      const mi = ms[k]!;
      const m = compiled.matchers[mi]!;
      const cached = memo.epochs[mi] === memo.epoch;
      let condition = memo.values[mi]!;
      if (!cached) {
        condition = m.explain(scope);
        memo.values[mi] = condition;
        memo.epochs[mi] = memo.epoch;
      }
      const me: MatcherExplain = { matcher_id: m.id, label: m.label, pass: condition.pass, cached, condition };
      out.matchers.push(me);
      const verdict = verdictOfExplain(m.id, condition);
      if (verdict === false) {
        out.pass = false;
        delete out.matcher_failure;
        break;
      }
      // A code matcher that could not answer: the rest of the path is still tried (a failing condition
      // after it means the path does not match at all) [M8].
      if (verdict !== true) {
        out.pass = false;
        out.matcher_failure ??= verdict;
      }
    }
    return out;
  });
}

type Ran = Extract<HandlerExplain, { status: 'fired' | 'error' }>;

function describeRun(h: CompiledHandler, paths: PathExplain[] | LazyPaths, rec: RunRecord): Ran {
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

/** Whether a step's decision counts for the precedence note: a run that decided, or an open breaker that blocked [E3]. */
function decides(rec: StepRecord): boolean {
  if (rec.kind === 'breaker') return rec.blocked;
  if (rec.result.ok) return rec.result.outcome.decision !== 'continue';
  const policy = rec.error?.policy;
  return policy !== 'continue' && policy !== 'logged';
}

/** Says which decision won and why, when more than one handler decided something other than CONTINUE [D5]. */
function precedenceNote(compiled: CompiledPipeline, records: readonly StepRecord[], result: DispatchResult, sync: boolean): string | undefined {
  let count = 0;
  for (const rec of records) if (decides(rec)) count++;
  if (!sync && count > 0) return 'This event is async: decisions are reported but never enforced.';
  if (count < 2) return undefined;
  const deciders = records.filter(decides);
  const winner = deciders.find((rec) => compiled.handlers[rec.rank]!.id === result.decided_by);
  const others = deciders.filter((rec) => rec !== winner).map((rec) => {
    const h = compiled.handlers[rec.rank]!;
    const shadow = rec.kind === 'ran' && rec.ignored === 'shadow';
    const decision = rec.kind === 'breaker' ? 'block_action' : rec.result.ok ? rec.result.outcome.decision : rec.error!.policy;
    return `"${h.name}" ${shadow ? 'would have decided' : 'decided'} ${decision.toUpperCase()}${shadow ? ' (shadow, not enforced)' : ''}`;
  });
  const winnerName = winner ? compiled.handlers[winner.rank]!.name : result.decided_by;
  return `${result.decision.toUpperCase()} from "${winnerName}" is effective (TERMINATE > BLOCK_ACTION > ASK > STOP_PROPAGATION > CONTINUE); also: ${others.join('; ')}.`;
}
