import { isJsonObject, type JsonObject } from '../model/json.ts';

/**
 * The portable fields of a tool call (issue #28's vocabulary), so that one pipeline replays every agent's
 * sessions: `tool` (what kind of tool), `command` (a shell command), `file_path` (the file it reads or
 * changes), `url` (what it fetches). Each agent names its tools its own way; the tables below say which of
 * its tools is which and where the argument lives.
 *
 * NOTE for the lead: the `agents` engineer (#28) is building per-agent tool tables in engine/agents/ for
 * hooks. When that lands, these tables should merge into it (one table per agent); until then the
 * importers use this module. Sources are cited per agent.
 */
export type PortableTool = 'shell' | 'read' | 'write' | 'edit' | 'fetch' | 'search' | 'mcp' | 'task' | 'other';

export interface PortableFields {
  tool: PortableTool;
  command?: string;
  file_path?: string;
  url?: string;
}

/** One tool of an agent: its kind and the argument names that hold the command, path or URL (first found wins). */
interface ToolEntry {
  tool: PortableTool;
  command?: readonly string[];
  path?: readonly string[];
  url?: readonly string[];
}

const SHELL = (...command: string[]): ToolEntry => ({ tool: 'shell', command });
const READ = (...path: string[]): ToolEntry => ({ tool: 'read', path });
const WRITE = (...path: string[]): ToolEntry => ({ tool: 'write', path });
const EDIT = (...path: string[]): ToolEntry => ({ tool: 'edit', path });
const FETCH = (...url: string[]): ToolEntry => ({ tool: 'fetch', url });
const SEARCH = (...path: string[]): ToolEntry => ({ tool: 'search', path });
const TASK: ToolEntry = { tool: 'task' };

// Gemini CLI 0.56 (google-gemini/gemini-cli packages/core/src/tools/tool-names.ts; shell.ts `command`,
// read-file.ts `file_path`, web-fetch.ts `prompt` holding the URLs).
const GEMINI: Record<string, ToolEntry> = {
  run_shell_command: SHELL('command'),
  read_file: READ('file_path', 'absolute_path'),
  read_many_files: READ('paths'),
  write_file: WRITE('file_path'),
  replace: EDIT('file_path'),
  glob: SEARCH('dir_path', 'path'),
  grep_search: SEARCH('dir_path', 'path'),
  search_file_content: SEARCH('path'),
  list_directory: SEARCH('dir_path', 'path'),
  web_fetch: FETCH('url', 'prompt'),
  google_web_search: { tool: 'search' },
};

// Cline 3.x (cline/cline src/core/prompts/system.ts tool list, 2025-02; apps/vscode in 2026) and Roo Code
// (RooCodeInc/Roo-Code src/shared/tools.ts): the same XML tool names; Roo adds apply_diff, insert_content,
// search_and_replace, switch_mode, new_task.
const CLINE: Record<string, ToolEntry> = {
  execute_command: SHELL('command'),
  read_file: READ('path'),
  write_to_file: WRITE('path'),
  replace_in_file: EDIT('path'),
  apply_diff: EDIT('path'),
  insert_content: EDIT('path'),
  search_and_replace: EDIT('path'),
  search_files: SEARCH('path'),
  list_files: SEARCH('path'),
  list_code_definition_names: SEARCH('path'),
  codebase_search: SEARCH('path'),
  browser_action: FETCH('url'),
  web_fetch: FETCH('url'),
  use_mcp_tool: { tool: 'mcp' },
  access_mcp_resource: { tool: 'mcp' },
  new_task: TASK,
  use_subagents: TASK,
};


// Cursor tools as SpecStory writes them (specstoryai/getspecstory specstory-cli/pkg/providers/cursoride/tool_*.go).
const CURSOR: Record<string, ToolEntry> = {
  run_terminal_cmd: SHELL('command'),
  run_terminal_command: SHELL('command'),
  run_terminal_command_v2: SHELL('command'),
  read_file: READ('target_file', 'path'),
  read_file_v2: READ('target_file', 'path'),
  edit_file: EDIT('target_file', 'path'),
  edit_file_v2: EDIT('target_file', 'path'),
  search_replace: EDIT('file_path', 'path'),
  write: WRITE('file_path', 'path'),
  delete_file: EDIT('target_file', 'path'),
  codebase_search: SEARCH(),
  grep_search: SEARCH(),
  grep: SEARCH('path'),
  file_search: SEARCH(),
  glob_file_search: SEARCH(),
  list_dir: SEARCH('target_directory', 'path'),
  list_directory: SEARCH('target_directory', 'path'),
  // Claude Code's tools, when SpecStory exported a Claude Code session.
  Bash: SHELL('command'),
  Read: READ('file_path'),
  Write: WRITE('file_path'),
  Edit: EDIT('file_path'),
  MultiEdit: EDIT('file_path'),
  Grep: SEARCH('path'),
  Glob: SEARCH('path'),
  WebFetch: FETCH('url'),
  WebSearch: { tool: 'search' },
  Task: TASK,
};



// GitHub Copilot CLI (docs.github.com content/copilot/reference/hooks-configuration.md, commit 1912b4fc, and
// github/copilot-sdk session-events.ts v1.0.9): bash/powershell `command`, view/create/edit `path`, web_fetch `url`.
const COPILOT: Record<string, ToolEntry> = {
  bash: SHELL('command'),
  powershell: SHELL('command'),
  view: READ('path'),
  create: WRITE('path'),
  edit: EDIT('path'),
  str_replace_editor: EDIT('path'),
  web_fetch: FETCH('url'),
  glob: SEARCH('path'),
  grep: SEARCH('path'),
  task: TASK,
};

// OpenCode (anomalyco/opencode packages/opencode/src/tool/: bash `command`, read/write/edit `filePath`,
// list/glob/grep `path`, webfetch `url`, task).
const OPENCODE: Record<string, ToolEntry> = {
  bash: SHELL('command'),
  read: READ('filePath'),
  write: WRITE('filePath'),
  edit: EDIT('filePath'),
  multiedit: EDIT('filePath'),
  patch: EDIT('filePath'),
  list: SEARCH('path'),
  glob: SEARCH('path'),
  grep: SEARCH('path'),
  webfetch: FETCH('url'),
  websearch: { tool: 'search' },
  task: TASK,
};

// goose's developer extension (block/goose crates/goose-mcp/src/developer/: shell.rs `command`, text_editor.rs
// `path` with `command` view/write/str_replace/insert/undo_edit, edit.rs write/edit `path`, tree.rs) and the
// computer controller's web_scrape `url`; keyed by the tool's name after its extension (`developer__shell`).
const GOOSE: Record<string, ToolEntry> = {
  shell: SHELL('command'),
  text_editor: EDIT('path'),
  write: WRITE('path'),
  edit: EDIT('path'),
  read: READ('path'),
  tree: SEARCH('path'),
  analyze: SEARCH('path'),
  web_scrape: FETCH('url'),
};

// aider has no tool calls of its own: the importer names its actions (aider-AI/aider aider/io.py, base_coder.py).
const AIDER: Record<string, ToolEntry> = {
  run: SHELL('command'),
  edit: EDIT('path'),
};

const TABLES: Record<string, Record<string, ToolEntry>> = {
  'gemini-cli': GEMINI,
  'qwen-code': GEMINI,
  cline: CLINE,
  'roo-code': CLINE,
  cursor: CURSOR,
  'claude-code': CURSOR,
  aider: AIDER,
  'copilot-cli': COPILOT,
  opencode: OPENCODE,
  goose: GOOSE,
};

const URL_IN_TEXT = /https?:\/\/[^\s"'<>)]+/;

/**
 * The portable fields of one tool call of `agent` (an agent id such as `gemini-cli`, `cline`): the tool
 * kind from the agent's table (`other` when unknown; `mcp` for an MCP tool the agent marks as such), and
 * the command, file path and URL read from the arguments where the table says.
 *
 * @example portableFields('gemini-cli', 'run_shell_command', { command: 'ls' }) → { tool: 'shell', command: 'ls' }
 */
export function portableFields(agent: string, toolName: string, input: unknown, options: { mcp?: boolean } = {}): PortableFields {
  const table = TABLES[agent];
  const entry = table && Object.prototype.hasOwnProperty.call(table, toolName) ? table[toolName] : undefined;
  const args: JsonObject = isJsonObject(input) ? input : {};
  const out: PortableFields = { tool: entry?.tool ?? (options.mcp || /^mcp__|^mcp_/.test(toolName) ? 'mcp' : 'other') };
  if (!entry) return out;
  const command = firstString(args, entry.command);
  if (command !== undefined) out.command = command;
  const path = firstString(args, entry.path);
  if (path !== undefined) out.file_path = path;
  const url = firstString(args, entry.url);
  if (url !== undefined) {
    const m = URL_IN_TEXT.exec(url);
    if (m) out.url = m[0];
  }
  return out;
}

function firstString(args: JsonObject, keys: readonly string[] | undefined): string | undefined {
  for (const k of keys ?? []) {
    if (!Object.prototype.hasOwnProperty.call(args, k)) continue;
    const v = args[k];
    if (typeof v === 'string' && v !== '') return v;
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  }
  return undefined;
}

/** `payload` with the portable fields of its tool call added (never overwriting what the source set). */
export function withPortable(payload: JsonObject, fields: PortableFields): JsonObject {
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && !Object.prototype.hasOwnProperty.call(payload, k)) payload[k] = v;
  return payload;
}
