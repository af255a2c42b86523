// Node byte source for the hash chain [K1][K3]: where an existing file's chain ends (its last line), so an
// appending writer continues it. The chain itself is pure (engine/trace/hashChain.ts).
import { open } from 'node:fs/promises';
import { lineBefore } from './lineBefore.ts';
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
    // Step back over blank lines (only `\r` and spaces) to the last one with text; its trailing `\r` and spaces
    // are not part of it.
    for (let end = (await fh.stat()).size; end > 0; ) {
      const { start, text } = await lineBefore(fh, end);
      const line = text.replace(/[\r ]+$/, '');
      if (line !== '') return line;
      end = start - 1;
    }
    return null;
  } finally {
    await fh.close();
  }
}

/** Where the chain of the file at `path` ends: a writer appending to it continues from here [K3]. */
export async function chainTailOfFile(path: string): Promise<ChainTail> {
  return chainTailOf(await lastLineOf(path));
}
