import type { Decision } from '../model/decision.ts';
import type { HookEvent } from '../model/event.ts';
import { isJsonObject, jsonEqual, ownGet, ownSet, type JsonObject, type JsonValue } from '../model/json.ts';

/*
 * The Claude Code adapter, pure half [P12]: Claude Code runs a command per hook event with JSON on stdin and
 * reads a decision back from the exit code and stdout. Shapes used here, from Claude Code's hooks reference
 * (https://code.claude.com/docs/en/hooks, "Hook input" / "JSON output" / "PreToolUse decision control"):
 * - input: common fields session_id, transcript_path, cwd, permission_mode, hook_event_name; PreToolUse adds
 *   tool_name, tool_input, tool_use_id; PostToolUse adds tool_response; UserPromptSubmit adds prompt; Stop adds
 *   stop_hook_active (and last_assistant_message in recent versions); SessionStart adds source; SessionEnd reason.
 * - output (read only on exit 0): PreToolUse `hookSpecificOutput {hookEventName, permissionDecision:
 *   "allow"|"deny"|"ask", permissionDecisionReason, updatedInput}`; PostToolUse / Stop / SubagentStop /
 *   UserPromptSubmit `{decision: "block", reason}`; every event `{continue: false, stopReason}` stops Claude;
 *   PostToolUse `hookSpecificOutput.updatedToolOutput` replaces a tool's output (changelog v2.1.121).
 * - exit code 2 is a blocking error: stderr is fed back (PreToolUse: the call is blocked; UserPromptSubmit: the
 *   prompt is blocked; Stop: Claude keeps going); other non-zero codes are non-blocking (the action proceeds).
 * - updatedInput takes effect only with permissionDecision "allow" (anthropics/claude-code#11282, #32060);
 *   "allow" does not bypass the user's deny or ask permission rules (code.claude.com/docs/en/permissions,
 *   "Extend permissions with hooks"; anthropics/claude-code#82451).
 */

/** Claude Code hook events and the lifecycle event each becomes [P12]; others become `claude.<snake_case>`. */
export const CLAUDE_HOOK_EVENTS: Readonly<Record<string, string>> = {
  SessionStart: 'agent.start',
  UserPromptSubmit: 'input.received',
  PreToolUse: 'tool.before_call',
  PostToolUse: 'tool.after_call',
  PostToolUseFailure: 'tool.after_call',
  Stop: 'final_answer.before',
  SessionEnd: 'agent.end',
};

const COMMON = ['session_id', 'transcript_path', 'cwd', 'permission_mode', 'hook_event_name'] as const;

/** Events whose block is `{decision: "block", reason}` in Claude Code's JSON output. */
const DECISION_BLOCK = new Set(['PostToolUse', 'Stop', 'SubagentStop', 'UserPromptSubmit']);

export type ClaudeHookParse = { ok: true; hook: string; event: HookEvent } | { ok: false; reason: string };

/** What the adapter prints and exits with. */
export interface ClaudeHookAnswer {
  exitCode: 0 | 2;
  stdout: string;
  stderr: string;
}

/**
 * Maps one hook input (parsed stdin) to a Hookwire event [P12]. Missing or mistyped fields the mapping needs
 * are refused with a reason, so the adapter fails closed instead of dispatching a half-read event.
 *
 * @example claudeHookEvent({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: {command: 'ls'} }, { ts, seq: 1 })
 */
export function claudeHookEvent(input: unknown, at: { ts: string; seq: number }): ClaudeHookParse {
  if (!isJsonObject(input)) return { ok: false, reason: `expected a JSON object on stdin, got ${Array.isArray(input) ? 'a list' : input === null ? 'null' : typeof input}` };
  const hook = ownGet(input, 'hook_event_name');
  if (typeof hook !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(hook)) return { ok: false, reason: 'hook_event_name is missing or not an event name' };
  const session = claudeSessionId(input);
  const meta: JsonObject = {};
  for (const k of COMMON) {
    const v = ownGet(input, k);
    if (v !== undefined) ownSet(meta, k, v);
  }
  const built = payloadOf(hook, input, session);
  if (typeof built === 'string') return { ok: false, reason: `${hook}: ${built}` };
  const type = CLAUDE_HOOK_EVENTS[hook] ?? `claude.${hook.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()}`;
  const toolUse = ownGet(input, 'tool_use_id');
  const event_id =
    typeof toolUse === 'string' && toolUse !== '' && type.startsWith('tool.')
      ? `cc:${toolUse}:${type === 'tool.before_call' ? 'before' : 'after'}`
      : `cc:${session}:${at.seq}:${hook}`;
  return { ok: true, hook, event: { event_id, trace_id: session, agent_id: 'claude-code', type, ts: at.ts, payload: built, meta } };
}

/** The trace id of a hook input: its `session_id`, or `"claude-code"` when it has none. */
export function claudeSessionId(input: unknown): string {
  const s = isJsonObject(input) ? ownGet(input, 'session_id') : undefined;
  return typeof s === 'string' && s !== '' ? s : 'claude-code';
}

function payloadOf(hook: string, input: JsonObject, session: string): JsonObject | string {
  const get = (k: string) => ownGet(input, k);
  const toolUse = get('tool_use_id');
  const id: JsonObject = typeof toolUse === 'string' ? { tool_use_id: toolUse } : {};
  switch (hook) {
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const name = get('tool_name');
      const toolInput = get('tool_input');
      if (typeof name !== 'string' || name === '') return 'tool_name is missing or not a string';
      if (!isJsonObject(toolInput)) return 'tool_input is missing or not an object';
      if (hook === 'PreToolUse') return { tool_name: name, tool_input: toolInput, ...id };
      if (hook === 'PostToolUse') return { tool_name: name, tool_input: toolInput, tool_response: get('tool_response') ?? null, is_error: false, ...id };
      return { tool_name: name, tool_input: toolInput, tool_response: get('error') ?? get('tool_response') ?? null, is_error: true, ...id };
    }
    case 'UserPromptSubmit': {
      const prompt = get('prompt');
      return typeof prompt === 'string' ? { prompt } : 'prompt is missing or not a string';
    }
    case 'Stop': {
      const text = get('last_assistant_message');
      return { text: typeof text === 'string' ? text : '', stop_hook_active: get('stop_hook_active') === true };
    }
    case 'SessionStart':
      return { ...rest(input), session_id: session };
    case 'SessionEnd': {
      const reason = get('reason');
      return { ...rest(input), status: typeof reason === 'string' ? reason : 'ended', session_id: session };
    }
    default:
      return rest(input);
  }
}

/** The input without the common fields (which go to `meta`). */
function rest(input: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(input)) if (!(COMMON as readonly string[]).includes(k)) ownSet(out, k, input[k] as JsonValue);
  if (ownGet(input, 'cwd') !== undefined) ownSet(out, 'cwd', input.cwd as JsonValue);
  return out;
}

/**
 * Claude Code's answer for a decision [P12]: terminate → `continue: false` with a stop reason; block → a deny
 * permission decision (PreToolUse), `decision: "block"` (PostToolUse, Stop, SubagentStop, UserPromptSubmit),
 * `continue: false` (SessionStart, whose action is the session itself) or exit 2 with the reason (any other
 * event); a rewrite of a tool's input → `updatedInput`, of its result → `updatedToolOutput`; else exit 0, silent.
 */
export function claudeHookAnswer(hook: string, event: HookEvent, result: { decision: Decision; reason: string; payload: JsonObject; blocked: boolean }): ClaudeHookAnswer {
  const reason = result.reason || `blocked by Hookwire (${result.decision})`;
  const json = (o: JsonObject): ClaudeHookAnswer => ({ exitCode: 0, stdout: `${JSON.stringify(o)}\n`, stderr: '' });
  const deny = { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason };
  if (result.decision === 'terminate' && result.blocked) {
    return json({ continue: false, stopReason: reason, ...(hook === 'PreToolUse' ? { hookSpecificOutput: deny } : {}) });
  }
  if (result.blocked) {
    if (hook === 'PreToolUse') return json({ hookSpecificOutput: deny });
    if (DECISION_BLOCK.has(hook)) return json({ decision: 'block', reason });
    if (hook === 'SessionStart') return json({ continue: false, stopReason: reason });
    return { exitCode: 2, stdout: '', stderr: `${reason}\n` };
  }
  const before = event.payload;
  const after = result.payload;
  if (hook === 'PreToolUse' && !jsonEqual(ownGet(before, 'tool_input'), ownGet(after, 'tool_input')) && isJsonObject(ownGet(after, 'tool_input'))) {
    return json({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'tool input rewritten by the Hookwire pipeline', updatedInput: ownGet(after, 'tool_input')! },
    });
  }
  if (hook === 'PostToolUse' && !jsonEqual(ownGet(before, 'tool_response'), ownGet(after, 'tool_response'))) {
    return json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: ownGet(after, 'tool_response') ?? null } });
  }
  return { exitCode: 0, stdout: '', stderr: '' };
}

/** The fail-closed answer [P12]: exit code 2, which Claude Code treats as blocking, with the reason on stderr. */
export function claudeHookFailClosed(reason: string): ClaudeHookAnswer {
  return { exitCode: 2, stdout: '', stderr: `hookwire claude-hook: ${reason} (failing closed: exit 2 blocks the action)\n` };
}
