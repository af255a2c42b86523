// One contender of the dispatch benchmark, in its own process (started by dispatchBench.ts):
//   node --import tsx test/bench/dispatch/contender.ts <contender> <handlers> <workload> <events> <runs>
// Builds the seeded workload, runs every event once to warm up, then `runs` timed passes, each timed on
// this process's CPU time (process.cpuUsage: user + system). Prints one JSON line: CPU µs per event of each
// run, a hash of every event's (decision, deciding handler) for the parent to cross-check, the blocked
// share, and (for hookwire) bytes allocated per event.
import { compilePipeline, createReplayContext, stepEvent, dispatch, explainEvent, handlerStatuses, initialState, type ConditionExplain, type HookEvent, type JsonObject } from '../../../engine/index.ts';
import { compileCel, compileSift } from '../baselines/libraries.ts';
import { compileCondition, managerFor, type HookContext } from './hookManager.ts';
import { makeEvents, makePipeline, withFlowRules, type Workload } from './workload.ts';
import { compileForNode } from '../../../engine/node/codegen/compileForNode.ts';

export type ContenderName = 'seed' | 'hookwire' | 'step' | 'step-flow' | 'hookwire-codegen' | 'hookwire-fresh' | 'explain' | 'explain-status' | 'explain-read' | 'sift' | 'cel';
type Decide = (e: HookEvent) => { decision: string; decided_by: string | null };

/**
 * Replay's step (`stepEvent`: dispatch, then what the session carries, flow memory included [F3]) over the
 * events as one long run: the flow-rule cost case compares it on the workload's pipeline without and with
 * five flow rules (test/bench/flow.bench.ts). Repeated passes go on from the carry (indexes keep counting).
 */
function stepDecider(doc: ReturnType<typeof makePipeline>): Decide {
  const r = compilePipeline(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.problems.slice(0, 3)));
  const ctx = createReplayContext(r.compiled);
  let carry = ctx.initialCarry;
  let index = 0;
  return (e) => {
    const out = stepEvent(ctx, carry, e, index++, null, false);
    carry = out.carry;
    return out.step;
  };
}

export function decider(name: ContenderName, n: number, workload: Workload): Decide {
  const doc = makePipeline(n, workload);
  if (name === 'hookwire-codegen') return codegenDecider(doc);
  if (name === 'step' || name === 'step-flow') return stepDecider(name === 'step' ? doc : withFlowRules(doc));
  if (name === 'hookwire' || name === 'hookwire-fresh' || name === 'explain' || name === 'explain-status' || name === 'explain-read') {
    const r = compilePipeline(doc);
    if (!r.ok) throw new Error(JSON.stringify(r.problems.slice(0, 3)));
    const c = r.compiled;
    const state = initialState();
    const env = { clock: { now: () => 1767225600000 } };
    // The fast path writes into one result object of the caller's (read before the next event) [dispatch's `into`].
    const into = dispatch(c, makeEvents(1)[0]!, state, env);
    if (name === 'hookwire-fresh') return (e) => dispatch(c, e, state, env);
    if (name === 'hookwire') return (e) => dispatch(c, e, state, env, into);
    if (name === 'explain') return (e) => explainEvent(c, e, state, env).result;
    // Explain mode with every handler's status read (what coverage, activity and telemetry read: the status
    // codes), or with every handler's story read down to every clause (what the debugger's step view shows and
    // a structured clone of the explanation reads: `explanation.handlers`, every path, matcher and condition).
    let sink = 0;
    if (name === 'explain-status') {
      return (e) => {
        const out = explainEvent(c, e, state, env);
        const st = handlerStatuses(out.explanation);
        for (let i = 0; i < st.length; i++) sink += st[i]!;
        return sink < 0 ? { decision: '', decided_by: null } : out.result;
      };
    }
    const visit = (x: ConditionExplain): number => (x.kind === 'clause' ? (x.pass ? 1 : 0) + (x.missing ? 2 : 0) : x.kind === 'not' ? visit(x.child) : x.kind === 'code' ? 1 : x.children.reduce((a, k) => a + visit(k), 0));
    return (e) => {
      const out = explainEvent(c, e, state, env);
      const hs = out.explanation.handlers;
      for (let i = 0; i < hs.length; i++) {
        const h = hs[i]!;
        sink += h.status.length;
        for (const p of h.paths) for (const m of p.matchers) sink += visit(m.condition) + (m.cached ? 1 : 0);
      }
      return sink < 0 ? { decision: '', decided_by: null } : out.result;
    };
  }
  const { manager, audit } = managerFor(doc, name === 'sift' ? compileSift : name === 'cel' ? compileCel : undefined);
  return (e) => {
    // The seed builds a context per event (Agent._make_context).
    const ctx: HookContext = { event_type: e.type, trace_id: e.trace_id, agent_id: e.agent_id, payload: e.payload, decision: 'continue', blocked: false, block_reason: '', decided_by: null };
    audit.event = e;
    audit.log.length = 0;
    return manager.dispatch(ctx);
  };
}

/** The Node-only generated backend (engine/node/codegen), like the fast path with one reused result object. */
function codegenDecider(doc: ReturnType<typeof makePipeline>): Decide {
  const r = compilePipeline(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.problems.slice(0, 3)));
  const gen = compileForNode(r.compiled);
  const state = initialState();
  const env = { clock: { now: () => 1767225600000 } };
  const into = gen.dispatch(makeEvents(1)[0]!, state, env);
  return (e) => gen.dispatch(e, state, env, into);
}

/**
 * Every handler's condition, Hookwire's compiled matcher against the seed port's closure, on `count` events:
 * the list of disagreements (empty when they agree everywhere).
 */
export function checkConditions(n: number, workload: Workload, count: number): string[] {
  const doc = makePipeline(n, workload);
  const r = compilePipeline(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.problems.slice(0, 3)));
  const byId = new Map(r.compiled.matchers.map((m) => [m.id, m]));
  const out: string[] = [];
  const events = makeEvents(count);
  for (const node of doc.nodes) {
    if (node.kind !== 'matcher') continue;
    const seed = compileCondition(node.when as JsonObject);
    const ours = byId.get(node.id)!;
    for (const e of events) {
      const ctx = { event_type: e.type, trace_id: e.trace_id, agent_id: e.agent_id, payload: e.payload, decision: 'continue' as const, blocked: false, block_reason: '', decided_by: null };
      const a = ours.test({ event: e, payload: e.payload, state: {}, now: 0 });
      if (a !== seed(ctx)) out.push(`${node.id} ${JSON.stringify(node.when)} on ${e.event_id}: hookwire ${a}`);
    }
  }
  return out;
}

/** FNV-1a over the decisions: equal hashes, equal decisions and deciding handlers on every event. */
export function decisionHash(decisions: string[], by: (string | null)[]): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < decisions.length; i++) {
    const s = `${decisions[i]}|${by[i] ?? ''};`;
    for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 16777619) >>> 0;
  }
  return h.toString(16);
}

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * Bytes allocated per event: the heap's growth over `calls` dispatches cycling through `events`, after a
 * collection, median of 5 batches. The heap's used size moves in pages (256 kB), so a batch spans many pages;
 * the young generation (--max-semi-space-size=64) holds a whole batch, so no collection runs inside one.
 */
function bytesPerEvent(decide: Decide, events: HookEvent[], maxCalls: number): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc || events.length === 0) return null;
  for (const e of events) decide(e);
  // A first guess from a short batch keeps a batch under ~40 MB.
  gc();
  const b0 = process.memoryUsage().heapUsed;
  for (let i = 0; i < 2000; i++) decide(events[i % events.length]!);
  const guess = Math.max(1, (process.memoryUsage().heapUsed - b0) / 2000);
  const calls = Math.max(2000, Math.min(maxCalls, Math.floor(40e6 / guess)));
  const per: number[] = [];
  for (let t = 0; t < 5; t++) {
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < calls; i++) decide(events[i % events.length]!);
    per.push(Math.max(0, (process.memoryUsage().heapUsed - before) / calls));
  }
  return median(per);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [name, nText, workload, countText, runsText] = process.argv.slice(2) as [ContenderName, string, Workload, string, string];
  const n = Number(nText);
  const events = makeEvents(Number(countText));
  const decide = decider(name, n, workload);
  const decisions: string[] = new Array(events.length);
  const by: (string | null)[] = new Array(events.length);
  for (let i = 0; i < events.length; i++) decide(events[i]!); // warm-up: JIT, lazily built plans
  const micros: number[] = [];
  for (let r = 0; r < Number(runsText); r++) {
    const t0 = cpuMicros();
    for (let i = 0; i < events.length; i++) {
      const d = decide(events[i]!);
      decisions[i] = d.decision;
      by[i] = d.decided_by;
    }
    micros.push((cpuMicros() - t0) / events.length);
  }
  const blocked = decisions.filter((d) => d !== 'continue').length / events.length;
  let alloc: { all: number | null; unblocked: number | null; quiet: number | null } | null = null;
  if (name === 'hookwire' || name === 'hookwire-codegen' || name === 'hookwire-fresh') {
    // "Unblocked" events: nothing rewritten, nothing blocked (audit records and texts for the model allowed);
    // "quiet" ones: besides, no handler audits or decides.
    const outcome = (e: HookEvent) => decide(e) as { audit?: unknown[]; decision: string; payload?: unknown };
    const unblocked = events.filter((e) => {
      const r = outcome(e);
      return r.decision === 'continue' && r.payload === e.payload;
    });
    const quiet = unblocked.filter((e) => (outcome(e).audit?.length ?? 0) === 0);
    alloc = {
      all: bytesPerEvent(decide, events.slice(0, 20_000), 100_000),
      unblocked: bytesPerEvent(decide, unblocked.slice(0, 20_000), 100_000),
      quiet: bytesPerEvent(decide, quiet.slice(0, 20_000), 200_000),
    };
  }
  const cut = Math.min(events.length, 10_000);
  console.log(JSON.stringify({ name, n, workload, events: events.length, micros, hash: decisionHash(decisions, by), hash10k: decisionHash(decisions.slice(0, cut), by.slice(0, cut)), blocked, alloc }));
}
