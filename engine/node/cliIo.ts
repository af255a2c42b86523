// Node-only helpers of the CLI: exit codes [P9], readable file errors, writing to stdout/stderr.
import { readFile } from 'node:fs';

/** [P9] 0: done; 1: the check failed (problems, failed tests, differences); 2: the command could not run. */
export const EXIT = { ok: 0, failed: 1, cannotRun: 2 } as const;

/** A failure the user can fix, with the exit code to end with. The message says where and why. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT.cannotRun) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Output of one command run; the CLI writes it (tests can call commands without a process). */
export interface Io {
  out(text: string): void;
  /** Bytes already encoded as UTF-8, written as they are (optional: a caller without it decodes them for `out`). */
  outBytes?(bytes: Uint8Array): void;
  err(text: string): void;
  /** Resolves when written output has gone out (a slow pipe holds it in memory until then). */
  drain?(): Promise<void>;
}

export const processIo: Io = {
  out: (text) => void process.stdout.write(text),
  outBytes: (bytes) => void process.stdout.write(bytes),
  err: (text) => void process.stderr.write(text),
  drain: () => (process.stdout.writableNeedDrain ? new Promise((resolve) => process.stdout.once('drain', resolve)) : Promise.resolve()),
};

/** Characters gathered before a buffered Io writes them out. */
const OUT_BUFFER_CHARS = 1 << 16;

/**
 * An Io whose stdout gathers small writes into one write per 64 Ki characters: a command that writes a line per
 * event (replay --json, import) made one write(2) per line, about a sixth of a replay's CPU. Order is kept:
 * stderr text and `drain` first send out what is gathered. Call `flush()` when the command ends.
 */
export function bufferedIo(io: Io): Io & { flush(): void } {
  let pending = '';
  const flush = (): void => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    io.out(text);
  };
  return {
    out(text) {
      pending += text;
      if (pending.length >= OUT_BUFFER_CHARS) flush();
    },
    err(text) {
      flush();
      io.err(text);
    },
    ...(io.drain ? { drain: () => (flush(), io.drain!()) } : {}),
    flush,
  };
}

/** "no such file", "is a directory", "permission denied" instead of Node's error codes. */
export function fileErrorText(err: unknown): string {
  const code = (err as { code?: string } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'is a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

/** The text without a leading byte order mark. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * A UTF-8 file's text. Through node:fs's callback, not node:fs/promises: a hook call (one process per tool call)
 * would load a dozen of Node's internal modules for that one module (~4 ms of its CPU here).
 */
export function readUtf8(path: string): Promise<string> {
  return new Promise((resolve, reject) => readFile(path, 'utf8', (err, text) => (err ? reject(err) : resolve(text))));
}

/** Reads a UTF-8 text file or throws a CliError naming the file and what went wrong. */
export async function readTextFile(path: string, what: string): Promise<string> {
  try {
    return withoutBom(await readUtf8(path));
  } catch (err) {
    throw new CliError(`cannot read ${what} ${path}: ${fileErrorText(err)}`);
  }
}

/** `1 event`, `2 events`. Here, not in validateCommand.ts: replay and import would load the pipeline schema with it. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Shortens a cell for a table: one line, at most `max` characters. */
export function cell(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** A plain-text table: columns padded to their widest cell, the last column left ragged. */
export function table(head: string[], rows: string[][]): string {
  // A loop, not Math.max(...rows): spreading 150k rows into arguments overflows the call stack.
  const widths = head.map((h) => h.length);
  for (const r of rows) for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i]!, (r[i] ?? '').length);
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(head), ...rows.map(line)].join('\n') + '\n';
}
