import type { JsonObject } from '../../model/json.ts';

/** SWE-agent's own commands (old, non-function-calling format); any other first word is a bash command. */
export const SWE_COMMANDS: readonly string[] = [
  'open', 'goto', 'scroll_up', 'scroll_down', 'create', 'submit', 'search_dir', 'search_file', 'find_file',
  'edit', 'insert', 'filemap', 'exit_forfeit', 'skip',
];

/**
 * Command names documented in a SWE-agent system prompt (`COMMANDS:` then `name:` / `  docstring:`
 * blocks), so a trajectory configured with extra commands still maps them as tools.
 */
export function commandsFromSystemPrompt(prompt: string): string[] {
  const out: string[] = [];
  const re = /^([A-Za-z_][A-Za-z0-9_]*):\n[ \t]+docstring:/gm;
  for (let m = re.exec(prompt); m; m = re.exec(prompt)) out.push(m[1] as string);
  return out;
}

/**
 * Parses an old-format action string into a tool call [I6]. A SWE-agent command becomes
 * `{ tool_name: <command>, tool_input: { command, args, text? } }`: `args` are the words of the first line
 * (quotes removed), `text` the lines after it up to `end_of_edit`. Anything else is a shell command:
 * `{ tool_name: "bash", tool_input: { command } }`, the same shape as the function-calling format's bash.
 *
 * @example parseSweAction('rm reproduce_bug.py\n', cmds) → { tool_name: 'bash', tool_input: { command: 'rm reproduce_bug.py' } }
 */
export function parseSweAction(action: string, commands: ReadonlySet<string>): { tool_name: string; tool_input: JsonObject } {
  const command = action.replace(/\s+$/, '').replace(/^\s+/, '');
  const nl = command.indexOf('\n');
  const firstLine = nl === -1 ? command : command.slice(0, nl);
  const words = splitWords(firstLine);
  const name = words[0] ?? '';
  if (!commands.has(name)) return { tool_name: 'bash', tool_input: { command } };
  const input: JsonObject = { command, args: words.slice(1) };
  if (nl !== -1) {
    const body = command.slice(nl + 1).split('\n');
    if (body[body.length - 1]?.trim() === 'end_of_edit') body.pop();
    input.text = body.join('\n');
  }
  return { tool_name: name, tool_input: input };
}

/** Splits a command line into words: spaces separate, "double" and 'single' quotes group. */
export function splitWords(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let any = false;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      any = true;
    } else if (ch === ' ' || ch === '\t') {
      if (cur !== '' || any) out.push(cur);
      cur = '';
      any = false;
    } else cur += ch;
  }
  if (cur !== '' || any) out.push(cur);
  return out;
}
