import { claudeLikeAdapter, mergeOnlyRefusal } from './claudeLike.ts';
import type { AgentAdapter, AgentContract } from './types.ts';
import { eventSpecs, TOOL_FIELDS as TOOL } from './eventSpec.ts';
import { GEMINI_TOOLS } from '../model/toolTables.ts';

/*
 * Gemini CLI [AG3]. Read from google-gemini/gemini-cli docs/hooks/reference.md (commit 06c0d810, 2026-12;
 * https://geminicli.com/docs/hooks/reference):
 * - stdout must hold nothing but the final JSON ("Silence is Mandatory"); exit 2 blocks with stderr as the
 *   reason; any other exit code is a warning and the action goes on.
 * - Common output: `decision` "allow" | "deny" (alias "block"), `reason`, `continue: false` stops the agent
 *   loop, `systemMessage` is shown to the person.
 * - BeforeTool: `decision: "deny"` + reason blocks the tool; `hookSpecificOutput.tool_input` merges into and
 *   overrides the model's arguments (so a removed key cannot be said); no ask, no model context.
 * - AfterTool: deny hides the result, `hookSpecificOutput.additionalContext` is appended to it.
 * - BeforeAgent (a prompt): deny discards it, `additionalContext` is added. AfterAgent: deny makes the agent retry
 *   with the reason (Claude Code's Stop). BeforeModel/AfterModel: deny blocks the model call or its response.
 * - SessionStart: context only; SessionEnd, Notification, PreCompress: advisory (nothing can be blocked).
 * Tools ("Matchers and tool names", Tools reference https://geminicli.com/docs/tools): run_shell_command
 * {command}, read_file {file_path}, read_many_files, write_file {file_path}, replace {file_path}, web_fetch
 * {prompt: URLs written in the text}, google_web_search, glob, grep_search (legacy alias search_file_content), list_directory; MCP tools
 * are `mcp_<server>_<tool>` (one underscore; model/toolTables.ts says where this was read).
 * Read in its source too (google-gemini/gemini-cli 0.56.0 nightly, commit 5411f113, 2026-08):
 * - Groups: `sequential: true` is documented per group, but hooks/hookPlanner.ts runs ALL of an event's matching
 *   hooks in order when ANY group says so (settings' hooks first, then extensions'); each then sees the earlier
 *   ones' `tool_input` merged in (hookRunner.ts). Otherwise they run in parallel on the model's arguments. Either
 *   way the answers are folded (hookAggregator.ts): any deny wins, `hookSpecificOutput` is merged last-wins. So
 *   install writes our own group of one hook without `sequential` (it would change how the user's other hooks
 *   run), and a deny from us stands whatever the other hooks say.
 * - BeforeTool `decision: "ask"` forces a confirmation in the scheduler (scheduler/hook-utils.ts, PR #21146,
 *   2026-03) but is not in the reference, and before that change an ask was not acted on: an ASK is still denied here.
 * - The scheduler builds the tool from the hook's `tool_input` alone (hook-utils.ts `tool.build(modifiedInput)`)
 *   where the reference says it merges: the rewrite carries the whole argument object, so both readings run the
 *   same call, and a rewrite that removes a key is refused (mergeOnlyRefusal).
 */


const ev = eventSpecs({ required: {}, block: 'json', ask: false, context: 'none', terminate: true });

export const GEMINI_CONTRACT: AgentContract = {
  id: 'gemini',
  name: 'Gemini CLI',
  sources: [{ url: 'https://geminicli.com/docs/hooks/reference', version: 'google-gemini/gemini-cli docs/hooks/reference.md, commit 06c0d810 (2026-12)' }],
  events: new Map([
    ev('SessionStart', 'agent.start', { block: 'none', context: 'model', terminate: false }),
    ev('SessionEnd', 'agent.end', { block: 'none', context: 'user', terminate: false }),
    ev('BeforeAgent', 'input.received', { required: { prompt: 'string' }, context: 'model', rewrite: { field: 'prompt', how: 'block' } }),
    ev('AfterAgent', 'final_answer.before', { context: 'user' }),
    ev('BeforeModel', 'model.before_call', { required: { llm_request: 'object' }, context: 'user', rewrite: { field: 'llm_request', how: 'block' } }),
    ev('AfterModel', 'model.after_call', { required: { llm_response: 'object' }, context: 'user', rewrite: { field: 'llm_response', how: 'block' } }),
    ev('BeforeToolSelection', 'gemini.before_tool_selection', { block: 'none', terminate: false }),
    ev('BeforeTool', 'tool.before_call', { required: TOOL, context: 'user', rewrite: { field: 'tool_input', how: 'apply' } }),
    ev('AfterTool', 'tool.after_call', { required: TOOL, context: 'model' }),
    ev('Notification', 'gemini.notification', { block: 'none', context: 'user', terminate: false }),
    ev('PreCompress', 'gemini.pre_compress', { block: 'none', context: 'user', terminate: false }),
  ]),
  ...GEMINI_TOOLS,
  unseen: [],
  agentId: 'gemini',
  // `timeout` in milliseconds, default 60000 ("Hook configuration").
  timeoutSeconds: 60,
  onFailure: 'an exit code other than 0 and 2 (a crash) is a warning and the action goes on; exit 2 blocks with stderr as the reason',
  failOpen: [{ why: 'Gemini CLI has no fail-closed option (docs/hooks/reference.md at 06c0d810)' }],
  confirmed: true,
};

export const GEMINI_ADAPTER: AgentAdapter = claudeLikeAdapter({
  contract: GEMINI_CONTRACT,
  common: ['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'timestamp'],
  shapes: new Map([['BeforeTool', 'decision']]),
  denyWord: 'deny',
  rewriteOut: 'tool_input',
  systemMessage: true,
  rewriteRefusal: mergeOnlyRefusal,
});
