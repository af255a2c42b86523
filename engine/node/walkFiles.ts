// The files a command reads from its arguments: each file argument as given, each folder walked recursively in
// name order (by code unit, so the order does not depend on the locale). Version-control and package folders
// hold no sessions or tests, so `.git` and `node_modules` are not entered; links to folders are not followed (a
// link cycle would never end), links to files are read. `hookwire backtest` and `hookwire test` both walk here.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError, fileErrorText } from './cliIo.ts';
import { splitSessionPath } from './sqliteSessions.ts';

const NOT_ENTERED: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/**
 * The files under the arguments, in argument order then name order. Inside folders only names `keep` accepts
 * are listed (a file named as an argument is always kept); a missing argument is a CliError (exit 2).
 */
export async function walkFiles(paths: readonly string[], keep: (name: string) => boolean = () => true): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    let s;
    try {
      s = await stat(splitSessionPath(p).file); // `<database>#<session id>`: one session of an SQLite store [I22]
    } catch (err) {
      throw new CliError(`cannot read ${p}: ${fileErrorText(err)}`);
    }
    if (s.isDirectory()) await walk(p, keep, out);
    else out.push(p);
  }
  return out;
}

async function walk(dir: string, keep: (name: string) => boolean, out: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    throw new CliError(`cannot read folder ${dir}: ${fileErrorText(err)}`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (!NOT_ENTERED.has(e.name)) await walk(full, keep, out);
    } else if ((e.isFile() || e.isSymbolicLink()) && keep(e.name)) {
      if (e.isSymbolicLink()) {
        const target = await stat(full).catch(() => null);
        if (target?.isDirectory()) continue;
      }
      out.push(full);
    }
  }
}
