import { deniedBy, type Approval } from '../model/approval.ts';
import type { HookEvent } from '../model/event.ts';
import { isJsonObject, jsonEqual, ownGet, type JsonObject, type JsonValue } from '../model/json.ts';
import { jsonLimitBreach } from '../model/jsonLimits.ts';
import type { AgentContract, AgentEventSpec, AgentOutcome, AgentParse, AgentReplyOptions } from './types.ts';

/*
 * What every agent's answer says, before it is written in the agent's own form [AG3]: one decision of the
 * pipeline becomes allow, block, ask or rewrite (plus stop and context) from the event's channels alone, so
 * the agents cannot disagree about what a decision means; only the wording differs.
 */

/** The agent-independent answer to one event. */
export interface Verdict {
  act: 'allow' | 'block' | 'ask' | 'rewrite';
  /** Why (block, ask); never empty (Codex refuses a deny without a reason). */
  reason: string;
  /** The rewritten tool input (rewrite; ask when the rewrite goes with the question). */
  input?: JsonObject;
  /** Stop the whole agent too (TERMINATE where the event can say so). */
  stop: boolean;
  /** Context for the model or the person, where the event carries it. */
  context: string | null;
  approval: Approval | null;
}

/** An event no contract lists: exit 2 blocks, nothing else is carried. */
export function unknownEventSpec(name: string, type: string): AgentEventSpec {
  return { name, type, required: {}, block: 'exit2', ask: false, context: 'none', terminate: false };
}

/**
 * The verdict for one outcome on one event [AG3]: TERMINATE stops where the event can (else blocks); an ASK
 * the agent cannot show is denied (fail closed [P14]); a rewrite the agent cannot apply blocks; a rewrite whose
 * channel also approves the call needs `allowRewrites`. `rewriteRefusal` lets a dialect refuse a rewrite its
 * channel cannot express (Gemini merges the new input into the old, so a removed key cannot be said).
 */
export function verdictOf(
  contract: Pick<AgentContract, 'name'>,
  spec: AgentEventSpec,
  event: HookEvent,
  outcome: AgentOutcome,
  options: AgentReplyOptions = {},
  rewriteRefusal: (before: JsonValue | undefined, after: JsonValue | undefined) => string | null = () => null,
): Verdict {
  const reason = outcome.reason || `blocked by Hookwire (${outcome.decision})`;
  const context = outcome.context && outcome.context.length > 0 && spec.context !== 'none' ? outcome.context.join('\n\n') : null;
  const base = { reason, stop: false, context, approval: null };
  const rw = spec.rewrite;
  const before = rw ? ownGet(event.payload, rw.field) : undefined;
  const after = rw ? ownGet(outcome.payload, rw.field) : undefined;
  const rewritten = rw !== undefined && !jsonEqual(before, after);
  const refusal = rewritten ? (isJsonObject(after) ? rewriteRefusal(before, after) : `the rewritten ${rw!.field} is not an object`) : null;
  const block = (why: string, approval: Approval | null = null): Verdict => ({ ...base, act: 'block', reason: why, approval });
  switch (outcome.decision) {
    case 'terminate':
      return { ...block(reason), stop: spec.terminate };
    case 'block_action':
      return block(reason);
    case 'ask': {
      if (!spec.ask) {
        const approval = deniedBy('no_approver', `${contract.name} cannot ask for approval on ${spec.name}, so the ASK is denied (fail closed)`);
        return block(`approval required (${reason}); ${approval.reason}`, approval);
      }
      const host: Approval = { answer: 'deferred', by: 'host', reason: `${contract.name} asks the person (${spec.name})` };
      if (rewritten && (rw!.how !== 'apply' || refusal)) {
        const approval = deniedBy('no_approver', `${contract.name} cannot show a rewritten ${rw!.field} with its question on ${spec.name}, so the ASK is denied (fail closed)`);
        return block(`approval required (${reason}); ${approval.reason}`, approval);
      }
      return { ...base, act: 'ask', ...(rewritten ? { input: after as JsonObject } : {}), approval: host };
    }
    default:
      if (!rewritten) return { ...base, act: 'allow' };
      if (refusal) return block(`Hookwire rewrote ${rw!.field}, and ${contract.name} cannot apply this rewrite (${refusal}): blocked so that the original does not go through`);
      if (rw!.how === 'block') return block(`Hookwire rewrote ${rw!.field}, and ${contract.name} cannot replace it on ${spec.name}: blocked so that the original does not go through`);
      if (rw!.how === 'apply-if-allowed' && options.allowRewrites !== true) {
        return block(`Hookwire rewrote ${rw!.field}, and ${contract.name} carries a rewrite on ${spec.name} only by approving the call, so it is blocked (--allow-rewrites approves rewritten calls)`);
      }
      return { ...base, act: 'rewrite', input: after as JsonObject };
  }
}

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

function typeOf(v: JsonValue): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** A refused input: not an object, over the JSON limits [V9][V12], or missing what the event needs. Null: fine. */
export function refuseInput(input: unknown, hook: string | null, required: AgentEventSpec['required']): Extract<AgentParse, { ok: false }> | null {
  if (!isJsonObject(input)) return { ok: false, hook, reason: `expected a JSON object on stdin, got ${Array.isArray(input) ? 'a list' : input === null ? 'null' : typeof input}` };
  const big = jsonLimitBreach(input, 'input');
  if (big) return { ok: false, hook, reason: `${hook ?? 'input'}: input refused: ${big.message}`, problem: big };
  for (const [k, t] of Object.entries(required)) {
    const v = ownGet(input, k);
    if (v === undefined || typeOf(v) !== t || (t === 'string' && v === '' && /name$/.test(k))) {
      return { ok: false, hook, reason: `${hook ?? 'input'}: ${k} is missing or not ${t === 'object' || t === 'array' ? `an ${t}` : `a ${t}`}` };
    }
  }
  return null;
}

/** Whether a string can be an event name (no spaces, no punctuation). */
export function isEventName(name: unknown): name is string {
  return typeof name === 'string' && NAME_RE.test(name);
}

/**
 * The agent whose input this plainly is, when it is not `self`'s [AG4]: each agent's input has marks no other
 * agent's has (Windsurf's `agent_action_name`, Cursor's `conversation_id`, Copilot's camelCase `toolName`,
 * Gemini's `BeforeTool`-style event names). Claude Code's contract is shared by several agents, so its inputs
 * are not told apart.
 */
export function foreignAgent(input: unknown, self: string): string | null {
  if (!isJsonObject(input)) return null;
  const has = (k: string) => ownGet(input, k) !== undefined;
  const event = ownGet(input, 'hook_event_name');
  const marks: [string, boolean][] = [
    ['windsurf', has('agent_action_name') && has('tool_info')],
    ['cursor', has('conversation_id') && has('generation_id')],
    ['copilot', has('toolName') || has('toolArgs') || (typeof ownGet(input, 'timestamp') === 'number' && event === undefined && has('cwd'))],
    ['gemini', typeof event === 'string' && /^(Before|After)(Tool|Agent|Model|ToolSelection)$|^PreCompress$/.test(event)],
    // VS Code names its event `hookEventName` (hooks.md "Common input fields"). It also runs GitHub Copilot's files,
    // so the Copilot mapping reads this input; Claude Code's hands it to VS Code's (runtime/agentHook.ts).
    ['vscode', event === undefined && typeof ownGet(input, 'hookEventName') === 'string' && self !== 'copilot'],
  ];
  for (const [agent, yes] of marks) if (yes && agent !== self) return agent;
  return null;
}
