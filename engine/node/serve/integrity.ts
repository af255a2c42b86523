// Integrity of recordings on restart [SV8][K1]-[K3][K6]: a session is rebuilt only from a recording whose hash
// chain holds and which still has every line the server wrote and answered. A chain shows an edited, removed,
// inserted or moved line, but not lines cut off the end: those are seen against the recording's anchor,
// `<recording>.head`, written after every append (recordingAnchor.ts; readRecording refuses a recording shorter
// than its anchor). This class keeps the rest: a broken chain is refused fail-closed with an integrity error
// naming the file and line — never served from the edited state. An operator re-admits such a recording
// deliberately (POST /v1/traces/<id>/readmit with a reason); the re-admission is appended to
// <state-dir>/readmissions.jsonl, holds for that break only, and sets the anchor to the recording as it now is.
// Recordings of servers before the anchor were checked against <state-dir>/heads/ (kept when a session left
// memory): a recording without an anchor is still checked against it, once, before its anchor is written.
import { appendFile, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { lineChainHash, type ChainReport } from '../../trace/hashChain.ts';
import { anchorPathOf, writeAnchor, type Anchor } from './recordingAnchor.ts';
import { IntegrityError } from './recordingErrors.ts';
import { readRecording, type RecordingContents } from './recordingFile.ts';

/** What a server before the anchor last knew of a recording (<state-dir>/heads/): its line count and last hash. */
interface RecordingHead {
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
  /** Re-admitted breaks, by recording file name: the chain's first broken line that was accepted. */
  private readonly readmitted = new Map<string, number | null>();

  /** `readmissions`: the JSON Lines file of re-admissions; `heads`: the older servers' heads/ folder, if any. */
  constructor(private readonly readmissions: string, private readonly heads: string | null) {}

  /** hookwire serve's: `<state-dir>/readmissions.jsonl` for all its recordings, and `<state-dir>/heads/`. */
  static ofStateDir(stateDir: string): Integrity {
    return new Integrity(join(stateDir, 'readmissions.jsonl'), join(stateDir, 'heads'));
  }

  /** A recording of `claude-hook --record` (no state dir): its re-admissions beside it, `<recording>.readmissions.jsonl`. */
  static besideRecording(file: string): Integrity {
    return new Integrity(`${file}.readmissions.jsonl`, null);
  }

  async start(): Promise<void> {
    const text = await readFile(this.readmissions, 'utf8').catch(() => '');
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

  /**
   * Why the recording must not be used (an integrity error naming the file and line), or null. `anchored`: the
   * recording has an anchor, which readRecording has checked; else the older heads/ record is checked.
   */
  async problem(file: string, chain: ChainReport, anchored: boolean): Promise<string | null> {
    const name = basename(file);
    if (chain.status === 'broken') {
      const at = chain.broken!.line;
      if (this.readmitted.has(name) && this.readmitted.get(name) === at) return null;
      return `integrity error: the recording ${file} was changed at line ${at} (${chain.broken!.reason}), so its session fails closed; check it with \`hookwire verify ${file}\`, and re-admit it deliberately with POST /v1/traces/<id>/readmit`;
    }
    if (chain.status !== 'intact' || anchored) return null;
    const known = await this.head(file);
    if (!known) return null;
    const cut = `integrity error: the recording ${file} has ${chain.lines} lines but the server wrote ${known.lines}`;
    if (chain.lines < known.lines) return `${cut}: lines ${chain.lines + 1} to ${known.lines} were cut off, so its session fails closed (a truncated recording would forget decisions and budgets); re-admit it deliberately with POST /v1/traces/<id>/readmit`;
    const at = chain.lines === known.lines ? chain.head : await hashOfLine(file, known.lines);
    if (at !== known.head) return `integrity error: the recording ${file} was rewritten: line ${known.lines} does not carry the hash the server wrote there, so its session fails closed; re-admit it deliberately with POST /v1/traces/<id>/readmit`;
    return null;
  }

  /**
   * Records a deliberate re-admission and accepts the recording as it is now: its anchor is set to its end (or
   * removed, for a recording that is gone or unchained).
   */
  async readmit(r: Readmission, file: string, now: Anchor | null): Promise<void> {
    await appendFile(this.readmissions, `${JSON.stringify(r)}\n`, { mode: 0o600 });
    this.readmitted.set(r.file, r.broken_line);
    if (now) writeAnchor(file, now);
    else await rm(anchorPathOf(file), { force: true });
  }

  private async head(file: string): Promise<RecordingHead | null> {
    if (this.heads === null) return null;
    try {
      const h = JSON.parse(await readFile(join(this.heads, basename(file)), 'utf8')) as RecordingHead;
      return Number.isInteger(h.lines) && typeof h.head === 'string' ? h : null;
    } catch {
      return null;
    }
  }
}

/** A re-admission's outcome: the integrity error it overrode, or why nothing was re-admitted. */
export type ReadmitOutcome = { ok: true; problem: string } | { ok: false; status: 404 | 409; reason: string };

/**
 * Re-admits a recording refused for its integrity [K4][K6][SV8], deliberately: the one implementation behind serve's
 * POST /v1/traces/<id>/readmit and `hookwire readmit <recording>`. A recording with lines cut off below its anchor
 * is taken as it now is (a torn tail cut), a broken chain's break is accepted; the reason and the overridden error
 * are appended to the re-admissions file and the anchor is set to the recording's end. Refused (nothing changes):
 * a recording with no integrity error, or one that cannot be read at all.
 */
export async function readmitRecording(integrity: Integrity, file: string, who: { trace_id?: string; reason: string; at: string }): Promise<ReadmitOutcome> {
  let rec: RecordingContents | null;
  let problem: string | null = null;
  try {
    try {
      rec = await readRecording(file);
    } catch (err) {
      if (!(err instanceof IntegrityError)) throw err;
      // Lines cut off below the anchor: the recording is taken as it now is (a torn tail cut).
      problem = err.message;
      rec = await readRecording(file, { anchor: false });
    }
  } catch (err) {
    return { ok: false, status: 409, reason: `the recording cannot be read at all, so it cannot be re-admitted: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!rec && problem === null) return { ok: false, status: 404, reason: `there is no recording ${file}` };
  problem ??= await integrity.problem(file, rec!.chain, true);
  if (!problem) return { ok: false, status: 409, reason: `the recording ${file} has no integrity error: nothing to re-admit` };
  const trace_id = who.trace_id ?? rec?.header?.trace_id ?? '';
  await integrity.readmit({ trace_id, file: basename(file), at: who.at, reason: who.reason, problem, broken_line: rec?.chain.broken?.line ?? null }, file, rec ? anchorOf(rec) : null);
  return { ok: true, problem };
}

/** The anchor of a recording as it now is (null: unchained, nothing to anchor). */
export function anchorOf(rec: RecordingContents): Anchor | null {
  return rec.chain.tail.kind === 'chained' ? { lines: rec.chain.lines, bytes: rec.size, head: rec.chain.tail.head } : null;
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
