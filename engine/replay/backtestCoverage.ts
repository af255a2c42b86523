// What a backtest learns about the new pipeline over a corpus, beside the differences [B4]: tool calls no
// handler guards, matchers that never matched, event types it listens to that no trace sent. Matchers are
// asked directly (their compiled `test`, the one the dispatcher uses) on each dispatched event as recorded,
// so this needs no explain pass; a matcher that has matched is not asked again in that file.
import type { CompiledPipeline, TypePlan } from '../compile/compilePipeline.ts';
import type { Scope } from '../match/path.ts';
import { parseEventPattern } from '../model/eventPattern.ts';
import type { ReplayStep } from './types.ts';

/** Tool calls of one agent and tool that no handler guarded [B4]. */
export interface UnguardedCall {
  agent: string;
  tool: string;
  count: number;
}

/** What one file showed of the new pipeline's coverage; merges across files (createCorpusCoverage). */
export interface FileCoverage {
  unguarded: UnguardedCall[];
  /** Ids of the matchers that matched at least one event. */
  matched: string[];
  /** The event types the trace holds, in order of first appearance. */
  types: string[];
}

/** Over the whole corpus [B4]. */
export interface CorpusCoverage {
  /** Most calls first; `files` is how many files had such a call. */
  unguarded: (UnguardedCall & { files: number })[];
  never_matched: { matcher_id: string; label: string; handlers: string[] }[];
  /** Event nodes whose pattern selects none of the types the traces hold. */
  never_sent: { event_node_id: string; pattern: string; handlers: string[] }[];
}

/** The tool call event: the one a guard decides [B4]. */
const TOOL_CALL = 'tool.before_call';

interface TypeProbe {
  /** Every matcher on a path that selects the type (any handler), for never_matched. */
  matchers: Int32Array;
  /** Paths of enabled, enforcing handlers that select the type: their matcher lists. Empty list: always passes. */
  guards: Int32Array[];
}

/** Probes each dispatched step of the new pipeline [B4]. */
export function createCoverageProbe(compiled: CompiledPipeline): { observe(step: ReplayStep): void; result(): FileCoverage } {
  const probes = new Map<string, TypeProbe>();
  const matched = new Uint8Array(compiled.matchers.length);
  // Per event: 0 not asked, 1 passed, 2 failed.
  const verdict = new Uint8Array(compiled.matchers.length);
  const asked: number[] = [];
  const unguarded = new Map<string, UnguardedCall>();
  const types = new Set<string>();

  const probeOf = (type: string): TypeProbe => {
    let p = probes.get(type);
    if (p === undefined) {
      p = buildProbe(compiled, compiled.plan(type), type);
      probes.set(type, p);
    }
    return p;
  };
  const passes = (m: number, scope: Scope): boolean => {
    if (verdict[m] === 0) {
      verdict[m] = compiled.matchers[m]!.test(scope) === true ? 1 : 2;
      asked.push(m);
    }
    return verdict[m] === 1;
  };

  return {
    observe(step) {
      const event = step.event;
      types.add(event.type);
      if (step.duplicate || step.not_reached) return;
      const p = probeOf(event.type);
      const scope: Scope = { event, payload: event.payload, state: step.state_before.vars, now: step.now };
      for (const m of p.matchers) if (matched[m] === 0 && passes(m, scope)) matched[m] = 1;
      if (event.type === TOOL_CALL && !p.guards.some((path) => path.every((m) => passes(m, scope)))) {
        const agent = event.agent_id;
        const tool = typeof event.payload.tool_name === 'string' ? event.payload.tool_name : '(no tool_name)';
        const key = JSON.stringify([agent, tool]);
        const u = unguarded.get(key);
        if (u) u.count++;
        else unguarded.set(key, { agent, tool, count: 1 });
      }
      for (const m of asked) verdict[m] = 0;
      asked.length = 0;
    },
    result() {
      return {
        unguarded: [...unguarded.values()],
        matched: compiled.matchers.filter((_, i) => matched[i] === 1).map((m) => m.id),
        types: [...types],
      };
    },
  };
}

function buildProbe(compiled: CompiledPipeline, plan: TypePlan, type: string): TypeProbe {
  const matchers = new Set<number>();
  for (const h of compiled.handlers) for (const path of h.paths) if (path.pattern.matches(type)) for (const m of path.matchers) matchers.add(m);
  const guards: Int32Array[] = [];
  // The plan's steps are the type's live handlers (enabled, with a path that selects the type).
  for (const s of plan.steps) {
    if (s.handler.shadow) continue;
    for (const i of s.paths) guards.push(s.handler.paths[i]!.matchers);
  }
  return { matchers: Int32Array.from(matchers), guards };
}

/**
 * Merges the files' coverage into the corpus's [B4].
 * `const c = createCorpusCoverage(next); for (const f of files) c.add(f.coverage); c.result().never_matched`
 */
export function createCorpusCoverage(compiled: CompiledPipeline): { add(c: FileCoverage): void; result(): CorpusCoverage } {
  const unguarded = new Map<string, UnguardedCall & { files: number }>();
  const matched = new Set<string>();
  const types = new Set<string>();
  return {
    add(c) {
      for (const u of c.unguarded) {
        const key = JSON.stringify([u.agent, u.tool]);
        const v = unguarded.get(key);
        if (v) {
          v.count += u.count;
          v.files++;
        } else unguarded.set(key, { ...u, files: 1 });
      }
      for (const id of c.matched) matched.add(id);
      for (const t of c.types) types.add(t);
    },
    result() {
      const handlersOf = (has: (path: CompiledPipeline['handlers'][number]['paths'][number]) => boolean) =>
        compiled.handlers.filter((h) => h.paths.some(has)).map((h) => h.id);
      const list = [...unguarded.values()].sort((x, y) => y.count - x.count || x.agent.localeCompare(y.agent) || x.tool.localeCompare(y.tool));
      const neverMatched = compiled.matchers
        .map((m, i) => ({ m, i }))
        .filter(({ m }) => !matched.has(m.id))
        .map(({ m, i }) => ({ matcher_id: m.id, label: m.label, handlers: handlersOf((p) => p.matchers.includes(i)) }));
      const neverSent: CorpusCoverage['never_sent'] = [];
      for (const n of compiled.pipeline.nodes) {
        if (n.kind !== 'event') continue;
        const parsed = parseEventPattern(n.pattern);
        if (!parsed.ok || [...types].some((t) => parsed.pattern.matches(t))) continue;
        neverSent.push({ event_node_id: n.id, pattern: n.pattern, handlers: handlersOf((p) => p.eventNodeId === n.id) });
      }
      return { unguarded: list, never_matched: neverMatched, never_sent: neverSent };
    },
  };
}
