// Integrity of recordings on restart [SV8][K1]-[K3]: a session is rebuilt only from a recording whose hash chain
// holds and which still has every line the server wrote. A chain shows an edited, removed, inserted or moved
// line, but not lines cut off the end; so when a session leaves memory (and at start and shutdown) the server
// keeps the recording's line count and last hash beside it, in <state-dir>/heads/ — a recording shorter than
// that, or whose line there carries another hash, was truncated or rewritten. Either is refused fail-closed with
// an integrity error naming the file and line: never served from the edited state, so a truncation cannot give
// back a spent budget. An operator re-admits such a recording deliberately (POST /v1/traces/<id>/readmit with a
// reason); the re-admission is appended to <state-dir>/readmissions.jsonl and holds for that break only.
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { lineChainHash, type ChainReport } from '../../trace/hashChain.ts';

/** What the server last knew of a recording: its non-blank line count and the last line's hash. */
export interface RecordingHead {
  lines: number;
  head: string;
}

/** One deliberate re-admission, as readmissions.jsonl holds it. */
export interface Readmission {
  trace_id: string;
  file: string;
  at: string;
  reason: string;
  /** The integrity error that was overridden. */
  problem: string;
  /** The line the chain broke at (null: a truncation or rewrite of the end). */
  broken_line: number | null;
}

export class Integrity {
  private readonly heads: string;
  /** Re-admitted breaks, by recording file name: the chain's first broken line that was accepted. */
  private readonly readmitted = new Map<string, number | null>();

  constructor(private readonly stateDir: string) {
    this.heads = join(stateDir, 'heads');
  }

  async start(): Promise<void> {
    await mkdir(this.heads, { recursive: true, mode: 0o700 });
    const text = await readFile(join(this.stateDir, 'readmissions.jsonl'), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const r = JSON.parse(line) as Readmission;
        this.readmitted.set(r.file, r.broken_line);
      } catch {
        // A torn last line of a re-admission that was never answered: it re-admitted nothing.
      }
    }
  }

  /** Why the recording must not be used (an integrity error naming the file and line), or null. */
  async problem(file: string, chain: ChainReport): Promise<string | null> {
    const name = basename(file);
    if (chain.status === 'broken') {
      const at = chain.broken!.line;
      if (this.readmitted.has(name) && this.readmitted.get(name) === at) return null;
      return `integrity error: the recording ${file} was changed at line ${at} (${chain.broken!.reason}), so its session fails closed; check it with \`hookwire verify ${file}\`, and re-admit it deliberately with POST /v1/traces/<id>/readmit`;
    }
    if (chain.status !== 'intact') return null;
    const known = await this.head(file);
    if (!known) return null;
    const cut = `integrity error: the recording ${file} has ${chain.lines} lines but the server wrote ${known.lines}`;
    if (chain.lines < known.lines) return `${cut}: lines ${chain.lines + 1} to ${known.lines} were cut off, so its session fails closed (a truncated recording would forget decisions and budgets); re-admit it deliberately with POST /v1/traces/<id>/readmit`;
    const at = chain.lines === known.lines ? chain.head : await hashOfLine(file, known.lines);
    if (at !== known.head) return `integrity error: the recording ${file} was rewritten: line ${known.lines} does not carry the hash the server wrote there, so its session fails closed; re-admit it deliberately with POST /v1/traces/<id>/readmit`;
    return null;
  }

  /** Keeps a recording's line count and last hash (a chained recording only). */
  async remember(file: string, head: RecordingHead | null): Promise<void> {
    if (!head) return;
    const to = join(this.heads, basename(file));
    await writeFile(`${to}.tmp`, `${JSON.stringify(head)}\n`, { mode: 0o600 });
    await rename(`${to}.tmp`, to);
  }

  /** Records a deliberate re-admission and accepts the recording as it is now. */
  async readmit(r: Readmission, now: RecordingHead | null): Promise<void> {
    await appendFile(join(this.stateDir, 'readmissions.jsonl'), `${JSON.stringify(r)}\n`, { mode: 0o600 });
    this.readmitted.set(r.file, r.broken_line);
    await this.remember(join(this.heads, r.file), now);
  }

  private async head(file: string): Promise<RecordingHead | null> {
    try {
      const h = JSON.parse(await readFile(join(this.heads, basename(file)), 'utf8')) as RecordingHead;
      return Number.isInteger(h.lines) && typeof h.head === 'string' ? h : null;
    } catch {
      return null;
    }
  }
}

/** The chain hash the n-th non-blank line of a file carries (1-based). */
async function hashOfLine(file: string, n: number): Promise<string | null> {
  let seen = 0;
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    if (line.trim() === '') continue;
    if (++seen === n) return lineChainHash(line);
  }
  return null;
}
