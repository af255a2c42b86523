// `hookwire verify <file>`: checks the hash chain of a recording or an audit log [K2][K5], and a recording against
// its anchor `<file>.head` [K6]. Exit 0: intact; exit 1: broken (the first line that breaks it is named), lines cut
// off below the anchor (the first missing line is named), or, unless --allow-unchained, no chain at all.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { anchorProblem, readAnchor, type AnchorProblem } from '../serve/recordingAnchor.ts';
import { tornTailBytes } from '../serve/recordingFile.ts';
import { createChainVerifier, describeChain, type ChainReport } from '../../trace/hashChain.ts';
import { LineSplitter } from '../../trace/lineSplitter.ts';
import { CliError, EXIT, fileErrorText, type Io } from '../cliIo.ts';

export interface VerifyOptions {
  json?: boolean;
  /** Exit 0 for a file with no chain (written before Hookwire chained its records). */
  allowUnchained?: boolean;
}

/** Longest line checked, in characters: past the trace reader's 8 Mi, as an audit line may be longer. */
const MAX_VERIFY_LINE_CHARS = 64 * 1024 * 1024;

/** The chain report of a file, streamed line by line (the file is never held whole). */
export async function verifyFile(path: string): Promise<ChainReport> {
  const v = createChainVerifier();
  const splitter = new LineSplitter(MAX_VERIFY_LINE_CHARS, {
    line(text, lineNo) {
      if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.trim() !== '') v.push(text, lineNo);
    },
    tooLong(lineNo, length) {
      v.skip(lineNo, `${length} characters, past the limit of ${MAX_VERIFY_LINE_CHARS}`);
    },
  });
  try {
    for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1024 * 1024 })) splitter.push(chunk as string);
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${fileErrorText(err)}`);
  }
  splitter.end();
  return v.report();
}

/**
 * [K6] Whether the file still has every line its anchor (`<file>.head`) says was written and answered: null when
 * it has no anchor or reaches it, else the first line it lacks and the sentence serve and claude-hook refuse with.
 */
async function anchorCheck(path: string): Promise<AnchorProblem | null> {
  let anchor;
  try {
    anchor = await readAnchor(path);
  } catch (err) {
    return { line: 0, message: err instanceof Error ? err.message : String(err) };
  }
  if (!anchor) return null;
  const size = (await stat(path).catch(() => null))?.size ?? 0;
  return anchorProblem(path, size - (size > 0 ? await tornTailBytes(path, size) : 0), anchor);
}

export async function verifyCommand(path: string, options: VerifyOptions, io: Io): Promise<number> {
  const r = await verifyFile(path);
  const cut = r.status === 'broken' ? null : await anchorCheck(path);
  const ok = cut === null && (r.status === 'intact' || ((r.status === 'unchained' || r.status === 'empty') && options.allowUnchained === true));
  if (options.json) {
    const { tail: _tail, ...shown } = r;
    io.out(`${JSON.stringify({ file: path, ok, ...shown, ...(cut ? { status: 'cut', cut } : {}) })}\n`);
  } else if (r.broken) io.out(`${path}: line ${r.broken.line}: ${describeChain(r)}\n`);
  else if (cut) io.out(`${path}: line ${cut.line}: ${cut.message}\n`);
  else io.out(`${path}: ${describeChain(r)}\n`);
  return ok ? EXIT.ok : EXIT.failed;
}
