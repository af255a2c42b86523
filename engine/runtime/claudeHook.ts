import { jsonLimitBreach, type JsonLimitBreach } from '../model/jsonLimits.ts';
import type { Approval } from '../model/approval.ts';
import type { Decision } from '../model/decision.ts';
import type { HookEvent } from '../model/event.ts';
import { isJsonObject, jsonEqual, ownGet, ownSet, type JsonObject, type JsonValue } from '../model/json.ts';
import { claudeEventSpec, type ClaudeEventSpec, type FieldType } from '../agents/claudeEvents.ts';
import { CLAUDE_CONTRACT } from '../agents/claude.ts';
import { addPortableFields, toolEntry } from '../agents/portable.ts';
import { claudeUnknownEventFailClosed } from './claudeUnknownEventFailClosed.ts';

/*
 * The Claude Code mapping, one pure module for every transport [P12]: a hook input becomes a Hookwire event
 * (`claudeHookEvent`), a decision becomes Claude Code's answer (`claudeReply`), and the answer is rendered for
 * a command hook (`toCommandAnswer`: exit code, stdout, stderr) or an HTTP hook (`toHttpAnswer`: a 200 with the
 * JSON body; HTTP hooks cannot block by status, and a non-2xx is a non-blocking error). The per-event channels
 * are data in claudeEvents.ts, read from the hooks reference (https://code.claude.com/docs/en/hooks).
 */

/** Input fields every event may carry; they go to the event's `meta` ("Common input fields"). */
export const CLAUDE_COMMON_FIELDS = ['session_id', 'prompt_id', 'transcript_path', 'cwd', 'permission_mode', 'effort', 'hook_event_name', 'agent_id', 'agent_type'] as const;

/** A refused input; `problem` when it passed a JSON limit [V9][V12] (data, not a malformed request: answered fail-closed on every transport). */
export type ClaudeHookParse = { ok: true; hook: string; event: HookEvent } | { ok: false; hook: string | null; reason: string; problem?: JsonLimitBreach };

/** What a command hook prints and exits with. */
export interface ClaudeHookAnswer {
  exitCode: 0 | 2;
  stdout: string;
  stderr: string;
}

/** What an HTTP hook answers: always 200 (Claude Code reads decisions only from 2xx bodies); `body` is '' or JSON text. */
export interface ClaudeHttpAnswer {
  status: 200;
  body: string;
}

/** Claude Code's answer, before it is rendered for a transport. */
export interface ClaudeReply {
  /** A command hook answers with exit code 2 and this on stderr (its JSON, if any, is then ignored). */
  exit2: string | null;
  /** The JSON output (a command hook prints it on exit 0; an HTTP hook returns it). */
  json: JsonObject | null;
  /** For an ASK: who answers it (Claude Code's prompt: `deferred`; no channel: denied) [P14]. */
  approval: Approval | null;
}

/** The part of a decision the answer needs: a dispatch, replay step or runtime result fits. */
export interface ClaudeOutcome {
  decision: Decision;
  reason: string;
  payload: JsonObject;
  context?: readonly string[];
}

export interface ClaudeAnswerOptions {
  /** Send a rewritten tool input with `allow` (auto-approving the call) instead of `ask`. Default false. */
  allowRewrites?: boolean;
}

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Maps one hook input to a Hookwire event [P12]. Missing or mistyped fields the event needs are refused with a
 * reason (the adapter then fails closed). Every other field is kept: the common ones in `meta`, the rest in the
 * payload, known or not.
 *
 * @example claudeHookEvent({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: {command: 'ls'} }, { ts, seq: 1 })
 */
export function claudeHookEvent(input: unknown, at: { ts: string; seq: number }): ClaudeHookParse {
  if (!isJsonObject(input)) return { ok: false, hook: null, reason: `expected a JSON object on stdin, got ${Array.isArray(input) ? 'a list' : input === null ? 'null' : typeof input}` };
  const hook = ownGet(input, 'hook_event_name');
  if (typeof hook !== 'string' || !NAME_RE.test(hook)) return { ok: false, hook: null, reason: 'hook_event_name is missing or not an event name' };
  // Before anything walks it: the same limits as emit [V9][V12], so every transport fails closed alike.
  const big = jsonLimitBreach(input, 'input');
  if (big) return { ok: false, hook, reason: `${hook}: input refused: ${big.message}`, problem: big };
  const spec = claudeEventSpec(hook);
  const wrong = checkFields(input, spec.required);
  if (wrong) return { ok: false, hook, reason: `${hook}: ${wrong}` };
  const session = claudeSessionId(input);
  const meta: JsonObject = {};
  for (const k of CLAUDE_COMMON_FIELDS) {
    const v = ownGet(input, k);
    if (v !== undefined) ownSet(meta, k, v);
  }
  // [AG2] the portable fields, additive: Claude Code's tool events have no top-level field of these names.
  ownSet(meta, 'agent', 'claude');
  const payload = payloadOf(hook, input, session);
  const toolName = ownGet(input, 'tool_name');
  if (spec.type.startsWith('tool.') || spec.required.tool_name !== undefined) {
    if (typeof toolName === 'string') addPortableFields(payload, toolEntry(CLAUDE_CONTRACT, toolName), ownGet(input, 'tool_input'));
  }
  const toolUse = namingToolUse(input, spec.type);
  const event_id = toolUse !== null ? `cc:${toolUse}:${spec.type === 'tool.before_call' ? 'before' : 'after'}` : `cc:${session}:${at.seq}:${hook}`;
  return { ok: true, hook, event: { event_id, trace_id: session, agent_id: 'claude-code', type: spec.type, ts: at.ts, payload, meta } };
}

/** The tool call's id when it names the event (a tool event with a `tool_use_id`), else null: then its number in the session does. */
function namingToolUse(fields: JsonObject, type: string): string | null {
  const id = ownGet(fields, 'tool_use_id');
  return typeof id === 'string' && id !== '' && type.startsWith('tool.') ? id : null;
}

/**
 * Whether a mapped event's id is made from its number in the session (`seq`): then the event must be mapped again
 * for another number; otherwise it is the same event at any number (the tool call's id names it), and a caller
 * that mapped it once to check it (serve) can take it as it is.
 */
export function claudeEventNumbered(event: HookEvent): boolean {
  return namingToolUse(event.payload, event.type) === null;
}

/** The trace id of a hook input: its `session_id`, or `"claude-code"` when it has none. */
export function claudeSessionId(input: unknown): string {
  const s = isJsonObject(input) ? ownGet(input, 'session_id') : undefined;
  return typeof s === 'string' && s !== '' ? s : 'claude-code';
}

function typeOf(v: JsonValue): FieldType | 'null' {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as FieldType);
}

function checkFields(input: JsonObject, required: Readonly<Record<string, FieldType>>): string | null {
  for (const [k, t] of Object.entries(required)) {
    const v = ownGet(input, k);
    if (v === undefined || typeOf(v) !== t || (t === 'string' && k === 'tool_name' && v === '')) {
      return `${k} is missing or not ${t === 'object' || t === 'array' ? `an ${t}` : `a ${t}`}`;
    }
  }
  return null;
}

/** Every field but the common ones, in input order: nothing the reference adds later is dropped. */
function rest(input: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(input)) if (!(CLAUDE_COMMON_FIELDS as readonly string[]).includes(k)) ownSet(out, k, input[k] as JsonValue);
  return out;
}

/** The payload: the event's own fields plus the canonical names of the lifecycle event it maps to (COMMON.md). */
function payloadOf(hook: string, input: JsonObject, session: string): JsonObject {
  const get = (k: string) => ownGet(input, k);
  const out = rest(input);
  switch (hook) {
    case 'PreToolUse':
    case 'PermissionRequest':
    case 'PermissionDenied':
      return out;
    // `out` is this call's own object: the fields are set on it (a spread followed by fields makes a new hidden
    // class per event in Node 20's V8, ~2–4 µs); a field of the same name keeps its place, as with the spread.
    case 'PostToolUse':
      return withFields(out, 'tool_response', get('tool_response') ?? null, 'is_error', false);
    case 'PostToolUseFailure':
      return withFields(out, 'tool_response', get('error') ?? get('tool_response') ?? null, 'is_error', true);
    case 'UserPromptSubmit':
      return out;
    case 'Stop':
    case 'SubagentStop': {
      const text = get('last_assistant_message');
      return withFields(out, 'text', typeof text === 'string' ? text : '', 'stop_hook_active', get('stop_hook_active') === true);
    }
    case 'SessionEnd': {
      const reason = get('reason');
      ownSet(out, 'status', typeof reason === 'string' ? reason : 'ended');
      return withSession(out, input, session);
    }
    default:
      return withSession(out, input, session);
  }
}

function withFields(out: JsonObject, k1: string, v1: JsonValue, k2: string, v2: JsonValue): JsonObject {
  ownSet(out, k1, v1);
  ownSet(out, k2, v2);
  return out;
}

/** Events without a lifecycle payload also keep the session and the working directory in the payload. */
function withSession(out: JsonObject, input: JsonObject, session: string): JsonObject {
  const cwd = ownGet(input, 'cwd');
  if (cwd !== undefined) ownSet(out, 'cwd', cwd);
  ownSet(out, 'session_id', session);
  return out;
}

/**
 * Claude Code's answer to a decision on one hook event [P12], from the event's channels (claudeEvents.ts):
 * - TERMINATE: `continue: false` with the stop reason, plus the event's block (deny, `decision: "block"`, …);
 * - BLOCK_ACTION: the event's block; on events that cannot be blocked, a `systemMessage` to the user;
 * - ASK: PreToolUse `permissionDecision: "ask"` (with `updatedInput` when rewritten); PermissionRequest and
 *   Elicitation: no output, so Claude Code's own dialog asks; elsewhere no one can be asked, so it is denied;
 * - a rewrite of the field Claude Code can replace: `updatedInput` (sent with `ask`, or `allow` when
 *   `allowRewrites`: never a silent approval), `updatedToolOutput`, `displayContent`; a rewritten prompt,
 *   which Claude Code cannot replace, blocks the prompt;
 * - context: `additionalContext` where the event has it, else `systemMessage`.
 */
export function claudeReply(hook: string, event: HookEvent, result: ClaudeOutcome, options: ClaudeAnswerOptions = {}): ClaudeReply {
  const spec = claudeEventSpec(hook);
  const b = new ReplyBuilder(hook, spec);
  const reason = result.reason || `blocked by Hookwire (${result.decision})`;
  const rewritten = spec.rewrite && !jsonEqual(ownGet(event.payload, spec.rewrite.field), ownGet(result.payload, spec.rewrite.field)) ? spec.rewrite : null;
  const after = rewritten ? ownGet(result.payload, rewritten.field) : undefined;
  let approval: Approval | null = null;
  switch (result.decision) {
    case 'terminate':
      if (spec.block !== 'exit2' && spec.block !== 'none' && spec.block !== 'stop') b.block(reason, true);
      b.out.continue = false;
      b.out.stopReason = reason;
      break;
    case 'block_action':
      b.block(reason);
      break;
    case 'ask': {
      const updated = rewritten?.output === 'updatedInput' && isJsonObject(after) ? after : null;
      if (spec.ask === 'pretool') {
        b.hso({ permissionDecision: 'ask', permissionDecisionReason: reason, ...(updated ? { updatedInput: updated } : {}) });
        approval = { answer: 'deferred', by: 'host', reason: `Claude Code asks the person (${hook})` };
      } else if (spec.ask === 'dialog' && !rewritten) {
        approval = { answer: 'deferred', by: 'host', reason: `Claude Code's own dialog asks the person (${hook})` };
      } else {
        const why = spec.ask === 'dialog' ? `${hook} cannot show a rewritten input in its dialog` : `Claude Code cannot ask for approval on ${hook}`;
        approval = { answer: 'deny', by: 'no_approver', reason: `${why}, so the ASK is denied (fail closed)` };
        b.block(`approval required (${reason}); ${approval.reason}`);
      }
      break;
    }
    default:
      if (rewritten) rewrite(b, hook, rewritten.output, after, options);
  }
  b.context(result.context ?? []);
  const done = b.done();
  return { exit2: done.exit2, json: done.json, approval };
}

function rewrite(b: ReplyBuilder, hook: string, output: string, after: JsonValue | undefined, options: ClaudeAnswerOptions): void {
  if (output === 'updatedInput' && isJsonObject(after)) {
    if (hook === 'PreToolUse') {
      const decision = options.allowRewrites ? 'allow' : 'ask';
      b.hso({ permissionDecision: decision, permissionDecisionReason: 'tool input rewritten by the Hookwire pipeline', updatedInput: after });
    } else if (options.allowRewrites) {
      b.hso({ decision: { behavior: 'allow', updatedInput: after } });
    } else {
      b.block('Hookwire rewrote the tool input, and a permission request carries a rewritten input only by approving it, so it is denied (claude-hook --allow-rewrites approves rewritten calls)');
    }
  } else if (output === 'updatedToolOutput') {
    b.hso({ updatedToolOutput: after ?? null });
  } else if (output === 'displayContent') {
    b.hso({ displayContent: typeof after === 'string' ? after : JSON.stringify(after ?? '') });
  } else {
    b.block(`Hookwire rewrote the ${hook === 'UserPromptSubmit' || hook === 'UserPromptExpansion' ? 'prompt' : 'input'}, and Claude Code cannot replace it: blocked so that the original does not reach Claude`);
  }
}

/** Collects the JSON output and the exit-2 text of one answer. */
class ReplyBuilder {
  readonly out: JsonObject = {};
  private specific: JsonObject | null = null;
  private exit2: string | null = null;
  constructor(
    private readonly hook: string,
    private readonly spec: Omit<ClaudeEventSpec, 'type'>,
  ) {}

  hso(fields: JsonObject): void {
    // In place (the builder's own object), not `{ ...specific, ...fields }`: a new hidden class per answer in Node 20.
    this.specific = Object.assign(this.specific ?? { hookEventName: this.hook }, fields);
  }

  /** The event's block [P12]; `interrupt` also stops Claude where the channel can say so (PermissionRequest). */
  block(reason: string, interrupt = false): void {
    switch (this.spec.block) {
      case 'pretool':
        return this.hso({ permissionDecision: 'deny', permissionDecisionReason: reason });
      case 'permission':
        return this.hso({ decision: { behavior: 'deny', message: reason, ...(interrupt ? { interrupt: true } : {}) } });
      case 'decision':
        this.out.decision = 'block';
        this.out.reason = reason;
        return;
      case 'elicitation':
        // Claude Code's Elicitation/ElicitationResult output has no reason field (`action` accept|decline|cancel,
        // `content`); the universal `systemMessage` is shown to the user, so the handler's reason goes there.
        // Source: Claude Code hooks reference, https://code.claude.com/docs/en/hooks (Elicitation output,
        // universal fields), Claude Code 2.1.76+.
        this.system(`Hookwire declined this ${this.hook === 'ElicitationResult' ? 'response to an MCP server' : 'MCP server request'}: ${reason}`);
        return this.hso({ action: 'decline' });
      case 'exit2':
        this.exit2 = reason;
        return;
      case 'stop':
        this.out.continue = false;
        this.out.stopReason = reason;
        return;
      case 'none':
        this.system(`Hookwire would block this ${this.hook} event, which Claude Code cannot block: ${reason}`);
    }
  }

  context(texts: readonly string[]): void {
    if (texts.length === 0) return;
    const text = texts.join('\n\n');
    if (this.exit2 !== null) this.exit2 = `${this.exit2}\n\n${text}`;
    else if (this.spec.context === 'additional') this.hso({ additionalContext: text });
    else this.system(text);
  }

  private system(text: string): void {
    const before = ownGet(this.out, 'systemMessage');
    this.out.systemMessage = typeof before === 'string' ? `${before}\n\n${text}` : text;
  }

  done(): Omit<ClaudeReply, 'approval'> {
    if (this.specific) this.out.hookSpecificOutput = this.specific;
    return { exit2: this.exit2, json: Object.keys(this.out).length > 0 ? this.out : null };
  }
}

/**
 * The fail-closed answer when the adapter cannot decide [P12]: exit 2 with the reason (Claude Code's blocking
 * error), except PermissionRequest, answered through its decision object; the JSON form (for HTTP) is the
 * event's block with `continue: false`.
 */
export function claudeFailClosedReply(hook: string | null, reason: string): ClaudeReply {
  const text = `hookwire claude-hook: ${reason} (failing closed)`;
  const spec = hook ? claudeEventSpec(hook) : null;
  const b = new ReplyBuilder(hook ?? 'unknown', spec ?? claudeEventSpec('unknown'));
  if (spec && spec.block !== 'exit2' && spec.block !== 'none' && spec.block !== 'stop') b.block(text, true);
  b.out.continue = false;
  b.out.stopReason = text;
  const { json } = b.done();
  return { exit2: hook === 'PermissionRequest' ? null : text, json, approval: null };
}

/** A reply as a command hook's exit code, stdout and stderr. */
export function toCommandAnswer(reply: ClaudeReply): ClaudeHookAnswer {
  if (reply.exit2 !== null) return { exitCode: 2, stdout: '', stderr: `${reply.exit2}\n` };
  return { exitCode: 0, stdout: reply.json ? `${JSON.stringify(reply.json)}\n` : '', stderr: '' };
}

/**
 * A reply as JSON output alone, for a hook that answers with JSON only (an http hook, the Agent SDK's in-process
 * callbacks): an exit-2 block becomes `continue: false`, the JSON way to stop. Null: nothing to say.
 */
export function claudeJsonAnswer(reply: ClaudeReply): JsonObject | null {
  return reply.json ?? (reply.exit2 !== null ? { continue: false, stopReason: reply.exit2 } : null);
}

/** A reply as an HTTP hook's response: its JSON answer ({@link claudeJsonAnswer}), always status 200. */
export function toHttpAnswer(reply: ClaudeReply): ClaudeHttpAnswer {
  const json = claudeJsonAnswer(reply);
  return { status: 200, body: json ? JSON.stringify(json) : '' };
}

/** `toCommandAnswer(claudeReply(…))`: the command adapter's answer. */
export function claudeHookAnswer(hook: string, event: HookEvent, result: ClaudeOutcome, options: ClaudeAnswerOptions = {}): ClaudeHookAnswer {
  return toCommandAnswer(claudeReply(hook, event, result, options));
}

/** `toCommandAnswer(claudeFailClosedReply(…))`; with no event, claudeUnknownEventFailClosed, the same answer. */
export function claudeHookFailClosed(reason: string, hook: string | null = null): ClaudeHookAnswer {
  return hook === null ? claudeUnknownEventFailClosed(reason) : toCommandAnswer(claudeFailClosedReply(hook, reason));
}
