import { closest, distance } from 'fastest-levenshtein';
import { LIFECYCLE_EVENT_TYPES } from '../model/event.ts';
import { leadingToHandlers } from '../model/graph.ts';
import { BLOCKING_ACTIONS, type Pipeline } from '../model/pipelineTypes.ts';
import type { Problem } from '../model/problem.ts';
import { patternCovers, patternsOverlap, type EventPattern } from '../model/eventPattern.ts';
import type { Analysis, AnalyzedHandler } from './analyze.ts';

/** Warnings that do not stop a load [V6]. */
export function lintPipeline(doc: Pipeline, analysis: Analysis): Problem[] {
  const warnings: Problem[] = [];
  const nodeIndex = (id: string) => analysis.graph.index.get(id) ?? 0;
  const warn = (code: Problem['code'], id: string, message: string) =>
    warnings.push({ code, severity: 'warning', path: ['nodes', nodeIndex(id)], message, node_id: id });

  for (const h of analysis.handlers) {
    const b = h.node.breaker;
    if (b && b.while_open === undefined && !h.node.shadow && BLOCKING_ACTIONS.has(h.node.action.type)) {
      warn('breaker_policy', h.node.id, `"${h.node.name}" can block and has a breaker: say what happens while it is open (while_open: "block", the default, or "skip", which lets actions through for ${b.cooldown_ms} ms after ${b.threshold} failures)`);
    }
  }
  for (const h of analysis.handlers) {
    if (h.paths.length === 0) warn('unreachable_handler', h.node.id, `"${h.node.name}" is not wired to any event node, so it never runs`);
  }
  for (const node of doc.nodes) {
    // [V11] A near miss of a catalogue type is most likely a typo: say which type was meant.
    if (node.kind !== 'event' || node.pattern.includes('*') || LIFECYCLE_EVENT_TYPES.includes(node.pattern)) continue;
    const near = closest(node.pattern, LIFECYCLE_EVENT_TYPES as string[]);
    if (distance(node.pattern, near) <= 2) {
      warn('misspelled_event', node.id, `event "${node.pattern}" is no lifecycle event type: did you mean "${near}"? (a custom type is fine; this is only a warning)`);
    }
  }
  const leading = leadingToHandlers(analysis.graph);
  for (const node of doc.nodes) {
    if (node.kind !== 'handler' && !leading.has(node.id)) {
      warn('dangling_node', node.id, `${node.kind} "${node.kind === 'event' ? node.pattern : node.label ?? node.id}" leads to no handler`);
    }
  }
  const shadowers = shadowingHandlers(analysis);
  const syncOnly = memoSync(analysis);
  for (const h of analysis.handlers) {
    const by = shadowedBy(h, shadowers, syncOnly);
    if (by) warn('shadowed_handler', h.node.id, `"${h.node.name}" never runs: "${by.node.name}" (order ${by.node.order}) ${by.node.action.type === 'block' ? 'blocks' : 'terminates'} every event it could see first`);
  }
  for (const [a, b] of rewritePairs(analysis.handlers.filter((h) => h.node.enabled && (h.action?.rewrites.length ?? 0) > 0))) {
    const field = sharedField(a.action!.rewrites, b.action!.rewrites);
    if (field && shareEvents(a, b)) {
      warn('conflicting_rewrites', b.node.id, `"${b.node.name}" and "${a.node.name}" both rewrite ${field} on the same events; "${b.node.name}" runs later and wins`);
    }
  }
  return warnings;
}

interface Shadower {
  handler: AnalyzedHandler;
  unconditional: EventPattern[];
}

/** Enabled, enforcing blocks and terminates with at least one unconditional path, in execution order. */
function shadowingHandlers(analysis: Analysis): Shadower[] {
  const out: Shadower[] = [];
  for (const b of analysis.handlers) {
    const a = b.node.action.type;
    if (!b.node.enabled || b.node.shadow || (a !== 'block' && a !== 'terminate')) continue;
    const unconditional = b.paths.filter((p) => p.matchers.length === 0).map((p) => p.pattern);
    if (unconditional.length > 0) out.push({ handler: b, unconditional });
  }
  return out;
}

/**
 * An earlier enforcing, unconditional block/terminate whose event patterns cover all of `h`'s sync events.
 * Only the few shadowing handlers are visited, so lint stays near-linear in the number of handlers.
 */
function shadowedBy(h: AnalyzedHandler, shadowers: readonly Shadower[], syncOnly: (p: EventPattern) => boolean): AnalyzedHandler | null {
  if (h.paths.length === 0) return null;
  for (const { handler: b, unconditional } of shadowers) {
    if (b.rank >= h.rank) break;
    const covered = h.paths.every((p) => syncOnly(p.pattern) && unconditional.some((u) => patternCovers(u, p.pattern)));
    if (covered) return b;
  }
  return null;
}

/**
 * True when no known async event type matches the pattern (an async event never blocks [D7]); memoised by
 * pattern text, and only the async types are tried (exact patterns add many sync types).
 */
function memoSync(analysis: Analysis): (pattern: EventPattern) => boolean {
  const asyncTypes = [...analysis.knownTypes].filter(([, mode]) => mode === 'async').map(([type]) => type);
  const memo = new Map<string, boolean>();
  return (pattern) => {
    let v = memo.get(pattern.text);
    if (v === undefined) {
      v = !asyncTypes.some((t) => pattern.matches(t)) && (pattern.kind === 'exact' ? analysis.modeOf(pattern.text) === 'sync' : true);
      memo.set(pattern.text, v);
    }
    return v;
  };
}

/**
 * The pairs (earlier, later) of rewriters that rewrite a common field or one inside the other, in the order
 * a double loop would give them; found through an index of fields and their prefixes instead of trying
 * every pair.
 */
function rewritePairs(rewriters: readonly AnalyzedHandler[]): [AnalyzedHandler, AnalyzedHandler][] {
  const exact = new Map<string, number[]>();
  const under = new Map<string, number[]>();
  const add = (m: Map<string, number[]>, k: string, i: number) => {
    const list = m.get(k);
    if (list) {
      if (list[list.length - 1] !== i) list.push(i);
    } else m.set(k, [i]);
  };
  const pairs: [number, number][] = [];
  rewriters.forEach((b, j) => {
    const earlier = new Set<number>();
    for (const x of b.action!.rewrites) {
      if (x === 'payload') continue;
      for (const i of exact.get(x) ?? []) earlier.add(i);
      for (const i of under.get(x) ?? []) earlier.add(i);
      for (const prefix of prefixesOf(x)) for (const i of exact.get(prefix) ?? []) earlier.add(i);
    }
    for (const i of earlier) pairs.push([i, j]);
    for (const x of b.action!.rewrites) {
      if (x === 'payload') continue;
      add(exact, x, j);
      for (const prefix of prefixesOf(x)) add(under, prefix, j);
    }
  });
  pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  return pairs.map(([i, j]) => [rewriters[i]!, rewriters[j]!]);
}

/** `payload.a.b.c` → `payload.a.b`, `payload.a` (the proper prefixes that are fields). */
function prefixesOf(field: string): string[] {
  const out: string[] = [];
  for (let k = field.lastIndexOf('.'); k > 0; k = field.lastIndexOf('.', k - 1)) {
    const p = field.slice(0, k);
    if (p !== 'payload') out.push(p);
  }
  return out;
}

function shareEvents(a: AnalyzedHandler, b: AnalyzedHandler): boolean {
  return a.paths.some((p) => b.paths.some((q) => patternsOverlap(p.pattern, q.pattern)));
}

/** A field both rewrite: the same path, or one inside the other. Whole-payload redactions are left out. */
function sharedField(a: string[], b: string[]): string | null {
  for (const x of a) {
    if (x === 'payload') continue;
    for (const y of b) {
      if (y === 'payload') continue;
      if (x === y || y.startsWith(`${x}.`)) return `\`${x}\``;
      if (x.startsWith(`${y}.`)) return `\`${y}\``;
    }
  }
  return null;
}
