// The anchor of a recording [K6]: what a hash chain cannot see — lines cut off the end — is seen against a small
// file beside the recording, `<recording>.head`, that says how far the recording was written and answered:
//
//   {"format":"hookwire.head","version":1,"lines":N,"bytes":B,"head":"<the chain hash of line N>"}
//
// padded with spaces to a fixed size and rewritten in place (one pwrite at offset 0 of a block-sized file, so a
// kill -9 leaves the old anchor or the new one, never half of each). The order of writes is what makes it
// sound: a line is appended to the recording first, the anchor is updated second, and only then is the call
// answered. So
// - a crash between the append and the anchor leaves the recording LONGER than its anchor: those lines are kept
//   (they were decided, maybe not answered), and the anchor catches up at the next append;
// - a torn last line (no `\n`) is always past the anchor, never answered: it is cut, as before;
// - a recording SHORTER than its anchor (fewer bytes, or a line N that no longer carries the anchor's hash) lost
//   lines that were answered — a kill -9 followed by a truncation, a hand edit, a restore from an old backup —
//   and is refused fail-closed with an integrity error naming the file and the lines cut off, the file left as
//   it is; `hookwire verify` says the same, and an operator re-admits it deliberately.
// With `--flush fsync` the recording is synced before the anchor is written, so a power loss cannot leave the
// anchor ahead; with the default `write`, a power loss can (the recording is then refused until re-admitted).
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { lineChainHash } from '../../trace/hashChain.ts';
import { lineBefore } from '../lineBefore.ts';
import { IntegrityError } from './recordingErrors.ts';

/** How far a recording was written and answered: its non-blank lines, its bytes, and line N's chain hash. */
export interface Anchor {
  lines: number;
  bytes: number;
  head: string;
}

/** The anchor's file, beside the recording. */
export const anchorPathOf = (file: string): string => `${file}.head`;

const ANCHOR_FORMAT = 'hookwire.head';
/** The anchor's fixed size in bytes (its line padded with spaces, then `\n`): far below one disk sector. */
const ANCHOR_BYTES = 192;

/** The anchor's text: one JSON line padded to {@link ANCHOR_BYTES}. */
export function anchorText(a: Anchor): string {
  // JSON.stringify's text, written out (serve writes one anchor per event): safe integers and a hex hash need no escaping.
  const line = `{"format":"${ANCHOR_FORMAT}","version":1,"lines":${a.lines},"bytes":${a.bytes},"head":"${a.head}"}`;
  return `${line.padEnd(ANCHOR_BYTES - 1, ' ')}\n`;
}

/** The anchor a text holds, or null when it is not one. */
export function parseAnchor(text: string): Anchor | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (v === null || typeof v !== 'object') return null;
  const { format, lines, bytes, head } = v as Record<string, unknown>;
  if (format !== ANCHOR_FORMAT || !Number.isSafeInteger(lines) || !Number.isSafeInteger(bytes) || typeof head !== 'string' || !/^[0-9a-f]{64}$/.test(head)) return null;
  if ((lines as number) < 1 || (bytes as number) < 1) return null;
  return { lines: lines as number, bytes: bytes as number, head };
}

/** The recording's anchor; null when it has none. An anchor that is there but unreadable is an IntegrityError. */
export async function readAnchor(file: string): Promise<Anchor | null> {
  let text: string;
  try {
    text = await readFile(anchorPathOf(file), 'utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return null;
    throw new IntegrityError(`integrity error: the anchor ${anchorPathOf(file)} of the recording ${file} cannot be read (${err instanceof Error ? err.message : String(err)}), so its session fails closed`);
  }
  const a = parseAnchor(text);
  if (!a) throw new IntegrityError(`integrity error: the anchor ${anchorPathOf(file)} of the recording ${file} is not an anchor (${JSON.stringify(text.slice(0, 60))}), so its session fails closed`);
  return a;
}

/** Writes the anchor over the old one, synchronously: one pwrite at offset 0 of the anchor's open file. */
export function writeAnchorAt(fd: number, a: Anchor): void {
  const text = anchorText(a);
  // ASCII, one byte a character: the string is written as it is, without a Buffer (a short write, rare on a
  // regular file, goes on from where it stopped).
  const wrote = writeSync(fd, text, 0, 'latin1');
  if (wrote === text.length) return;
  const buf = Buffer.from(text, 'latin1');
  for (let off = wrote; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off, off);
}

/** Opens (creating) a recording's anchor for {@link writeAnchorAt}. */
export function openAnchor(file: string): number {
  return openSync(anchorPathOf(file), constants.O_RDWR | constants.O_CREAT, 0o600);
}

/** Writes a recording's anchor once (open, write, close). */
export function writeAnchor(file: string, a: Anchor): void {
  const fd = openAnchor(file);
  try {
    writeAnchorAt(fd, a);
  } finally {
    closeSync(fd);
  }
}

/** Why a recording does not reach its anchor: the first line it lacks (or line N, rewritten), and a sentence. */
export interface AnchorProblem {
  line: number;
  message: string;
}

/**
 * Why a recording of `size` whole bytes (a torn last line not counted) does not reach its anchor, or null when
 * it does: every answered line is still there, line N carrying the anchor's hash. The sentence names the file
 * and the lines; it is the same for `hookwire serve`, `claude-hook --record` and `hookwire verify`.
 */
export async function anchorProblem(file: string, size: number, a: Anchor): Promise<AnchorProblem | null> {
  if (size < a.bytes) {
    const kept = size === 0 ? 0 : await countLines(file, size);
    return { line: kept + 1, message: `integrity error: the recording ${file} has ${kept} lines but ${a.lines} were written and answered (its anchor ${anchorPathOf(file)}): lines ${kept + 1} to ${a.lines} were cut off` };
  }
  const line = await lineEndingAt(file, a.bytes);
  if (line === null || lineChainHash(line) !== a.head) return { line: a.lines, message: `integrity error: the recording ${file} was rewritten: line ${a.lines} (ending at byte ${a.bytes}) does not carry the hash written there (its anchor ${anchorPathOf(file)})` };
  return null;
}

/** Non-blank lines in the first `size` bytes of a file (only on the refusal path). */
async function countLines(file: string, size: number): Promise<number> {
  const fh = await open(file, 'r');
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    let lines = 0;
    let blank = true;
    for (let pos = 0; pos < size; ) {
      const { bytesRead } = await fh.read(chunk, 0, Math.min(chunk.length, size - pos), pos);
      if (bytesRead === 0) break;
      for (let i = 0; i < bytesRead; i++) {
        const b = chunk[i]!;
        if (b === 0x0a) {
          if (!blank) lines++;
          blank = true;
        } else if (b !== 0x20 && b !== 0x0d && b !== 0x09) blank = false;
      }
      pos += bytesRead;
    }
    return lines;
  } finally {
    await fh.close();
  }
}

/** The line whose `\n` is the byte before `end` (without it, nor a `\r` before it); null when that byte is not a `\n`. */
async function lineEndingAt(file: string, end: number): Promise<string | null> {
  const fh = await open(file, 'r');
  try {
    const last = Buffer.alloc(1);
    await fh.read(last, 0, 1, end - 1);
    if (last[0] !== 0x0a) return null;
    return (await lineBefore(fh, end - 1)).text.replace(/\r$/, '');
  } finally {
    await fh.close();
  }
}
