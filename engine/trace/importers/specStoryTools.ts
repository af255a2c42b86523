import type { JsonObject } from '../../model/json.ts';

/**
 * One tool block of a SpecStory Markdown export read back into a call: what SpecStory shows of it. SpecStory
 * renders tools, it does not keep them (specstoryai/getspecstory specstory-cli, v0.18 / Markdown v2.1.0:
 * pkg/session/markdown.go renderToolInfo and renderGenericTool; pkg/providers/cursoride/tool_handlers.go
 * formatCatchAll, tool_shell.go, tool_read_file.go), so arguments come from the places it writes them:
 * - `<tool-use data-tool-type="shell" data-tool-name="run_terminal_cmd">`: the type and the name;
 * - `<summary>Tool use: **name** • Run command: npm test</summary>`, `… • Read file: src/a.ts`: command, path;
 * - the generic form `**Input:**` then `- key: \`value\`` lines, then `**Result:**` or `**Error:**` and a code block;
 * - the catch-all form `Parameters:` / `Result:` / `Error:` each with a JSON code block, `Status: **error**`;
 * - a shell block's first `bash` code block is the command (a `$ ` prefix is the prompt), the next its output;
 * - otherwise the first inline code of the body is the command (shell) or the path (read, write).
 */
export interface SpecStoryCall {
  name: string;
  /** SpecStory's tool type: shell, read, write, search, task, mcp, generic, unknown. */
  type: string;
  input: JsonObject;
  /** The result shown, or null when the block shows none. */
  output: string | null;
  isError: boolean;
}

interface Fence {
  lang: string;
  text: string;
}

const SUMMARY = /<summary>([\s\S]*?)(?:<\/summary>|$)/;
const TOOL_NAME = /Tool use: \*\*([^*]+)\*\*/;
const RUN = /(?:^|\u2022 )Run command: ([\s\S]+)$/;
const FILE = /(?:^|\u2022 )(?:Read file|Edit file|Write file|Create file|Delete file|Edited file|Read|Listed directory|List directory): ?(.+)$/;
const INPUT_ITEM = /^- ([A-Za-z_][\w.-]*): `([\s\S]*)`$/;

/** Reads a tool block (the lines between its opening and closing tags) into a call. */
export function readToolBlock(type: string, name: string | null, body: string): SpecStoryCall {
  const summary = SUMMARY.exec(body)?.[1]?.trim() ?? '';
  const toolName = name ?? TOOL_NAME.exec(summary)?.[1] ?? classify(summary);
  const kind = type !== '' ? type : kindOf(summary);
  const rest = body.replace(SUMMARY, '');
  const { fences, prose } = splitFences(rest);
  const input: JsonObject = {};
  let output: string | null = null;
  let isError = /\*\*Error:\*\*|^Status: \*\*error\*\*|^Error:\s*$/m.test(prose);
  // The generic and catch-all forms name their sections; the fence after a section heading is its content.
  for (const line of prose.split('\n')) {
    const item = INPUT_ITEM.exec(line.trim());
    if (item) input[item[1] as string] = item[2] as string;
  }
  const sections = [...rest.matchAll(/^(?:\*\*)?(Parameters|Result|Error|Input):(?:\*\*)?\s*$/gm)].map((m) => ({ name: m[1] as string, at: m.index ?? 0 }));
  const fenceAt = fencePositions(rest);
  for (const s of sections) {
    const f = fenceAt.find((p) => p.at > s.at);
    if (!f) continue;
    if (s.name === 'Parameters') Object.assign(input, parseObject(f.fence.text) ?? { parameters: f.fence.text });
    else if (s.name === 'Result' || s.name === 'Error') {
      output = f.fence.text;
      if (s.name === 'Error') isError = true;
    }
  }
  const run = RUN.exec(summary.split('\n')[0] ?? '');
  const file = FILE.exec(summary);
  const inline = /`([^`\n]+)`/.exec(prose)?.[1]?.trim();
  if (kind === 'shell' && input.command === undefined) {
    const shellFence = fences.find((f) => /^(bash|sh|shell|zsh|console|powershell)$/.test(f.lang));
    if (run) input.command = unescape(run[1] as string).trim();
    else if (shellFence) {
      const [first, ...more] = shellFence.text.split('\n');
      if (first?.startsWith('$ ')) {
        input.command = first.slice(2);
        if (output === null) output = more.join('\n');
      } else input.command = shellFence.text;
    } else if (inline) input.command = inline;
    if (output === null) {
      const after = shellFence ? fences.slice(fences.indexOf(shellFence) + 1) : fences;
      if (after[0]) output = after[0].text;
    }
  } else if (file && input.path === undefined && input.file_path === undefined && input.target_file === undefined) input.path = unescape(file[1] as string).trim();
  else if ((kind === 'read' || kind === 'write') && inline && Object.keys(input).length === 0) input.path = inline.replace(/^\.\//, '');
  if (output === null && fences.length > 0 && kind !== 'shell' && sections.length === 0) output = (fences.at(-1) as Fence).text;
  // The old extension's blocks (a search's result table) show the result as the body itself.
  const shown = prose.replace(/<\/?details>/g, '').trim();
  if (output === null && name === null && shown !== '' && fences.length === 0) output = shown;
  if (output !== null && /^Error: /.test(output)) isError = true;
  if (Object.keys(input).length === 0 && summary !== '') input.summary = summary;
  return { name: toolName, type: kind, input, output, isError };
}

function splitFences(text: string): { fences: Fence[]; prose: string } {
  const fences: Fence[] = [];
  const prose: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*(`{3,}|~{3,})\s*([\w+-]*)\s*$/.exec(lines[i] as string);
    if (!open) {
      prose.push(lines[i] as string);
      continue;
    }
    const fence = open[1] as string;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && (lines[j] as string).trim() !== fence) body.push(lines[j++] as string);
    fences.push({ lang: (open[2] ?? '').toLowerCase(), text: body.join('\n') });
    i = j;
  }
  return { fences, prose: prose.join('\n') };
}

function fencePositions(text: string): { at: number; fence: Fence }[] {
  const out: { at: number; fence: Fence }[] = [];
  const re = /^\s*(`{3,}|~{3,})\s*([\w+-]*)\s*\n([\s\S]*?)\n\s*\1\s*$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ at: m.index, fence: { lang: (m[2] ?? '').toLowerCase(), text: m[3] as string } });
  return out;
}

function parseObject(text: string): JsonObject | null {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : null;
  } catch {
    return null;
  }
}

/** The old extension's summaries (no tool name): "Searched codebase …", "Grep search for …", "Read file: …", "Listed directory …". */
function classify(summary: string): string {
  if (/^Read file/.test(summary)) return 'read_file';
  if (/^Listed directory|^List directory/.test(summary)) return 'list_dir';
  if (/^Grep search/.test(summary)) return 'grep_search';
  if (/^Searched codebase/.test(summary)) return 'codebase_search';
  if (/^Searched web|^Searching the web/.test(summary)) return 'web_search';
  if (/^Searched files|^File search/.test(summary)) return 'file_search';
  return 'unknown';
}

function kindOf(summary: string): string {
  if (/^Read file/.test(summary)) return 'read';
  if (/^(Listed|List) directory|^Grep search|^Searched/.test(summary)) return 'search';
  if (/Run command/.test(summary)) return 'shell';
  return 'unknown';
}

/** SpecStory escapes `<`, `>`, `&` and quotes in summaries (html.EscapeString). */
function unescape(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}
