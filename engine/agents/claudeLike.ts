import type { HookEvent } from '../model/event.ts';
import { isJsonObject, ownGet, ownSet, type JsonObject, type JsonValue } from '../model/json.ts';
import { addPortableFields, toolEntry } from './portable.ts';
import type { AgentAdapter, AgentContract, AgentEventSpec, AgentOutcome, AgentParse, AgentReply, AgentReplyOptions, NativeAnswer } from './types.ts';
import { foreignAgent, isEventName, refuseInput, verdictOf, type Verdict } from './verdict.ts';

/*
 * The agents that follow Claude Code's hook contract with small differences [AG3]: JSON on stdin naming its
 * event in `hook_event_name`, exit 2 with stderr blocks, JSON on stdout with `hookSpecificOutput` or a
 * top-level `decision`. Codex, Gemini CLI and the field maps (Qwen Code, Factory, goose, Kimi) are each a
 * dialect: their contract plus how a pre-tool answer and a decision are spelled.
 */

/** How a decision-capable event's answer is spelled in this dialect. */
export type AnswerShape =
  /** `hookSpecificOutput: {hookEventName, permissionDecision, permissionDecisionReason, updatedInput?, additionalContext?}`. */
  | 'pretool'
  /** Top-level `{decision, reason}` (Gemini: also for its tool events), context in `hookSpecificOutput.additionalContext`. */
  | 'decision'
  /** `hookSpecificOutput: {hookEventName, decision: {behavior, message}}` (PermissionRequest). */
  | 'permission'
  /** `{decision, reason}` both at the top level and in `hookSpecificOutput` (VS Code's Stop documents the latter). */
  | 'decision-both';

export interface ClaudeLikeDialect {
  contract: AgentContract;
  /** Input fields that go to the event's `meta` (the rest is the payload). */
  common: readonly string[];
  /** Per event: its answer shape (default: `pretool` for `tool.before_call`, else `decision`). */
  shapes?: ReadonlyMap<string, AnswerShape>;
  /** The word of a top-level block decision (`block` in Claude Code and Codex, `deny` in Gemini CLI). */
  denyWord: 'block' | 'deny';
  /** Where a rewritten tool input goes: `hookSpecificOutput.updatedInput`, or Gemini's `hookSpecificOutput.tool_input` (merged into the arguments). */
  rewriteOut: 'updatedInput' | 'tool_input';
  /** With `updatedInput`: the decision sent with it (`ask`: never a silent approval; `allow`: Codex takes no other). */
  rewriteDecision?: 'ask' | 'allow';
  /** Whether the dialect has the universal `systemMessage` (a message to the person). */
  systemMessage: boolean;
  /** A rewrite the channel cannot express, with why (Gemini: a removed key). */
  rewriteRefusal?: (before: JsonValue | undefined, after: JsonValue | undefined) => string | null;
  /** The input fields naming the event and the session, first present wins (default `hook_event_name`, `session_id`; VS Code: camelCase). */
  eventFields?: readonly string[];
  sessionFields?: readonly string[];
  /** Input fields that go into the payload under another name (goose's `message` is the `prompt`). */
  renames?: ReadonlyMap<string, string>;
  /**
   * The Hookwire event type of one input when its native event covers more than one thing (Qwen Code's UserPromptSubmit
   * also fires before a tool result goes back to the model); undefined: the event's own type.
   */
  eventType?: (hook: string, input: JsonObject) => string | undefined;
  /** A pre-tool deny also written at the top level (`permissionDecision`, `permissionDecisionReason`): Copilot's form, for a file both read. */
  topLevelDeny?: boolean;
  /**
   * A pre-tool deny carries added context in its reason, never beside it in `additionalContext`: an agent version
   * that rejects the field next to a deny would drop the whole answer and run the tool (Codex, see codex.ts).
   */
  contextInDenyReason?: boolean;
  /**
   * Every fail-closed answer also prints a pre-tool deny on stdout (both forms, as `topLevelDeny`), beside exit 2: for
   * a file another agent that ignores exit codes may run too (VS Code's file under the Copilot harness, see vscode.ts).
   */
  failClosedDeny?: boolean;
}

/** Gemini CLI merges `tool_input` into the model's arguments, so a rewrite that removes a key cannot be said. */
export function mergeOnlyRefusal(before: JsonValue | undefined, after: JsonValue | undefined): string | null {
  if (!isJsonObject(before) || !isJsonObject(after)) return null;
  const gone = Object.keys(before).filter((k) => ownGet(after, k) === undefined);
  return gone.length > 0 ? `the agent merges the new arguments into the old ones, so removing ${gone.map((k) => `\`${k}\``).join(', ')} cannot be expressed` : null;
}

/** The adapter of a Claude-Code-like dialect. */
export function claudeLikeAdapter(d: ClaudeLikeDialect): AgentAdapter {
  const c = d.contract;
  const spec = (hook: string): AgentEventSpec | undefined => c.events.get(hook);
  const eventFields = d.eventFields ?? ['hook_event_name'];
  const sessionFields = d.sessionFields ?? ['session_id'];
  const first = (input: unknown, keys: readonly string[]): JsonValue | undefined => {
    if (!isJsonObject(input)) return undefined;
    for (const k of keys) {
      const v = ownGet(input, k);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  const sessionId = (input: unknown): string => {
    const s = first(input, sessionFields);
    return typeof s === 'string' && s !== '' ? s : c.id;
  };
  const label = `hookwire hook --agent ${c.id}`;
  const failClosed = (hook: string | null, reason: string): NativeAnswer => {
    const why = `${label}: ${reason} (failing closed)`;
    const deny = { permissionDecision: 'deny', permissionDecisionReason: why };
    const stdout = d.failClosedDeny ? `${JSON.stringify({ ...deny, hookSpecificOutput: { hookEventName: hook ?? 'PreToolUse', ...deny } })}\n` : '';
    return { exitCode: 2, stdout, stderr: `${why}\n` };
  };

  const hookName = (input: unknown): string | null => {
    const h = first(input, eventFields);
    return isEventName(h) ? h : null;
  };

  const parse = (input: unknown, at: { ts: string; seq: number }): AgentParse => {
    const other = foreignAgent(input, c.id);
    if (other) return { ok: false, hook: null, reason: `this is ${other}'s hook input, not ${c.name}'s (run hookwire hook --agent ${other})` };
    const hook = hookName(input);
    if (!isJsonObject(input)) return refuseInput(input, null, {})!;
    if (hook === null) return { ok: false, hook: null, reason: `${eventFields.join(' or ')} is missing or not an event name` };
    const s = spec(hook);
    if (!s) return { ok: false, hook, reason: `${hook} is not a ${c.name} hook event (known: ${[...c.events.keys()].join(', ')})` };
    const refused = refuseInput(input, hook, s.required);
    if (refused) return refused;
    const session = sessionId(input);
    const type = d.eventType?.(hook, input) ?? s.type;
    const meta: JsonObject = { agent: c.id };
    const payload: JsonObject = {};
    for (const k of Object.keys(input)) {
      const v = input[k] as JsonValue;
      if (d.common.includes(k)) ownSet(meta, k, v);
      else ownSet(payload, d.renames?.get(k) ?? k, v);
    }
    if (s.type.startsWith('tool.')) {
      const name = ownGet(input, 'tool_name');
      if (typeof name === 'string') addPortableFields(payload, toolEntry(c, name), ownGet(input, 'tool_input'));
    }
    // Read from the payload, so that a dialect's rename (goose's `tool_call_id`) names the call too.
    const toolUse = ownGet(payload, 'tool_use_id');
    const event_id =
      typeof toolUse === 'string' && toolUse !== '' && s.type.startsWith('tool.')
        ? `${c.id}:${toolUse}:${s.type === 'tool.before_call' ? 'before' : 'after'}`
        : `${c.id}:${session}:${at.seq}:${hook}`;
    return { ok: true, hook, event: { event_id, trace_id: session, agent_id: c.agentId, type, ts: at.ts, payload, meta } };
  };

  const reply = (hook: string, event: HookEvent, outcome: AgentOutcome, options: AgentReplyOptions = {}): AgentReply => {
    const s = spec(hook);
    if (!s) return { answer: failClosed(hook, `${hook} is not a ${c.name} hook event`), approval: null };
    const v = verdictOf(c, s, event, outcome, options, d.rewriteRefusal);
    return { answer: render(d, s, v), approval: v.approval };
  };

  return { contract: c, sessionId, hookName, parse, reply, failClosed };
}

/** One verdict in the dialect's words. */
function render(d: ClaudeLikeDialect, s: AgentEventSpec, verdict: Verdict): NativeAnswer {
  let v = verdict;
  const out: JsonObject = {};
  let hso: JsonObject | null = null;
  const specific = (fields: JsonObject) => (hso = { ...(hso ?? (d.rewriteOut === 'updatedInput' ? { hookEventName: s.name } : {})), ...fields });
  const system = (text: string) => {
    if (!d.systemMessage) return;
    const before = ownGet(out, 'systemMessage');
    out.systemMessage = typeof before === 'string' ? `${before}\n\n${text}` : text;
  };
  const shape = d.shapes?.get(s.name) ?? (s.type === 'tool.before_call' ? 'pretool' : 'decision');
  if (v.act === 'block' && s.block === 'exit2') {
    return { exitCode: 2, stdout: '', stderr: `${v.reason}${v.context ? `\n\n${v.context}` : ''}\n` };
  }
  if (v.act === 'block') {
    if (s.block === 'none') system(`Hookwire would block this ${s.name} event, which the agent cannot block: ${v.reason}`);
    else if (shape === 'pretool') {
      const folded = d.contextInDenyReason === true && v.context !== null;
      const reason = folded ? `${v.reason}\n\n${v.context}` : v.reason;
      specific({ permissionDecision: 'deny', permissionDecisionReason: reason });
      if (d.topLevelDeny) Object.assign(out, { permissionDecision: 'deny', permissionDecisionReason: reason });
      if (folded) v = { ...v, context: null };
    } else if (shape === 'permission') specific({ decision: { behavior: 'deny', message: v.reason } });
    else if (shape === 'decision-both') {
      out.decision = d.denyWord;
      out.reason = v.reason;
      specific({ decision: d.denyWord, reason: v.reason });
    } else {
      out.decision = d.denyWord;
      out.reason = v.reason;
    }
  } else if (v.act === 'ask') {
    specific({ permissionDecision: 'ask', permissionDecisionReason: v.reason, ...(v.input ? { updatedInput: v.input } : {}) });
  } else if (v.act === 'rewrite') {
    if (d.rewriteOut === 'tool_input') specific({ tool_input: v.input! });
    else specific({ permissionDecision: d.rewriteDecision ?? 'ask', permissionDecisionReason: 'tool input rewritten by the Hookwire pipeline', updatedInput: v.input! });
  }
  if (v.stop) {
    out.continue = false;
    out.stopReason = v.reason;
  }
  if (v.context) {
    if (s.context === 'model') specific({ additionalContext: v.context });
    else system(v.context);
  }
  if (hso) out.hookSpecificOutput = hso;
  return { exitCode: 0, stdout: Object.keys(out).length > 0 ? `${JSON.stringify(out)}\n` : '', stderr: '' };
}
