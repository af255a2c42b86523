// The command adapter's lock around read → decide → append (proper-lockfile: an atomic mkdir of
// `<recording>.lock`, refreshed while held, taken over when its holder died and it went stale). Without it,
// parallel hook calls each replay the same old recording and all pass a budget that should stop them.
import lockfile from 'proper-lockfile';
import { RecordingError } from './recordingFile.ts';

/** How long a hook call waits for the lock before failing closed (ms). */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** A lock not refreshed for this long belongs to a dead process and is taken over (proper-lockfile's minimum is 2 s). */
const STALE_MS = 4000;

/**
 * Runs `fn` holding the recording's lock; throws RecordingError (fail closed) when it cannot be had in time,
 * and the signal's reason once `signal` is aborted (the call has been answered: it stops waiting).
 */
export async function withRecordingLock<T>(path: string, timeoutMs: number, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
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
  try {
    const out = await fn();
    if (compromised) throw new RecordingError(`the lock on ${path} was lost while deciding: ${(compromised as Error).message}`);
    return out;
  } finally {
    await release().catch(() => undefined);
  }
}
