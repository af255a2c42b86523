// A blocking read of stdin for the forwarding command (serve/forwardMain.ts): a module of its own, so that the
// deciding hook call's bundles, which read stdin as a stream under their deadline, do not load node:tty.
import { readSync } from 'node:fs';
import { isatty } from 'node:tty';
import { CliError } from './cliIo.ts';
import { MAX_STDIN_BYTES, streamRest } from './readStdin.ts';

/**
 * readStdin.ts's readStdin with blocking read(2)s where stdin allows them: no stream and no event-loop turns, ~3 ms less
 * of a forwarded hook call's CPU on Node 20 (docs/speed.md). Only for a caller that has no timer running while it
 * reads: the process waits in read(2) until stdin ends. The forwarding command is one (its deadline starts after the
 * input, as it did with the stream); the deciding hook call is not (its deadline covers the read, [P12]). A stdin
 * that is non-blocking (EAGAIN) is read on as a stream from where this stopped.
 */
export async function readStdinBlocking(limit: number = MAX_STDIN_BYTES): Promise<string> {
  if (isatty(0)) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  const buf = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') return streamRest(chunks, size, limit);
      if (code === 'EOF') break; // Windows' end of a pipe
      throw err;
    }
    if (n === 0) break;
    size += n;
    if (size > limit) throw new CliError(`stdin is larger than ${limit} bytes`);
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

