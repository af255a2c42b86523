import type { PortableTool } from '../model/portableTool.ts';
import type { ActionInput } from '../model/pipelineTypes.ts';
import { parseEventPattern } from '../model/eventPattern.ts';
import { reaches, type PipelineShape, type Reach } from './plan.ts';
import type { AgentContract } from './types.ts';

/*
 * The loss report [AG6]: every place where a pipeline decides something an agent cannot carry out, what
 * happens instead, and which node says it — before the pipeline ships. It reads the same channels the answers
 * are written from (the contract), so what it says is what `hook --agent` does.
 */

export type LossKind = 'no_hook' | 'ask' | 'rewrite' | 'context' | 'terminate' | 'block' | 'unseen' | 'tool_name' | 'unconfirmed' | 'partial' | 'fail_open';

/**
 * The kinds `install --strict` fails on: what the pipeline decides that the agent does not carry out. `fail_open` is
 * left out: it is about a hook process killed before it answers, which no pipeline can change, and it is in the
 * report of every blocking pipeline on most agents (strict would refuse them all and say nothing new).
 */
export function strictLosses(items: readonly LossItem[]): LossItem[] {
  return items.filter((l) => l.kind !== 'fail_open');
}

/** Whether an outcome kind stops something that the agent would otherwise do: what a killed hook loses. */
const BLOCKING: ReadonlySet<LossKind> = new Set(['block', 'terminate', 'ask', 'rewrite']);

export interface LossItem {
  /** The node the loss is about (a handler, an event node, a matcher); null for the agent as a whole. */
  node: string | null;
  kind: LossKind;
  /** One line: "ask → block on windsurf (pre_run_command)". */
  text: string;
  /** The native events it happens on. */
  events: string[];
  /** True when the handler is code and only may decide this. */
  may?: boolean;
}

/** What an action can decide, as outcomes to check; a code handler may decide anything. */
function outcomes(action: ActionInput): { kinds: LossKind[]; may: boolean; ops: { op: string; path: string }[] } {
  switch (action.type) {
    case 'block':
      return { kinds: ['block'], may: false, ops: [] };
    case 'terminate':
      return { kinds: ['terminate'], may: false, ops: [] };
    case 'ask':
      return { kinds: ['ask'], may: false, ops: [] };
    case 'add_context':
      return { kinds: ['context'], may: false, ops: [] };
    case 'budget':
      return { kinds: [action.on_exceed === 'terminate' ? 'terminate' : 'block'], may: false, ops: [] };
    case 'rewrite':
      return { kinds: ['rewrite'], may: false, ops: action.ops.map((o) => ({ op: o.op, path: o.path ?? 'payload' })) };
    case 'code':
      return { kinds: ['block', 'terminate', 'ask', 'context', 'rewrite'], may: true, ops: [{ op: 'set', path: 'payload' }] };
    default:
      return { kinds: [], may: false, ops: [] };
  }
}

/** The one-line losses of one reach, by kind. */
function lossesOf(c: AgentContract, r: Reach): { kind: LossKind; text: string }[] {
  const { kinds, ops } = outcomes(r.action);
  const e = r.event;
  const on = `on ${c.id}`;
  const out: { kind: LossKind; text: string }[] = [];
  for (const k of kinds) {
    if (k === 'block' && e.block === 'none') out.push({ kind: 'block', text: `block not enforced ${on}: ${e.name} cannot be blocked` });
    if (k === 'terminate' && !e.terminate) out.push({ kind: 'terminate', text: e.block === 'none' ? `terminate not enforced ${on}: ${e.name} can neither stop the agent nor block` : `terminate → block ${on}: ${e.name} cannot stop the agent` });
    if (k === 'ask' && !e.ask) out.push({ kind: 'ask', text: e.block === 'none' ? `ask not enforced ${on}: ${e.name} can neither ask nor block` : `ask → block ${on}` });
    if (k === 'context' && e.context === 'none') out.push({ kind: 'context', text: `add_context dropped ${on}` });
    if (k === 'context' && e.context === 'user') out.push({ kind: 'context', text: `add_context shown to the person only ${on} (the model does not see it)` });
    if (k === 'rewrite') {
      for (const op of ops) {
        const field = e.rewrite?.field;
        const touches = field !== undefined && (op.path === 'payload' || op.path === `payload.${field}` || op.path.startsWith(`payload.${field}.`));
        if (!touches) {
          out.push({ kind: 'rewrite', text: `rewrite of ${op.path} is not carried ${on}: dropped` });
        } else if (e.rewrite!.how === 'block') {
          out.push({ kind: 'rewrite', text: `rewrite of ${field} → block ${on}` });
        } else if (e.rewrite!.how === 'apply-if-allowed') {
          out.push({ kind: 'rewrite', text: `rewrite of ${field} → block ${on} unless --allow-rewrites (its channel also approves the call)` });
        } else if (e.type === 'tool.before_call' && (c.id === 'claude' || c.id === 'qwen' || c.id === 'factory')) {
          // Claude Code's contract carries updatedInput with "ask": the person approves the rewritten call.
          out.push({ kind: 'rewrite', text: `rewrite of ${field} → ask ${on}${c.id === 'claude' ? ' unless --allow-rewrites' : ''} (the person approves the rewritten call)` });
        } else if (op.op === 'remove' && c.id === 'gemini') {
          out.push({ kind: 'rewrite', text: `rewrite removing ${op.path} → block ${on} (new arguments are merged into the old)` });
        }
      }
    }
  }
  return out;
}

/**
 * The loss report of a pipeline on an agent [AG6], by node: event nodes no hook of the agent fires for, each
 * handler's outcomes the agent cannot carry out, tool kinds the agent never shows to a hook, tool names the
 * agent does not have, and an unconfirmed contract.
 */
export function lossReport(doc: PipelineShape, contract: AgentContract): LossItem[] {
  const { reaches: all, unmatched, paths } = reaches(doc, contract);
  const items: LossItem[] = [];
  if (!contract.confirmed) items.push({ node: null, kind: 'unconfirmed', text: `${contract.name}'s hook contract is unconfirmed: only exit 2 (block) is used, so ask, rewrite and context are not carried`, events: [] });
  // The text is about the node, which the CLI and the app name (its pattern, unless it has a label): not said again.
  for (const u of unmatched) items.push({ node: u.node, kind: 'no_hook', text: `no such hook on ${contract.id}`, events: [] });
  // One item per (node, text), listing the native events it happens on.
  const byKey = new Map<string, LossItem>();
  const add = (node: string, kind: LossKind, text: string, event: string, may: boolean) => {
    const key = `${node}\u0000${text}`;
    const item = byKey.get(key) ?? { node, kind, text: may ? `code may decide: ${text}` : text, events: [], ...(may ? { may: true } : {}) };
    if (!item.events.includes(event)) item.events.push(event);
    byKey.set(key, item);
  };
  const unseen = new Map<string, Set<PortableTool>>();
  // Where a hook killed before it answers lets the action go on: one item per contract entry, on the events it happens on.
  const failOpen = new Map<number, LossItem>();
  const caveats = new Map<string, LossItem>();
  for (const r of all) {
    const { kinds, may } = outcomes(r.action);
    for (const l of lossesOf(contract, r)) add(r.handler, l.kind, l.text, r.event.name, may);
    // Said once for the agent, on the events a handler reaches: it is about what the event shows, not about one rule.
    if (r.event.caveat) {
      const item = caveats.get(r.event.name) ?? { node: null, kind: 'partial' as const, text: `on ${contract.id}: ${r.event.caveat}`, events: [r.event.name] };
      caveats.set(r.event.name, item);
    }
    if (r.event.block !== 'none' && kinds.some((k) => BLOCKING.has(k))) {
      contract.failOpen.forEach((f, i) => {
        if (f.events && !f.events.includes(r.event.name)) return;
        const item = failOpen.get(i) ?? { node: null, kind: 'fail_open' as const, text: `fail-open on ${contract.id} when a hook is killed before it answers (${contract.name}'s timeout, a signal): ${f.why}; every other failure Hookwire answers in the block form itself`, events: [] };
        if (!item.events.includes(r.event.name)) item.events.push(r.event.name);
        failOpen.set(i, item);
      });
    }
    for (const name of r.tools.names ?? []) {
      const known = contract.tools.has(name) || (contract.mcpPrefix !== undefined && name.startsWith(contract.mcpPrefix));
      if (!known) add(r.tools.namedBy ?? r.matchers[r.matchers.length - 1] ?? r.handler, 'tool_name', `tool name ${name} is not a ${contract.name} tool: match payload.tool instead`, r.event.name, false);
    }
  }
  // A path narrowed to a tool kind the agent never shows to a hook: its handler never runs for those calls.
  for (const p of paths) {
    const pattern = parseEventPattern(p.pattern);
    if (!pattern.ok || !pattern.pattern.matches('tool.before_call') || !p.tools.kinds) continue;
    for (const k of p.tools.kinds) if (contract.unseen.includes(k)) unseen.set(p.handler, (unseen.get(p.handler) ?? new Set()).add(k));
  }
  items.push(...failOpen.values(), ...caveats.values(), ...byKey.values());
  for (const [node, kinds] of unseen) {
    items.push({ node, kind: 'unseen', text: `${[...kinds].join(', ')} calls: ${contract.id} shows none to hooks (this handler never runs for them; a fetch or read done through the shell is seen as a shell command)`, events: [] });
  }
  return items;
}
