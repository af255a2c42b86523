// A write to a recording that fails (full disk, read-only file system, I/O error) is a fault of the disk, not of
// one session: while it lasts every session fails closed, new ones included (a new trace must not be created on
// a disk that cannot hold its first line). The fault heals by itself: a probe write in the sessions folder (at
// most once a second, on traffic or on a timer) that succeeds ends it, and the gap — from, to, the reason and
// how many events were refused — is appended to `<state-dir>/faults.jsonl` and kept for /health [SV6].
import { constants } from 'node:fs';
import { access, appendFile, open, statfs, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** One healed fault: what /health lists and faults.jsonl holds. */
export interface FaultGap {
  kind: 'write_fault';
  from: string;
  to: string;
  reason: string;
  /** Events and new traces answered 503 during the fault. */
  refused: number;
}

/** How often a fault is probed (ms): one small write a second costs nothing and heals within a second. */
const PROBE_EVERY_MS = 1000;
/** A probe writes a page, so a disk with a few bytes left (not enough for a line) still counts as full. */
const PROBE_BYTES = 4096;
/**
 * A new trace is refused when the disk has less than this free: its header and first line must fit, and a
 * trace that is created only to fail at its first event would answer 201 on a full disk.
 */
const MIN_FREE_BYTES = 64 * 1024;
/** Gaps kept for /health (the file has them all). */
const KEEP_GAPS = 20;

export class WriteFault {
  /** The open fault, or null when writes work. */
  current: { reason: string; since: number; refused: number } | null = null;
  readonly gaps: FaultGap[] = [];
  total = 0;
  private lastProbe = 0;
  private probing: Promise<boolean> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly dir: string,
    private readonly stateDir: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Opens a fault (or counts into the open one) after a failed write. */
  enter(err: unknown): string {
    const reason = err instanceof Error ? err.message : String(err);
    if (!this.current) {
      this.current = { reason, since: Date.now(), refused: 0 };
      this.total++;
      this.lastProbe = Date.now();
      this.log(`hookwire serve: writing a recording failed (${reason}): every session fails closed until the disk takes writes again`);
      this.timer = setInterval(() => void this.healed(), PROBE_EVERY_MS);
      this.timer.unref();
    }
    this.current.refused++;
    return this.refusal();
  }

  /** The 503 reason while the fault is open. */
  refusal(): string {
    return `the server cannot write recordings (${this.current?.reason ?? 'unknown'}), so it fails closed for every session until writes work again`;
  }

  /** Whether writes work (probing an open fault at most once a second); counts a refusal when they do not. */
  async writable(): Promise<boolean> {
    if (!this.current) return true;
    if (await this.healed()) return true;
    this.current.refused++;
    return false;
  }

  /**
   * Whether a new trace can be created: writes work, the folder is writable (a read-only file system says so
   * to access(2)) and has room. A check that fails opens the fault, so the answer is the same for every session.
   */
  async canCreate(): Promise<boolean> {
    if (!(await this.writable())) return false;
    const problem = await this.roomProblem();
    if (problem === null) return true;
    this.enter(new Error(problem));
    return false;
  }

  private async roomProblem(): Promise<string | null> {
    try {
      await access(this.dir, constants.W_OK);
      const fs = await statfs(this.dir);
      const free = fs.bavail * fs.bsize;
      return free < MIN_FREE_BYTES ? `ENOSPC: ${free} bytes free in ${this.dir}, under the ${MIN_FREE_BYTES} a new trace needs` : null;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private healed(): Promise<boolean> {
    if (!this.current) return Promise.resolve(true);
    if (this.probing) return this.probing;
    if (Date.now() - this.lastProbe < PROBE_EVERY_MS) return Promise.resolve(false);
    this.lastProbe = Date.now();
    this.probing = this.probe().finally(() => (this.probing = null));
    return this.probing;
  }

  private async probe(): Promise<boolean> {
    const file = join(this.dir, `.probe-${process.pid}`);
    try {
      const fh = await open(file, 'w', 0o600);
      try {
        await fh.write(Buffer.alloc(PROBE_BYTES, 0x20));
        await fh.sync();
      } finally {
        await fh.close();
      }
      await unlink(file);
    } catch {
      await unlink(file).catch(() => undefined);
      return false;
    }
    // Room for a new trace too, or the next one would open the fault again at once.
    if ((await this.roomProblem()) !== null) return false;
    const f = this.current!;
    const gap: FaultGap = { kind: 'write_fault', from: new Date(f.since).toISOString(), to: new Date().toISOString(), reason: f.reason, refused: f.refused };
    this.current = null;
    this.close();
    this.gaps.push(gap);
    if (this.gaps.length > KEEP_GAPS) this.gaps.shift();
    this.log(`hookwire serve: recordings can be written again; the gap ${gap.from} – ${gap.to} (${gap.refused} refused) is in faults.jsonl`);
    // The gap is recorded once the disk takes writes; if this line fails, the log above still has it.
    await appendFile(join(this.stateDir, 'faults.jsonl'), `${JSON.stringify(gap)}\n`, { mode: 0o600 }).catch((err) => this.log(`hookwire serve: could not record the gap in faults.jsonl: ${String(err)}`));
    return true;
  }
}
