import type { Action, PipelineNode } from '../../engine/app.ts';
import { nodeName } from './nodeName.ts';

/** One node found by name: its id, its name for people, and what it is. */
export interface FoundNode {
  readonly id: string;
  readonly name: string;
  readonly kind: PipelineNode['kind'];
  /** What it looks like on the canvas: its kind, or a handler's action. */
  readonly look: 'event' | 'matcher' | Action['type'];
}

/**
 * The nodes whose name or id holds every word typed (case-insensitive), best first: the name equal to the
 * text, then starting with it, then holding it, then the rest; the pipeline's order within each. The names
 * are the engine's (nodeName), as the canvas, Problems and the CLI show them. Empty text finds every node.
 *
 * @example findNodes(doc.nodes, 'handler 21') // 'Handler 21' first, then 'Handler 210' … 'Handler 219'
 */
export function findNodes(nodes: readonly PipelineNode[], text: string): FoundNode[] {
  const q = text.trim().toLowerCase();
  const words = q === '' ? [] : q.split(/\s+/);
  const found: { f: FoundNode; rank: number; i: number }[] = [];
  nodes.forEach((n, i) => {
    const name = nodeName(n);
    const lower = name.toLowerCase();
    const hay = `${lower} ${n.id.toLowerCase()}`;
    if (!words.every((w) => hay.includes(w))) return;
    const rank = q === '' ? 0 : lower === q || n.id.toLowerCase() === q ? 0 : lower.startsWith(q) ? 1 : lower.includes(q) ? 2 : 3;
    found.push({ f: { id: n.id, name, kind: n.kind, look: n.kind === 'handler' ? n.action.type : n.kind }, rank, i });
  });
  return found.sort((a, b) => a.rank - b.rank || a.i - b.i).map(({ f }) => f);
}
