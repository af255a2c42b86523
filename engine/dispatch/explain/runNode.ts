import type { EventMode, HookEvent } from '../../model/event.ts';
import type { JsonObject } from '../../model/json.ts';
import type { Scope } from '../../match/path.ts';
import type { ConditionExplain } from '../../match/types.ts';
import type { CompiledPipeline } from '../../compile/compilePipeline.ts';
import { verdictOfExplain, type MatcherFailure } from '../../compile/compileMatcher.ts';
import { parseEventPattern } from '../../model/eventPattern.ts';
import { breakerOpenUntil, startChain } from '../chain.ts';
import type { DispatchEnv } from '../dispatch.ts';
import type { DispatchState, HandlerExplain, PathExplain } from '../types.ts';
import { noTimer, runRecord } from './records.ts';
import { describeRun, explainMemo, explainPaths } from './stories.ts';

// One node run alone on one event [X7]: the editor's "Run node". Each kind answers with the code dispatch and
// explain mode use for it (the pattern's `matches`, the matcher's `explain`, a handler's run on a fresh chain
// and its story), so a node run alone says what the same node says inside a dispatch.

/** What an event node says of an event [M1][D8]. */
export interface EventNodeRun {
  kind: 'event';
  node_id: string;
  pattern: string;
  event_type: string;
  /** The pattern selects the event's type [M1]. */
  selects: boolean;
  mode: EventMode;
}

/** A matcher's verdict on the event, clause by clause [X2][X3]; `failure`: its code could not answer [M8]. */
export interface MatcherNodeRun {
  kind: 'matcher';
  node_id: string;
  label: string;
  pass: boolean;
  condition: ConditionExplain;
  failure?: MatcherFailure;
}

/** A handler run as if reached: its story [X4], and whether dispatch would reach it at all [M3][M4][E3]. */
export interface HandlerNodeRun {
  kind: 'handler';
  node_id: string;
  name: string;
  mode: EventMode;
  /** Its paths on this event, as explain mode gives them [X2]. */
  paths: PathExplain[];
  disabled: boolean;
  /** Dispatch would make it a candidate: enabled, and one path passes [M3][M4] (or a code matcher failed on it [M8]). */
  candidate: boolean;
  /** Set when its breaker is open at the clock's time [E3]. */
  breaker_open_until?: number;
  /** Its story as explain mode tells it for a handler that ran: fired (decision, reason, patch, state changes) or error (with the policy's decision). */
  run: Extract<HandlerExplain, { status: 'fired' | 'error' }>;
  payload_after: JsonObject;
  state_after: JsonObject;
}

export type NodeRun = EventNodeRun | MatcherNodeRun | HandlerNodeRun;

/**
 * Runs the node `nodeId` of `compiled` alone on `event`, with `state` as the trace's state before it [X7].
 * Nothing is kept: the returned state is a value, no breaker is counted, no sink is reached.
 * `runNode(compiled, 'h-block', event, initialState(), { clock })` → `{ kind: 'handler', run: { status: 'fired', decision: 'block_action', … } }`.
 * Returns null when the pipeline has no node `nodeId`.
 */
export function runNode(compiled: CompiledPipeline, nodeId: string, event: HookEvent, state: DispatchState, env: DispatchEnv): NodeRun | null {
  const now = env.clock.now();
  const mode = compiled.modeOf(event.type);
  const scope: Scope = { event, payload: event.payload, state: state.vars, now, flows: state.flows };
  const mi = compiled.matchers.findIndex((m) => m.id === nodeId);
  if (mi >= 0) {
    const m = compiled.matchers[mi]!;
    const condition = m.explain(scope);
    const verdict = verdictOfExplain(m.id, condition);
    return { kind: 'matcher', node_id: m.id, label: m.label, pass: verdict === true, condition, ...(typeof verdict === 'object' ? { failure: verdict } : {}) };
  }
  const h = compiled.handlers.find((x) => x.id === nodeId);
  if (h) {
    const plan = compiled.plan(event.type);
    // A disabled handler has no live paths in the plan [M4]; its paths are still explained, as if enabled.
    const live = plan.paths[h.rank] ?? Int32Array.from(h.paths.flatMap((p, i) => (p.pattern.matches(event.type) ? [i] : [])));
    const paths = explainPaths(compiled, h, live, scope, explainMemo(compiled));
    const c = startChain(event, state, mode === 'sync');
    const rec = runRecord(compiled, c, h, null, scope, event, now, env.timer ?? noTimer);
    const openUntil = breakerOpenUntil(state.breakers, h, now);
    const disabled = !h.node.enabled;
    return {
      kind: 'handler', node_id: h.id, name: h.name, mode, paths, disabled,
      candidate: !disabled && paths.some((p) => p.pass || p.matcher_failure !== undefined),
      ...(openUntil !== 0 ? { breaker_open_until: openUntil } : {}),
      run: describeRun(h, paths, rec),
      payload_after: rec.payloadAfter,
      state_after: rec.varsAfter,
    };
  }
  const node = compiled.pipeline.nodes.find((n) => n.id === nodeId);
  if (node?.kind !== 'event') return null;
  const parsed = parseEventPattern(node.pattern);
  // A loaded pipeline's patterns all parse [V4].
  if (!parsed.ok) throw new Error(`internal: event node "${node.id}" has an invalid pattern in a compiled pipeline`);
  return { kind: 'event', node_id: node.id, pattern: node.pattern, event_type: event.type, selects: parsed.pattern.matches(event.type), mode };
}
