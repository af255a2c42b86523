// A file's text in chunks, decoded as UTF-8 exactly as a `createReadStream(path, { encoding: 'utf8' })` would,
// for the trace reader and the import pipeline (readTraceFile.ts). Node 20 decodes UTF-8 through V8 at about a
// quarter of the speed it copies Latin-1: an all-ASCII chunk (most of a JSON Lines recording, whose JSON often
// escapes what is not ASCII) is the same text either way, so it is copied as Latin-1 (measured: 265 ms against
// 73 ms for 48 MB; 8% of an import's CPU samples was the decoder). Other chunks go through the decoder, which
// keeps a character cut by a chunk's end whole.
import { isAscii } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/**
 * The text of `path` in chunks of about `chunkBytes` bytes; never an empty chunk. Breaking out of the loop closes
 * the file. `for await (const text of decodedChunks('run.jsonl', 1 << 20)) reader.push(text);`
 */
export async function* decodedChunks(path: string, chunkBytes: number): AsyncGenerator<string, void, undefined> {
  const stream = createReadStream(path, { highWaterMark: chunkBytes });
  const decoder = new StringDecoder('utf8');
  // The decoder may hold the first bytes of a character the last chunk cut: only a chunk that ended in a byte
  // of a multi-byte character can have left any, so after one ending in ASCII the next ASCII chunk is copied.
  let mayHold = false;
  try {
    for await (const bytes of stream as AsyncIterable<Buffer>) {
      if (bytes.length === 0) continue;
      let text: string;
      if (!mayHold && isAscii(bytes)) text = bytes.toString('latin1');
      else {
        text = decoder.write(bytes);
        mayHold = (bytes[bytes.length - 1] as number) >= 0x80;
      }
      if (text !== '') yield text;
    }
    const rest = decoder.end();
    if (rest !== '') yield rest;
  } finally {
    stream.destroy();
  }
}
