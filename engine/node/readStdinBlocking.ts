// A blocking read of stdin for the forwarding command (serve/forwardMain.ts): a module of its own, so that the
// deciding hook call's bundles, which read stdin as a stream under their deadline, do not load node:net here.
import { fstatSync, readSync, type Stats } from 'node:fs';
import { Socket, type SocketConstructorOpts } from 'node:net';
import { CliError } from './cliIo.ts';
import { MAX_STDIN_BYTES, streamRest } from './readStdin.ts';

/**
 * readStdin.ts's readStdin with read(2)s outside the event loop: no stream and no event-loop turns, ~3 ms less of a
 * forwarded hook call's CPU on Node 20 (docs/speed.md).
 *
 * With `deadlineAt` (ms since the epoch) the read ends there: a stdin that never ends (an agent that keeps it open,
 * or never writes) throws a CliError at the deadline, which the caller answers fail-closed [P12]. A timer cannot fire
 * during a blocking read(2), so stdin is made non-blocking first (a pipe or a socket; a file or a device never
 * waits on a writer) and read in a loop that sleeps between empty reads (Atomics.wait: the thread sleeps, no
 * event-loop turn), 1 ms at first, doubling to 16 ms. On Windows stdin stays blocking: there the read has no deadline.
 *
 * `deadlineReason`: the CliError's message at the deadline, in place of this one's.
 *
 * Without `deadlineAt` the process waits in read(2) until stdin ends, and a stdin that is already non-blocking
 * (EAGAIN) is read on as a stream from where this stopped.
 */
export async function readStdinBlocking(limit: number = MAX_STDIN_BYTES, deadlineAt?: number, deadlineReason?: string): Promise<string> {
  const kind = stdinStat();
  // A terminal gives no input. Only a character device can be one, so node:tty (~0.3 ms) loads only for those.
  if (kind?.isCharacterDevice() && process.getBuiltinModule('node:tty').isatty(0)) return '';
  if (deadlineAt !== undefined && kind && (kind.isFIFO() || kind.isSocket())) makeNonBlocking();
  const chunks: Buffer[] = [];
  let size = 0;
  let nap = 1;
  const buf = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' && deadlineAt === undefined) return streamRest(chunks, size, limit);
      if (code === 'EAGAIN') {
        const left = deadlineAt! - Date.now();
        if (left <= 0) throw new CliError(deadlineReason ?? `stdin did not end before the hook's deadline (${size} bytes read): the agent must close it after the input`);
        sleep(Math.min(nap, left));
        nap = Math.min(nap * 2, 16);
        continue;
      }
      if (code === 'EOF') break; // Windows' end of a pipe
      throw err;
    }
    if (n === 0) break;
    nap = 1;
    size += n;
    if (size > limit) throw new CliError(`stdin is larger than ${limit} bytes`);
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

const napCell = new Int32Array(new SharedArrayBuffer(4));
/** Sleeps the thread for `ms` (nothing wakes it early: nothing else holds the buffer). */
function sleep(ms: number): void {
  Atomics.wait(napCell, 0, 0, ms);
}

/**
 * Sets O_NONBLOCK on stdin when it is a pipe or a socket (an agent's spawn gives one or the other: Node's, a socket
 * pair), through the one public way Node has: a net.Socket on fd 0, created without reading (`manualStart`, as
 * Node's own process.stdin does), which libuv's uv_pipe_open makes non-blocking. Reading stays with readSync. Its
 * cost is mostly compiling net.Socket's code, which the call's HTTP request compiles anyway.
 */
function makeNonBlocking(): void {
  if (process.platform === 'win32') return;
  try {
    held.push(new Socket({ fd: 0, readable: true, writable: false, manualStart: true } as SocketConstructorOpts));
  } catch {
    // Not a stream Node can open (an unknown handle type): read as before, without a deadline.
  }
}

/** fd 0's kind, or null when it cannot be stat'ed (closed). */
function stdinStat(): Stats | null {
  try {
    return fstatSync(0);
  } catch {
    return null;
  }
}
// Held so the handle is not collected while fd 0 is read.
const held: Socket[] = [];
