import type { HookEvent } from '../model/event.ts';
import { isJsonObject, ownGet, ownSet, type JsonObject, type JsonValue } from '../model/json.ts';
import { addPortableFields, toolEntry } from './portable.ts';
import type { AgentAdapter, AgentContract, AgentOutcome, AgentParse, AgentReply, AgentReplyOptions, NativeAnswer } from './types.ts';
import { eventSpecs, TOOL_FIELDS as TOOL } from './eventSpec.ts';
import { foreignAgent, isEventName, refuseInput, verdictOf } from './verdict.ts';
import { COPILOT_TOOLS } from '../model/toolTables.ts';
import { VSCODE_CONTRACT } from './vscode.ts';

/*
 * GitHub Copilot (CLI and cloud agent) [AG3]. Read from github/docs:
 * - content/copilot/reference/copilot-cli-reference/cli-hooks-reference.md (commit 927566b0, 2026-12;
 *   https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference): `.github/hooks/*.json`,
 *   `{version: 1, hooks: {preToolUse: [{type: "command", bash, powershell, cwd, env, timeoutSec}]}}` (timeout
 *   default 30 s); camelCase input without an event name (sessionId, timestamp, cwd, toolName, toolArgs …);
 *   a PascalCase event name in the config gives a VS Code-style snake_case input with `hook_event_name`;
 *   preToolUse output `permissionDecision` "allow" | "deny" | "ask", `permissionDecisionReason` (required for
 *   deny), `modifiedArgs`; agentStop/subagentStop `{decision: "block", reason}`; permissionRequest
 *   `{behavior, message, interrupt}`; userPromptSubmitted, sessionStart/End, errorOccurred, preCompact: output
 *   not processed. "Hook failures (non-zero exit codes or timeouts) are logged and skipped — they never block
 *   agent execution": a deny must be JSON on stdout with exit 0, on every failure path too.
 *   Tools: bash, powershell, view, create, edit, glob, grep, web_fetch, task, ask_user.
 * - content/copilot/reference/hooks-configuration.md (commit 1912b4fc): `toolArgs` is "a JSON string containing
 *   the tool's arguments"; "only \"deny\" is currently processed" — so an ASK is a deny here, and a rewrite
 *   (`modifiedArgs`, processed by the CLI only) is sent only with --allow-rewrites.
 * - VS Code's agent also runs `.github/hooks/*.json` (Copilot's `preToolUse` as `PreToolUse`, `bash` as its
 *   command) with its own input (`hookEventName`, `sessionId`, `tool_name`, `tool_input`), and reads a PreToolUse
 *   decision only from `hookSpecificOutput.permissionDecision` (microsoft/vscode-copilot-chat chatHookService.ts,
 *   commit 4a0b5347; vscode.ts). A top-level deny alone would let VS Code run the tool, so a preToolUse deny and
 *   rewrite are written in both forms: Copilot's top-level fields and VS Code's `hookSpecificOutput`. The Copilot
 *   docs list the fields they read and say nothing of others; Copilot itself was not run here with the extra field.
 */

const ev = eventSpecs({ required: {}, block: 'none', ask: false, context: 'none', terminate: false });

export const COPILOT_CONTRACT: AgentContract = {
  id: 'copilot',
  name: 'GitHub Copilot',
  sources: [
    { url: 'https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference', version: 'github/docs commit 927566b0 (2026-12)' },
    { url: 'https://docs.github.com/en/copilot/reference/hooks-configuration', version: 'github/docs commit 1912b4fc (2026-12)' },
  ],
  // Required fields are checked on the normalised input (tool_name, tool_input parsed from toolArgs).
  events: new Map([
    ev('preToolUse', 'tool.before_call', { required: TOOL, block: 'json', rewrite: { field: 'tool_input', how: 'apply-if-allowed' } }),
    ev('permissionRequest', 'copilot.permission_request', { required: { tool_name: 'string' }, block: 'json', terminate: true }),
    ev('postToolUse', 'tool.after_call', { required: TOOL }),
    ev('postToolUseFailure', 'tool.after_call', { required: TOOL }),
    ev('userPromptSubmitted', 'input.received', { required: { prompt: 'string' } }),
    ev('agentStop', 'final_answer.before', { block: 'json' }),
    ev('subagentStart', 'copilot.subagent_start', { context: 'model' }),
    ev('subagentStop', 'copilot.subagent_stop', { block: 'json' }),
    ev('sessionStart', 'agent.start'),
    ev('sessionEnd', 'agent.end'),
    ev('errorOccurred', 'agent.error'),
    ev('preCompact', 'copilot.pre_compact'),
    ev('notification', 'copilot.notification', { context: 'model' }),
  ]),
  ...COPILOT_TOOLS,
  unseen: [],
  agentId: 'copilot',
  // `timeoutSec`, default 30 ("Command hooks").
  timeoutSeconds: 30,
  onFailure: 'exit codes are ignored: a crash, a timeout or any non-zero exit is logged and skipped, the tool runs',
  failOpen: [{ why: 'GitHub Copilot has no fail-closed option and ignores exit codes (cli-hooks-reference.md at 927566b0)' }],
  confirmed: true,
};

/** The VS Code-compatible PascalCase names and the camelCase event each is. */
const PASCAL = new Map([
  ['PreToolUse', 'preToolUse'], ['PostToolUse', 'postToolUse'], ['PostToolUseFailure', 'postToolUseFailure'], ['UserPromptSubmit', 'userPromptSubmitted'],
  ['Stop', 'agentStop'], ['SubagentStop', 'subagentStop'], ['SessionStart', 'sessionStart'], ['SessionEnd', 'sessionEnd'], ['ErrorOccurred', 'errorOccurred'],
  ['PreCompact', 'preCompact'], ['Notification', 'notification'], ['PermissionRequest', 'permissionRequest'],
]);

/** The event a camelCase input is, from its shape alone (it names none) [AG4]. */
export function copilotEventOf(input: JsonObject): string | null {
  const has = (k: string) => ownGet(input, k) !== undefined;
  if (has('toolName') || has('tool_name')) return has('toolResult') || has('tool_result') ? 'postToolUse' : typeof ownGet(input, 'error') === 'string' ? 'postToolUseFailure' : 'preToolUse';
  if (has('prompt')) return 'userPromptSubmitted';
  if (has('errorContext') || isJsonObject(ownGet(input, 'error'))) return 'errorOccurred';
  if (has('agentName')) return has('stopReason') ? 'subagentStop' : 'subagentStart';
  if (has('stopReason')) return 'agentStop';
  if (has('trigger')) return 'preCompact';
  if (has('notification_type')) return 'notification';
  if (has('source')) return 'sessionStart';
  if (has('reason')) return 'sessionEnd';
  return null;
}

function hookName(input: unknown, hint?: string): string | null {
  if (hint !== undefined) return COPILOT_CONTRACT.events.has(hint) ? hint : PASCAL.get(hint) ?? null;
  if (!isJsonObject(input)) return null;
  const named = ownGet(input, 'hook_event_name');
  if (isEventName(named)) return PASCAL.get(named) ?? (COPILOT_CONTRACT.events.has(named) ? named : null);
  return copilotEventOf(input);
}

/** camelCase and snake_case inputs in one shape; `toolArgs` parsed when it is a JSON string. */
function normalise(input: JsonObject): { payload: JsonObject; meta: JsonObject } | string {
  const payload: JsonObject = {};
  const meta: JsonObject = { agent: 'copilot' };
  const META = new Set(['sessionId', 'session_id', 'timestamp', 'cwd', 'hook_event_name', 'hookEventName', 'transcriptPath', 'transcript_path']);
  for (const k of Object.keys(input)) {
    const v = input[k] as JsonValue;
    if (META.has(k)) ownSet(meta, k, v);
    else if (k === 'toolName') ownSet(payload, 'tool_name', v);
    else if (k === 'toolArgs' || k === 'tool_input') {
      let args = v;
      if (typeof v === 'string') {
        try {
          args = JSON.parse(v) as JsonValue;
        } catch {
          return 'toolArgs is a string that is not JSON';
        }
      }
      ownSet(payload, 'tool_input', args);
    } else if (k === 'toolResult' || k === 'tool_result') ownSet(payload, 'tool_response', v);
    else ownSet(payload, k, v);
  }
  return { payload, meta };
}

const label = 'hookwire hook --agent copilot';

/** A preToolUse decision in Copilot's form and in VS Code's (which runs the same file; see above). */
function preToolAnswer(decision: 'deny' | 'allow', reason: string, args?: JsonObject): JsonObject {
  return {
    permissionDecision: decision,
    permissionDecisionReason: reason,
    ...(args ? { modifiedArgs: args } : {}),
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason, ...(args ? { updatedInput: args } : {}) },
  };
}

function deny(hook: string | null, reason: string, interrupt = false): NativeAnswer {
  const json = hook === 'permissionRequest' ? { behavior: 'deny', message: reason, ...(interrupt ? { interrupt: true } : {}) } : hook === 'agentStop' || hook === 'subagentStop' ? { decision: 'block', reason } : preToolAnswer('deny', reason);
  return { exitCode: 0, stdout: `${JSON.stringify(json)}\n`, stderr: '' };
}

function sessionId(input: unknown): string {
  const s = isJsonObject(input) ? ownGet(input, 'sessionId') ?? ownGet(input, 'session_id') : undefined;
  return typeof s === 'string' && s !== '' ? s : 'copilot';
}

function parse(input: unknown, at: { ts: string; seq: number }, hint?: string): AgentParse {
  const other = foreignAgent(input, 'copilot');
  if (other) return { ok: false, hook: null, reason: `this is ${other}'s hook input, not GitHub Copilot's (run hookwire hook --agent ${other})` };
  if (!isJsonObject(input)) return refuseInput(input, null, {})!;
  const hook = hookName(input, hint);
  if (hook === null) return { ok: false, hook: null, reason: hint ? `${hint} is not a GitHub Copilot hook event` : 'cannot tell which GitHub Copilot hook this input is (its camelCase input names no event; pass --event)' };
  const big = refuseInput(input, hook, {});
  if (big) return big;
  const n = normalise(input);
  if (typeof n === 'string') return { ok: false, hook, reason: `${hook}: ${n}` };
  const spec = COPILOT_CONTRACT.events.get(hook)!;
  const refused = refuseInput(n.payload, hook, spec.required);
  if (refused) return refused;
  const name = ownGet(n.payload, 'tool_name');
  // VS Code running this file sends its own input (`hookEventName`) with its own tool names (`run_in_terminal`, …):
  // those are read with VS Code's table, or `rm -rf /` in its terminal would be an `other` call the rules never see.
  const vscode = typeof ownGet(input, 'hookEventName') === 'string';
  if (vscode) n.meta.agent = 'vscode';
  if (spec.type.startsWith('tool.') && typeof name === 'string') addPortableFields(n.payload, toolEntry(vscode ? VSCODE_CONTRACT : COPILOT_CONTRACT, name), ownGet(n.payload, 'tool_input'));
  const session = sessionId(input);
  return { ok: true, hook, event: { event_id: `copilot:${session}:${at.seq}:${hook}`, trace_id: session, agent_id: 'copilot', type: spec.type, ts: at.ts, payload: n.payload, meta: n.meta } };
}

function reply(hook: string, event: HookEvent, outcome: AgentOutcome, options: AgentReplyOptions = {}): AgentReply {
  const spec = COPILOT_CONTRACT.events.get(hook);
  if (!spec) return { answer: deny(null, `${label}: ${hook} is not a GitHub Copilot hook event (failing closed)`), approval: null };
  const v = verdictOf(COPILOT_CONTRACT, spec, event, outcome, options);
  let json: JsonObject | null = null;
  if (v.act === 'block' && spec.block === 'json') json = JSON.parse(deny(hook, v.reason, v.stop).stdout) as JsonObject;
  else if (v.act === 'rewrite') json = preToolAnswer('allow', 'tool input rewritten by the Hookwire pipeline', v.input!);
  if (v.context && spec.context === 'model') json = { ...(json ?? {}), additionalContext: v.context };
  return { answer: { exitCode: 0, stdout: json ? `${JSON.stringify(json)}\n` : '', stderr: '' }, approval: v.approval };
}

export const COPILOT_ADAPTER: AgentAdapter = {
  contract: COPILOT_CONTRACT,
  sessionId,
  hookName,
  parse,
  reply,
  failClosed: (hook, reason) => deny(hook, `${label}: ${reason} (failing closed)`),
};
