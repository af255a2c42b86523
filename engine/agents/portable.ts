import { isJsonObject, ownGet, ownSet, type JsonObject, type JsonValue } from '../model/json.ts';
import type { AgentContract, PortableTool, ToolEntry } from './types.ts';

/*
 * The portable fields of a tool call [AG2]: `payload.tool` (shell, read, write, edit, fetch, search, mcp, task,
 * other), `payload.command`, `payload.file_path`, `payload.url`, read from the agent's own arguments through its
 * tool table. A field the call should have but does not (a shell call without a command, a fetch whose text
 * holds no URL or several) is named in `payload.portable_missing`: never guessed.
 */

/**
 * The portable names this module sets. They are read from the call's own arguments and win over an input field
 * of the same name, so a pipeline matching `payload.command` sees the command that runs, never another field.
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

/** The table entry of a tool name: its own entry, else `mcp` by the agent's MCP prefix, else `other`. */
export function toolEntry(contract: Pick<AgentContract, 'tools' | 'mcpPrefix'>, name: string): ToolEntry {
  const own = contract.tools.get(name);
  if (own) return own;
  if (contract.mcpPrefix && name.startsWith(contract.mcpPrefix)) return { tool: 'mcp' };
  return { tool: 'other' };
}

function firstString(args: JsonObject, keys: readonly string[] | undefined): string | undefined {
  for (const k of keys ?? []) {
    const v = ownGet(args, k);
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/** The portable kind a pipeline sees for a tool of this agent (`other` for names the table does not know). */
export function portableTool(contract: Pick<AgentContract, 'tools' | 'mcpPrefix'>, name: string): PortableTool {
  return toolEntry(contract, name).tool;
}

/**
 * Sets the portable fields of one call on a payload (in place), from the entry and the call's arguments [AG2].
 * An input field of a portable name that says something else is moved to `native_<name>`.
 */
export function addPortableFields(payload: JsonObject, entry: ToolEntry, args: JsonValue | undefined): void {
  const a = isJsonObject(args) ? args : {};
  const out: JsonObject = { tool: entry.tool };
  const missing: string[] = [];
  if (entry.tool === 'shell') {
    const c = firstString(a, entry.command);
    if (c !== undefined) out.command = c;
    else missing.push('command');
  }
  if (entry.tool === 'read' || entry.tool === 'write' || entry.tool === 'edit') {
    const f = firstString(a, entry.file);
    const inPatch = [...new Set((entry.patch ?? []).flatMap((k) => filesInPatch(ownGet(a, k))))];
    if (f !== undefined) out.file_path = f;
    else if (inPatch.length === 1) out.file_path = inPatch[0]!;
    else missing.push('file_path');
    if (inPatch.length > 0) out.file_paths = inPatch;
  }
  if (entry.tool === 'fetch') {
    const u = firstString(a, entry.url);
    if (u !== undefined) {
      out.url = u;
    } else {
      // A URL inside free text: exactly one is the URL; none or several is reported, never picked.
      const found = (entry.urlText ?? []).flatMap((k) => {
        const t = ownGet(a, k);
        return typeof t === 'string' ? urlsIn(t) : [];
      });
      if (found.length > 0) out.urls = found;
      if (new Set(found).size === 1) out.url = found[0]!;
      else missing.push('url');
    }
  }
  if (missing.length > 0) out.portable_missing = missing;
  for (const k of PORTABLE_FIELDS) {
    const v = ownGet(out, k);
    const before = ownGet(payload, k);
    // The agent's own field of that name (Cursor's MCP server `url`) stays readable as `native_<name>`.
    if (before !== undefined && (v === undefined || JSON.stringify(before) !== JSON.stringify(v))) ownSet(payload, `native_${k}`, before);
    if (v !== undefined) ownSet(payload, k, v);
    else delete payload[k];
  }
}
