import fc from 'fast-check';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodedChunks } from '../../../engine/node/decodedChunks.ts';

// [T3] The reader takes decoded text; the file's bytes are decoded by decodedChunks, which copies all-ASCII chunks
// as Latin-1 and decodes the others. The text must be exactly what Node's UTF-8 stream decoding gives, for any
// bytes (multi-byte characters cut by a chunk's end, invalid sequences, a cut character at the end of the file).

const dir = mkdtempSync(join(tmpdir(), 'hw-decoded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function both(bytes: Uint8Array, chunkBytes: number): Promise<[string, string[]]> {
  const path = join(dir, `f${n++}`);
  writeFileSync(path, bytes);
  let expected = '';
  for await (const c of createReadStream(path, { encoding: 'utf8', highWaterMark: chunkBytes })) expected += c as string;
  const got: string[] = [];
  for await (const c of decodedChunks(path, chunkBytes)) got.push(c);
  return [expected, got];
}

// Runs of ASCII, multi-byte characters (2, 3 and 4 bytes), and stray bytes that are not UTF-8.
const piece = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => Buffer.from(s, 'latin1').filter((b) => b < 0x80)),
  fc.constantFrom('é', '€', '𝄞', '日本').map((s) => Buffer.from(s, 'utf8')),
  fc.constantFrom([0x80], [0xc3], [0xe2, 0x82], [0xf0, 0x9d, 0x84], [0xff]).map((b) => Buffer.from(b)),
);
const bytesArb = fc.array(piece, { maxLength: 40 }).map((ps) => new Uint8Array(Buffer.concat(ps)));

describe('decodedChunks [T3]', () => {
  it('[T3] gives the text a UTF-8 read stream gives, for any bytes and any chunk size, never an empty chunk', async () => {
    await fc.assert(
      fc.asyncProperty(bytesArb, fc.integer({ min: 1, max: 9 }), async (bytes, chunkBytes) => {
        const [expected, got] = await both(bytes, chunkBytes);
        expect(got.join('')).toBe(expected);
        expect(got.every((c) => c.length > 0)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('[T3] an ASCII chunk after one that ends in the first byte of a character that never completes gives the replacement character', async () => {
    // e2 starts a 3-byte character; the decoder holds it until the ASCII chunk after it shows it was cut.
    const bytes = Buffer.concat([Buffer.from('ab'), Buffer.from([0xe2]), Buffer.from('cd')]);
    const [expected, got] = await both(bytes, 3);
    expect(got.join('')).toBe('ab\ufffdcd');
    expect(got.join('')).toBe(expected);
  });

  it('[T3] a character cut by a chunk\'s end is kept whole', async () => {
    const [expected, got] = await both(Buffer.from('ab€cd𝄞e'), 3);
    expect(got.join('')).toBe('ab€cd𝄞e');
    expect(got.join('')).toBe(expected);
  });

  it('[T3] a file that ends inside a character ends in the replacement character, as the stream does', async () => {
    const [expected, got] = await both(Buffer.from([0x61, 0xe2, 0x82]), 2);
    expect(got.join('')).toBe('a\ufffd');
    expect(got.join('')).toBe(expected);
  });

  it('[T3] a file that cannot be read throws, and breaking out of the loop closes it', async () => {
    await expect(async () => {
      for await (const c of decodedChunks(join(dir, 'missing'), 16)) void c;
    }).rejects.toThrow(/ENOENT/);
    const path = join(dir, 'long');
    writeFileSync(path, 'x'.repeat(1000));
    let seen = 0;
    for await (const c of decodedChunks(path, 10)) {
      seen += c.length;
      break;
    }
    expect(seen).toBe(10);
  });

  it('[T3] lets the event loop run while it reads a long file (a server reading a recording goes on answering)', async () => {
    const path = join(dir, 'three-mib');
    writeFileSync(path, 'x'.repeat(3 * 1024 * 1024));
    let ranAt = -1;
    let read = 0;
    setImmediate(() => (ranAt = read));
    for await (const c of decodedChunks(path, 1 << 16)) read += c.length;
    expect(read).toBe(3 * 1024 * 1024);
    expect(ranAt).toBeGreaterThan(0);
    expect(ranAt).toBeLessThan(read);
  });
});
