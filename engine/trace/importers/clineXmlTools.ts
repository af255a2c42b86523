import type { JsonObject } from '../../model/json.ts';

/**
 * Tool calls written as XML tags in the assistant's text, as Cline and Roo Code asked models to before
 * native tool calling (cline/cline src/core/prompts/system.ts and src/core/assistant-message/parse-assistant-message.ts,
 * 3.4, 2025-02; RooCodeInc/Roo-Code src/shared/tools.ts, 3.x): `<execute_command><command>ls</command></execute_command>`.
 * Only these names are read as tools, so other tags in prose stay text.
 */
export const CLINE_XML_TOOLS: ReadonlySet<string> = new Set([
  'execute_command', 'read_file', 'write_to_file', 'replace_in_file', 'apply_diff', 'insert_content', 'search_and_replace',
  'search_files', 'list_files', 'list_code_definition_names', 'codebase_search', 'browser_action', 'use_mcp_tool',
  'access_mcp_resource', 'ask_followup_question', 'attempt_completion', 'plan_mode_respond', 'plan_mode_response',
  'new_task', 'switch_mode', 'fetch_instructions', 'load_mcp_documentation', 'web_fetch', 'condense', 'new_rule', 'report_bug',
  // Cline's later tools with an XML form (their GENERIC / GPT_5 variants, cline/cline src/core/prompts/system-prompt/tools/
  // web_search.ts, apply_patch.ts, focus_chain.ts, use_skill.ts, generate_explanation.ts) and Roo Code's update_todo_list.
  'web_search', 'apply_patch', 'focus_chain', 'use_skill', 'generate_explanation', 'update_todo_list',
]);

/** Tools only Roo Code has: their presence names the agent (RooCodeInc/Roo-Code src/shared/tools.ts). */
export const ROO_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'apply_diff', 'insert_content', 'search_and_replace', 'switch_mode', 'fetch_instructions', 'codebase_search',
  // Its native edit variants and its todo list (packages/types/src/tool.ts `toolNames`, commit 0126cb0b).
  'edit_file_roo', 'edit_file_anthropic', 'edit_file_grok', 'edit_file_gemini', 'edit_file_codex', 'search_replace', 'update_todo_list',
]);

/** Parameters whose value may itself hold tags (file content, diffs): they end at the last closing tag. */
const GREEDY = new Set(['content', 'diff', 'result']);

export interface XmlToolCall {
  name: string;
  input: JsonObject;
}

/**
 * The XML tool calls in an assistant text, in order, and the text outside them. An unclosed call at the end
 * (a cut-off stream) is read up to the end of the text, as Cline did.
 */
export function parseXmlToolCalls(text: string): { calls: XmlToolCall[]; text: string } {
  const calls: XmlToolCall[] = [];
  const prose: string[] = [];
  const open = /<([a-z_]+)>/g;
  let last = 0;
  for (let m = open.exec(text); m; m = open.exec(text)) {
    const name = m[1] as string;
    if (!CLINE_XML_TOOLS.has(name)) continue;
    const bodyStart = m.index + m[0].length;
    const close = text.indexOf(`</${name}>`, bodyStart);
    const bodyEnd = close === -1 ? text.length : close;
    prose.push(text.slice(last, m.index));
    calls.push({ name, input: parseParams(text.slice(bodyStart, bodyEnd)) });
    last = close === -1 ? text.length : close + name.length + 3;
    open.lastIndex = last;
  }
  prose.push(text.slice(last));
  return { calls, text: prose.join('').trim() };
}

function parseParams(body: string): JsonObject {
  const input: JsonObject = {};
  const tag = /<([a-z_]+)>/g;
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    const p = m[1] as string;
    const start = m.index + m[0].length;
    const end = GREEDY.has(p) ? body.lastIndexOf(`</${p}>`) : body.indexOf(`</${p}>`, start);
    if (end < start) continue;
    input[p] = trimNewlines(body.slice(start, end));
    tag.lastIndex = end + p.length + 3;
  }
  return input;
}

/** Cline trims one leading and trailing newline of a value (file content keeps its inner lines). */
function trimNewlines(s: string): string {
  return s.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
}
