// The one backward line reader of the recording code (engine/node/lineBefore.ts) and the chain tail read through
// it (chainedFile.ts lastLineOf) [K3][K6][P17]: for any bytes, any offset and any chunk size, reading back gives
// what a forward split of the file's bytes gives.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { lastLineOf } from '../../../engine/node/chainedFile.ts';
import { lineBefore, lineStartBefore } from '../../../engine/node/lineBefore.ts';

const dir = mkdtempSync(join(tmpdir(), 'hookwire-linebefore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function fileOf(bytes: Uint8Array): string {
  const path = join(dir, `f${n++}`);
  writeFileSync(path, bytes);
  return path;
}

// Bytes rich in what matters here: newlines, `\r`, spaces, and a multi-byte character (é, 0xc3 0xa9).
const piece = fc.constantFrom(
  Buffer.from('\n'),
  Buffer.from('\r'),
  Buffer.from(' '),
  Buffer.from('a'),
  Buffer.from('{"k":1}'),
  Buffer.from('é'),
);
const fileBytes = fc.array(piece, { maxLength: 40 }).map((parts) => Buffer.concat(parts));

describe('lineBefore [K3][K6][P17]', () => {
  it('the line ending at any offset is what a forward split of the bytes before it has last, for any chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fileBytes.chain((bytes) => fc.tuple(fc.constant(bytes), fc.nat({ max: bytes.length }), fc.integer({ min: 1, max: 9 }))),
        async ([bytes, end, chunk]) => {
          const fh = await open(fileOf(bytes), 'r');
          try {
            const expectedStart = bytes.subarray(0, end).lastIndexOf(0x0a) + 1;
            expect(await lineStartBefore(fh, end, chunk)).toBe(expectedStart);
            const { start, text } = await lineBefore(fh, end, chunk);
            expect(start).toBe(expectedStart);
            expect(text).toBe(bytes.subarray(0, end).toString('utf8').split('\n').at(-1));
          } finally {
            await fh.close();
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('lastLineOf: the last line with text, without trailing `\\r` and spaces; null for a blank or missing file', async () => {
    await fc.assert(
      fc.asyncProperty(fileBytes, async (bytes) => {
        const lines = bytes
          .toString('utf8')
          .split('\n')
          .map((line) => line.replace(/[\r ]+$/, ''))
          .filter((line) => line !== '');
        expect(await lastLineOf(fileOf(bytes))).toBe(lines.at(-1) ?? null);
      }),
      { numRuns: 300 },
    );
    expect(await lastLineOf(join(dir, 'missing'))).toBeNull();
  });

  it('reads a line longer than a chunk whole, across chunk edges', async () => {
    const long = 'x'.repeat(200 * 1024) + 'é';
    const path = fileOf(Buffer.from(`first\n${long}\n\r\n  \n`));
    expect(await lastLineOf(path)).toBe(long);
  });
});
