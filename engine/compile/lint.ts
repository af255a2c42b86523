import { leadsToHandler } from '../model/graph.ts';
import type { Pipeline } from '../model/pipelineSchema.ts';
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
    if (h.paths.length === 0) warn('unreachable_handler', h.node.id, `"${h.node.name}" is not wired to any event node, so it never runs`);
  }
  for (const node of doc.nodes) {
    if (node.kind !== 'handler' && !leadsToHandler(analysis.graph, node.id)) {
      warn('dangling_node', node.id, `${node.kind} "${node.kind === 'event' ? node.pattern : node.label ?? node.id}" leads to no handler`);
    }
  }
  for (const h of analysis.handlers) {
    const by = shadowedBy(h, analysis);
    if (by) warn('shadowed_handler', h.node.id, `"${h.node.name}" never runs: "${by.node.name}" (order ${by.node.order}) ${by.node.action.type === 'block' ? 'blocks' : 'terminates'} every event it could see first`);
  }
  const rewriters = analysis.handlers.filter((h) => h.node.enabled && (h.action?.rewrites.length ?? 0) > 0);
  for (let i = 0; i < rewriters.length; i++) {
    for (let j = i + 1; j < rewriters.length; j++) {
      const a = rewriters[i]!;
      const b = rewriters[j]!;
      const field = sharedField(a.action!.rewrites, b.action!.rewrites);
      if (field && shareEvents(a, b)) {
        warn('conflicting_rewrites', b.node.id, `"${b.node.name}" and "${a.node.name}" both rewrite ${field} on the same events; "${b.node.name}" runs later and wins`);
      }
    }
  }
  return warnings;
}

/** An earlier enforcing, unconditional block/terminate whose event patterns cover all of `h`'s sync events. */
function shadowedBy(h: AnalyzedHandler, analysis: Analysis): AnalyzedHandler | null {
  if (h.paths.length === 0) return null;
  for (const b of analysis.handlers) {
    if (b.rank >= h.rank) break;
    const a = b.node.action.type;
    if (!b.node.enabled || b.node.shadow || (a !== 'block' && a !== 'terminate')) continue;
    const unconditional = b.paths.filter((p) => p.matchers.length === 0).map((p) => p.pattern);
    if (unconditional.length === 0) continue;
    const covered = h.paths.every((p) => onlySync(p.pattern, analysis) && unconditional.some((u) => patternCovers(u, p.pattern)));
    if (covered) return b;
  }
  return null;
}

/** True when no known async event type matches the pattern (an async event never blocks [D7]). */
function onlySync(pattern: EventPattern, analysis: Analysis): boolean {
  for (const [type, mode] of analysis.knownTypes) if (mode === 'async' && pattern.matches(type)) return false;
  return pattern.kind === 'exact' ? analysis.modeOf(pattern.text) === 'sync' : true;
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
