// The command adapter's lock around read → decide → append. Without it, parallel hook calls each replay the
// same old recording and all pass a budget that should stop them.
//
// The lock is held by the kernel, not judged by time [P13]: the holder binds a name that only one process at a
// time can bind — an abstract Unix socket on Linux, a named pipe on Windows (libuv creates it with
// FILE_FLAG_FIRST_PIPE_INSTANCE, so a second bind is EADDRINUSE) — derived from the recording's real path. The
// kernel releases it when the holder ends, however it ends (kill -9 included), and never while it lives,
// however long a code handler keeps its main thread busy in QuickJS or however loaded the machine is. So
// there is no staleness to judge and no takeover race: a live holder is never taken over, a dead one's lock is
// free at once. Writers of one recording must share the machine and its network namespace (a recording on a
// network file system written from two machines is not excluded; use HOOKWIRE_RECORDING_LOCK=file there).
//
// Elsewhere (macOS, the BSDs), or with HOOKWIRE_RECORDING_LOCK=file, the lock is a file lock (proper-lockfile:
// an atomic mkdir of `<recording>.lock`, refreshed by a timer while held, taken over when it went stale). A
// holder whose timer is starved looks dead, so every holder is fenced: right after taking the lock it writes a
// token of its own to `<recording>.lock.owner`, and right before it appends `fence()` checks that the token is
// still its own and that the lock was refreshed recently enough that nobody could have taken it over; else it
// writes nothing and fails closed. That fallback depends on load (docs/code-limits.md).
import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { RecordingError } from './recordingFile.ts';

/**
 * How long a hook call waits for the file lock before failing closed (ms). The kernel-held lock has no such
 * default: a live holder is deciding, so a call waits for it until its own hook deadline [P12] answers.
 */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** The file lock: one not refreshed for this long belongs to a dead process and is taken over (proper-lockfile's minimum is 2 s). */
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
 * Runs `fn` holding the recording's lock; throws RecordingError (fail closed) when it cannot be had within
 * `timeoutMs` (default: no limit for the kernel-held lock, {@link DEFAULT_LOCK_TIMEOUT_MS} for the file lock),
 * and the signal's reason once `signal` is aborted (the call has been answered: it stops waiting). `fn` gets the
 * fence, which it must call right before each write, with no `await` between the fence and the write.
 */
export function withRecordingLock<T>(path: string, timeoutMs: number | undefined, fn: (fence: Fence) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const name = process.env.HOOKWIRE_RECORDING_LOCK === 'file' ? null : kernelLockName(path);
  return name === null ? withFileLock(path, timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS, fn, signal) : withKernelLock(path, name, timeoutMs ?? Infinity, fn, signal);
}

/**
 * The kernel-held lock's name for a recording (its real directory and file name, hashed), or null on a platform
 * without one. Two spellings of one path (relative, through a symlinked folder) get the same name.
 */
export function kernelLockName(path: string, platform: NodeJS.Platform = process.platform): string | null {
  if (platform !== 'linux' && platform !== 'win32') return null;
  const abs = resolve(path);
  let dir: string;
  try {
    dir = realpathSync(dirname(abs));
  } catch {
    dir = dirname(abs);
  }
  const hash = createHash('sha256').update(join(dir, basename(abs))).digest('hex').slice(0, 40);
  return platform === 'linux' ? `\0hookwire-recording-lock-${hash}` : `\\\\.\\pipe\\hookwire-recording-lock-${hash}`;
}

/** Binds the lock's name: the server that holds it, or null when another process holds it. */
function bindName(name: string): Promise<Server | null> {
  return new Promise((resolveBind, reject) => {
    const server = createServer();
    // Nobody is meant to connect; a local process that does is hung up on (it must not keep this one alive).
    server.on('connection', (socket) => socket.destroy());
    server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolveBind(null) : reject(err)));
    server.listen({ path: name, exclusive: true }, () => {
      server.unref();
      resolveBind(server);
    });
  });
}

/** Waits a short, jittered while (longer the longer it waited): parallel calls of ~10 ms each must not retry in lockstep. */
const backOff = (attempt: number) => new Promise((r) => setTimeout(r, 2 + Math.random() * Math.min(100, 3 + attempt)));

async function withKernelLock<T>(path: string, name: string, timeoutMs: number, fn: (fence: Fence) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let held: Server | null = null;
  for (let attempt = 0; held === null; attempt++) {
    signal?.throwIfAborted();
    try {
      held = await bindName(name);
    } catch (err) {
      throw new RecordingError(`cannot lock the recording ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (held) break;
    if (Date.now() >= deadline) throw new RecordingError(`the recording ${path} stayed locked by another hook call for ${timeoutMs} ms`);
    await backOff(attempt);
  }
  const server: Server = held;
  try {
    // Nothing can take a kernel-held lock from a live holder: the fence only checks it is still bound.
    return await fn(() => {
      if (!server.listening) throw new RecordingError(`the lock on ${path} was closed before writing; nothing was written`);
    });
  } finally {
    await new Promise<void>((done) => server.close(() => done()));
  }
}

/** The file lock (proper-lockfile, fenced): the fallback where no kernel-held name exists. */
async function withFileLock<T>(path: string, timeoutMs: number, fn: (fence: Fence) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const { default: lockfile } = await import('proper-lockfile');
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
      await backOff(attempt);
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
