import type { PortableTool } from '../model/portableTool.ts';
import type { HookEvent } from '../model/event.ts';
import { isJsonObject, ownGet, ownSet, type JsonObject, type JsonValue } from '../model/json.ts';
import { WINDSURF_TOOLS } from '../model/toolTables.ts';
import { addPortableFields, toolEntry } from './portable.ts';
import type { AgentAdapter, AgentContract, AgentOutcome, AgentParse, AgentReply, AgentReplyOptions, NativeAnswer } from './types.ts';
import { eventSpecs } from './eventSpec.ts';
import { foreignAgent, isEventName, refuseInput, verdictOf } from './verdict.ts';

/*
 * Windsurf Cascade [AG3]. Read from https://docs.windsurf.com/windsurf/cascade/hooks (read 2026-12; its
 * input types as reproduced in CorridorSecurity/hookshot docs/reference-cascade.md): `hooks.json` at system
 * (/etc/windsurf/hooks.json), user (~/.codeium/windsurf/hooks.json) and workspace (.windsurf/hooks.json) level,
 * `{hooks: {<event>: [{command, show_output}]}}`; input `{agent_action_name, trajectory_id, execution_id,
 * timestamp, tool_info}`; pre-hooks block by exiting with code 2 (stderr shown with show_output) — there is no
 * JSON answer, no ask, no rewrite and no context, so each of those is a block or is dropped.
 * tool_info: pre_read_code {file_path}; pre_write_code {file_path, edits}; pre_run_command {command_line, cwd};
 * pre_mcp_tool_use {mcp_server_name, mcp_tool_name, mcp_tool_arguments}; pre_user_prompt {user_prompt}.
 * Cascade has no hook for a web fetch or a search: those calls are never shown to Hookwire.
 * Re-read 2026-12-08 (the page in excerpts, as before; syllago.dev's Windsurf hooks page for the twelfth event):
 * - post_cascade_response_with_transcript, observe-only, hands over the path of a JSONL transcript Cascade writes
 *   (under ~/.windsurf/transcripts/) instead of the response inline: mapped to a type of its own, so a pipeline's
 *   final_answer.after handlers do not run twice when both response hooks are configured; tool_info stays in the payload.
 * - pre_read_code's file_path may be a directory, which Cascade then reads recursively: a rule on the file name sees
 *   the directory, not the files in it (the loss report says so on every handler pre_read_code reaches).
 */

const ev = eventSpecs({ required: { tool_info: 'object' }, block: 'none', ask: false, context: 'none', terminate: false });
const PRE = { block: 'exit2', rewrite: { field: 'tool_input', how: 'block' } } as const;

export const WINDSURF_CONTRACT: AgentContract = {
  id: 'windsurf',
  name: 'Windsurf',
  sources: [{ url: 'https://docs.windsurf.com/windsurf/cascade/hooks', version: 'Cascade Hooks, read 2026-12' }],
  events: new Map([
    ev('pre_read_code', 'tool.before_call', { tool: 'read', ...PRE, caveat: 'pre_read_code may name a directory, which Cascade then reads recursively: a rule on payload.file_path sees the directory, not the files in it' }),
    ev('pre_write_code', 'tool.before_call', { tool: 'edit', ...PRE }),
    ev('pre_run_command', 'tool.before_call', { tool: 'shell', ...PRE }),
    ev('pre_mcp_tool_use', 'tool.before_call', { tool: 'mcp', ...PRE }),
    ev('pre_user_prompt', 'input.received', { block: 'exit2', rewrite: { field: 'prompt', how: 'block' } }),
    ev('post_read_code', 'tool.after_call', { tool: 'read' }),
    ev('post_write_code', 'tool.after_call', { tool: 'edit' }),
    ev('post_run_command', 'tool.after_call', { tool: 'shell' }),
    ev('post_mcp_tool_use', 'tool.after_call', { tool: 'mcp' }),
    ev('post_cascade_response', 'final_answer.after', { required: {} }),
    ev('post_cascade_response_with_transcript', 'windsurf.post_cascade_response_with_transcript', { required: {} }),
    ev('post_setup_worktree', 'windsurf.post_setup_worktree', { required: {} }),
  ]),
  ...WINDSURF_TOOLS,
  unseen: ['fetch', 'search', 'task'],
  agentId: 'windsurf',
  // Not documented: 30 s assumed (the answer comes early rather than late).
  timeoutSeconds: 30,
  onFailure: 'only exit 2 blocks a pre-hook; any other exit (a crash) lets the action run',
  failOpen: [{ why: 'Windsurf has no fail-closed option: only exit 2 blocks' }],
  confirmed: true,
};

/** What tool_info must hold per event, and the tool name and arguments it becomes. */
const INFO: ReadonlyMap<string, { need: string; name: (i: JsonObject) => string; args: (i: JsonObject) => JsonValue }> = new Map([
  ['read_code', { need: 'file_path', name: () => 'read_code', args: (i: JsonObject) => ({ file_path: ownGet(i, 'file_path') ?? null }) }],
  ['write_code', { need: 'file_path', name: () => 'write_code', args: (i: JsonObject) => ({ file_path: ownGet(i, 'file_path') ?? null, edits: ownGet(i, 'edits') ?? [] }) }],
  ['run_command', { need: 'command_line', name: () => 'run_command', args: (i: JsonObject) => ({ command: ownGet(i, 'command_line') ?? null, cwd: ownGet(i, 'cwd') ?? null }) }],
  ['mcp_tool_use', { need: 'mcp_tool_name', name: (i: JsonObject) => String(ownGet(i, 'mcp_tool_name')), args: (i: JsonObject) => ownGet(i, 'mcp_tool_arguments') ?? {} }],
]);

const label = 'hookwire hook --agent windsurf';

function sessionId(input: unknown): string {
  const s = isJsonObject(input) ? ownGet(input, 'trajectory_id') : undefined;
  return typeof s === 'string' && s !== '' ? s : 'windsurf';
}

function hookName(input: unknown): string | null {
  const h = isJsonObject(input) ? ownGet(input, 'agent_action_name') : undefined;
  return isEventName(h) ? h : null;
}

function parse(input: unknown, at: { ts: string; seq: number }): AgentParse {
  const other = foreignAgent(input, 'windsurf');
  if (other) return { ok: false, hook: null, reason: `this is ${other}'s hook input, not Windsurf's (run hookwire hook --agent ${other})` };
  if (!isJsonObject(input)) return refuseInput(input, null, {})!;
  const hook = hookName(input);
  if (hook === null) return { ok: false, hook: null, reason: 'agent_action_name is missing or not an event name' };
  const spec = WINDSURF_CONTRACT.events.get(hook);
  if (!spec) return { ok: false, hook, reason: `${hook} is not a Windsurf hook event (known: ${[...WINDSURF_CONTRACT.events.keys()].join(', ')})` };
  const refused = refuseInput(input, hook, spec.required);
  if (refused) return refused;
  const info = ownGet(input, 'tool_info');
  const payload: JsonObject = {};
  const meta: JsonObject = { agent: 'windsurf' };
  for (const k of Object.keys(input)) ownSet(k === 'tool_info' ? payload : meta, k === 'tool_info' ? 'tool_info' : k, input[k] as JsonValue);
  if (isJsonObject(info)) {
    const kind = INFO.get(hook.replace(/^(pre|post)_/, ''));
    if (kind) {
      if (typeof ownGet(info, kind.need) !== 'string') return { ok: false, hook, reason: `${hook}: tool_info.${kind.need} is missing or not a string` };
      const args = kind.args(info);
      ownSet(payload, 'tool_name', kind.name(info));
      ownSet(payload, 'tool_input', args);
      if (hook.endsWith('mcp_tool_use')) ownSet(payload, 'mcp_server_name', ownGet(info, 'mcp_server_name') ?? null);
      addPortableFields(payload, { ...toolEntry(WINDSURF_CONTRACT, ''), tool: spec.tool as PortableTool, command: ['command'], file: ['file_path'] }, args);
    }
    if (hook === 'pre_user_prompt') {
      if (typeof ownGet(info, 'user_prompt') !== 'string') return { ok: false, hook, reason: `${hook}: tool_info.user_prompt is missing or not a string` };
      ownSet(payload, 'prompt', ownGet(info, 'user_prompt')!);
    }
  }
  const session = sessionId(input);
  return { ok: true, hook, event: { event_id: `windsurf:${session}:${at.seq}:${hook}`, trace_id: session, agent_id: 'windsurf', type: spec.type, ts: at.ts, payload, meta } };
}

function reply(hook: string, event: HookEvent, outcome: AgentOutcome, options: AgentReplyOptions = {}): AgentReply {
  const spec = WINDSURF_CONTRACT.events.get(hook);
  if (!spec) return { answer: failClosed(hook, `${hook} is not a Windsurf hook event`), approval: null };
  const v = verdictOf(WINDSURF_CONTRACT, spec, event, outcome, options);
  if (v.act === 'block' && spec.block === 'exit2') return { answer: { exitCode: 2, stdout: '', stderr: `${v.reason}\n` }, approval: v.approval };
  return { answer: { exitCode: 0, stdout: '', stderr: '' }, approval: v.approval };
}

function failClosed(_hook: string | null, reason: string): NativeAnswer {
  return { exitCode: 2, stdout: '', stderr: `${label}: ${reason} (failing closed)\n` };
}

export const WINDSURF_ADAPTER: AgentAdapter = { contract: WINDSURF_CONTRACT, sessionId, hookName, parse, reply, failClosed };
