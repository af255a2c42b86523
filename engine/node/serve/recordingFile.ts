// Crash-safe recordings: append-only trace v1 files that the server and the command adapter rebuild state
// from. The rules (README "Recordings"): a line is written whole, with its `\n`, before its decision is
// returned; a last line without `\n` is a torn write (the event it held was never answered) and is cut off,
// never glued to the next line; any other line that cannot be read — too long, not JSON, not an event — fails
// the session closed, because skipping it could forget a TERMINATE or a budget count.
import { closeSync, constants, writeSync } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { lineStartBefore } from '../lineBefore.ts';
import { readTraceFile } from '../readTraceFile.ts';
import { DEFAULT_MAX_LINE_CHARS } from '../../trace/traceReader.ts';
import type { TraceEvent, TraceHeader } from '../../trace/traceTypes.ts';
import { verifyChain, type ChainReport } from '../../trace/hashChain.ts';
import { describeContent, detectTraceFormat, TRACE_FORMAT_LABELS } from '../../trace/detectTraceFormat.ts';
import { anchorPathOf, anchorProblem, openAnchor, readAnchor, writeAnchorAt, type Anchor } from './recordingAnchor.ts';

/** Longest recording line, in UTF-16 characters: the reader's own limit, so whatever is written can be read. */
export const MAX_RECORD_LINE_CHARS = DEFAULT_MAX_LINE_CHARS;

import { IntegrityError, RecordingError } from './recordingErrors.ts';
export { IntegrityError, RecordingError };

export interface RecordingContents {
  header: TraceHeader;
  events: TraceEvent[];
  /** Bytes cut off the end (a torn last line), 0 when the file ended cleanly. */
  cut: number;
  /** The file's size after that cut: where the next line is appended. */
  size: number;
  /** The hash chain's check [K2]; `chain.tail` is where a writer appending to the file continues [K3]. */
  chain: ChainReport;
}

export interface ReadRecordingOptions {
  maxLineChars?: number;
  /**
   * Check the recording against its anchor `<file>.head` before anything is cut [K6] (default true): one that
   * lost answered lines is an IntegrityError, the file left as it is. False reads it as it now is (a re-admission).
   */
  anchor?: boolean;
}

/**
 * Reads a recording for rebuilding state. null: the file does not exist or is empty (a new session) — unless
 * its anchor says lines were written to it. A torn last line is cut off the file first (it is past the anchor:
 * never answered). Throws RecordingError for anything that is not a clean trace v1 file, IntegrityError for one
 * shorter than its anchor.
 */
export async function readRecording(path: string, options: ReadRecordingOptions = {}): Promise<RecordingContents | null> {
  const { maxLineChars = MAX_RECORD_LINE_CHARS, anchor: checkAnchor = true } = options;
  const anchor = checkAnchor ? await readAnchor(path) : null;
  let size: number;
  try {
    const st = await lstat(path);
    // A FIFO, a device (/dev/zero) or a symlink is not a recording: reading one could hang or read elsewhere.
    if (!st.isFile()) throw new RecordingError(`the recording ${path} is not a regular file`);
    size = st.size;
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOENT') throw err instanceof RecordingError ? err : new RecordingError(`cannot read the recording ${path}: ${errorText(err)}`);
    // A recording removed whole lost every line its anchor counts.
    if (anchor) throw new IntegrityError(`integrity error: the recording ${path} is gone but ${anchor.lines} lines were written and answered (its anchor ${anchorPathOf(path)}): lines 1 to ${anchor.lines} were cut off, so its session fails closed`);
    return null;
  }
  // Before anything is cut: a file whose header is torn, or that is not a Hookwire trace at all (another
  // agent's transcript given by mistake), is refused as it is — cutting its last line would change a file that
  // is not ours (#29).
  if (size > 0) await checkHead(path, size);
  // [K6] Every line that was answered must still be there; a torn tail past them is cut, one that reaches into
  // them is not (the file is left as it is).
  let keepTail = false;
  if (anchor) {
    const whole = size - (await tornTailBytes(path, size));
    const problem = await anchorProblem(path, whole, anchor);
    // A changed line also moves the lines after it: then the chain names the first line that changed [K4][SV8],
    // and the caller refuses the recording for that (nothing is cut).
    if (problem && !(await chainBrokenIn(path, whole))) throw new IntegrityError(`${problem.message}, so its session fails closed (a truncated recording would forget decisions and budgets); the file was left as it is — check it with \`hookwire verify ${path}\``);
    keepTail = problem !== null;
  }
  const cut = keepTail ? 0 : await cutTornTail(path, size);
  if (size - cut === 0) return null;
  const r = await readTraceFile(path, { maxLineChars });
  const bad = r.problems.filter((p) => p.severity === 'error');
  if (!r.header || bad.length > 0) {
    const first = bad[0] ?? r.problems[0];
    const where = first && first.line > 0 ? `line ${first.line}: ` : '';
    const more = bad.length > 1 ? ` (and ${bad.length - 1} more bad line${bad.length > 2 ? 's' : ''})` : '';
    if (!r.header) throw new RecordingError(`the recording ${path} is not a Hookwire trace, so its session fails closed: ${first?.message ?? 'no header'}`);
    throw new RecordingError(`the recording ${path} has a line that cannot be read, so its session fails closed (skipping it could forget a decision): ${where}${first?.code}: ${first?.message}${more}`);
  }
  return { header: r.header, events: r.events, cut, size: size - cut, chain: r.chain };
}

/** Whether the hash chain of a file's first `bytes` bytes is broken (only on the refusal path: it reads them whole). */
async function chainBrokenIn(path: string, bytes: number): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return verifyChain(buf.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '')).status === 'broken';
  } finally {
    await fh.close();
  }
}

/** Longest header line looked at (a header is a few hundred bytes). */
const MAX_HEAD_BYTES = 1024 * 1024;

/**
 * The recording's first line must be a whole trace v1 header; else RecordingError, the file untouched. A file
 * with no newline at all is a header cut off mid-write (never completed, so no event was ever answered from it).
 */
async function checkHead(path: string, size: number): Promise<void> {
  const fh = await open(path, 'r');
  let head: string;
  try {
    const buf = Buffer.alloc(Math.min(size, MAX_HEAD_BYTES));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
  const nl = head.indexOf('\n');
  if (nl === -1) {
    if (size > MAX_HEAD_BYTES) throw new RecordingError(`the recording ${path} has no line break in its first ${MAX_HEAD_BYTES} bytes: it is not a Hookwire trace, so its session fails closed (the file was left as it is)`);
    throw new RecordingError(`the recording ${path} has a cut-off header (its first line has no end: ${JSON.stringify(head.slice(0, 80))}…), so its session fails closed; the file was left as it is — move it away to start a new recording`);
  }
  const first = head.slice(0, nl).replace(/^\uFEFF/, '').trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(first);
  } catch {
    parsed = null;
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && (parsed as { format?: unknown }).format === 'hookwire.trace') return;
  const d = detectTraceFormat(head);
  const what = d.format ? `it is ${TRACE_FORMAT_LABELS[d.format]}` : `its first line is not a trace v1 header (${describeContent(head)})`;
  throw new RecordingError(`the recording ${path} is not a Hookwire trace: ${what}, so its session fails closed; the file was left as it is (give --record a new file, or import this one with hookwire import)`);
}

/** Cuts a last line that has no `\n` (a torn write) off the file; returns the bytes cut. */
export async function cutTornTail(path: string, size: number): Promise<number> {
  return tornTail(path, size, true);
}

/** The bytes of a last line that has no `\n` (a torn write), 0 when the file ends with one; nothing is cut. */
export function tornTailBytes(path: string, size: number): Promise<number> {
  return tornTail(path, size, false);
}

async function tornTail(path: string, size: number, cut: boolean): Promise<number> {
  if (size === 0) return 0;
  const fh = await open(path, cut ? 'r+' : 'r');
  try {
    const last = Buffer.alloc(1);
    await fh.read(last, 0, 1, size - 1);
    if (last[0] === 0x0a) return 0;
    const keep = await lineStartBefore(fh, size);
    if (cut) {
      await fh.truncate(keep);
      await fh.sync();
    }
    return size - keep;
  } finally {
    await fh.close();
  }
}

/** When a written line is made durable (README "Recordings"). */
export type FlushPolicy = 'write' | 'fsync';

/** An open recording: lines are appended whole (O_APPEND), in call order. */
export interface RecordingWriter {
  /**
   * Appends `text` (`bytes` long in UTF-8), then (when given) writes the recording's anchor [K6]: the call is
   * answered after both. `write` policy: done when it returns (null); `fsync`: when the promise resolves.
   */
  append(text: string, bytes: number, anchor?: Anchor): Promise<void> | null;
  close(): Promise<void>;
}

/**
 * Opens a recording for appending. `write`: each line is handed to the kernel with one write(2) before the
 * call returns, so it survives the process being killed (kill -9, a crash); `fsync`: also fdatasync(2), so it
 * survives power loss, at the cost of a disk flush per event.
 */
export async function openRecordingWriter(path: string, policy: FlushPolicy): Promise<RecordingWriter> {
  const fh = await open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
  let anchorFd: number | null = null;
  return {
    append(text, bytes, anchor) {
      // A synchronous write(2): a line of a few hundred bytes into the page cache takes microseconds, while
      // handing it to libuv's thread pool and back cost a thread wake-up and a context switch per event —
      // most of serve's CPU per event on a busy machine (a profile at 50 sessions: ~40% of samples in the
      // pool hand-off). An error still throws here, so the caller fails closed as before. The string is
      // written as it is (Node encodes it on its stack); a short write, rare on a regular file, goes on
      // from where it stopped.
      const wrote = writeSync(fh.fd, text, null, 'utf8');
      if (wrote !== bytes) {
        const buf = Buffer.from(text, 'utf8');
        for (let off = wrote; off < buf.length; ) off += writeSync(fh.fd, buf, off, buf.length - off);
      }
      // [K6] The anchor after the line (and after its sync): it never says more than the recording holds.
      if (policy === 'fsync') {
        return fh.datasync().then(() => {
          if (anchor) writeAnchorAt((anchorFd ??= openAnchor(path)), anchor);
        });
      }
      if (anchor) writeAnchorAt((anchorFd ??= openAnchor(path)), anchor);
      return null;
    },
    async close() {
      if (anchorFd !== null) closeSync(anchorFd);
      anchorFd = null;
      await fh.close();
    },
  };
}

/** Refuses a line the reader would not read back (so it can never be written and then skipped). */
export function checkLineLength(line: string, maxLineChars = MAX_RECORD_LINE_CHARS): void {
  const chars = line.endsWith('\n') ? line.length - 1 : line.length;
  if (chars > maxLineChars) throw new RecordingError(`the event is ${chars} characters as a recording line, past the limit of ${maxLineChars}: it is refused (failing closed) rather than written and lost`);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
