// A file's differences on disk while it is backtested [B6]: every event of a 100k-event file may differ, and
// each difference holds both final payloads, so `--json` writes them here as they are found (the JSON text of
// each, comma-separated) and copies the file into the document when the file's entry is written. A worker
// thread writes, the main thread reads and removes; both find the file by its path.
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BacktestDifference } from '../../replay/backtest.ts';

/** Bytes gathered before one write. */
const BUFFER_CHARS = 1 << 20;

/** The folder of one run's difference files; `remove()` deletes it with whatever is left in it. */
export function openDifferenceFolder(dir = tmpdir()): { path: string; remove(): void } {
  const path = mkdtempSync(join(dir, 'hookwire-backtest-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface DifferenceWriter {
  write(d: BacktestDifference): void;
  /** Flushes and closes; returns the file's path. */
  close(): string;
}

let serial = 0;

/** A new difference file in `folder` (a name no other thread of the process uses: `tag` tells threads apart). */
export function createDifferenceWriter(folder: string, tag: string): DifferenceWriter {
  const path = join(folder, `${tag}-${++serial}.json`);
  const fd = openSync(path, 'w');
  let parts: string[] = [];
  let size = 0;
  let first = true;
  const flush = () => {
    if (parts.length === 0) return;
    writeSync(fd, parts.join(''));
    parts = [];
    size = 0;
  };
  return {
    write(d) {
      const text = `${first ? '' : ','}\n${JSON.stringify(d)}`;
      first = false;
      parts.push(text);
      size += text.length;
      if (size >= BUFFER_CHARS) flush();
    },
    close() {
      flush();
      closeSync(fd);
      return path;
    },
  };
}

/** Copies a difference file to `out` a chunk at a time (waiting for `drain` when given), then removes it. */
export async function copyDifferenceFile(path: string, out: (text: string) => void, drain?: () => Promise<void>): Promise<void> {
  try {
    for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
      out(chunk as string);
      if (drain) await drain();
    }
  } finally {
    rmSync(path, { force: true });
  }
}
