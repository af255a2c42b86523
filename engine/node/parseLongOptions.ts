// A strict subset of node:util's parseArgs (strict mode) for the hook calls' own entries (hookMain.ts,
// serve/forwardMain.ts), which run once per tool call: parseArgs loads two of Node's internal modules, ~1 ms of a
// call's CPU on Node 20 (docs/speed.md). It reads long options (`--name value`, `--name=value`, `--flag`) and plain
// positionals. Anything else is null, as is everything parseArgs refuses, and the caller hands the call to the full
// CLI as it did when parseArgs threw; where it answers, it answers as parseArgs does (its test compares the two).

/** Option names and their types, as parseArgs' `options` without the objects. */
export type LongOptions = Readonly<Record<string, 'string' | 'boolean'>>;

/**
 * The values and positionals of `argv`, or null: not only long options and positionals (`--`, `-x`, `-`), an
 * unknown option, a string option's value missing or starting with `-` (parseArgs refuses that too), a flag with
 * `=`, or a positional where none is allowed.
 * @example parseLongOptions(['--server', 'http://127.0.0.1:4180'], { server: 'string' }, false) // { values: { server: 'http://127.0.0.1:4180' }, positionals: [] }
 */
export function parseLongOptions(argv: readonly string[], options: LongOptions, allowPositionals: boolean): { values: Record<string, string | boolean>; positionals: string[] } | null {
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) {
      if (!allowPositionals) return null;
      positionals.push(arg);
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') return null;
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const type = Object.hasOwn(options, name) ? options[name] : undefined;
    if (type === 'boolean' && eq < 0) values[name] = true;
    else if (type === 'string' && eq >= 0) values[name] = arg.slice(eq + 1);
    else if (type === 'string' && i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) values[name] = argv[++i]!;
    else return null;
  }
  return { values, positionals };
}
