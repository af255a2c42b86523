import type { JsonObject, JsonValue } from './json.ts';
import { portableFields, type ToolEntry, type ToolTable } from './portableTool.ts';

/*
 * Every agent's tool table [AG2]: the hook contracts (engine/agents/) and the session importers
 * (engine/trace/importers/) read the same entries, so a tool is the same portable call live and imported. Each
 * table says where it was read. An agent's hook table lists the tools its hooks show (install builds matchers
 * from it); its session table adds the names only its session files use (Cursor's hooks name tools `Shell`,
 * `Read`, …; its IDE sessions as SpecStory exports them `run_terminal_cmd`, …), each entry written once.
 */

const shell = (...command: string[]): ToolEntry => ({ tool: 'shell', command });
const read = (...file: string[]): ToolEntry => ({ tool: 'read', file });
const write = (...file: string[]): ToolEntry => ({ tool: 'write', file });
const edit = (...file: string[]): ToolEntry => ({ tool: 'edit', file });
const search = (...file: string[]): ToolEntry => (file.length > 0 ? { tool: 'search', file } : { tool: 'search' });
const fetchUrl = (...url: string[]): ToolEntry => ({ tool: 'fetch', url });
const task: ToolEntry = { tool: 'task' };
const mcp: ToolEntry = { tool: 'mcp' };

const table = (entries: [string, ToolEntry][], mcpPrefix?: string): ToolTable => ({ tools: new Map(entries), ...(mcpPrefix ? { mcpPrefix } : {}) });
/** A table with more names (a name both have keeps the base's entry), and the base's MCP prefix unless another is given. */
const extend = (base: ToolTable, more: [string, ToolEntry][], mcpPrefix = base.mcpPrefix): ToolTable => table([...more, ...base.tools], mcpPrefix);

/**
 * Claude Code ("PreToolUse" → tool input of each tool, hooks reference https://code.claude.com/docs/en/hooks, read
 * 2026-12; tools reference https://code.claude.com/docs/en/settings#tools-available-to-claude).
 */
export const CLAUDE_TOOLS = table([
  ['Bash', shell('command')],
  ['PowerShell', shell('command')],
  ['Read', read('file_path')],
  ['Write', write('file_path')],
  ['Edit', edit('file_path')],
  ['MultiEdit', edit('file_path')],
  ['NotebookEdit', edit('notebook_path')],
  ['WebFetch', { tool: 'fetch', url: ['url'] }],
  ['WebSearch', search()],
  ['Glob', search('path')],
  ['Grep', search('path')],
  ['Task', task],
  ['Agent', task],
], 'mcp__');

/**
 * Codex CLI (openai/codex codex-rs/hooks, commit 0ea83813, 2026-12): `Bash` for shell and unified exec,
 * `apply_patch` (the patch text names the files; one file is `file_path`, several are `file_paths`), `spawn_agent`;
 * MCP tools `mcp__<server>__<tool>`.
 */
export const CODEX_TOOLS = table([
  ['Bash', shell('command')],
  ['apply_patch', { tool: 'edit', patch: ['command', 'input', 'patch'] }],
  ['spawn_agent', task],
], 'mcp__');

/**
 * Codex's session files (rollouts) name the tools the model called, not the hooks' `Bash` (openai/codex
 * codex-rs/core/src/tools/spec.rs, read through okwinds/codex docs/workdocjcl/spec/05_Integrations/
 * TOOLS_SCHEMA_REFERENCE.md, generated from it at commit 7210e806, 2026-02): `shell` {command: an argument vector},
 * `shell_command` {command}, `exec_command` {cmd} (unified exec), `local_shell` (a `local_shell_call`'s action
 * {command: a vector}), `apply_patch` (a freeform call: the importer keeps its text as `input`), `read_file`
 * {file_path}, `list_dir` {dir_path}, `grep_files` {path}, `view_image` {path}, `web_search` (its action {query}).
 */
export const CODEX_SESSION_TOOLS = extend(CODEX_TOOLS, [
  ['shell', shell('command')],
  ['shell_command', shell('command')],
  ['exec_command', shell('cmd')],
  ['local_shell', shell('command')],
  ['read_file', read('file_path')],
  ['view_image', read('path')],
  ['list_dir', search('dir_path')],
  ['grep_files', search('path')],
  ['web_search', search()],
]);

/**
 * Gemini CLI (docs/hooks/reference.md commit 06c0d810, 2026-12, "Matchers and tool names"; tools
 * https://geminicli.com/docs/tools; packages/core/src/tools/tool-names.ts 0.56: shell.ts `command`, read-file.ts
 * `file_path`, read-many-files.ts `paths`, web-fetch.ts `prompt` holding the URLs). MCP tools are
 * `mcp_<server>_<tool>`, one underscore: reference.md "Matchers and tool names" (since "docs(mcp): standardize mcp
 * tool fqn documentation", #21664) and packages/core/src/tools/mcp-tool.ts (commit 5411f113, 2026-08:
 * `MCP_TOOL_PREFIX = 'mcp_'`, `MCP_QUALIFIED_NAME_SEPARATOR = '_'`), the name BeforeTool's `tool_name` carries
 * (scheduler/hook-utils.ts passes `request.name`). With `mcp__` here an MCP call was `other` and an MCP matcher
 * (`mcp__.*`) matched none of them.
 */
export const GEMINI_TOOLS = table([
  ['run_shell_command', shell('command')],
  ['read_file', read('file_path', 'absolute_path')],
  // `include` (paths or globs) since the tool took it over from `paths` (docs/reference/tools.md "Tool argument keys").
  ['read_many_files', read('file_path', 'paths', 'include')],
  ['write_file', write('file_path')],
  ['replace', edit('file_path')],
  ['web_fetch', { tool: 'fetch', url: ['url'], urlText: ['prompt'] }],
  ['google_web_search', search()],
  ['glob', search('dir_path', 'path')],
  // A subagent call: `invoke_agent` {agent_name, …} (tool-names.ts AGENT_TOOL_NAME, agents/agent-tool.ts, commit
  // 5411f113); the subagent's own calls carry its `agentId` in the session file.
  ['invoke_agent', task],
  // The content search is `grep_search` (definitions/base-declarations.ts GREP_TOOL_NAME, docs/reference/tools.md
  // "File System", commit 5411f113), the name BeforeTool's tool_name carries; `search_file_content` is its legacy
  // alias (tool-names.ts TOOL_LEGACY_ALIASES), kept for older versions. Without it a grep of .env was `other`.
  ['grep_search', search('dir_path', 'path')],
  ['search_file_content', search('path')],
  ['list_directory', search('dir_path', 'path')],
], 'mcp_');

/**
 * Qwen Code (https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks/, read 2026-12): its Gemini CLI
 * fork's tools, with `edit` for `replace`, `web_search`, `task`. QwenLM/qwen-code packages/core/src/tools/tool-names.ts
 * (commit 00ac46fe, 2026-12): the sub-agent tool is `agent` now (`task` is its legacy name, `ToolNamesMigration`)
 * and `list_directory` lists a folder; hooks get these runtime ids in `tool_name` (docs/users/features/hooks.md
 * "Matcher Patterns"). Without `agent`, a task rule's install matcher named only `task` and never ran for a sub-agent.
 */
export const QWEN_TOOLS = table([
  ['run_shell_command', shell('command')],
  ['read_file', read('file_path', 'absolute_path')],
  ['write_file', write('file_path')],
  ['edit', edit('file_path')],
  ['web_fetch', { tool: 'fetch', url: ['url'], urlText: ['prompt'] }],
  ['web_search', search()],
  ['glob', search()],
  ['grep_search', search()],
  ['list_directory', search('path')],
  ['agent', task],
  ['task', task],
], 'mcp__');

/** Qwen Code's session files: its own names, then the Gemini CLI names its fork kept (read_many_files, replace, …). */
export const QWEN_SESSION_TOOLS = extend(QWEN_TOOLS, [...GEMINI_TOOLS.tools]);

/**
 * GitHub Copilot CLI (github/docs content/copilot/reference/copilot-cli-reference/cli-hooks-reference.md commit
 * 927566b0 and hooks-configuration.md commit 1912b4fc, 2026-12; github/copilot-sdk session-events.ts v1.0.9):
 * bash/powershell `command`, view/create/edit `path`, web_fetch `url`.
 */
export const COPILOT_TOOLS = table([
  ['bash', shell('command')],
  ['powershell', shell('command')],
  ['view', read('path')],
  ['create', write('path')],
  ['edit', edit('path')],
  ['web_fetch', fetchUrl('url')],
  ['glob', search('path')],
  ['grep', search('path')],
  ['task', task],
]);

/** Copilot CLI's session events (copilot-sdk session-events.ts v1.0.9) also name `str_replace_editor`. */
export const COPILOT_SESSION_TOOLS = extend(COPILOT_TOOLS, [['str_replace_editor', edit('path')]]);

/**
 * Cursor. Its hooks (https://cursor.com/docs/agent/hooks, Cursor 2.x, read 2026-12 through Cupcake's Cursor harness
 * reference and agent-hooks-bridge's Cursor adapter): `Shell`, `Read`, `Write`, `Edit`, … with `file_path`/`path`/
 * `target_file`; MCP tools `MCP:<tool>`. Its IDE sessions as SpecStory exports them (specstoryai/getspecstory
 * specstory-cli/pkg/providers/cursoride/tool_*.go): `run_terminal_cmd`, `read_file` {target_file}, `edit_file`, ….
 */
export const CURSOR_TOOLS = table([
  ['Shell', shell('command')],
  ['Bash', shell('command')],
  ['Read', read('file_path', 'path', 'target_file')],
  ['Write', write('file_path', 'path', 'target_file')],
  ['Edit', edit('file_path', 'path', 'target_file')],
  ['StrReplace', edit('file_path', 'path', 'target_file')],
  ['Delete', write('file_path', 'path', 'target_file')],
  ['WebFetch', fetchUrl('url')],
  ['WebSearch', search()],
  ['Grep', search('path')],
  ['Glob', search('path')],
  ['Task', task],
], 'MCP:');

/** Cursor's IDE sessions as SpecStory exports them: its hook names plus the IDE's own; MCP tools are `mcp_<server>_<tool>` there. */
export const CURSOR_SESSION_TOOLS = extend(CURSOR_TOOLS, [
  ['MultiEdit', edit('file_path')],
  ['run_terminal_cmd', shell('command')],
  ['run_terminal_command', shell('command')],
  ['run_terminal_command_v2', shell('command')],
  ['read_file', read('target_file', 'path')],
  ['read_file_v2', read('target_file', 'path')],
  ['edit_file', edit('target_file', 'path')],
  ['edit_file_v2', edit('target_file', 'path')],
  ['search_replace', edit('file_path', 'path')],
  ['write', write('file_path', 'path')],
  ['delete_file', edit('target_file', 'path')],
  ['codebase_search', search()],
  ['grep_search', search()],
  ['grep', search('path')],
  ['file_search', search()],
  ['glob_file_search', search()],
  ['list_dir', search('target_directory', 'path')],
  ['list_directory', search('target_directory', 'path')],
], 'mcp_');

/**
 * Factory droid (https://docs.factory.ai/reference/hooks-reference, read 2026-12, CLI 1.21): the shell tool is
 * `Execute`, files are `Read`, `Create`, `Edit`.
 */
export const FACTORY_TOOLS = table([
  ['Execute', shell('command')],
  ['Read', read('file_path')],
  ['Create', write('file_path')],
  ['Edit', edit('file_path')],
  ['MultiEdit', edit('file_path')],
  ['FetchUrl', fetchUrl('url')],
  ['WebSearch', search()],
  ['Glob', search()],
  ['Grep', search()],
  ['Task', task],
], 'mcp__');

/**
 * goose's developer extension (block/goose crates/goose-mcp/src/developer/: shell.rs `command`, text_editor.rs
 * `path` with `command` view/write/str_replace/insert/undo_edit: one tool, a read when it views, a write when it
 * writes the whole file, else an edit).
 */
const gooseTextEditor: ToolEntry = { tool: 'edit', file: ['path'], kindBy: { arg: 'command', kinds: new Map([['view', 'read'], ['write', 'write']]) } };

/**
 * goose's hooks (block/goose documentation/docs/guides/context-engineering/hooks.md at commit 0825b570, "Tool Input
 * Keys"): tools are named `<extension>__<tool>`, so an MCP extension's tool has no `mcp__` prefix and no name tells
 * it from a built-in one: such calls are `other` (and install narrows no matcher to MCP for goose). The developer
 * extension's shell `command`, write `path`/`content`, edit `path`/`before`/`after`, tree `path`; older versions' one
 * text_editor tool is kept.
 */
export const GOOSE_TOOLS = table([
  ['developer__shell', shell('command')],
  ['developer__write', write('path')],
  ['developer__edit', edit('path')],
  ['developer__tree', search('path')],
  ['developer__text_editor', gooseTextEditor],
]);

/**
 * goose's session files, keyed by the tool's name after its extension (`developer__shell` → `shell`, the importer
 * cuts the name): the developer extension (shell.rs, text_editor.rs, edit.rs write/edit `path`, tree.rs) and the
 * computer controller's web_scrape `url`.
 */
export const GOOSE_SESSION_TOOLS = table([
  ['shell', shell('command')],
  ['text_editor', gooseTextEditor],
  ['write', write('path')],
  ['edit', edit('path')],
  ['read', read('path')],
  ['tree', search('path')],
  ['analyze', search('path')],
  ['web_scrape', fetchUrl('url')],
]);

/**
 * Kimi Code CLI (MoonshotAI/kimi-cli 1.49.0, commit 4a550eff, 2026-07-16, src/kimi_cli/tools/: shell/__init__.py `command`,
 * file/read.py, read_media.py, write.py, replace.py `path`, file/glob.py `directory`, file/grep_local.py `path`,
 * web/fetch.py `url`, web/search.py). Its MCP tools' names carry no fixed prefix in the source read: they are `other`.
 */
export const KIMI_TOOLS = table([
  // Kimi Code CLI, the TypeScript successor (MoonshotAI/kimi-code packages/agent-core/src/tools/builtin: shell/bash.ts
  // `Bash` {command}, native-tools.ts `Read`/`Write`/`Edit`/`Grep`/`Glob` {path}, web/fetch-url.ts `FetchURL`; 2026-12).
  ['Bash', shell('command')],
  ['Read', read('path')],
  ['Write', write('path')],
  ['Edit', edit('path')],
  // kimi-cli 1.49.0 (Python, ~/.kimi): the names below.
  ['Shell', shell('command')],
  ['ReadFile', read('path')],
  ['ReadMediaFile', read('path')],
  ['WriteFile', write('path')],
  ['StrReplaceFile', edit('path')],
  ['Glob', search('directory', 'path')],
  ['Grep', search('path')],
  ['FetchURL', fetchUrl('url')],
  ['SearchWeb', search()],
]);

/** Windsurf Cascade: no tool names; each hook event is one kind of call (pre_run_command, pre_read_code, …). */
export const WINDSURF_TOOLS = table([]);

/**
 * Cline 3.x (cline/cline src/core/prompts/system.ts tool list, 2025-02; apps/vscode in 2026) and Roo Code
 * (RooCodeInc/Roo-Code src/shared/tools.ts): the same XML tool names; Roo adds apply_diff, insert_content,
 * search_and_replace, switch_mode, new_task. Cline's newer tools (src/shared/tools.ts ClineDefaultTool, commit
 * 0a3eba34): `web_search` {query} (system-prompt/tools/web_search.ts, commit 225aac81) and, for GPT-5 models,
 * `apply_patch` {input: a `*** Begin Patch` text naming its files} (system-prompt/tools/apply_patch.ts, commit
 * 24ba2b25); Roo Code's `apply_patch` takes the same text as `patch` (native-tools/edit_file_codex.ts, commit 0126cb0b).
 */
export const CLINE_TOOLS = table([
  ['execute_command', shell('command')],
  ['read_file', read('path')],
  ['write_to_file', write('path')],
  ['replace_in_file', edit('path')],
  ['apply_diff', edit('path')],
  ['insert_content', edit('path')],
  ['search_and_replace', edit('path')],
  ['search_files', search('path')],
  ['list_files', search('path')],
  ['list_code_definition_names', search('path')],
  ['codebase_search', search('path')],
  ['browser_action', fetchUrl('url')],
  ['web_fetch', fetchUrl('url')],
  ['web_search', search()],
  ['apply_patch', { tool: 'edit', patch: ['input', 'patch'] }],
  ['use_mcp_tool', mcp],
  ['access_mcp_resource', mcp],
  ['new_task', task],
  ['use_subagents', task],
]);

/**
 * Roo Code's native tool calls (RooCodeInc/Roo-Code packages/types/src/tool.ts `toolNames`, commit 0126cb0b): the edit
 * tool is one of five variants by model family, each with its own arguments (src/core/prompts/tools/native-tools/:
 * edit_file_roo.ts {path, diff} — `apply_diff` before; edit_file_anthropic.ts {path, edits} — `search_and_replace`
 * before; edit_file_grok.ts {file_path, …} — `search_replace` before; edit_file_gemini.ts {file_path, …} — `edit_file`
 * before; edit_file_codex.ts {patch} — `apply_patch` before; commits 0126cb0b, 57a72ce0). Without these an edit of a
 * newer Roo Code task was `other` with no file.
 */
export const ROO_SESSION_TOOLS = extend(CLINE_TOOLS, [
  ['edit_file_roo', edit('path')],
  ['edit_file_anthropic', edit('path')],
  ['edit_file_grok', edit('file_path')],
  ['edit_file_gemini', edit('file_path')],
  ['edit_file_codex', { tool: 'edit', patch: ['patch'] }],
  ['search_replace', edit('file_path')],
  ['edit_file', edit('file_path')],
]);

/**
 * VS Code's agent (microsoft/vscode-copilot-chat src/extension/tools/common/toolNames.ts `ToolName`, read 2026-12;
 * hook input `tool_input` holds the tool's own camelCase arguments such as `filePath`, vscode-docs
 * docs/agent-customization/hooks.md FAQ): `run_in_terminal` {command}, `read_file`, `create_file`,
 * `replace_string_in_file`, `insert_edit_into_file` {filePath}, `apply_patch` {input: a patch naming its files},
 * `fetch_webpage` {urls: a list}, `grep_search`, `file_search`, `semantic_search` {query}, `list_dir` {path}, `runSubagent`. A
 * multi-file edit (`multi_replace_string_in_file`) names its files inside a list of replacements: its path is missing.
 */
export const VSCODE_TOOLS = table([
  ['run_in_terminal', shell('command')],
  ['read_file', read('filePath')],
  ['create_file', write('filePath')],
  ['create_directory', write('dirPath')],
  ['replace_string_in_file', edit('filePath')],
  ['multi_replace_string_in_file', edit('filePath')],
  ['insert_edit_into_file', edit('filePath')],
  ['edit_notebook_file', edit('filePath')],
  ['apply_patch', { tool: 'edit', patch: ['input'] }],
  ['fetch_webpage', { tool: 'fetch', url: ['url'], urlText: ['urls'] }],
  ['grep_search', search()],
  ['file_search', search()],
  ['semantic_search', search()],
  ['list_dir', search('path')],
  ['runSubagent', task],
]);

/**
 * OpenCode (anomalyco/opencode packages/opencode/src/tool/: bash `command`, read/write/edit `filePath`, list/glob/grep
 * `path`, webfetch `url`, task; apply_patch.ts {patchText: a `*** Begin Patch` text naming its files}, commit
 * 024479bd, the edit tool OpenCode gives GPT models; codesearch {query}).
 */
export const OPENCODE_TOOLS = table([
  ['bash', shell('command')],
  ['read', read('filePath')],
  ['write', write('filePath')],
  ['edit', edit('filePath')],
  ['multiedit', edit('filePath')],
  ['patch', edit('filePath')],
  ['apply_patch', { tool: 'edit', patch: ['patchText'] }],
  ['list', search('path')],
  ['glob', search('path')],
  ['grep', search('path')],
  ['webfetch', fetchUrl('url')],
  ['websearch', search()],
  ['codesearch', search()],
  ['task', task],
]);

/** aider has no tool calls of its own: the importer names its actions (aider-AI/aider aider/io.py, base_coder.py). */
export const AIDER_TOOLS = table([
  ['run', shell('command')],
  ['edit', edit('path')],
]);

/**
 * The tool table of each session source an importer reads, by its id (`gemini-cli`, `cline`, …). A Map: an unknown
 * id (`constructor` too) has no table, and its tools are `other`.
 */
export const SESSION_TOOL_TABLES: ReadonlyMap<string, ToolTable> = new Map<string, ToolTable>([
  ['claude-code', CLAUDE_TOOLS],
  ['codex', CODEX_SESSION_TOOLS],
  // Gemini CLI's session files (chats/session-*.json) name the tools as its hooks do.
  ['gemini-cli', GEMINI_TOOLS],
  ['qwen-code', QWEN_SESSION_TOOLS],
  ['copilot-cli', COPILOT_SESSION_TOOLS],
  ['cursor', CURSOR_SESSION_TOOLS],
  ['cline', CLINE_TOOLS],
  ['roo-code', ROO_SESSION_TOOLS],
  ['opencode', OPENCODE_TOOLS],
  ['aider', AIDER_TOOLS],
  ['goose', GOOSE_SESSION_TOOLS],
]);

/**
 * The portable fields of a tool call in an imported session [I13][AG2]: the same rule as a live hook call
 * (`portableFields`), through the source's session table (`gemini-cli`, `cline`, …; an unknown source's tools are
 * `other`, or `mcp` when its format marks the call as MCP).
 */
export function sessionPortableFields(source: string, name: string, args: JsonValue | undefined, options: { mcp?: boolean } = {}): JsonObject {
  return portableFields(SESSION_TOOL_TABLES.get(source), name, args, options);
}
