import { type Action, type HandlerNode, type Pipeline, type PipelineNode, HANDLER_TEMPLATE } from '../../engine/app.ts';
import { ACTION_LABELS } from './describeAction.ts';

/** What the palette can add: an event node for a pattern, a matcher, or a handler of one kind. */
export type PaletteItem =
  | { kind: 'event'; pattern: string }
  | { kind: 'matcher' }
  | { kind: 'handler'; action: Action['type'] };

/** `base`, or `base-2`, `base-3`... whichever is free. Ids are never reused within a document. */
export function freeId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

function slug(text: string): string {
  return text.replace(/\*/g, 'any').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase() || 'node';
}

/**
 * A budget's default reason, about its state key: "Budget of {{state.calls}} calls exceeded". A key that is not
 * a plain name cannot go in a template path, so its reason names it without the count.
 */
export function budgetReason(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `Budget of {{state.${key}}} ${key} exceeded` : `Budget ${JSON.stringify(key)} exceeded`;
}

/**
 * A budget action after its state key changed: a reason still the default for the old key follows the new one
 * (one the user wrote is theirs and stays).
 */
export function withBudgetKey<T extends { key: string; reason?: string }>(action: T, key: string): T {
  return action.reason === budgetReason(action.key) ? { ...action, key, reason: budgetReason(key) } : { ...action, key };
}

export function defaultAction(type: Action['type']): Action {
  switch (type) {
    case 'block': return { type, reason: 'Blocked {{event.type}} by policy' };
    case 'terminate': return { type, reason: 'Run terminated by policy' };
    case 'stop': return { type };
    case 'ask': return { type, reason: 'Allow {{payload.tool_name}}?' };
    case 'add_context': return { type, text: 'Note for the model: {{event.type}}' };
    case 'rewrite': return { type, ops: [{ op: 'redact', pattern: 'sk-[A-Za-z0-9]{16,}', replacement: '[REDACTED]' }] };
    case 'audit': return { type, level: 'info', fields: ['payload.tool_name'] };
    case 'budget': return { type, key: 'calls', amount: 1, limit: 100, on_exceed: 'block', reason: budgetReason('calls') };
    case 'code': return { type, language: 'ts', source: HANDLER_TEMPLATE };
    case 'flow': return { type, rule: 'flag', mark: { event: 'tool.after_call' }, decision: 'block' };
  }
}

/** Next order after the highest one, in steps of 10, so a new handler runs last. */
export function nextOrder(doc: Pick<Pipeline, 'nodes'>): number {
  const orders = doc.nodes.filter((n): n is HandlerNode => n.kind === 'handler').map((n) => n.order);
  return orders.length ? Math.floor(Math.max(...orders) / 10) * 10 + 10 : 10;
}

/** A new node for a palette item, with a readable id that is free in the document. */
export function createNode(item: PaletteItem, doc: Pick<Pipeline, 'nodes'>): PipelineNode {
  const taken = new Set(doc.nodes.map((n) => n.id));
  if (item.kind === 'event') return { id: freeId(`ev-${slug(item.pattern)}`, taken), kind: 'event', pattern: item.pattern };
  if (item.kind === 'matcher') {
    return { id: freeId('matcher', taken), kind: 'matcher', label: 'New matcher', when: { 'payload.tool_name': { exists: true } } };
  }
  return {
    id: freeId(slug(item.action), taken),
    kind: 'handler',
    name: ACTION_LABELS[item.action],
    order: nextOrder(doc),
    enabled: true,
    shadow: false,
    on_error: 'block',
    action: defaultAction(item.action),
  };
}
