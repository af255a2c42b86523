// Records of the id indexes [T6][R5] in a temporary file, so a CLI pass over a long trace keeps only
// typed arrays in memory (engine/model/idIndex.ts). The file is unlinked as soon as it is open (POSIX keeps
// it until the descriptor closes), so a killed process leaves nothing behind.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spilledIdIndex, type IdIndex, type RecordStore } from '../model/idIndex.ts';

/** Bytes gathered before one write. */
const BUFFER_BYTES = 1 << 20;
/** The top bit of a record's length word: its bytes are UTF-16LE, not UTF-8. */
const UTF16_RECORD = 0x80000000;
/** A surrogate not in a pair (with the u flag a pair is one code point, outside Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

export interface Spill {
  /** A new empty index whose records go to this spill's file. */
  index<V>(): IdIndex<V>;
  /** Records an importer holds to the end of a document (ImportStreamOptions.spool), in the same file. */
  readonly records: RecordStore;
  /** Closes (and, where unlinking an open file is not allowed, removes) the file. */
  close(): void;
}

/** Opens a spill file in the system's temporary directory. `const s = openSpill(); try { … s.index() … } finally { s.close(); }` */
export function openSpill(dir = tmpdir()): Spill {
  const file = openTempFile('hookwire-spill-', dir);
  const store = fileRecordStore(file.fd);
  return {
    index: <V>() => spilledIdIndex<V>(store),
    records: store,
    close: file.close,
  };
}

/**
 * A new empty file for reading and writing, unlinked at once where the system allows it (POSIX keeps it until
 * the descriptor closes, so a killed process leaves nothing behind); `close()` closes it (and removes it where
 * it could not be unlinked while open).
 */
export function openTempFile(prefix: string, dir = tmpdir()): { fd: number; close(): void } {
  const folder = mkdtempSync(join(dir, prefix));
  const path = join(folder, 'data');
  const fd = openSync(path, 'w+');
  let removed = false;
  try {
    unlinkSync(path);
    rmSync(folder, { recursive: true, force: true });
    removed = true;
  } catch {
    // Windows: an open file cannot be unlinked; close() removes it.
  }
  return {
    fd,
    close() {
      closeSync(fd);
      if (!removed) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Length-prefixed UTF-8 records (UTF-16 for a string UTF-8 cannot carry) appended to `fd`, each padded to 8 bytes so that a handle (offset / 8) fits
 * the index's 32 bits up to 32 GiB of records; the tail not yet written is read from the buffer.
 */
function fileRecordStore(fd: number): RecordStore {
  const buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  let used = 0;
  let flushed = 0;
  const flush = (): void => {
    let done = 0;
    while (done < used) done += writeSync(fd, buffer, done, used - done, flushed + done);
    flushed += used;
    used = 0;
  };
  const readAt = (offset: number, length: number): Buffer => {
    const out = Buffer.allocUnsafe(length);
    if (offset >= flushed) {
      buffer.copy(out, 0, offset - flushed, offset - flushed + length);
      return out;
    }
    let done = 0;
    while (done < length) {
      const n = readSync(fd, out, done, length - done, offset + done);
      if (n === 0) throw new Error(`spill file: record at ${offset} is cut short`);
      done += n;
    }
    return out;
  };
  /** Appends a record whose bytes are made already, `flags` in its length word's top bit. */
  const appendBytes = (bytes: Buffer, flags: number): number => {
    const padded = (4 + bytes.length + 7) & ~7;
    if (used + padded > BUFFER_BYTES) flush();
    const offset = flushed + used;
    if (padded > BUFFER_BYTES) {
      // A record larger than the buffer is written on its own.
      const big = Buffer.alloc(padded);
      big.writeUInt32LE((bytes.length | flags) >>> 0, 0);
      bytes.copy(big, 4);
      let done = 0;
      while (done < big.length) done += writeSync(fd, big, done, big.length - done, flushed + done);
      flushed += big.length;
    } else {
      buffer.writeUInt32LE((bytes.length | flags) >>> 0, used);
      bytes.copy(buffer, used + 4);
      used += padded;
    }
    return offset / 8;
  };
  const store: RecordStore = {
    append(text) {
      // UTF-8 cannot carry a lone surrogate (JSON allows "\ud800" in an id): such a record is kept as UTF-16, which
      // holds any string, so it reads back as it was written [T6].
      if (LONE_SURROGATE.test(text)) return appendBytes(Buffer.from(text, 'utf16le'), UTF16_RECORD);
      // Most records are short: written straight into the buffer when they fit however they encode (3 bytes
      // at most per UTF-16 unit), and measured by the write; others are encoded first.
      if (4 + 3 * text.length + 8 <= BUFFER_BYTES - used) {
        const length = buffer.write(text, used + 4);
        buffer.writeUInt32LE(length, used);
        const offset = flushed + used;
        used += (4 + length + 7) & ~7;
        return offset / 8;
      }
      return appendBytes(Buffer.from(text, 'utf8'), 0);
    },
    appendPair(head, tail) {
      // An import adds a record for every event id and key: an ASCII one is copied byte by byte here, with no
      // string made for it and no call into the UTF-8 encoder (which were ~2% of a Claude Code import's CPU
      // samples); a record with any other character goes through append.
      const length = head.length + 1 + tail.length;
      if (4 + length + 8 <= BUFFER_BYTES - used && asciiInto(buffer, used + 4, head, tail)) {
        buffer.writeUInt32LE(length, used);
        const offset = flushed + used;
        used += (4 + length + 7) & ~7;
        return offset / 8;
      }
      return store.append(`${head}\u0000${tail}`);
    },
    read(handle) {
      const offset = handle * 8;
      const word = readAt(offset, 4).readUInt32LE(0);
      return readAt(offset + 4, word & ~UTF16_RECORD).toString(word & UTF16_RECORD ? 'utf16le' : 'utf8');
    },
  };
  return store;
}

/** Writes `head`, a NUL and `tail` at `at` when every character is ASCII (their UTF-8 is then one byte each); false (and what was written is left to be overwritten) at the first other character. */
function asciiInto(buffer: Buffer, at: number, head: string, tail: string): boolean {
  let p = at;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (c > 0x7f) return false;
    buffer[p++] = c;
  }
  buffer[p++] = 0;
  for (let i = 0; i < tail.length; i++) {
    const c = tail.charCodeAt(i);
    if (c > 0x7f) return false;
    buffer[p++] = c;
  }
  return true;
}
