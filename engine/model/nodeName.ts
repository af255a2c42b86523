import type { PipelineNode } from './pipelineTypes.ts';

/**
 * A node's name for people, in lists, menus, reports and screen readers: an event's label or pattern, a
 * matcher's label or id (two unnamed matchers stay apart), a handler's name or id. The app and the CLI name
 * nodes with it, so a text about a node never has to say which node it is.
 *
 * @example nodeName({ id: 'ev-1', kind: 'event', pattern: 'tool.*' }) // 'tool.*'
 */
export function nodeName(n: PipelineNode): string {
  if (n.kind === 'event') return n.label || n.pattern;
  if (n.kind === 'matcher') return n.label || n.id;
  return n.name || n.id;
}
