import type { EventMode } from '../model/event.ts';
import type { ParseResult } from '../model/parsePipeline.ts';
import type { HandlerNode, Pipeline, PipelineNode } from '../model/pipelineTypes.ts';
import type { Problem } from '../model/problem.ts';
import type { EventPattern } from '../model/eventPattern.ts';
import type { Requirement } from '../match/atoms.ts';
import { buildCandidateIndex, handlerRequirement, type CandidateIndex } from './candidateIndex.ts';
import type { Sandbox } from '../sandbox/types.ts';
import type { ActionRun, PlainAudit } from './types.ts';
import { analyzeDocument } from './analyze.ts';
import type { CompiledMatcher } from './compileMatcher.ts';
import { lintPipeline } from './lint.ts';
import type { CompiledFlowRule } from './flowRule.ts';

export interface CompiledPath {
  nodes: readonly string[];
  eventNodeId: string;
  pattern: EventPattern;
  /** Indexes into `CompiledPipeline.matchers`. */
  matchers: Int32Array;
}

export interface CompiledHandler {
  rank: number;
  id: string;
  name: string;
  node: HandlerNode;
  run: ActionRun;
  /** A plain audit (`CompiledAction.record`), else null. */
  record: PlainAudit | null;
  paths: readonly CompiledPath[];
  // The node's fields dispatch reads per event, copied flat: every CompiledHandler has one shape, so the
  // fast path's property reads stay monomorphic (handler nodes differ in their optional fields).
  shadow: boolean;
  onError: HandlerNode['on_error'];
  breaker: { threshold: number; cooldown_ms: number } | null;
}

/**
 * What the chain loop does for one live handler of one event type, decided when the plan is built, so the
 * loop reads one object per candidate and asks nothing it could know beforehand [fast path].
 */
export interface PlanStep {
  rank: number;
  /** Its place among the type's live handlers (execution order): what the candidate index files and returns. */
  slot: number;
  handler: CompiledHandler;
  /** The handler has a breaker: its state must be read before the handler runs [E3]. */
  breaker: boolean;
  /**
   * The handler's outcome is one audit record and nothing else can come of it (a plain audit, not shadow, no
   * breaker): the chain takes the record straight (`settleRecord`) instead of through a result.
   */
  record: boolean;
  /** A candidate found through the index needs no evaluation (its requirement is exact; never with `scan`). */
  exact: boolean;
  /**
   * The handler's live paths are one path of one matcher that no other live handler of the type shares:
   * that matcher's test is the handler's verdict (a memo would only cost). Else null: `paths` with the memo.
   */
  test: CompiledMatcher['test'] | null;
  /**
   * Else, when the handler's live paths are one path of one matcher (whose verdict other handlers share), that
   * matcher's index: its memoised verdict is the handler's. Else -1: `paths`, with the memo.
   */
  matcher: number;
  /** Indexes of the handler's paths whose pattern selects the type. */
  paths: Int32Array;
}

/** Everything dispatch needs for one event type, computed on first sight of the type and cached. */
export interface TypePlan {
  type: string;
  mode: EventMode;
  /** Per rank: indexes of this handler's paths whose pattern selects the type, or null when none do or it is disabled. */
  paths: (Int32Array | null)[];
  /** Where the fast path finds its candidates. */
  index: CandidateIndex;
  /** The steps of the live handlers in execution order (`steps[slot]`). */
  steps: readonly PlanStep[];
  /**
   * Few handlers listen to the type: the dispatcher evaluates each step in order instead of asking the index
   * (a gather costs more than a few conditions).
   */
  scan: boolean;
  liveCount: number;
}

export interface CompiledPipeline {
  pipeline: Pipeline;
  handlers: readonly CompiledHandler[];
  matchers: readonly CompiledMatcher[];
  /**
   * Per matcher, where the dispatcher memoises its verdict for an event [M6]: matchers with the same
   * conditions (the same `when`, `tools` and `agents`) and no code share one place, so a condition that many
   * handlers repeat is evaluated once per event. `verdictSlots` places in all.
   */
  verdictSlot: Int32Array;
  verdictSlots: number;
  modeOf(type: string): EventMode;
  plan(type: string): TypePlan;
  /** The flow rules of enabled handlers, in execution order [F1]: what `observeFlows` steps. */
  flows: readonly CompiledFlowRule[];
  /** The flow rules whose `mark` or `clear` can select the type (cached like plans). */
  flowObservers(type: string): readonly CompiledFlowRule[];
}

export interface CompileEnv {
  sandbox?: Sandbox | null;
  /**
   * Up to this many live handlers, an event type's plan scans them in order instead of using the candidate
   * index (default 8). The same answers either way; tests set 0 to hold the index to them on small pipelines.
   */
  scanUpTo?: number;
}

export type CompileResult = { ok: true; compiled: CompiledPipeline; pipeline: Pipeline; problems: Problem[] } | { ok: false; problems: Problem[] };

const PLAN_CACHE_LIMIT = 4096;
const PLAN_SLOTS = 32;
/** Up to this many live handlers, a type's plan scans them instead of using the candidate index. */
const SCAN_UP_TO = 8;

/**
 * Compiles a pipeline from its structural parse [V5]; `compilePipeline` (compilePipeline.ts) is this after
 * `parsePipeline`. Kept apart from it so that what imports only this never loads the schema library (zod):
 * the CLI's hook calls compile a document validated before, from engine/node/pipelineCache.ts.
 */
export function compileParsed(parsed: ParseResult, env: CompileEnv = {}): CompileResult {
  const r = analyzeDocument(parsed, { sandbox: env.sandbox ?? null, requireSandbox: true });
  if (!r.doc) return { ok: false, problems: r.problems };
  const { doc, analysis } = r;

  const matcherList = [...analysis.matchers.values()];
  const matcherIndex = new Map(matcherList.map((m, i) => [m.id, i]));
  const { verdictSlot, verdictSlots } = sharedVerdicts(analysis.graph.nodes, matcherList);
  const handlers: CompiledHandler[] = analysis.handlers.map((h) => {
    const paths: CompiledPath[] = h.paths.map((p) => ({
      nodes: Object.freeze([...p.nodes]),
      eventNodeId: p.eventNodeId,
      pattern: p.pattern,
      matchers: Int32Array.from(p.matchers.map((id) => matcherIndex.get(id)!)),
    }));
    return {
      rank: h.rank,
      id: h.node.id,
      name: h.node.name,
      node: h.node,
      run: h.action!.run,
      record: h.action!.record ?? null,
      paths,
      shadow: h.node.shadow,
      onError: h.node.on_error,
      breaker: h.node.breaker ? { threshold: h.node.breaker.threshold, cooldown_ms: h.node.breaker.cooldown_ms } : null,
    };
  });

  const flows = Object.freeze(analysis.handlers.flatMap((h) => (h.node.enabled && h.action!.flow ? [h.action!.flow] : [])));
  const observers = new Map<string, readonly CompiledFlowRule[]>();
  const plans = new Map<string, TypePlan>();
  // A small direct-mapped cache before the map, slotted by the type's length and a code unit past its
  // middle (the eleven lifecycle types get a slot each): a hit is one comparison with the type there (the
  // same string object, for types read from one source) instead of hashing. Any string is a valid key
  // (`===` and the map take "__proto__" as a plain name).
  const slotTypes: (string | null)[] = new Array<string | null>(PLAN_SLOTS).fill(null);
  const slotPlans: (TypePlan | null)[] = new Array<TypePlan | null>(PLAN_SLOTS).fill(null);
  // Immutable once built [V5]: dispatch keeps its working memory elsewhere (engine/dispatch/scratch.ts).
  const compiled: CompiledPipeline = Object.freeze({
    pipeline: doc,
    handlers: Object.freeze(handlers),
    matchers: Object.freeze(matcherList),
    verdictSlot,
    verdictSlots,
    modeOf: analysis.modeOf,
    plan(type: string) {
      const slot = (type.length * 7 + (type.charCodeAt((type.length >> 1) + 1) | 0)) & (PLAN_SLOTS - 1);
      if (slotTypes[slot] === type) return slotPlans[slot]!;
      let plan = plans.get(type);
      if (plan === undefined) {
        if (plans.size >= PLAN_CACHE_LIMIT) plans.clear(); // custom types are unbounded; the cache is not
        plan = buildPlan(type, analysis.modeOf(type), handlers, matcherList, verdictSlot, verdictSlots, env.scanUpTo ?? SCAN_UP_TO);
        plans.set(type, plan);
      }
      slotTypes[slot] = type;
      slotPlans[slot] = plan;
      return plan;
    },
    flows,
    flowObservers(type: string) {
      if (flows.length === 0) return NO_FLOWS;
      let list = observers.get(type);
      if (list === undefined) {
        if (observers.size >= PLAN_CACHE_LIMIT) observers.clear(); // custom types are unbounded, as for plans
        const found = flows.filter((f) => f.mark.pattern.matches(type) || (f.clear !== null && f.clear.pattern.matches(type)));
        list = found.length ? Object.freeze(found) : NO_FLOWS;
        observers.set(type, list);
      }
      return list;
    },
  });
  return { ok: true, compiled, pipeline: doc, problems: lintPipeline(doc, analysis) };
}

const NO_FLOWS: readonly CompiledFlowRule[] = Object.freeze([]);

/** The live paths of each handler for one type, and the candidate index over them. */
function buildPlan(type: string, mode: EventMode, handlers: readonly CompiledHandler[], matchers: readonly CompiledMatcher[], verdictSlot: Int32Array, verdictSlots: number, scanUpTo: number): TypePlan {
  const paths: (Int32Array | null)[] = [];
  const live: CompiledHandler[] = [];
  const required: Requirement[] = [];
  for (const h of handlers) {
    const on: number[] = [];
    if (h.node.enabled) h.paths.forEach((p, i) => p.pattern.matches(type) && on.push(i));
    paths.push(on.length ? Int32Array.from(on) : null);
    if (!on.length) continue;
    live.push(h);
    required.push(handlerRequirement(on.map((i) => h.paths[i]!.matchers), matchers));
  }
  const index = buildCandidateIndex(required);
  const scan = live.length <= scanUpTo;
  // A candidate the index proves needs no test (never with `scan`); only the others' matchers are evaluated.
  const exact = live.map((_, slot) => !scan && index.exact[slot] === 1);
  // A handler behind one matcher (one live path of one matcher) takes that matcher's verdict: straight from its
  // test when no other evaluated handler of the type shares the verdict, or when its conditions are only
  // values and ranges (a memo would only cost: evaluating `tool_name == "Bash"` again is cheaper), else memoised.
  const lone = live.map((h) => {
    const on = paths[h.rank]!;
    const ms = on.length === 1 ? h.paths[on[0]!]!.matchers : null;
    return ms !== null && ms.length === 1 ? ms[0]! : -1;
  });
  const uses = verdictUses(live, exact, paths, verdictSlot, verdictSlots);
  const steps = live.map((h, slot): PlanStep => {
    const m = lone[slot]!;
    const direct = m >= 0 && (uses[verdictSlot[m]!]! <= 1 || matchers[m]!.required.exact);
    return { rank: h.rank, slot, handler: h, breaker: h.breaker !== null, record: h.record !== null && !h.shadow && h.breaker === null, exact: exact[slot]!, test: direct ? matchers[m]!.test : null, matcher: direct ? -1 : m, paths: paths[h.rank]! };
  });
  return { type, mode, paths, index, steps, scan, liveCount: live.length };
}

/** Per verdict slot: how many matcher uses on the live paths of handlers that are evaluated (not exact index hits). */
function verdictUses(live: readonly CompiledHandler[], exact: readonly boolean[], paths: readonly (Int32Array | null)[], verdictSlot: Int32Array, verdictSlots: number): Int32Array {
  const uses = new Int32Array(verdictSlots);
  live.forEach((h, slot) => {
    if (!exact[slot]) for (const p of paths[h.rank]!) for (const m of h.paths[p]!.matchers) uses[verdictSlot[m]!]!++;
  });
  return uses;
}

/**
 * The memo places of the matchers' verdicts: one per distinct condition text among matchers without code
 * (the same text is the same verdict on every event), one of its own for a matcher with code.
 */
function sharedVerdicts(nodes: ReadonlyMap<string, PipelineNode>, matchers: readonly CompiledMatcher[]): { verdictSlot: Int32Array; verdictSlots: number } {
  const byText = new Map<string, number>();
  const verdictSlot = new Int32Array(matchers.length);
  let verdictSlots = 0;
  matchers.forEach((m, i) => {
    const node = nodes.get(m.id);
    if (node === undefined || node.kind !== 'matcher' || node.code !== undefined) {
      verdictSlot[i] = verdictSlots++;
      return;
    }
    const text = JSON.stringify([node.when ?? null, node.tools ?? null, node.agents ?? null]);
    let slot = byText.get(text);
    if (slot === undefined) byText.set(text, (slot = verdictSlots++));
    verdictSlot[i] = slot;
  });
  return { verdictSlot, verdictSlots };
}
