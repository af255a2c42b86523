import { type Action, type FlowRuleKind, type HandlerNode, type RewriteOp, shortPath } from '../../engine/app.ts';

/** Display names of the handler kinds, in palette order. */
export const ACTION_LABELS: Readonly<Record<Action['type'], string>> = {
  block: 'Block',
  terminate: 'Terminate',
  stop: 'Stop propagation',
  ask: 'Ask a person',
  add_context: 'Add context',
  rewrite: 'Rewrite',
  audit: 'Audit log',
  budget: 'Budget',
  code: 'Code',
  flow: 'Flow rule',
};

/** How each flow construct reads on a node [F1]. */
export const FLOW_RULE_LABELS: Readonly<Record<FlowRuleKind, string>> = {
  sequence: 'A then B',
  flag: 'flag',
  window: 'window',
  precondition: 'only if … since …',
};

function describeOp(op: RewriteOp): string {
  if (op.op === 'set') return `set ${shortPath(op.path)} = ${JSON.stringify(op.value)}`;
  if (op.op === 'remove') return `remove ${shortPath(op.path)}`;
  const where = op.path ? shortPath(op.path) : 'all strings';
  return op.pattern ? `redact /${op.pattern}/ in ${where}` : `redact ${where}`;
}

/** One line saying what a handler does, for its node on the canvas. */
export function describeAction(action: Action): string {
  switch (action.type) {
    case 'block':
    case 'terminate':
      return action.reason ? `“${action.reason}”` : 'no reason';
    case 'stop':
      return action.reason ? `“${action.reason}”` : 'later handlers skipped';
    case 'ask':
      return `“${action.reason}”`;
    case 'add_context':
      return `“${action.text}”`;
    case 'rewrite':
      return action.ops.map(describeOp).join('; ');
    case 'audit': {
      const fields = action.fields?.length ? action.fields.map(shortPath).join(', ') : 'event';
      return `${action.level}: ${fields}`;
    }
    case 'budget': {
      const amount = action.amount_path ? shortPath(action.amount_path) : String(action.amount ?? 1);
      return `state.${action.key} += ${amount}, limit ${action.limit} → ${action.on_exceed}`;
    }
    case 'flow':
      return describeFlow(action);
    case 'code': {
      const lines = action.source.split('\n').length;
      return `${action.language.toUpperCase()} · ${lines} line${lines === 1 ? '' : 's'}`;
    }
  }
}

function describeFlow(action: Extract<Action, { type: 'flow' }>): string {
  const mark = action.mark.event;
  const clear = action.clear ? action.clear.event : null;
  const same = action.same ? ` · same ${shortPath(action.same.now)}` : '';
  const then = `→ ${action.decision}`;
  switch (action.rule) {
    case 'sequence':
      return `after ${mark}${same} ${then}`;
    case 'flag':
      return `set by ${mark}${clear ? `, cleared by ${clear}` : ''}${same} ${then}`;
    case 'window':
      return `${action.limit ?? 1} × ${mark} within ${action.within_ms ?? '?'} ms${same} ${then}`;
    case 'precondition':
      return `only if ${mark} since ${clear ?? 'start'}${same}, else ${action.decision}`;
  }
}

/** Flags worth showing on a handler node beside its kind and order. */
export function handlerFlags(node: HandlerNode): string[] {
  const flags: string[] = [];
  if (!node.enabled) flags.push('disabled');
  if (node.shadow) flags.push('shadow');
  if (node.breaker) flags.push('breaker');
  if (node.timeout_ms !== undefined) flags.push(`${node.timeout_ms} ms`);
  return flags;
}
