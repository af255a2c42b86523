// The files a backtest reads: each file argument as given, each folder walked recursively in name order.
// Version-control and package folders are not sessions, so `.git` and `node_modules` are not entered; links
// to folders are not followed (a link cycle would never end), links to files are read.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CliError, fileErrorText } from '../cliIo.ts';

const NOT_ENTERED: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** The files under the arguments, in argument order then name order; a missing argument is a CliError (exit 2). */
export async function walkTraceFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    let s;
    try {
      s = await stat(p);
    } catch (err) {
      throw new CliError(`cannot read ${p}: ${fileErrorText(err)}`);
    }
    if (s.isDirectory()) await walk(p, out);
    else out.push(p);
  }
  return out;
}

async function walk(dir: string, out: string[]): Promise<void> {
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
      if (!NOT_ENTERED.has(e.name)) await walk(full, out);
    } else if (e.isFile() || e.isSymbolicLink()) {
      if (e.isSymbolicLink()) {
        const target = await stat(full).catch(() => null);
        if (target?.isDirectory()) continue;
      }
      out.push(full);
    }
  }
}
