import type { PipelineNode } from '../../engine/app.ts';

/**
 * A node's name for lists, menus and screen readers: an event's label or pattern, a matcher's label or
 * id (two unnamed matchers stay apart), a handler's name.
 */
export function nodeName(n: PipelineNode): string {
  if (n.kind === 'event') return n.label || n.pattern;
  if (n.kind === 'matcher') return n.label || n.id;
  return n.name || n.id;
}

const KIND: Record<PipelineNode['kind'], string> = { event: 'Event', matcher: 'Matcher', handler: 'Handler' };

/** What the debugger's classes say about a node on this step, strongest first (the classes come from the engine's explanation). */
const STEP_WORDS: [RegExp, string][] = [
  [/\bdbg-decider\b/, 'decided this step'],
  [/\bdbg-error\b/, 'failed with an error'],
  [/\bdbg-fired\b/, 'fired'],
  [/\bdbg-fail\b/, 'failed'],
  [/\bdbg-pass\b/, 'passed'],
  [/\bdbg-missed\b/, 'did not match'],
  [/\bdbg-skipped\b/, 'not reached'],
  [/\bdbg-event\b/, 'this step’s event'],
];

/** The accessible name of a node on the canvas: "Handler Block destructive commands, block", and in the debugger what it did. */
export function nodeAriaLabel(n: PipelineNode, className?: string): string {
  const what = n.kind === 'handler' ? `, ${n.action.type}` : n.kind === 'event' && n.label ? `, ${n.pattern}` : '';
  const step = className ? STEP_WORDS.find(([re]) => re.test(className))?.[1] : undefined;
  return `${KIND[n.kind]} ${nodeName(n)}${what}${step ? `: ${step}` : ''}`;
}
