// The command adapter's lock around read → decide → append (proper-lockfile: an atomic mkdir of
// `<recording>.lock`, refreshed while held, taken over when its holder died and it went stale). Without it,
// parallel hook calls each replay the same old recording and all pass a budget that should stop them.
//
// A holder that is alive but starved (a loaded machine: its refresh timer did not run for STALE_MS) looks dead,
// and another call takes the lock over; proper-lockfile tells the old holder only at its next refresh, after
// it may have appended. So every holder is fenced: right after taking the lock it writes a token of its own to
// `<recording>.lock.owner`, and right before it appends (synchronously, nothing in between) `fence()` checks
// that the token is still its own and that its lock was refreshed recently enough that nobody could have taken
// it over. A holder that lost its lock, or may be about to, writes nothing and fails closed.
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import { RecordingError } from './recordingFile.ts';

/** How long a hook call waits for the lock before failing closed (ms). */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** A lock not refreshed for this long belongs to a dead process and is taken over (proper-lockfile's minimum is 2 s). */
export const STALE_MS = 4000;
/**
 * `fence()` refuses once the lock is this close to going stale: to be taken over between the fence and the
 * append, the holder would have to stall this long between two consecutive system calls.
 */
const FENCE_MARGIN_MS = 1000;

/** Checks, synchronously, that the lock is still held and fresh: call it right before writing. Throws RecordingError. */
export type Fence = () => void;

/** Where a holder's token is kept, beside the lock directory (proper-lockfile removes the directory with rmdir, so it must stay empty). */
export const ownerFileOf = (path: string): string => `${path}.lock.owner`;

/**
 * Runs `fn` holding the recording's lock; throws RecordingError (fail closed) when it cannot be had in time,
 * and the signal's reason once `signal` is aborted (the call has been answered: it stops waiting). `fn` gets the
 * fence, which it must call right before each write, with no `await` between the fence and the write.
 */
export async function withRecordingLock<T>(path: string, timeoutMs: number, fn: (fence: Fence) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let compromised: Error | null = null;
  let release: (() => Promise<void>) | null = null;
  for (let attempt = 0; release === null; attempt++) {
    signal?.throwIfAborted();
    try {
      release = await lockfile.lock(path, { realpath: false, stale: STALE_MS, retries: 0, onCompromised: (err) => void (compromised = err) });
    } catch (err) {
      if ((err as { code?: string }).code !== 'ELOCKED') throw new RecordingError(`cannot lock the recording ${path}: ${err instanceof Error ? err.message : String(err)}`);
      if (Date.now() >= deadline) throw new RecordingError(`the recording ${path} stayed locked by another hook call for ${timeoutMs} ms`);
      // Jittered short waits: 32 parallel calls of ~10 ms each must not wait in lockstep.
      await new Promise((r) => setTimeout(r, 2 + Math.random() * Math.min(25, 3 + attempt)));
    }
  }
  const owner = ownerFileOf(path);
  const token = randomUUID();
  const ownerNow = (): string | null => {
    try {
      return readFileSync(owner, 'utf8');
    } catch {
      return null;
    }
  };
  const fence: Fence = () => {
    if (compromised) throw new RecordingError(`the lock on ${path} was lost before writing: ${(compromised as Error).message}; nothing was written`);
    if (ownerNow() !== token) throw new RecordingError(`the lock on ${path} was taken over by another hook call while this one was starved for ${STALE_MS} ms or more; nothing was written`);
    let age: number;
    try {
      age = Date.now() - statSync(`${path}.lock`).mtimeMs;
    } catch (err) {
      throw new RecordingError(`the lock on ${path} is gone (${err instanceof Error ? err.message : String(err)}); nothing was written`);
    }
    if (age > STALE_MS - FENCE_MARGIN_MS) throw new RecordingError(`the lock on ${path} was last refreshed ${Math.round(age)} ms ago, too near the ${STALE_MS} ms after which another call may take it over (this process was starved); nothing was written`);
  };
  try {
    try {
      // Written whole under another name, then renamed: a fence never reads half a token.
      writeFileSync(`${owner}.${token}`, token, { mode: 0o600 });
      renameSync(`${owner}.${token}`, owner);
    } catch (err) {
      rmSync(`${owner}.${token}`, { force: true });
      throw new RecordingError(`cannot mark the lock on ${path} as this call's: ${err instanceof Error ? err.message : String(err)}`);
    }
    const out = await fn(fence);
    if (compromised) throw new RecordingError(`the lock on ${path} was lost while deciding: ${(compromised as Error).message}`);
    return out;
  } finally {
    // Only our own token is removed: after a takeover the file is the new holder's.
    if (ownerNow() === token) {
      try {
        unlinkSync(owner);
      } catch {
        // Already gone: nothing to clean.
      }
    }
    await release().catch(() => undefined);
  }
}
