import type { PortableTool } from '../model/portableTool.ts';
import type { HookEvent } from '../model/event.ts';
import { isJsonObject, ownGet, ownSet, type JsonObject, type JsonValue } from '../model/json.ts';
import { addPortableFields, toolEntry } from './portable.ts';
import type { AgentAdapter, AgentContract, AgentOutcome, AgentParse, AgentReply, AgentReplyOptions, NativeAnswer } from './types.ts';
import { eventSpecs } from './eventSpec.ts';
import { foreignAgent, isEventName, refuseInput, verdictOf } from './verdict.ts';
import { CURSOR_TOOLS } from '../model/toolTables.ts';

/*
 * Cursor [AG3]. Its hooks page (https://cursor.com/docs/agent/hooks, Cursor 2.x, read 2026-12 through the
 * references that reproduce it: Cupcake's Cursor harness reference https://cupcake.eqtylab.io/reference/harnesses/cursor,
 * agent-hooks-bridge's Cursor adapter https://pivanov.github.io/agent-hooks-bridge/adapters/cursor.html,
 * prisma-airs-cursor-hooks' API page): `.cursor/hooks.json` `{version: 1, hooks: {<event>: [{command, timeout,
 * failClosed, matcher}]}}`; common input hook_event_name, conversation_id, generation_id, workspace_roots
 * (model, cursor_version, user_email, transcript_path optional); per-kind events beforeShellExecution {command,
 * cwd}, beforeMCPExecution {tool_name, tool_input (object or JSON string), url | command of the server},
 * beforeReadFile {file_path, content} (answer: permission only), beforeSubmitPrompt {prompt} (answer:
 * `{continue, user_message}`, no context), stop (answer: `followup_message`), the generic preToolUse/postToolUse;
 * answer `{permission: "allow" | "deny" | "ask", user_message, agent_message}`; exit 2 denies; `failClosed: true`
 * blocks when the hook crashes or times out. Rewrites (`updated_input`) are not confirmed: a rewrite blocks.
 * An ASK is denied here (fail closed [P14]), though the docs list `permission: "ask"`: Cursor does not honour it in
 * every run mode, and its input does not say which mode is on. Cursor forum topic 173694 (Cursor 3.21.16,
 * 2026-10-04: "beforeShellExecution hook returning ask is ignored in Auto-review mode (honoured in Allowlist and
 * Run Everything)": the command ran with no prompt, while deny was enforced in all three modes, as retold at
 * https://dev.to/labyrinthlab/your-cursor-hook-says-ask-in-auto-review-the-command-may-just-run-36b9), and
 * agent-hooks-bridge's capability matrix (https://pivanov.github.io/agent-hooks-bridge/capability-matrix.html:
 * "ask … downgraded to deny on Cursor 2.4.21+"). An ask that may run the call unasked fails open; a deny does not.
 */

const ev = eventSpecs({ required: {}, block: 'none', ask: false, context: 'none', terminate: false });
// `ask: false`: an ASK is a deny (see above).
const PERMISSION = { block: 'json', ask: false, rewrite: { field: 'tool_input', how: 'block' } } as const;

export const CURSOR_CONTRACT: AgentContract = {
  id: 'cursor',
  name: 'Cursor',
  sources: [{ url: 'https://cursor.com/docs/agent/hooks', version: 'Cursor 2.x hooks (version 1 config), read 2026-12 via the references named in cursor.ts' }],
  events: new Map([
    ev('beforeShellExecution', 'tool.before_call', { required: { command: 'string' }, tool: 'shell', ...PERMISSION }),
    ev('beforeMCPExecution', 'tool.before_call', { required: { tool_name: 'string' }, tool: 'mcp', ...PERMISSION }),
    ev('beforeReadFile', 'tool.before_call', { required: { file_path: 'string' }, tool: 'read', block: 'json', rewrite: { field: 'tool_input', how: 'block' } }),
    ev('preToolUse', 'tool.before_call', { required: { tool_name: 'string' }, ...PERMISSION }),
    ev('beforeSubmitPrompt', 'input.received', { required: { prompt: 'string' }, block: 'json', rewrite: { field: 'prompt', how: 'block' } }),
    ev('stop', 'final_answer.before', { block: 'json' }),
    ev('afterShellExecution', 'tool.after_call', { tool: 'shell' }),
    ev('afterMCPExecution', 'tool.after_call', { tool: 'mcp' }),
    ev('afterFileEdit', 'tool.after_call', { tool: 'edit' }),
    ev('postToolUse', 'tool.after_call', { context: 'model' }),
    ev('afterAgentResponse', 'final_answer.after'),
    ev('sessionStart', 'agent.start', { context: 'model' }),
    ev('sessionEnd', 'agent.end'),
  ]),
  ...CURSOR_TOOLS,
  unseen: [],
  agentId: 'cursor',
  // Not confirmed: 30 s assumed (the answer comes early rather than late); install sets `timeout`.
  timeoutSeconds: 30,
  onFailure: 'a crash or timeout lets the action through unless the hook sets failClosed: true; exit 2 denies',
  // install writes failClosed: true on every entry: a crash or a timeout denies.
  failOpen: [],
  confirmed: true,
};

/** The tool name and arguments a per-kind event is about (the generic events carry their own). */
function toolOf(hook: string, input: JsonObject): { name: string; args: JsonValue; tool?: PortableTool } | string | null {
  if (hook === 'beforeShellExecution' || hook === 'afterShellExecution') return { name: 'Shell', args: { command: ownGet(input, 'command') ?? null, cwd: ownGet(input, 'cwd') ?? null } };
  if (hook === 'beforeReadFile') return { name: 'Read', args: { file_path: ownGet(input, 'file_path') ?? null } };
  if (hook === 'afterFileEdit') return { name: 'Edit', args: { file_path: ownGet(input, 'file_path') ?? null, edits: ownGet(input, 'edits') ?? [] } };
  const name = ownGet(input, 'tool_name');
  if (typeof name !== 'string') return null;
  let args: JsonValue = ownGet(input, 'tool_input') ?? {};
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args) as JsonValue;
    } catch {
      return 'tool_input is a string that is not JSON';
    }
  }
  return { name, args, ...(hook === 'beforeMCPExecution' || hook === 'afterMCPExecution' ? { tool: 'mcp' as const } : {}) };
}

const COMMON = new Set(['hook_event_name', 'conversation_id', 'generation_id', 'workspace_roots', 'model', 'cursor_version', 'user_email', 'transcript_path']);
const label = 'hookwire hook --agent cursor';

function sessionId(input: unknown): string {
  const s = isJsonObject(input) ? ownGet(input, 'conversation_id') : undefined;
  return typeof s === 'string' && s !== '' ? s : 'cursor';
}

function hookName(input: unknown): string | null {
  const h = isJsonObject(input) ? ownGet(input, 'hook_event_name') : undefined;
  return isEventName(h) ? h : null;
}

function parse(input: unknown, at: { ts: string; seq: number }): AgentParse {
  const other = foreignAgent(input, 'cursor');
  if (other) return { ok: false, hook: null, reason: `this is ${other}'s hook input, not Cursor's (run hookwire hook --agent ${other})` };
  if (!isJsonObject(input)) return refuseInput(input, null, {})!;
  const hook = hookName(input);
  if (hook === null) return { ok: false, hook: null, reason: 'hook_event_name is missing or not an event name' };
  const spec = CURSOR_CONTRACT.events.get(hook);
  if (!spec) return { ok: false, hook, reason: `${hook} is not a Cursor hook event (known: ${[...CURSOR_CONTRACT.events.keys()].join(', ')})` };
  const refused = refuseInput(input, hook, spec.required);
  if (refused) return refused;
  const meta: JsonObject = { agent: 'cursor' };
  const payload: JsonObject = {};
  for (const k of Object.keys(input)) ownSet(COMMON.has(k) ? meta : payload, k, input[k] as JsonValue);
  if (spec.type.startsWith('tool.')) {
    const t = toolOf(hook, input);
    if (typeof t === 'string') return { ok: false, hook, reason: `${hook}: ${t}` };
    if (t) {
      ownSet(payload, 'tool_name', t.name);
      ownSet(payload, 'tool_input', t.args);
      addPortableFields(payload, t.tool ? { ...toolEntry(CURSOR_CONTRACT, t.name), tool: t.tool } : toolEntry(CURSOR_CONTRACT, t.name), t.args);
    }
  }
  const session = sessionId(input);
  return { ok: true, hook, event: { event_id: `cursor:${session}:${at.seq}:${hook}`, trace_id: session, agent_id: 'cursor', type: spec.type, ts: at.ts, payload, meta } };
}

/** The answer object of an event: permission events, the prompt, stop; others take `{}`. */
function answerFor(hook: string | null, act: 'allow' | 'deny' | 'ask', reason: string): JsonObject {
  if (hook === 'beforeSubmitPrompt') return act === 'allow' ? { continue: true } : { continue: false, user_message: reason };
  if (hook === 'stop') return act === 'allow' ? {} : { followup_message: reason };
  if (hook === 'beforeReadFile') return { permission: act === 'allow' ? 'allow' : 'deny' };
  if (hook === null || (CURSOR_CONTRACT.events.get(hook)?.block ?? 'none') === 'json') return act === 'allow' ? { permission: 'allow' } : { permission: act, user_message: reason, agent_message: reason };
  return {};
}

function reply(hook: string, event: HookEvent, outcome: AgentOutcome, options: AgentReplyOptions = {}): AgentReply {
  const spec = CURSOR_CONTRACT.events.get(hook);
  if (!spec) return { answer: failClosed(hook, `${hook} is not a Cursor hook event`), approval: null };
  const v = verdictOf(CURSOR_CONTRACT, spec, event, outcome, options);
  const act = v.act === 'block' && spec.block === 'json' ? 'deny' : v.act === 'ask' ? 'ask' : 'allow';
  const json: JsonObject = answerFor(hook, act, v.reason);
  if (v.context && spec.context === 'model') json.additional_context = v.context;
  // A deny also exits 2, which Cursor reads as a deny whatever it makes of the JSON.
  return { answer: { exitCode: act === 'deny' ? 2 : 0, stdout: `${JSON.stringify(json)}\n`, stderr: act === 'deny' ? `${v.reason}\n` : '' }, approval: v.approval };
}

function failClosed(hook: string | null, reason: string): NativeAnswer {
  const text = `${label}: ${reason} (failing closed)`;
  const known = hook !== null && CURSOR_CONTRACT.events.has(hook) ? hook : null;
  return { exitCode: 2, stdout: `${JSON.stringify(answerFor(known, 'deny', text))}\n`, stderr: `${text}\n` };
}

export const CURSOR_ADAPTER: AgentAdapter = { contract: CURSOR_CONTRACT, sessionId, hookName, parse, reply, failClosed };
