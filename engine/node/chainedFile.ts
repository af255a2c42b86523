// Node byte source for the hash chain [K1][K3]: where an existing file's chain ends (its last line), so an
// appending writer continues it. The chain itself is pure (engine/trace/hashChain.ts).
import { open } from 'node:fs/promises';
import { chainTailOf, type ChainTail } from '../trace/hashChain.ts';

/** The last non-blank line of a file (without its `\n`), null when the file is missing or has none; read backwards. */
export async function lastLineOf(path: string): Promise<string | null> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const size = (await fh.stat()).size;
    const parts: Buffer[] = [];
    const chunk = Buffer.alloc(64 * 1024);
    let end = size;
    // Skip the trailing newline(s), then gather bytes back to the previous newline.
    let started = false;
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await fh.read(chunk, 0, end - start, start);
      let buf = chunk.subarray(0, bytesRead);
      if (!started) {
        let e = buf.length;
        while (e > 0 && (buf[e - 1] === 0x0a || buf[e - 1] === 0x0d || buf[e - 1] === 0x20)) e--;
        buf = buf.subarray(0, e);
        if (e > 0) started = true;
      }
      const nl = buf.lastIndexOf(0x0a);
      if (started && nl !== -1) {
        parts.unshift(Buffer.from(buf.subarray(nl + 1)));
        break;
      }
      parts.unshift(Buffer.from(buf));
      end = start;
    }
    const line = Buffer.concat(parts).toString('utf8');
    return line === '' ? null : line;
  } finally {
    await fh.close();
  }
}

/** Where the chain of the file at `path` ends: a writer appending to it continues from here [K3]. */
export async function chainTailOfFile(path: string): Promise<ChainTail> {
  return chainTailOf(await lastLineOf(path));
}
