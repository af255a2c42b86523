// A file's text in chunks, decoded as UTF-8 exactly as a `createReadStream(path, { encoding: 'utf8' })` would,
// for the trace reader and the import pipeline (readTraceFile.ts). Two things cost more than they need to there:
// - Node 20 decodes UTF-8 through V8 at about a quarter of the speed it copies Latin-1: an all-ASCII chunk (most of
//   a JSON Lines recording, whose JSON often escapes what is not ASCII) is the same text either way, so it is
//   copied as Latin-1 (265 against 73 ms for 48 MB; the decoder was 8% of an import's CPU samples). Other chunks go
//   through the decoder, which keeps a character cut by a chunk's end whole.
// - A read stream's machinery per 64 KiB chunk (a promise, a buffer, the thread pool's round trip) cost 115–140 ms
//   of CPU for a 50 MB file against 20–27 ms for `readSync` into one buffer (7.9% of a Codex import's samples).
//   The file is read synchronously, and every 1 MiB the loop yields to the event loop (a server reading a
//   recording goes on answering).
import { isAscii } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** Bytes read between two turns of the event loop. */
const YIELD_BYTES = 1 << 20;

/**
 * The text of `path` in chunks of at most `chunkBytes` bytes; never an empty chunk. Breaking out of the loop closes
 * the file. `for await (const text of decodedChunks('run.jsonl', 1 << 16)) reader.push(text);`
 */
export async function* decodedChunks(path: string, chunkBytes: number): AsyncGenerator<string, void, undefined> {
  const fd = openSync(path, 'r');
  const decoder = new StringDecoder('utf8');
  // The decoder may hold the first bytes of a character the last chunk cut: only a chunk that ended in a byte
  // of a multi-byte character can have left any, so after one ending in ASCII the next ASCII chunk is copied.
  let mayHold = false;
  let sinceYield = 0;
  try {
    // One buffer for every read: a chunk's text is a copy, and the decoder keeps its own copy of a cut character.
    const buffer = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const n = readSync(fd, buffer, 0, chunkBytes, null);
      if (n === 0) break;
      const bytes = n === chunkBytes ? buffer : buffer.subarray(0, n);
      let text: string;
      if (!mayHold && isAscii(bytes)) text = bytes.toString('latin1');
      else {
        text = decoder.write(bytes);
        mayHold = (bytes[n - 1] as number) >= 0x80;
      }
      if (text !== '') yield text;
      if ((sinceYield += n) >= YIELD_BYTES) {
        sinceYield = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    const rest = decoder.end();
    if (rest !== '') yield rest;
  } finally {
    closeSync(fd);
  }
}
