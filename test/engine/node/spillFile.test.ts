import { readdirSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});
