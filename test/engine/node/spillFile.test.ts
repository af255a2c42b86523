import { readdirSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openSpill } from '../../../engine/node/spillFile.ts';

describe('openSpill', () => {
  it('[R5] reads back every record, in the buffer or on disk, small, multi-byte and larger than the buffer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hw-spill-test-'));
    const spill = openSpill(dir);
    try {
      // The file is unlinked once open: nothing is left in the directory, even if the process is killed.
      expect(readdirSync(dir)).toEqual([]);
      const index = spill.index<{ text: string; n: number }>();
      const big = 'ß'.repeat(700_000); // 1.4 MB of UTF-8: past the 1 MiB write buffer
      const text = (i: number) => (i === 5000 ? big : `p${i} é ${'x'.repeat(i % 300)} \u{1F600}`);
      for (let i = 0; i < 20_000; i++) index.set(`id-${i}`, { text: text(i), n: i });
      for (const i of [0, 1, 4999, 5000, 5001, 12_345, 19_999]) expect(index.get(`id-${i}`)).toEqual({ text: text(i), n: i });
      expect(index.get('id-20000')).toBeUndefined();
      // Two indexes share one file and never see each other's ids.
      const other = spill.index<number>();
      other.set('id-1', 1);
      expect(other.get('id-2')).toBeUndefined();
      expect(index.get('id-1')).toEqual({ text: text(1), n: 1 });
    } finally {
      spill.close();
    }
  });

  it('[R5][I3][T6] ids of any characters (ASCII ones are copied byte by byte, others encoded) read back as a Map answers, across buffer flushes', () => {
    // Short ASCII ids, ids with NULs, multi-byte characters, long ones that fill the 1 MiB buffer, and lone
    // surrogates (JSON allows "\ud800"; UTF-8 cannot carry one, so such a record is kept as UTF-16), also in a
    // record larger than the buffer.
    const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
    const withSurrogates = fc.string({ unit: fc.oneof(fc.constantFrom('a', 'é', '\u{1F600}'), loneSurrogate), maxLength: 8 });
    const id = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }), withSurrogates, fc.constantFrom('\u0000', 'a\u0000b', 'é', '\ud800', '\udc00', '\ufffd', 'x'.repeat(300_000), `${'x'.repeat(600_000)}\ud800`));
    const op = fc.tuple(fc.constantFrom('add', 'set', 'get'), id, fc.integer({ min: -3, max: 1e9 }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const spill = openSpill();
        try {
          const index = spill.index<number>();
          const map = new Map<string, number>();
          for (const [kind, key, value] of ops) {
            if (kind === 'add') {
              const had = map.get(key);
              if (had === undefined) map.set(key, value);
              expect(index.addIfAbsent?.(key, value)).toBe(had);
            } else if (kind === 'set') {
              map.set(key, value);
              index.set(key, value);
            } else expect(index.get(key)).toBe(map.get(key));
          }
          for (const key of map.keys()) expect(index.get(key)).toBe(map.get(key));
          expect(index.size).toBe(map.size);
        } finally {
          spill.close();
        }
      }),
      { numRuns: 200 },
    );
  });
});
