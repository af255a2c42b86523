import { nodeName, type PipelineNode } from '../../engine/app.ts';

// One naming rule for the app and the CLI (engine/model/nodeName.ts).
export { nodeName };

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
