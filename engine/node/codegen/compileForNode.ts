// The generated-code backend, Node only (it builds functions from source: never imported by the pure entry
// or the browser bundle, which run under a strict CSP; test/engine/purity.test.ts holds that). It must give
// exactly what the closure path (`dispatch`) gives on every pipeline and event [D10]
// (test/engine/node/codegen.test.ts): only the conditions are generated; running handlers, breakers, the
// error policy, the decision fold and the result are the chain's own functions (engine/dispatch/chain.ts),
// many listeners run through `walkChain` itself, code matchers through their compiled closures (their code
// runs in the sandbox, as always).
import type { HookEvent } from '../../model/event.ts';
import type { MatcherNode } from '../../model/pipelineTypes.ts';
import type { Scope } from '../../match/path.ts';
import type { CompiledHandler, CompiledPipeline, TypePlan } from '../../compile/compilePipeline.ts';
import type { MatcherFailure } from '../../compile/compileMatcher.ts';
import { breakerBlocks, breakerOpenUntil, fillResult, finishChain, matcherFailed, runSafely, settle, startChain, whileOpen } from '../../dispatch/chain.ts';
import { handlerMatches, newScratch, nextEpoch, type Scratch } from '../../dispatch/scratch.ts';
import { walkChain, type DispatchEnv } from '../../dispatch/dispatch.ts';
import { lastMemo } from '../../accel/lastMemo.ts';
import type { DispatchResult, DispatchState } from '../../dispatch/types.ts';
import { ConditionSource, Constants, Temps, or, and } from './conditionSource.ts';

export interface NodeDispatchOptions {
  /**
   * Up to this many live handlers, an event type's generated function tests each of them in order, inline
   * (default 16); above, it asks the candidate index and calls each candidate's generated test.
   */
  scanUpTo?: number;
}

/** `dispatch` with generated conditions: the same contract and the same answers as the engine's `dispatch`. */
export interface NodeDispatcher {
  readonly compiled: CompiledPipeline;
  /** As `dispatch(compiled, event, state, env, into)` [D10]. */
  dispatch(event: HookEvent, state: DispatchState, env: DispatchEnv, into?: DispatchResult): DispatchResult;
  /** The generated source for one event type (for review and tests). */
  sourceOf(type: string): string;
}

type Verdict = boolean | MatcherFailure;
/** One handler's generated test: whether some live path of it passes (or the code matcher failure) [M3][M8]. */
type HandlerTest = (scope: Scope) => Verdict;
type TypeRun = (ev: HookEvent, state: DispatchState, now: number, into: DispatchResult | undefined, scope: Scope, scratch: Scratch) => DispatchResult;

interface TypeEntry {
  plan: TypePlan;
  run: TypeRun;
  source: string;
}

const NONE: never[] = Object.freeze([]) as unknown as never[];
/** What the generated source calls: the chain's functions, by these names only. */
const RUNTIME = { settle, startChain, finishChain, runSafely, matcherFailed, breakerOpenUntil, breakerBlocks, handlerMatches, nextEpoch };

/**
 * Compiles a compiled pipeline's conditions to JavaScript, per event type on first sight of the type:
 * `const fast = compileForNode(compiled); fast.dispatch(event, initialState(), env)`.
 */
export function compileForNode(compiled: CompiledPipeline, options: NodeDispatchOptions = {}): NodeDispatcher {
  const scanUpTo = options.scanUpTo ?? 16;
  const scratch = newScratch(compiled);
  const scope: Scope = { event: undefined as unknown as HookEvent, payload: {}, state: {}, now: 0, flows: undefined };
  const matcherNodes = new Map<string, MatcherNode>();
  for (const n of compiled.pipeline.nodes) if (n.kind === 'matcher') matcherNodes.set(n.id, n);
  // One generated function per plan, kept while the compiled pipeline keeps the plan (its cache is bounded).
  const generated = lastMemo((plan: TypePlan) => generate(compiled, plan, matcherNodes, scanUpTo), 16);
  const entryOf = (type: string): TypeEntry => generated(compiled.plan(type));

  return {
    compiled,
    dispatch(event, state, env, into) {
      const e = entryOf(event.type);
      if (e.plan.liveCount === 0) return fillResult(into, 'continue', '', null, event.payload, state, NONE, NONE, NONE, e.plan.mode);
      if (scratch.busy) throw new Error('dispatch re-entered: a dispatch on this generated dispatcher is still running (dispatch is not reentrant)');
      scratch.busy = true;
      try {
        return e.run(event, state, env.clock.now(), into, scope, scratch);
      } finally {
        scratch.busy = false;
      }
    },
    sourceOf(type) {
      return entryOf(type).source;
    },
  };
}

/** The generated function of one event type. */
function generate(compiled: CompiledPipeline, plan: TypePlan, matcherNodes: Map<string, MatcherNode>, scanUpTo: number): TypeEntry {
  const live = compiled.handlers.filter((h) => plan.paths[h.rank] !== null);
  if (live.length === 0) return { plan, run: () => { throw new Error('unreachable: no live handler'); }, source: '' };
  return live.length <= scanUpTo ? generateScan(compiled, plan, live, matcherNodes) : generateIndexed(compiled, plan, matcherNodes);
}

const NAMES = { payload: 'p', state: 'st', event: 'ev', scope: 'scope' };

/**
 * A handler's test as an expression over `p`, `st`, `ev`, `scope`: its live paths OR-ed, each the AND of its
 * matchers' inlined conditions [M3]. Null when a matcher on them has code: the handler is then tested by
 * `handlerMatches` (the closure path's own memoised test, with its failure rule [M8]).
 */
function handlerExpression(compiled: CompiledPipeline, plan: TypePlan, h: CompiledHandler, matcherNodes: Map<string, MatcherNode>, src: ConditionSource): string | null {
  const paths: string[] = [];
  for (const p of plan.paths[h.rank]!) {
    const parts: string[] = [];
    for (const m of h.paths[p]!.matchers) {
      const node = matcherNodes.get(compiled.matchers[m]!.id);
      const expr = node ? src.matcher(node) : null;
      if (expr === null) return null;
      parts.push(expr);
    }
    paths.push(and(parts));
  }
  return or(paths);
}

/**
 * Few listeners: one straight-line function testing each live handler in order with its condition inline,
 * and settling the ones that match on the chain [D1]-[D9][E1]-[E3][M6] (the loop of `walkChain`, unrolled).
 */
function generateScan(compiled: CompiledPipeline, plan: TypePlan, live: CompiledHandler[], matcherNodes: Map<string, MatcherNode>): TypeEntry {
  const k = new Constants();
  const t = new Temps();
  const src = new ConditionSource(k, t, NAMES);
  const compiledName = k.add(compiled);
  const blocks: string[] = [];
  for (const h of live) {
    const hv = k.add(h);
    const expr = handlerExpression(compiled, plan, h, matcherNodes, src);
    const test = expr !== null ? `(${expr})` : `handlerMatches(${compiledName}, scratch, ${k.add(plan.paths[h.rank]!)}, ${hv}, scope)`;
    const run = [
      `settle(c, ${hv}, m === true ? runSafely(${hv}, scope) : matcherFailed(${compiledName}, m), ev, now);`,
      'if (c.ended) break chain;',
      // [M6] a rewrite or state change: the conditions after it read the new values.
      'if (c.changed) { p = scope.payload = c.payload; st = scope.state = c.vars; nextEpoch(scratch); }',
    ].join(' ');
    if (h.breaker === null) {
      blocks.push(`{ const m = ${test}; if (m !== false) { ${run} } }`);
    } else {
      // [E3] an open breaker: skip the handler, or (while_open: block) block the action once it matches.
      const skip = whileOpen(h) === 'skip';
      blocks.push(
        `{ const ou = breakerOpenUntil(c.breakers, ${hv}, now); ` +
          (skip ? 'if (ou === 0) ' : '') +
          `{ const m = ${test}; if (m !== false) { if (ou !== 0) { if (breakerBlocks(c, ${hv}, ou)) break chain; } else { ${run} } } } }`,
      );
    }
  }
  const body = [
    t.declaration(),
    `const c = (scratch.chain = startChain(ev, state, ${plan.mode === 'sync' ? 'true' : 'false'}, scratch.chain));`,
    'scope.event = ev; let p = (scope.payload = ev.payload); let st = (scope.state = state.vars); scope.now = now; scope.flows = state.flows;',
    'nextEpoch(scratch);',
    'chain: {',
    ...blocks,
    '}',
    `return finishChain(c, state, ${k.add(plan.mode)}, into);`,
  ].join('\n');
  const source = factorySource(k, `return function dispatchType(ev, state, now, into, scope, scratch) {\n${body}\n};`);
  const run = new Function('K', 'R', source)(k.values, RUNTIME) as TypeRun;
  return { plan, run, source };
}

/**
 * Many listeners: the plan's own steps with each handler's generated test in place of its matcher test, run by
 * `walkChain` — the one chain loop of the fast path and explain mode [D1]-[D9][E1]-[E3][M6] — so the candidates,
 * breakers, the index's exact hits and the re-gather after a change are the closure path's own.
 */
function generateIndexed(compiled: CompiledPipeline, plan: TypePlan, matcherNodes: Map<string, MatcherNode>): TypeEntry {
  const k = new Constants();
  // One generated test per handler, called by the loop in place of its matcher test. A handler whose matchers
  // have code keeps its step as it is.
  const slots: number[] = [];
  const tests: string[] = [];
  for (const step of plan.steps) {
    if (step.exact) continue;
    const t = new Temps();
    const expr = handlerExpression(compiled, plan, step.handler, matcherNodes, new ConditionSource(k, t, NAMES));
    if (expr === null) continue;
    slots.push(step.slot);
    tests.push(`function (scope) { const p = scope.payload, st = scope.state, ev = scope.event; ${t.declaration()} return ${expr}; }`);
  }
  const source = factorySource(k, `return [\n${tests.join(',\n')}\n];`);
  const made = new Function('K', 'R', source)(k.values, RUNTIME) as HandlerTest[];
  const steps = plan.steps.slice();
  slots.forEach((slot, i) => (steps[slot] = { ...steps[slot]!, test: made[i]! }));
  // Always through the index: a plan the closure path scans has no exact hits, so its steps are right as they are.
  const indexed: TypePlan = { ...plan, steps, scan: false };
  const run: TypeRun = (ev, state, now, into, _scope, s) => walkChain(compiled, indexed, s, ev, state, now, into, null);
  return { plan, run, source };
}

/** The factory's source: the runtime's functions and every constant bound to a local, then `tail`. */
function factorySource(k: Constants, tail: string): string {
  return [
    '"use strict";',
    `const { ${Object.keys(RUNTIME).join(', ')} } = R;`,
    ...k.values.map((_, i) => `const k${i} = K[${i}];`),
    tail,
  ].join('\n');
}
