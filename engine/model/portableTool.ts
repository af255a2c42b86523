import { isJsonObject, ownGet, ownSet, type JsonObject, type JsonValue } from './json.ts';

/*
 * The portable fields of a tool call [AG2], once for the whole engine: the hook mappings (engine/agents/) and the
 * session importers (engine/trace/importers/) both read a call through this module, so one pipeline matches a
 * live hook call and an imported session of every agent alike. `payload.tool` (shell, read, write, edit, fetch,
 * search, mcp, task, other), `payload.command`, `payload.file_path`, `payload.url`, read from the agent's own
 * arguments through its tool table (engine/model/toolTables.ts). A field the call should have but does not (a
 * shell call without a command, a fetch whose text holds no URL or several, several files) is named in
 * `payload.portable_missing`: never guessed.
 */

/** The portable kind of a tool call: what one pipeline matches in every agent (`payload.tool`) [AG2]. */
export const PORTABLE_TOOLS = ['shell', 'read', 'write', 'edit', 'fetch', 'search', 'mcp', 'task', 'other'] as const;
export type PortableTool = (typeof PORTABLE_TOOLS)[number];

/** How an agent's tool maps to the portable fields: which argument holds the command, the file, the URL. */
export interface ToolEntry {
  tool: PortableTool;
  /** Argument keys holding the shell command, first present wins (text, or an argument vector: `commandOfArgv`). */
  command?: readonly string[];
  /** Argument keys holding the file path (a string, or a list of paths: one is `file_path`, several `file_paths`). */
  file?: readonly string[];
  /** Argument keys holding the URL. */
  url?: readonly string[];
  /** Argument keys of free text the URLs are written in (Gemini's `web_fetch` takes a prompt; a list of texts is read item by item). */
  urlText?: readonly string[];
  /** Argument keys holding a Codex-style patch, whose `*** Update File: <path>` lines name the files. */
  patch?: readonly string[];
  /**
   * A tool that is several kinds by one argument (goose's `text_editor` is a read when `command` is `view`): the
   * kind for each value of that argument; any other value keeps `tool`. A Map, so `__proto__` is a plain value.
   */
  kindBy?: { arg: string; kinds: ReadonlyMap<string, PortableTool> };
}

/** An agent's tool table: its tools by name (a Map: `constructor` is unknown like any other name), and its MCP naming. */
export interface ToolTable {
  tools: ReadonlyMap<string, ToolEntry>;
  /** Prefix of MCP tool names (`mcp__` for Claude Code, Codex, Gemini; `MCP:` for Cursor's hooks). */
  mcpPrefix?: string;
}

/**
 * The portable names a call's fields are written under. They are read from the call's own arguments and win over
 * a field of the same name in the payload, so a pipeline matching `payload.command` sees the command that runs.
 */
export const PORTABLE_FIELDS = ['tool', 'command', 'file_path', 'file_paths', 'url', 'urls', 'portable_missing'] as const;

const PATCH_FILE_RE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;

/** The files a Codex-style patch touches (`*** Update File: src/a.ts` lines), in order. */
export function filesInPatch(text: JsonValue | undefined): string[] {
  return typeof text === 'string' ? [...text.matchAll(PATCH_FILE_RE)].map((m) => m[1]!.trim()) : [];
}

const URL_RE = /\bhttps?:\/\/[^\s<>"'`)\]}]+/g;

/** Every http(s) URL written in a text, in order, without trailing punctuation. `urlsIn('see https://a.b/c.')` → `['https://a.b/c']`. */
export function urlsIn(text: string): string[] {
  return [...text.matchAll(URL_RE)].map((m) => m[0].replace(/[.,;:!?]+$/, ''));
}

/**
 * The entry of a tool name: its own entry, else `mcp` when the caller knows it is an MCP tool (an importer whose
 * format says so) or the name has the table's MCP prefix, else `other` (never dropped).
 */
export function toolEntryOf(table: ToolTable | undefined, name: string, options: { mcp?: boolean } = {}): ToolEntry {
  const own = table?.tools.get(name);
  if (own) return own;
  if (options.mcp || (table?.mcpPrefix && name.startsWith(table.mcpPrefix))) return { tool: 'mcp' };
  return { tool: 'other' };
}

function firstString(args: JsonObject, keys: readonly string[] | undefined): string | undefined {
  for (const k of keys ?? []) {
    const v = ownGet(args, k);
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/** The shell wrappers whose script is the command: `bash -lc <script>`, `sh -c <script>`, also by absolute path. */
const SHELL_WRAPPER = /^(?:\/(?:usr\/)?bin\/)?(?:bash|zsh|sh)$/;
const SHELL_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * A command given as an argument vector (Codex's `shell` {command: ["bash", "-lc", "ls"]}), as text: the script of a
 * `bash|zsh|sh -lc|-c <script>` wrapper, else the words POSIX-quoted and joined. This is how Codex shows such a call
 * (openai/codex codex-rs/tui/src/exec_command.rs `strip_bash_lc_and_escape`: the wrapper's script, else
 * `shlex::try_join`), so a pipeline matches the command the user saw.
 *
 * @example commandOfArgv(['bash', '-lc', 'rm -rf build']) → 'rm -rf build'; commandOfArgv(['ls', 'a b']) → "ls 'a b'"
 */
export function commandOfArgv(argv: readonly string[]): string {
  if (argv.length === 3 && SHELL_WRAPPER.test(argv[0]!) && (argv[1] === '-lc' || argv[1] === '-c')) return argv[2]!;
  return argv.map((a) => (SHELL_SAFE.test(a) ? a : `'${a.replace(/'/g, `'"'"'`)}'`)).join(' ');
}

/** The command of a shell call: the first command key holding text, or an argument vector (`commandOfArgv`). */
function commandOf(args: JsonObject, keys: readonly string[] | undefined): string | undefined {
  const text = firstString(args, keys);
  if (text !== undefined) return text;
  for (const k of keys ?? []) {
    const v = ownGet(args, k);
    if (Array.isArray(v) && v.length > 0 && v.every((a) => typeof a === 'string')) return commandOfArgv(v as string[]);
  }
  return undefined;
}

/** The paths under the first file key that holds a list of strings (Gemini's `read_many_files {include}`, `{paths}` before). */
function pathList(args: JsonObject, keys: readonly string[] | undefined): string[] {
  for (const k of keys ?? []) {
    const v = ownGet(args, k);
    if (Array.isArray(v) && v.length > 0 && v.every((p) => typeof p === 'string' && p !== '')) return v as string[];
  }
  return [];
}

/** The kind of one call: the entry's, or the one its `kindBy` argument names. */
function kindOf(entry: ToolEntry, args: JsonObject): PortableTool {
  if (!entry.kindBy) return entry.tool;
  const v = ownGet(args, entry.kindBy.arg);
  return (typeof v === 'string' ? entry.kindBy.kinds.get(v) : undefined) ?? entry.tool;
}

/**
 * The portable fields of one call [AG2], from its entry and its arguments: `tool` always; `command` for a shell
 * call; `file_path` for a file call (one file; several are `file_paths`), a search's path when it has one; `url` for
 * a fetch (an argument, or the one URL its text holds; all found are `urls`); what a call of its kind lacks, in
 * `portable_missing`.
 *
 * @example portableFieldsOf({ tool: 'shell', command: ['command'] }, { command: 'ls' }) → { tool: 'shell', command: 'ls' }
 */
export function portableFieldsOf(entry: ToolEntry, args: JsonValue | undefined): JsonObject {
  const a = isJsonObject(args) ? args : {};
  const tool = kindOf(entry, a);
  const out: JsonObject = { tool };
  const missing: string[] = [];
  if (tool === 'shell') {
    const c = commandOf(a, entry.command);
    if (c !== undefined) out.command = c;
    else missing.push('command');
  }
  if (tool === 'read' || tool === 'write' || tool === 'edit' || tool === 'search') {
    const f = firstString(a, entry.file);
    const listed = f === undefined ? pathList(a, entry.file) : [];
    const inPatch = [...new Set([...listed, ...(entry.patch ?? []).flatMap((k) => filesInPatch(ownGet(a, k)))])];
    if (f !== undefined) out.file_path = f;
    else if (inPatch.length === 1) out.file_path = inPatch[0]!;
    // A search names a place to look, if any: none is not a missing field.
    else if (tool !== 'search') missing.push('file_path');
    if (inPatch.length > 1 || (inPatch.length === 1 && (entry.patch?.length ?? 0) > 0)) out.file_paths = inPatch;
  }
  if (tool === 'fetch') {
    const u = firstString(a, entry.url);
    if (u !== undefined) {
      out.url = u;
    } else {
      // A URL inside free text: exactly one is the URL; none or several is reported, never picked.
      const found = (entry.urlText ?? []).flatMap((k) => {
        const t = ownGet(a, k);
        // A list of texts (VS Code's `fetch_webpage` takes `urls`) is read item by item.
        return typeof t === 'string' ? urlsIn(t) : Array.isArray(t) ? t.flatMap((x) => (typeof x === 'string' ? urlsIn(x) : [])) : [];
      });
      if (found.length > 0) out.urls = found;
      if (new Set(found).size === 1) out.url = found[0]!;
      else missing.push('url');
    }
  }
  if (missing.length > 0) out.portable_missing = missing;
  return out;
}

/**
 * Writes a call's portable fields on its payload (in place; returns it) [AG2]. Every portable name is the call's
 * own: a field of that name the payload had that says something else is kept as `native_<name>` (Cursor's MCP
 * server `url`), and one the call has no value for is removed.
 */
export function setPortableFields(payload: JsonObject, fields: JsonObject): JsonObject {
  // The common case, a payload that has none of these names yet (every importer's fresh payload): the fields are
  // copied as they are, with no lookups or deletes for the names they lack (~0.2 µs of ~0.5 µs a call).
  if (!PORTABLE_FIELDS.some((k) => Object.prototype.hasOwnProperty.call(payload, k))) {
    for (const k in fields) if (Object.prototype.hasOwnProperty.call(fields, k)) {
      const v = fields[k] as JsonValue;
      ownSet(payload, k, Array.isArray(v) ? [...v] : v);
    }
    return payload;
  }
  for (const k of PORTABLE_FIELDS) {
    const v = ownGet(fields, k);
    const before = ownGet(payload, k);
    if (before !== undefined && (v === undefined || JSON.stringify(before) !== JSON.stringify(v))) ownSet(payload, `native_${k}`, before);
    // A list is the payload's own copy: the before and after events of one call never share one.
    if (v !== undefined) ownSet(payload, k, Array.isArray(v) ? [...v] : v);
    else delete payload[k];
  }
  return payload;
}

/**
 * The portable fields of a call by its tool's name in a table [AG2][I13]: `toolEntryOf`, then `portableFieldsOf`.
 *
 * @example portableFields(GEMINI_TOOLS, 'web_fetch', { prompt: 'see https://a.b/c and https://d.e' })
 *   → { tool: 'fetch', urls: ['https://a.b/c', 'https://d.e'], portable_missing: ['url'] }
 */
export function portableFields(table: ToolTable | undefined, name: string, args: JsonValue | undefined, options: { mcp?: boolean } = {}): JsonObject {
  return portableFieldsOf(toolEntryOf(table, name, options), args);
}
