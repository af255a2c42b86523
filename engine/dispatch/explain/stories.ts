import jsonPatch from 'fast-json-patch';

// The package is CommonJS: its default export works the same under Node's ESM loader and Vite.
const { compare } = jsonPatch;
import type { Decision } from '../../model/decision.ts';
import { ownGet } from '../../model/json.ts';
import type { Scope } from '../../match/path.ts';
import type { ConditionExplain } from '../../match/types.ts';
import type { CompiledHandler, CompiledPipeline } from '../../compile/compilePipeline.ts';
import { verdictOfExplain } from '../../compile/compileMatcher.ts';
import type { DispatchResult, HandlerExplain, MatcherExplain, PathExplain, StateChange } from '../types.ts';
import type { BreakerRecord, RunRecord, StepRecord } from './records.ts';

// One handler's story (`HandlerExplain`): its paths clause by clause, and what its record says it did; the
// precedence note of the event. Built the same way by the eager loop and by the lazy explanation.

/** The fields every handler's story starts with; the caller adds its status's own. */
export function story(h: CompiledHandler, status: HandlerExplain['status'], paths: PathExplain[]): HandlerExplain {
  return { handler_id: h.id, name: h.name, action: h.node.action.type, order: h.node.order, status, shadow: h.node.shadow, paths } as HandlerExplain;
}

/** A handler after the one that ended the chain. */
export function notReached(h: CompiledHandler, endedBy: string): HandlerExplain {
  const s = story(h, 'not_reached', []) as Extract<HandlerExplain, { status: 'not_reached' }>;
  s.ended_by = endedBy;
  return s;
}

/** [E3] a handler skipped, unevaluated, because its breaker was open. */
export function breakerSkipped(h: CompiledHandler, openUntil: number): HandlerExplain {
  const s = story(h, 'breaker_open', []) as Extract<HandlerExplain, { status: 'breaker_open' }>;
  s.breaker_open_until = openUntil;
  return s;
}

/** [E3] a handler that matched while its breaker was open; `while_open: block` blocked the action. */
export function describeBreaker(h: CompiledHandler, paths: PathExplain[], openUntil: number, rec: BreakerRecord): HandlerExplain {
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
export function fixedExplain(h: CompiledHandler, status: 'disabled' | 'wrong_event_type'): HandlerExplain {
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

/** Matcher explanations of one event, by matcher index, valid in the current epoch [M6]. */
export interface ExplainMemo {
  epoch: number;
  epochs: Int32Array;
  values: (ConditionExplain | undefined)[];
}

const memos = new WeakMap<CompiledPipeline, ExplainMemo>();

/** One memo per compiled pipeline, reused from event to event: a fresh epoch per event, no per-event array. */
export function explainMemo(compiled: CompiledPipeline): ExplainMemo {
  let memo = memos.get(compiled);
  if (!memo) memos.set(compiled, (memo = { epoch: 0, epochs: new Int32Array(compiled.matchers.length), values: new Array<ConditionExplain | undefined>(compiled.matchers.length).fill(undefined) }));
  if (++memo.epoch >= 0x3fffffff) {
    memo.epoch = 1;
    memo.epochs.fill(0);
  }
  return memo;
}

/** Marks the matchers a built story evaluated as evaluated in the memo's epoch, with their explanations [M6]. */
export function remember(h: CompiledHandler, out: HandlerExplain, memo: ExplainMemo): void {
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

/**
 * A live handler's paths, clause by clause [X2][X3]: each live path's matchers in order up to the first that
 * failed, matcher explanations memoised in `memo`'s epoch [M6]. Plain loops and one literal per object: a
 * full read builds this for every live handler of every event.
 */
export function explainPaths(compiled: CompiledPipeline, h: CompiledHandler, live: Int32Array, scope: Scope, memo: ExplainMemo): PathExplain[] {
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

/** The story of a handler that ran: fired or error, from its record. */
export function describeRun(h: CompiledHandler, paths: PathExplain[], rec: RunRecord): Ran {
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
export function precedenceNote(compiled: CompiledPipeline, records: readonly StepRecord[], result: DispatchResult, sync: boolean): string | undefined {
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
