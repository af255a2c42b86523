// Tamper-evident records [K1]-[K6]: every line of a recording or an audit log carries a hash that covers the
// previous line's hash and its own text, so an edited, removed, inserted or reordered line breaks the chain at
// that line. Pure: SHA-256 comes from @noble/hashes (synchronous, the same in the browser and in Node).
// The format is in docs/records.md.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** The field a chained line ends with: `…,"chain":"<64 lowercase hex>"}` [K1]. */
export const CHAIN_FIELD = 'chain';
/** What stands for the previous hash before the first line of a file [K1]. */
export const CHAIN_GENESIS = 'hookwire.chain/1';

const PREFIX = `,"${CHAIN_FIELD}":"`;
const HEX_LEN = 64;
/** `,"chain":"` + 64 hex + `"}`: the fixed-length tail a chained line ends with. */
const SUFFIX_LEN = PREFIX.length + HEX_LEN + 2;

/** Hex SHA-256 of a text's UTF-8 bytes (a lone surrogate encodes as U+FFFD, as TextEncoder and Node's Buffer do). */
export type Sha256Hex = (text: string) => string;

const portableSha256Hex: Sha256Hex = (text) => bytesToHex(sha256(utf8ToBytes(text)));
let sha256Hex: Sha256Hex = portableSha256Hex;

/**
 * Hands the chain a host's native SHA-256 (Node: engine/node/nativeSha256.ts), or null for @noble/hashes again.
 * The bytes hashed and the digest are the same (test/engine/trace/hashChain.test.ts holds the two equal); only
 * the speed differs: a server chains every line it records and a reader checks every line it reads, and the
 * portable hash was a twentieth of serve's CPU per event.
 */
export function useSha256(impl: Sha256Hex | null): void {
  sha256Hex = impl ?? portableSha256Hex;
}

/** Hex SHA-256 of a text's UTF-8 bytes, by the hash the chain uses now (the host's native one when installed). */
export function sha256HexOf(text: string): string {
  return sha256Hex(text);
}

/**
 * The hash of one line [K1]: hex SHA-256 of the UTF-8 bytes of `prev + "\n" + body`, where `prev` is the previous
 * line's hash (CHAIN_GENESIS for the first line) and `body` the line as written, less its chain field.
 *
 * @example chainHash(CHAIN_GENESIS, '{"format":"hookwire.trace",…}') // '3f…' (64 hex)
 */
export function chainHash(prev: string, body: string): string {
  return sha256Hex(`${prev}\n${body}`);
}

function isHex64(text: string, from: number): boolean {
  for (let i = from; i < from + HEX_LEN; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** A line split into its body and the hash it carries; null when it carries none (an unchained line). */
export function splitChainedLine(line: string): { body: string; hash: string } | null {
  const text = line.endsWith('\n') ? line.slice(0, -1) : line;
  const at = text.length - SUFFIX_LEN;
  if (at < 1 || !text.endsWith('"}') || !text.startsWith(PREFIX, at) || !isHex64(text, at + PREFIX.length)) return null;
  return { body: `${text.slice(0, at)}}`, hash: text.slice(at + PREFIX.length, at + PREFIX.length + HEX_LEN) };
}

/** The hash a chained line carries (a writer resumes a file from its last line's); null for an unchained line. */
export function lineChainHash(line: string): string | null {
  return splitChainedLine(line)?.hash ?? null;
}

/**
 * Adds the chain field to one JSON-object line (with or without its `\n`, which is kept) [K1].
 *
 * @example chainLine(null, '{"a":1}\n') // { line: '{"a":1,"chain":"…"}\n', hash: '…' }
 */
export function chainLine(prev: string | null, line: string): { line: string; hash: string } {
  const nl = line.endsWith('\n');
  const body = nl ? line.slice(0, -1) : line;
  if (!body.startsWith('{') || !body.endsWith('}')) throw new Error('chainLine: a chained line must be one JSON object');
  const hash = chainHash(prev ?? CHAIN_GENESIS, body);
  const open = body.length > 2 ? body.slice(0, -1) + PREFIX : `{"${CHAIN_FIELD}":"`;
  return { line: `${open}${hash}"}${nl ? '\n' : ''}`, hash };
}

/** Where a file's chain stands for a writer that appends to it: a new file, a chain to continue, or an old unchained file. */
export type ChainTail = { kind: 'new' } | { kind: 'chained'; head: string } | { kind: 'unchained' };

/** The tail of a file whose last non-blank line is `last` (null: no line yet) [K3]. */
export function chainTailOf(last: string | null): ChainTail {
  if (last === null || last.trim() === '') return { kind: 'new' };
  const head = lineChainHash(last);
  return head ? { kind: 'chained', head } : { kind: 'unchained' };
}

/** Lines chained and not yet written: `head` is the last one's hash (null for an unchained file), as the anchor keeps it [K6]. */
export interface PreparedLines {
  text: string;
  lines: string[];
  head: string | null;
  commit(): void;
}

/** Chains the lines a writer appends, continuing from the file's tail; an unchained file stays unchained [K3]. */
export interface ChainWriter {
  /** The line as it is to be written (chained unless the file was unchained). Each call advances the chain. */
  next(line: string): string;
  /**
   * The lines as one text to write, without advancing: call `commit()` once the text is written (a writer that
   * may refuse the text after chaining it — too long, a failed write — keeps its chain where the file is).
   */
  prepare(...lines: string[]): PreparedLines;
  /** The hash of the last line written (or of the tail); null for an unchained file or before any line. */
  readonly head: string | null;
}

/**
 * A chain writer resuming from `tail` [K3].
 *
 * @example const w = createChainWriter({ kind: 'new' }); file.append(w.next(headerLine) + w.next(eventLine));
 */
export function createChainWriter(tail: ChainTail = { kind: 'new' }): ChainWriter {
  let head: string | null = tail.kind === 'chained' ? tail.head : null;
  const unchained = tail.kind === 'unchained';
  const prepare = (...lines: string[]): PreparedLines => {
    if (unchained) return { text: lines.join(''), lines, head: null, commit: () => {} };
    let h = head;
    const out: string[] = [];
    for (const l of lines) {
      const r = chainLine(h, l);
      h = r.hash;
      out.push(r.line);
    }
    const hash = h;
    return { text: out.length === 1 ? out[0]! : out.join(''), lines: out, head: hash, commit: () => void (head = hash) };
  };
  return {
    next(line) {
      const p = prepare(line);
      p.commit();
      return p.text;
    },
    prepare,
    get head() {
      return head;
    },
  };
}

/**
 * What a check of a file's chain found [K2]. `intact`: every line carries the right hash; `broken`: the first
 * line that does not (`broken.line`, 1-based, counting every line); `unchained`: no line carries a hash (written
 * before chains, or by a writer that does not chain): nothing can be checked; `empty`: no line.
 */
export interface ChainReport {
  status: 'intact' | 'broken' | 'unchained' | 'empty';
  /** Non-blank lines seen. */
  lines: number;
  /** The last line's hash when intact: keep it elsewhere to notice lines cut off the end (a chain cannot). */
  head: string | null;
  broken?: { line: number; reason: string };
  /** Where a writer appending to the file continues (from its last line, whatever the check found) [K3]. */
  tail: ChainTail;
}

/** Checks a chain line by line, as a reader streams them [K2]. Blank lines are not part of the chain. */
export interface ChainVerifier {
  push(line: string, lineNo: number): void;
  /** A line that could not be read (too long): the chain cannot be checked past it. */
  skip(lineNo: number, why: string): void;
  report(): ChainReport;
}

/** A verifier for one file, fed its non-blank lines in order [K2]. */
export function createChainVerifier(): ChainVerifier {
  let lines = 0;
  let mode: 'chained' | 'unchained' | null = null;
  let head: string | null = null;
  let broken: { line: number; reason: string } | null = null;
  let tail: ChainTail = { kind: 'new' };
  const breakAt = (line: number, reason: string) => {
    broken ??= { line, reason };
  };
  return {
    push(line, lineNo) {
      lines++;
      const split = splitChainedLine(line);
      tail = split ? { kind: 'chained', head: split.hash } : { kind: 'unchained' };
      if (broken) return;
      if (mode === null) mode = split ? 'chained' : 'unchained';
      if (mode === 'unchained') {
        if (split) breakAt(lineNo, `this line carries a chain hash but the file's first line does not: lines before it were added, or their hashes removed`);
        return;
      }
      if (!split) return breakAt(lineNo, `this line carries no chain hash (it was added or edited by hand, or its hash removed)`);
      const want = chainHash(head ?? CHAIN_GENESIS, split.body);
      if (want !== split.hash) {
        const first = head === null ? ' (as the first line of the chain: a line before it was removed?)' : '';
        return breakAt(lineNo, `the line's chain hash does not match its text and the previous line's hash${first}: this line was edited, or a line before it was edited, removed, inserted or moved`);
      }
      head = split.hash;
    },
    skip(lineNo, why) {
      lines++;
      if (mode !== 'unchained') breakAt(lineNo, `the line could not be read (${why}), so the chain cannot be checked past it`);
    },
    report() {
      if (broken) return { status: 'broken', lines, head: null, broken, tail };
      if (mode === null) return { status: 'empty', lines, head: null, tail };
      if (mode === 'unchained') return { status: 'unchained', lines, head: null, tail };
      return { status: 'intact', lines, head, tail };
    },
  };
}

/**
 * Checks the chain of a whole text (JSON Lines) [K2].
 *
 * @example verifyChain(fileText).status // 'intact' | 'broken' | 'unchained' | 'empty'
 */
export function verifyChain(text: string): ChainReport {
  const v = createChainVerifier();
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, i) => {
    if (line.trim() !== '') v.push(line, i + 1);
  });
  return v.report();
}

/** One sentence for a person: what the chain check found. */
export function describeChain(r: ChainReport): string {
  switch (r.status) {
    case 'intact':
      return `hash chain intact over ${r.lines} line${r.lines === 1 ? '' : 's'} (last hash ${r.head})`;
    case 'broken':
      return `hash chain broken at line ${r.broken!.line}: ${r.broken!.reason}`;
    case 'unchained':
      return `no hash chain: the file was written without one (before Hookwire chained its records, or the hashes were removed), so edits cannot be detected`;
    case 'empty':
      return 'no lines to check';
  }
}
