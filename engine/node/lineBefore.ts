// The one backward line reader of the recording code: the line that ends at a byte offset of a file, found by
// reading back from that offset in chunks (a recording can be gigabytes; only its end is read). It answers for
// where an appending writer's hash chain continues (chainedFile.ts) [K3], the line an anchor names (serve/
// recordingAnchor.ts) [K6], and the torn last line that is cut off a recording (serve/recordingFile.ts) [P17].
// Offsets are bytes and a line is split on the byte `\n` only, so a multi-byte UTF-8 character (never holding a
// 0x0a byte) is never cut, and a `\r` stays in the line for the caller to judge.
import type { FileHandle } from 'node:fs/promises';

/** Bytes read per step back. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Where the line ending at byte `end` of an open file starts: just past the last `\n` before `end`, 0 when there
 * is none. The line is the bytes `[start, end)`: what a forward `split('\n')` of the file's first `end` bytes
 * has last. `chunkBytes` is how much is read per step (only tests pass it).
 */
export async function lineStartBefore(fh: FileHandle, end: number, chunkBytes = CHUNK_BYTES): Promise<number> {
  const chunk = Buffer.alloc(Math.max(1, Math.min(chunkBytes, end)));
  for (let stop = end; stop > 0; ) {
    const start = Math.max(0, stop - chunk.length);
    const { bytesRead } = await fh.read(chunk, 0, stop - start, start);
    const nl = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (nl !== -1) return start + nl + 1;
    stop = start;
  }
  return 0;
}

/** The line ending at byte `end` of an open file (see `lineStartBefore`) and where it starts; decoded as UTF-8 whole. */
export async function lineBefore(fh: FileHandle, end: number, chunkBytes = CHUNK_BYTES): Promise<{ start: number; text: string }> {
  const start = await lineStartBefore(fh, end, chunkBytes);
  const bytes = Buffer.alloc(end - start);
  const { bytesRead } = await fh.read(bytes, 0, bytes.length, start);
  return { start, text: bytes.subarray(0, bytesRead).toString('utf8') };
}
